# ruff: noqa: F811  (pytest fixtures named like the imported clock fixture)
"""A hint to a partner is a side event: it must not make the next move of the
player on turn „stale“, while a real move since the shown version still does."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from games.engines import katz_und_maus as km
from rooms.models import Room
from tests.factories import make_game
from tests.rooms.conftest import clock  # noqa: F401  (the movable clock fixture)

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
NAMES = ("Anna", "Ben", "Cara", "Dirk")


@pytest.fixture
def game(db):
    return make_game(
        "katz-und-maus", title="Katz und Maus", demo_engine="katz_und_maus", players_max=6
    )


@pytest.fixture
def team_room(game, clock, monkeypatch):
    """Four people in teams (seats 0+2 against 1+3); returns (url, clients by seat)."""
    monkeypatch.setattr("games.play.table.new_seed", lambda: 77)
    clients = [Client() for _ in NAMES]
    url = clients[0].post(
        "/spiele/katz-und-maus/raum/neu/",
        {"name": NAMES[0], "teams": "team", "match": "single", "stock_size": 0},
    )["Location"]
    for client, name in zip(clients[1:], NAMES[1:], strict=True):
        client.post(url + "beitreten/", {"name": name})
    clients[0].post(url + "starten/", {})
    assert Room.objects.get().status == Room.Status.PLAYING
    return url, clients


def _move_data(state: dict, seat: int) -> dict:
    """A legal move of the seat on turn, as its form sends it."""
    action = km.bot_action(km.view(state, seat), random.Random(seat))
    if action["type"] == "discard":
        return {"zug": f"hand:{action['card']} discard:{action['pile'] + 1}"}
    if action["type"] == "end":
        return {"aktion": "end"}
    source = {"stock": "stock"}.get(action["source"]) or (
        f"hand:{action['card']}" if action["source"] == "hand" else f"discard:{action['index'] + 1}"
    )
    return {"zug": f"{source} build:{action['pile'] + 1}"}


def test_a_hint_does_not_make_the_next_move_stale(team_room):
    url, clients = team_room
    room = Room.objects.get()
    shown = room.version  # what every page shows now
    turn = km.to_act(room.state)[0]
    hinter = (turn + 1) % 4  # an opponent of the player on turn hints his own partner
    clients[hinter].post(
        url + "aktion/",
        {"version": shown, "aktion": "hint", "rang": "7", "stapel": "2"},
        headers=HX,
    )
    room.refresh_from_db()
    assert room.version == shown + 1
    assert room.state["hints"][(hinter + 2) % 4] == {"from": hinter, "rank": "7", "pile": 1}

    # The player on turn still shows the version from before the hint.
    before = room.state
    html = (
        clients[turn]
        .post(url + "aktion/", {"version": shown, **_move_data(before, turn)}, headers=HX)
        .content.decode()
    )
    room.refresh_from_db()
    assert "Zu spät" not in html
    assert room.version > shown + 1, "the move was applied"
    assert room.state != before


def test_a_real_move_since_the_shown_version_still_makes_a_request_stale(team_room):
    url, clients = team_room
    room = Room.objects.get()
    shown = room.version
    turn = km.to_act(room.state)[0]
    clients[turn].post(url + "aktion/", {"version": shown, **_move_data(room.state, turn)})
    room.refresh_from_db()
    assert room.version > shown
    # A hint named against the old version comes too late: a move happened since.
    after = (room.version, room.state)
    partner = (turn + 2) % 4
    html = (
        clients[partner]
        .post(
            url + "aktion/",
            {"version": shown, "aktion": "hint", "rang": "5", "stapel": "1"},
            headers=HX,
        )
        .content.decode()
    )
    room.refresh_from_db()
    assert "Zu spät" in html
    assert (room.version, room.state) == after
