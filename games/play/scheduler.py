"""Deadlines of a running game: the pending human decision and the next bot move.

Pure functions over an engine state and two datetimes, shared by rooms and the
in-page demo. Nothing runs in the background: whoever loads a game next calls
``advance`` with ``games.clock.now()``, which applies every overdue deadline in
order – a timeout, then the bot move due after it, then the next timeout … – as
if someone had been watching the whole time. Each step starts the next
deadline at the moment the previous one fell due, not at "now".
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from games.play.definition import GameDefinition

MAX_STEPS = 5000  # a safety net; a game ends long before
# The key under which a bot's move carries its reason (``bot_choice``) to the log;
# ``table.Table.bump`` keeps it beside the event, never inside it.
WHY = "why"


@dataclass
class Timers:
    deadline: datetime | None = None  # the pending human decision times out
    bot_due: datetime | None = None  # the next bot acts

    def next_due(self) -> datetime | None:
        due = [moment for moment in (self.deadline, self.bot_due) if moment is not None]
        return min(due) if due else None

    def overdue(self, now: datetime) -> bool:
        due = self.next_due()
        return due is not None and due <= now


@dataclass
class Step:
    """One applied deadline: who acted (the bots or the timed-out seats) and the events."""

    kind: str  # "bot" | "timeout"
    seats: list[int]
    events: list[dict] = field(default_factory=list)
    entries: list[dict] = field(default_factory=list)  # for the game's record


def bot_delay(engine: GameDefinition, key: str) -> timedelta:
    if engine.bot_delay is None:  # the client asks for each bot move itself
        return timedelta(0)
    low, high = engine.bot_delay
    # Deterministic per (game, step), so a replayed room behaves identically.
    return timedelta(seconds=low + (high - low) * random.Random(f"delay:{key}").random())


def plan(
    engine: GameDefinition,
    state: dict,
    bots: set[int],
    *,
    at: datetime,
    before: list[int] | None,
    actors: set[int],
    timers: Timers,
    key: str,
    timed: bool = True,
) -> Timers:
    """The timers after a change at ``at``.

    ``before`` is ``to_act`` before the change (None: a fresh game) and
    ``actors`` the seats that just acted. A decision several seats make at once
    (confirming the score table) keeps its deadline while the others confirm;
    any other change starts a fresh one.
    """
    if engine.outcome(state) is not None:
        return Timers()
    waiting = engine.to_act(state)
    humans = [seat for seat in waiting if seat not in bots]
    bot_due = at + bot_delay(engine, key) if any(seat in bots for seat in waiting) else None
    seconds = engine.timer_seconds(state) if timed and humans else None
    if seconds is None:
        return Timers(deadline=None, bot_due=bot_due)
    same_decision = (
        timers.deadline is not None
        and before is not None
        and set(waiting) <= set(before)
        and not actors & set(waiting)
    )
    deadline = timers.deadline if same_decision else at + timedelta(seconds=seconds)
    return Timers(deadline=deadline, bot_due=bot_due)


def advance(
    engine: GameDefinition,
    state: dict,
    bots: set[int],
    timers: Timers,
    now: datetime,
    *,
    key: Callable[[int], str],
    timed: bool = True,
    single: bool = False,
) -> tuple[dict, Timers, list[Step]]:
    """Apply every deadline due at ``now``, oldest first.

    ``key(step_number)`` names each step for the bots' random choices and
    delays (rooms use code and version). Returns the new state, timers and the
    applied steps (empty: nothing was due). ``single``: at most one step.
    """
    steps: list[Step] = []
    while len(steps) < MAX_STEPS and engine.outcome(state) is None:
        due = timers.next_due()
        if due is None or due > now:
            break
        before = engine.to_act(state)
        step_key = key(len(steps))
        if timers.bot_due is not None and timers.bot_due == due:
            state, step = _bots_act(engine, state, bots, before, random.Random(f"bot:{step_key}"))
        else:
            state, events = engine.timeout(state)
            step = Step(
                "timeout",
                [seat for seat in before if seat not in bots],
                events,
                [{"op": "timeout"}],
            )
        steps.append(step)
        timers = plan(
            engine,
            state,
            bots,
            at=due,
            before=before,
            actors=set(step.seats),
            timers=timers,
            key=f"{step_key}:next",
            timed=timed,
        )
        if single:
            break
    return state, timers, steps


def _bots_act(engine, state, bots, before, rng) -> tuple[dict, Step]:
    """Every bot the game waits for acts (one seat on a turn; all of them when
    several confirm at once), each from its own view only."""
    waiting_bots = [seat for seat in before if seat in bots]
    step = Step("bot", [])
    for seat in waiting_bots:
        now_waiting = engine.to_act(state)
        # Stop once the game moved on (e.g. the last confirmation dealt a new round).
        if seat not in now_waiting or not set(now_waiting) <= set(before):
            break
        action, reason = engine.bot_choice(engine.view(state, seat), rng)
        state, events = engine.apply(state, seat, action)
        if events:  # the reason travels with the move's first event into the log
            events = [{**events[0], WHY: reason}, *events[1:]]
        step.entries.append({"seat": seat, "action": action})
        step.seats.append(seat)
        step.events += events
    return state, step
