"""Helpers for room tests: the Alpaka game row, a movable clock, players with own browsers."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client

from games import clock as game_clock
from games.play import definition as engines
from tests.factories import make_game

START = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)


class Clock:
    def __init__(self):
        self.now = START

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock():
    fake = Clock()
    game_clock.set_clock(lambda: fake.now)
    yield fake
    game_clock.set_clock(None)


@pytest.fixture
def alpaka_game(db):
    return make_game("alpaka", title="Alpaka", demo_engine="alpaka", players_max=6)


@pytest.fixture
def engine():
    return engines.get("alpaka")


@pytest.fixture
def seed(monkeypatch):
    """Known deals: every new game uses seed 4242."""
    monkeypatch.setattr("games.play.table.new_seed", lambda: 4242)
    return 4242


class Player:
    """One browser: its own cookies (visitor id, CSRF) and the room it is in."""

    def __init__(self, name: str):
        self.name = name
        self.client = Client()
        self.code = None

    def url(self, suffix: str = "") -> str:
        return f"/spiele/alpaka/raum/{self.code}/{suffix}"

    def create(self, **options):
        data = {"name": self.name, "variant": "klassisch", "target": "40", **options}
        response = self.client.post("/spiele/alpaka/raum/neu/", data)
        assert response.status_code == 302, response.content.decode()[:2000]
        self.code = re.search(r"/raum/([\w-]+)/$", response["Location"]).group(1)
        return self.code

    def get(self, suffix: str = "", **params):
        return self.client.get(self.url(suffix), params)

    def post(self, suffix: str, data: dict | None = None, htmx: bool = True):
        headers = {"HX-Request": "true"} if htmx else {}
        return self.client.post(self.url(suffix), data or {}, headers=headers)


@pytest.fixture
def players(alpaka_game):
    def make(*names):
        return [Player(name) for name in names]

    return make


def room_of(player: Player):
    from rooms.models import Room

    return Room.objects.get(code=player.code)


def text(response) -> str:
    return response.content.decode()


def legal(player: Player, seat: int) -> list[dict]:
    from games.engines import alpaka

    return alpaka.legal_actions(room_of(player).state, seat)


def action_value(action: dict) -> str:
    return f"play:{action['card']}" if action["type"] == "play" else action["type"]


@pytest.fixture
def table(players, clock, seed):
    """Anna (host, seat 0) and Ben (seat 1) playing Alpaka; Ben starts."""
    anna, ben = players("Anna", "Ben")
    anna.create()
    ben.code = anna.code
    ben.post("beitreten/", {"name": "Ben"})
    anna.post("starten/", {})
    return anna, ben
