"""Records of The Cat games dealt before the planning bots replay with the first bots
(the migration marks them), so old replays still show what happened."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from games.engines import the_cat
from games.models import DemoGame, Replay
from games.play import definition as registry
from games.play import replays
from rooms.models import Room

migration = importlib.import_module("games.play.the_cat.migrations.0001_records_keep_first_bots")

pytestmark = pytest.mark.django_db


def old_record() -> tuple[dict, dict]:
    """A bot game as the site recorded it before the planning bots: options without
    ``bots_version``, played by the first bots."""
    definition = registry.get("the_cat")
    options = definition.game_options(["Du", "Minka"], {"speed": "flink"}, {1})
    del options["bots_version"]
    state = the_cat.new_game(5, 2, {**options, "bots_version": 1}, now=100.0)
    log = [{"op": "advance", "now": 160.0}]
    state, _ = the_cat.advance(state, 160.0)
    return {"seed": 5, "players": 2, "options": options, "start": 100.0, "log": log}, state


def test_old_records_replay_the_first_bots_after_the_migration():
    definition = registry.get("the_cat")
    record, final = old_record()
    replay = Replay.objects.create(
        engine="the_cat", source="demo", record=record, final_state=final, steps=1
    )
    room = Room.objects.create(code="alt", engine="the_cat", record=record)
    demo = DemoGame.objects.create(visitor="v", engine="the_cat", record=record)
    other = Replay.objects.create(
        engine="alpaka", source="demo", record=record, final_state=final, steps=1
    )
    # Without the mark the planning bots would replay a different game.
    assert replays.replay_record(definition, record)["stacks"] != final["stacks"]

    migration.keep_first_bots(apps, None)

    for row in (replay, room, demo):
        row.refresh_from_db()
        assert row.record["options"]["bots_version"] == 1
        assert replays.replay_record(definition, row.record) == final
    other.refresh_from_db()
    assert "bots_version" not in other.record["options"]


def test_new_records_name_the_planning_bots_and_stay_as_they_are():
    definition = registry.get("the_cat")
    options = definition.game_options(["Du", "Minka"], {}, {1})
    assert options["bots_version"] == the_cat.BOTS_VERSION == 2
    record = {"seed": 1, "players": 2, "options": options, "start": 0.0, "log": []}
    replay = Replay.objects.create(
        engine="the_cat", source="demo", record=record, final_state={}, steps=0
    )
    migration.keep_first_bots(apps, None)
    replay.refresh_from_db()
    assert replay.record == record
