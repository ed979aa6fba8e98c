"""The game part of a table, shared by online rooms and the in-page demo driver.

A ``Table`` wraps one running engine state with what the site adds around
it: the bots' seats, the two deadlines (``scheduler.Timers``), the log of
public events and the version every client names. Rooms keep these in the
``Room`` row, the demo in the visitor's ``DemoGame`` row; the moves, bot steps
and timeouts are the same code for both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from games.play.definition import GameDefinition
from rooms import scheduler

LOG_MAX = 40


@dataclass
class Table:
    definition: GameDefinition
    state: dict | None
    version: int
    log: list = field(default_factory=list)
    timers: scheduler.Timers = field(default_factory=scheduler.Timers)
    bots: set[int] = field(default_factory=set)
    key: str = ""  # names the table's random choices (bots, delays): code or seed
    timed: bool = True  # False: human decisions have no deadline (the demo)

    def bump(self, events=()) -> None:
        """One more version; ``events`` join the log under it."""
        self.version += 1
        if events:
            self.log = (self.log + [{"v": self.version, "event": e} for e in events])[-LOG_MAX:]

    def _plan(self, at: datetime, before, actors: set[int], keep: bool = True) -> None:
        self.timers = scheduler.plan(
            self.definition,
            self.state,
            self.bots,
            at=at,
            before=before,
            actors=actors,
            timers=self.timers if keep else scheduler.Timers(),
            key=f"{self.key}:{self.version}",
            timed=self.timed,
        )

    def deal(self, seed: int, names: list[str], options: dict, now: datetime) -> None:
        self.state = self.definition.new_game(seed, names, options)
        self.log = []
        self.bump(self.definition.opening_events(self.state))
        self._plan(now, before=None, actors=set(), keep=False)

    def act(self, seat: int, action: dict, now: datetime) -> list[dict]:
        """Apply ``action`` for ``seat``; raises the engine's ``IllegalAction``."""
        before = self.definition.to_act(self.state)
        self.state, events = self.definition.apply(self.state, seat, action)
        self.bump(events)
        self._plan(now, before=before, actors={seat})
        return events

    def remove(self, seat: int, now: datetime) -> list[dict]:
        """A player leaves the running game for good; returns the engine's events."""
        before = self.definition.to_act(self.state)
        self.state, events = self.definition.remove_player(self.state, seat)
        # Planned under the version the caller's bump will give this change.
        self.version += 1
        self._plan(now, before=before, actors={seat})
        self.version -= 1
        return events

    def advance(self, now: datetime, *, force_bot: bool = False) -> int:
        """Apply every deadline due at ``now``; returns the number of steps.

        ``force_bot``: the next bot move is due now whatever its planned time
        (a definition whose client asks for each bot move).
        """
        if self.state is None or self.definition.outcome(self.state) is not None:
            return 0
        waiting_bot = any(seat in self.bots for seat in self.definition.to_act(self.state))
        if force_bot and waiting_bot:
            self.timers = scheduler.Timers(self.timers.deadline, now)
        if not self.timers.overdue(now):
            return 0
        base = self.version
        self.state, self.timers, steps = scheduler.advance(
            self.definition,
            self.state,
            self.bots,
            self.timers,
            now,
            key=lambda index: f"{self.key}:{base + index}",
            timed=self.timed,
            single=force_bot,
        )
        for step in steps:
            self.bump(step.events)
        return len(steps)

    @property
    def over(self) -> bool:
        return self.state is not None and self.definition.outcome(self.state) is not None
