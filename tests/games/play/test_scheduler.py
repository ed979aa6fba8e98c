"""The deadline rules on their own (no database): which timer runs after which change."""

from __future__ import annotations

from datetime import timedelta

from games.engines import alpaka
from games.play import definition as engines
from games.play import scheduler
from tests.rooms.conftest import START

ENGINE = engines.get("alpaka")


def plan(state, bots=(), before=None, actors=(), timers=None, timed=True):
    return scheduler.plan(
        ENGINE,
        state,
        set(bots),
        at=START,
        before=before,
        actors=set(actors),
        timers=timers or scheduler.Timers(),
        key="k",
        timed=timed,
    )


def test_a_human_turn_gets_90_seconds_and_a_bot_turn_a_short_delay():
    state = alpaka.new_game(3, 2)
    assert plan(state) == scheduler.Timers(START + timedelta(seconds=90), None)
    timers = plan(state, bots={1})
    assert timers.deadline is None
    assert timedelta(seconds=0.8) <= timers.bot_due - START <= timedelta(seconds=1.2)
    assert plan(state, timed=False) == scheduler.Timers(None, None)


def test_the_score_table_keeps_its_deadline_while_people_confirm():
    state = alpaka.new_game(3, 3)
    state["phase"], state["turn"] = "scoring", None
    old = scheduler.Timers(START - timedelta(seconds=20), None)
    state["confirmed"] = [True, False, False]
    kept = plan(state, before=[0, 1, 2], actors={0}, timers=old)
    assert kept.deadline == old.deadline
    fresh = plan(state, before=None, timers=old)
    assert fresh.deadline == START + timedelta(seconds=45)


def test_the_same_player_deciding_again_gets_a_fresh_turn():
    state = alpaka.new_game(3, 2)
    old = scheduler.Timers(START - timedelta(seconds=50), None)
    assert plan(state, before=[1], actors={1}, timers=old).deadline == START + timedelta(seconds=90)
    # Someone else leaving does not reset the player's running clock.
    assert plan(state, before=[1], actors={0}, timers=old).deadline == old.deadline


def test_advance_applies_deadlines_in_order_from_their_due_time():
    state = alpaka.new_game(3, 3)  # seat 1 starts; seat 2 is a bot
    timers = plan(state, bots={2})
    state, timers, steps = scheduler.advance(
        ENGINE, state, {2}, timers, START + timedelta(seconds=91.5), key=lambda i: f"s{i}"
    )
    # 90 s: seat 1 times out; ≈1 s later the bot moves; seat 0's 90 s run from the bot's move.
    assert [step.kind for step in steps] == ["timeout", "bot"]
    assert steps[0].seats == [1] and steps[1].seats == [2]
    assert state["quit"][1] and state["turn"] == 0
    assert (
        START + timedelta(seconds=90 + 0.8 + 90)
        <= timers.deadline
        <= START + timedelta(seconds=90 + 1.2 + 90)
    )


def test_advance_does_nothing_before_the_first_deadline():
    state = alpaka.new_game(3, 2)
    timers = plan(state)
    new, same, steps = scheduler.advance(
        ENGINE, state, set(), timers, START + timedelta(seconds=89), key=str
    )
    assert steps == [] and new == state and same == timers
