"""The game part of a table, shared by online rooms and the in-page demo driver.

A ``Table`` wraps one running engine state with what the site adds around
it: the bots' seats, the two deadlines (``scheduler.Timers``), the log of
public events and the version every client names. Rooms keep these in the
``Room`` row, the demo in the visitor's ``DemoGame`` row; the moves, bot steps
and timeouts are the same code for both.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import UTC, datetime

from games.play import scheduler
from games.play.definition import GameDefinition

LOG_MAX = 40


def new_seed() -> int:
    """The seed of a new game; tests replace this to get known deals."""
    return secrets.randbits(62)


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
    # What replays the game exactly: seed, players, the engine's options, the start time
    # and every applied step (``games.play.record``); None for a game dealt before records.
    record: dict | None = None

    def note(self, *entries: dict) -> None:
        """Steps join the record; a new dict, as the caller may still hold the old one
        (a room's snapshot restores it when the request is refused)."""
        if self.record is not None and entries:
            self.record = {**self.record, "log": [*self.record["log"], *entries]}

    def _timed_entry(self, entry: dict, moment: datetime) -> dict:
        """A simultaneous engine takes the time as input: the entry keeps it."""
        return {**entry, "now": moment.timestamp()} if self._simultaneous else entry

    def bump(self, events=()) -> None:
        """One more version; ``events`` join the log under it."""
        self.version += 1
        if events:
            self.log = (self.log + [self._entry(e) for e in events])[-LOG_MAX:]

    def _entry(self, event: dict) -> dict:
        """A log entry; a bot's reason (``scheduler.WHY``) is kept beside the event."""
        if scheduler.WHY not in event:
            return {"v": self.version, "event": event}
        event = dict(event)
        why = event.pop(scheduler.WHY)
        return {"v": self.version, "event": event, scheduler.WHY: why}

    def shows_current(self, expected: int | None) -> bool:
        """Whether a client that shows version ``expected`` still sees the game as it
        is: the same version, or since then only the definition's side events (a
        hint), so a move named against it is not stale."""
        if expected is None or expected > self.version:
            return False
        if expected == self.version:
            return True
        side = self.definition.side_events
        later = [entry for entry in self.log if entry["v"] > expected]
        # Every later version must be in the log (a change without events, or one
        # older than the kept log, counts as a real change).
        if not side or {entry["v"] for entry in later} != set(
            range(expected + 1, self.version + 1)
        ):
            return False
        return all(entry["event"].get("type") in side for entry in later)

    @property
    def _simultaneous(self) -> bool:
        return self.definition.simultaneous

    def _plan(self, at: datetime, before, actors: set[int], keep: bool = True) -> None:
        self.timers = scheduler.plan(
            self.definition,
            self.state,
            # A simultaneous engine moves its bots itself, on its own clock.
            set() if self._simultaneous else self.bots,
            at=at,
            before=before,
            actors=actors,
            timers=self.timers if keep else scheduler.Timers(),
            key=f"{self.key}:{self.version}",
            timed=self.timed,
        )
        if self._simultaneous:
            due = self.definition.module.next_due(self.state)
            bot_due = datetime.fromtimestamp(due, UTC) if due is not None else None
            self.timers = scheduler.Timers(self.timers.deadline, bot_due)

    def deal(self, names: list[str], options: dict, now: datetime) -> None:
        """A new game with a fresh seed (``new_seed``)."""
        seed, start = new_seed(), now.timestamp()
        engine_options = self.definition.game_options(names, options, self.bots)
        self.state = self.definition.deal_engine(seed, len(names), engine_options, now=start)
        self.record = {
            "seed": seed,
            "players": len(names),
            "options": engine_options,
            "start": start,
            "log": [],
        }
        self.log = []
        self.bump(self.definition.opening_events(self.state))
        self._plan(now, before=None, actors=set(), keep=False)

    def replan(self, now: datetime) -> None:
        """Fresh timers for a state set from outside (a position played on)."""
        self._plan(now, before=None, actors=set(), keep=False)

    def act(self, seat: int, action: dict, now: datetime) -> list[dict]:
        """Apply ``action`` for ``seat``; raises the engine's ``IllegalAction``.

        A simultaneous engine checks the action against the state at ``now``
        itself (bots first act up to then); a refused action changes nothing
        stored, and the next load replays the same bot steps.
        """
        before = self.definition.to_act(self.state)
        self.state, events = self.definition.apply(self.state, seat, action, now=now.timestamp())
        self.note(self._timed_entry({"seat": seat, "action": action}, now))
        self.bump(events)
        self._plan(now, before=before, actors={seat})
        return events

    def remove(self, seat: int, now: datetime) -> list[dict]:
        """A player leaves the running game for good; returns the engine's events."""
        before = self.definition.to_act(self.state)
        self.state, events = self.definition.remove_player(self.state, seat, now=now.timestamp())
        self.note(self._timed_entry({"op": "remove_player", "seat": seat}, now))
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
        if self._simultaneous:
            return self._advance_clock(now)
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
            self.note(*step.entries)
            self.bump(step.events)
        return len(steps)

    def _advance_clock(self, now: datetime) -> int:
        """A simultaneous game: the engine's bots and round clock run up to ``now``,
        then a due human deadline (e.g. the score table's) times out."""
        steps = 0
        while self.timers.overdue(now) and steps < scheduler.MAX_STEPS:
            due = self.timers.next_due()
            before = self.definition.to_act(self.state)
            if self.timers.bot_due is not None and self.timers.bot_due == due:
                # The timers keep the engine's float moment to the microsecond; one that
                # rounded down lies just before it, so the engine runs at least to its own.
                moment = max(now.timestamp(), self.definition.module.next_due(self.state) or 0.0)
                self.state, events = self.definition.module.advance(self.state, moment)
                self.note({"op": "advance", "now": moment})
            else:
                self.state, events = self.definition.timeout(self.state, now=due.timestamp())
                self.note(self._timed_entry({"op": "timeout"}, due))
            steps += 1
            self.bump(events)
            self._plan(due, before=before, actors=set(before))
            if self.definition.outcome(self.state) is not None:
                break
        return steps

    @property
    def over(self) -> bool:
        return self.state is not None and self.definition.outcome(self.state) is not None
