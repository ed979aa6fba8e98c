"""rooms.deadlines: racing deadline loops (two servers) apply each of a room's
timeouts and bot moves exactly once."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest

from games.play import deadline_loop, scheduler
from rooms import deadlines, locked, reading
from rooms.models import Room
from tests import live_support as support

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_deadline_loops_never_apply_one_deadline_twice(alpaka_row, seeded, frozen):
    """Two loops (two servers) wake for the same timeouts: each is applied exactly once."""
    from django.utils import timezone

    frozen["now"] = timezone.now().replace(microsecond=0)
    room = support.running_room()
    bots: set[int] = set()
    for round_number in range(6):
        room.refresh_from_db()
        timers = scheduler.Timers(room.deadline, room.bot_due)
        assert timers.deadline is not None, "a human decision is pending"
        frozen["now"] = timers.deadline + timedelta(seconds=1)
        # What a single loop makes of it, computed aside.
        expected_state, _timers, steps = scheduler.advance(
            support.ENGINE,
            room.state,
            bots,
            timers,
            frozen["now"],
            key=lambda i: f"{room.code}:{i}",
        )
        assert len(steps) == 1
        before = room.version
        if round_number % 2:
            # Whole loop rounds, as two servers' loops run them: a round that found the
            # table held or was refused by SQLite comes back in a moment, as the loop does.
            watched = [locked.room_channel(support.ENGINE.key, room.code)]

            def loop_rounds(watched=watched):
                for attempt in range(5):
                    if deadline_loop.run_round(watched, None)[1] is not None:
                        return
                    time.sleep(0.005 * (attempt + 1))

            support.race(loop_rounds)
        else:
            applied: list = []
            support.race(
                lambda out=applied, code=room.code: out.append(
                    deadlines.apply_due(support.ENGINE, code)
                ),
                times=3,
            )
            assert sum(1 for outcome in applied if outcome is not None) == 1
        room.refresh_from_db()
        assert room.version == before + 1
        assert room.state == expected_state
        if room.status != Room.Status.PLAYING:
            break


def test_racing_loops_apply_a_bot_move_once(alpaka_row, seeded, frozen):
    from django.utils import timezone

    frozen["now"] = timezone.now().replace(microsecond=0)
    room = support.running_room(bot=True)
    applied = []
    for _ in range(6):
        room.refresh_from_db()
        if room.status != Room.Status.PLAYING:
            break
        timers = scheduler.Timers(room.deadline, room.bot_due)
        if timers.bot_due is None:  # Anna's turn: she plays, the bot is next
            support.play_one_move(room.code)
            continue
        frozen["now"] = timers.bot_due
        before = room.version

        def apply():
            applied.append(deadlines.apply_due(support.ENGINE, room.code))

        support.race(apply, times=3)
        room.refresh_from_db()
        assert room.version == before + 1
        assert sum(1 for outcome in applied if outcome is not None) == 1
        applied.clear()


def test_the_loop_leaves_rooms_nobody_watches_to_their_next_reader(alpaka_row, seeded, frozen):
    from django.utils import timezone

    frozen["now"] = timezone.now().replace(microsecond=0)
    watched, alone = support.running_room(), support.running_room()
    versions = (watched.version, alone.version)
    frozen["now"] = max(watched.deadline, alone.deadline) + timedelta(seconds=1)
    assert deadline_loop.run_round([locked.room_channel(support.ENGINE.key, watched.code)], None)[0]
    watched.refresh_from_db()
    alone.refresh_from_db()
    assert (watched.version, alone.version) == (versions[0] + 1, versions[1])
    assert watched.deadline > frozen["now"]  # its timeout was applied, the next one runs
    assert alone.deadline < frozen["now"]  # untouched until someone loads it
    assert reading.load(support.ENGINE, alone.code).room.deadline > frozen["now"]
