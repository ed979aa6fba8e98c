"""Replays: every game's record replays exactly to the state the table ended with.

Each registered game is played to its end on a ``Table`` – the same code rooms and
demos run – with a human at seat 0 who acts at random, lets the clock run out now
and then, and (in one run) a player who leaves; bots everywhere else. The replay
kept at the end must rebuild the final state from seed and record, step by step
from any keyframe, and with the engine's own ``replay``.
"""

from __future__ import annotations

import contextlib
import inspect
import random
from datetime import UTC, datetime, timedelta

import pytest

from games.engines.base import IllegalAction
from games.models import Replay
from games.play import definition as registry
from games.play import replays
from games.play.table import Table

pytestmark = pytest.mark.django_db

START = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)


def replayable():
    return [d for d in registry.all_definitions() if d.replays]


def play_out(definition, seed: int, players: int, *, leave: bool = False, timed: bool = True):
    rng = random.Random(seed)
    table = Table(definition, None, 0, bots=set(range(1, players)), key=f"t{seed}", timed=timed)
    names = ["Anna", *[f"Bot {n}" for n in range(1, players)]]
    now = START
    table.deal(names, definition.default_options(), now)
    for turn in range(40000):
        if table.over:
            break
        now += timedelta(seconds=rng.choice([0.3, 1, 2, 5, 40, 150]))
        table.advance(now)
        if table.over:
            break
        if leave and turn == 30 and players > 2:
            table.remove(players - 1, now)
            table.bump()
            continue
        legal = definition.module.legal_actions(table.state, 0)
        if legal and rng.random() < 0.7:
            with contextlib.suppress(IllegalAction):
                table.act(0, rng.choice(legal), now)
    assert table.over, f"{definition.key}: no end after {turn} turns"
    return table


@pytest.mark.parametrize("definition", replayable(), ids=lambda d: d.key)
@pytest.mark.parametrize(("seed", "players", "leave"), [(1, 2, False), (7, 3, True)])
def test_replay_equals_final_state(definition, seed, players, leave):
    players = min(players, definition.max_players)
    table = play_out(definition, seed, players, leave=leave)
    replay = replays.keep(definition, table, source="room", players=["anna"], host="anna")
    replay = Replay.objects.get(pk=replay.pk)
    assert replays.replay_record(definition, replay.record) == replay.final_state
    assert replay.steps == len(replay.record["log"]) > 0
    # The engine's own replay (where it has one) reads the same record.
    engine_replay = getattr(definition.module, "replay", None)
    if engine_replay is not None:
        kwargs = {}
        start = inspect.signature(engine_replay).parameters.get("start")
        if start is not None and start.kind is inspect.Parameter.KEYWORD_ONLY:
            kwargs["start"] = replay.record["start"]  # a game dealt at a moment of its clock
        rebuilt = engine_replay(
            replay.record["seed"],
            replay.record["players"],
            replay.record["options"],
            replay.record["log"],
            **kwargs,
        )
        assert rebuilt == replay.final_state
    # Any step from its keyframe equals the step replayed from the start.
    for step in {0, 1, replays.KEYFRAME_EVERY, replays.KEYFRAME_EVERY + 3, replay.steps}:
        if step <= replay.steps:
            at = replays.position(replay, definition, step)
            assert at.state == replays.replay_record(definition, replay.record, step)
    # A second keep changes nothing.
    assert replays.keep(definition, table, source="room") is None


def test_cleanup_keeps_saved_and_recent(django_user_model):
    from games import clock

    definition = replayable()[0]
    table = play_out(definition, 3, 2)
    old = replays.keep(definition, table, source="demo")
    table.record = {**table.record, "replay": None}
    saved = replays.keep(definition, table, source="demo")
    table.record = {**table.record, "replay": None}
    fresh = replays.keep(definition, table, source="demo")
    user = django_user_model.objects.create_user("leser", password="geheim-123")
    saved.saved_by.add(user)
    long_ago = clock.now() - timedelta(days=replays.KEPT_DAYS + 1)
    Replay.objects.filter(pk__in=[old.pk, saved.pk]).update(created_at=long_ago)
    assert replays.cleanup() == 1
    assert set(Replay.objects.values_list("pk", flat=True)) == {saved.pk, fresh.pk}
