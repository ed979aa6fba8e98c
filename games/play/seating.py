"""What every game's presenter does alike with one seat's view: who looks at the
table and how the seats, the timer, the score sheet, the standings and the log
are shown to them.

``Viewer`` holds the presenter protocol's arguments – ``present(view, *, bots,
hosts, remaining, log, since, you)`` – so each game's ``present`` takes them
as ``present(view, **around)`` and builds its own table from a ``Viewer``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence, Set
from dataclasses import dataclass
from functools import cached_property

from games.engines.base import PLAY, SCORING
from games.play.wording import Words, countdown


@dataclass(frozen=True)
class Viewer:
    view: dict  # the engine's view for this seat (``view["seat"]`` None: a spectator)
    bots: Set[int] = frozenset()  # seats played by bots
    hosts: Set[int] = frozenset()  # seats that host the room
    remaining: int | None = None  # seconds left on the site's timer (None: no timer)
    log: Sequence[dict] = ()  # the public events as ``{"v": version, "event": …}``, newest last
    since: int | None = None  # the version the client showed: what is newer is news
    you: str = "Du"  # the viewer's name in lists and tables
    # The table's clock (seconds) for engines that take the time as input; None: real time.
    # The demo's clock stands still during pauses, so it differs from real time there.
    now: float | None = None

    @property
    def me(self) -> int | None:
        return self.view["seat"]

    @cached_property
    def words(self) -> Words:
        return Words(self.view["names"], self.me)

    @property
    def events(self) -> list[dict]:
        return [entry["event"] for entry in self.log]

    @property
    def fresh(self) -> list[dict]:
        """The log entries the client has not shown yet (none without ``since``)."""
        return [entry for entry in self.log if self.since is not None and entry["v"] > self.since]

    @property
    def awaited(self) -> bool:
        """The table waits for the viewer's decision."""
        return self.me is not None and self.me in self.view["to_act"]

    # --- Seats ---------------------------------------------------------------------

    def name(self, seat: int) -> str:
        return self.you if seat == self.me else self.view["names"][seat]

    def who(self, seat: int) -> dict:
        """A row's player: the name (``you`` for the viewer) and whether it is the viewer."""
        return {"name": self.name(seat), "is_me": seat == self.me}

    def seat(self, seat: int) -> dict:
        """The first entries of a seat in every table's seat list."""
        return {
            "seat": seat,
            **self.who(seat),
            "is_bot": seat in self.bots,
            "is_host": seat in self.hosts,
        }

    def turn_status(self, info: dict) -> str:
        """A seat's status in a game taking turns (``base.turn_view``): „bereit“ or
        „schaut die Wertung an“ after a scored round, „überlegt …“ (a bot) or „am Zug“
        on its turn; "" otherwise."""
        phase, seat = self.view["phase"], info["seat"]
        if phase == SCORING:
            return "bereit" if info["confirmed"] else "schaut die Wertung an"
        if phase == PLAY and seat == self.view["turn"]:
            return "überlegt …" if seat in self.bots else "am Zug"
        return ""

    def opponents(self, seats: list) -> list:
        """The other seats clockwise from the viewer's left, as they sit at a real
        table (a spectator sees them all)."""
        me = self.me
        return seats[me + 1 :] + seats[:me] if me is not None else seats

    def waiting(self) -> list[str]:
        """The names of the seats the table waits for („Es fehlt noch: …“)."""
        return [self.name(seat) for seat in self.view["to_act"]]

    # --- Timer ---------------------------------------------------------------------

    def timer_in_turns(self, turn_total: int, scoring_total: int, next_label: str) -> dict | None:
        """The site's timer of a game taking turns: on the turn („Deine Zugzeit“,
        „Zugzeit von Anna“), or on the confirmations after a scored round (see
        ``wait_timer``)."""
        phase = self.view["phase"]
        if phase == SCORING:
            return self.wait_timer(scoring_total, next_label)
        if phase != PLAY or self.remaining is None:
            return None
        if self.awaited:
            label = "Deine Zugzeit"
        else:
            label = f"Zugzeit von {self.view['names'][self.view['turn']]}"
        return countdown(self.remaining, turn_total, label, self.awaited)

    def wait_timer(self, total: int | None, next_label: str) -> dict | None:
        """The site's timer on the confirmations after a round: „Weiter in“ for a
        seat that has not confirmed, else ``next_label`` („Nächste Runde in“)."""
        if self.remaining is None:
            return None
        label = "Weiter in" if self.awaited else next_label
        return countdown(self.remaining, total, label, self.awaited)

    # --- Scores and words ------------------------------------------------------------

    def score_sheet(self, cell: Callable, totals: list) -> dict | None:
        """``view["score_sheet"]`` as the templates' sheet draws it: the names, a row
        per round (``cell`` words each value) and the ``totals``; None while empty."""
        if not self.view["score_sheet"]:
            return None
        return {
            "names": [self.name(seat) for seat in range(len(self.view["names"]))],
            "rounds": [
                {"number": number, "cells": [cell(value) for value in row]}
                for number, row in enumerate(self.view["score_sheet"], start=1)
            ],
            "totals": totals,
        }

    def news(self, describe: Callable[[dict], str], length: int, shown=None) -> list[str]:
        """The last ``length`` new events worded by ``describe`` (``shown``: which
        ones are worth announcing); events without words are left out."""
        return [
            text
            for entry in self.fresh
            if shown is None or shown(entry["event"])
            if (text := describe(entry["event"]))
        ][-length:]

    def log_lines(self, describe: Callable[[dict], str], length: int) -> list[str]:
        """The last ``length`` events worded by ``describe``, newest first (older events
        are not worded at all: the log keeps many more than a table shows)."""
        worded = (text for event in reversed(self.events) if (text := describe(event)))
        return list(itertools.islice(worded, length))


def places(order: list[int], points: list[int]) -> list[tuple[int, int]]:
    """``(seat, place)`` for the seats in ``order``, best first; equal points share
    a place („1., 1., 3.“)."""
    ranked = []
    place, previous = 0, None
    for index, seat in enumerate(order):
        if points[seat] != previous:
            place, previous = index + 1, points[seat]
        ranked.append((seat, place))
    return ranked
