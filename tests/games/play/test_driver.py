"""games.play.driver: a demo's bots move only while their reader watches; a table
nobody watched stood still and goes on from where it was."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.models import DemoGame
from games.play import definition as registry
from games.play import driver

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


def _row(engine: str) -> DemoGame:
    return DemoGame.objects.get(engine=engine)


def _start(client, slug: str, data: dict) -> None:
    response = client.post(f"/spiele/{slug}/demo/start/", {"version": 0, **data}, headers=HX)
    assert response.status_code == 200


def _poll(client, slug: str) -> None:
    client.get(f"/spiele/{slug}/demo/status/", {"v": -1}, headers=HX)


def test_a_turn_based_demo_left_alone_makes_one_bot_move_when_its_reader_returns(
    client, alpaka_row, seeded, frozen
):
    from django.utils import timezone

    frozen["now"] = timezone.now().replace(microsecond=0)
    _start(client, "alpaka", {"bots": 3, "variant": "klassisch", "target": "40"})
    row = _row("alpaka")
    assert row.state["turn"] != driver.YOU and row.bot_due is not None  # a bot begins
    version = row.version
    frozen["now"] = row.bot_due + timedelta(minutes=10)  # the reader went away
    _poll(client, "alpaka")
    row = _row("alpaka")
    # One bot acted (at the moment the reader came back), the next waits its usual delay.
    assert row.version == version + 1
    assert row.clock_offset == pytest.approx(600, abs=0.01)
    low, high = registry.get("alpaka").bot_delay
    assert frozen["now"] + timedelta(seconds=low) <= row.bot_due
    assert row.bot_due <= frozen["now"] + timedelta(seconds=high)


def test_a_watched_demo_keeps_its_clock(client, alpaka_row, seeded, frozen):
    from django.utils import timezone

    frozen["now"] = timezone.now().replace(microsecond=0)
    _start(client, "alpaka", {"bots": 3, "variant": "klassisch", "target": "40"})
    for _ in range(6):  # the page asks every half second
        frozen["now"] += timedelta(seconds=0.5)
        _poll(client, "alpaka")
    row = _row("alpaka")
    assert row.clock_offset == 0 and row.version > 1


def test_a_real_time_demo_left_alone_does_not_play_on_without_its_reader(client, seeded, frozen):
    """The Cat's bots swap on the engine's clock: after ten minutes away each due bot
    acts once, and the round clock stood still too."""
    from django.utils import timezone

    from tests.factories import make_game

    make_game("the-cat", title="The Cat", demo_engine="the_cat", players_max=6)
    frozen["now"] = timezone.now().replace(microsecond=0)
    # Without the coach: in the guided first round the bots wait anyway (test_coach.py).
    client.post("/spiele/the-cat/demo/erklaerungen/", {"an": "0"}, headers=HX)
    _start(client, "the-cat", {"bots": 3, "speed": "flink"})
    row = _row("the_cat")
    steps, round_clock = sum(row.state["bot_steps"]), row.state["now"] - row.state["round_started"]
    frozen["now"] = row.bot_due + timedelta(minutes=10)
    _poll(client, "the-cat")
    row = _row("the_cat")
    assert sum(row.state["bot_steps"]) - steps <= 3
    assert row.state["now"] - row.state["round_started"] < round_clock + 5
    assert row.clock_offset >= 590


def test_the_loop_only_makes_moves_of_watched_demos(client, alpaka_row, seeded, frozen):
    from django.utils import timezone

    from games.play import deadline_loop

    frozen["now"] = timezone.now().replace(microsecond=0)
    _start(client, "alpaka", {"bots": 3, "variant": "klassisch", "target": "40"})
    row = _row("alpaka")
    frozen["now"] = row.bot_due + timedelta(seconds=0.1)
    assert deadline_loop.run_round(["demo:alpaka:someone-else"], None)[0] is None
    assert _row("alpaka").version == row.version
    channel = driver.channel(registry.get("alpaka"), row.visitor)
    assert deadline_loop.run_round([channel], None)[0] is not None  # the next bot is due later
    assert _row("alpaka").version == row.version + 1
