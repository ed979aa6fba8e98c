"""Issue „Hardening“: demo and room endpoints of unpublished games, demo rows per
address and their cleanup, reserved player names, private caching, the auto-quit reason."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client

from games import clock
from games.engines import alpaka
from games.models import DemoGame
from games.play import demo_service
from games.play.alpaka.presenter import present
from rooms.models import Room
from tests.factories import make_game

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


@pytest.fixture
def draft_game(db):
    return make_game("alpaka", title="Alpaka", demo_engine="alpaka", players_max=6, published=False)


def test_unpublished_games_answer_404_on_demo_and_room_endpoints(client, draft_game):
    assert client.get("/spiele/alpaka/").status_code == 404
    assert client.get("/spiele/alpaka/demo/").status_code == 404
    response = client.post("/spiele/alpaka/demo/start/", {"version": 0, "bots": 1})
    assert response.status_code == 404
    assert client.get("/spiele/alpaka/demo/status/", {"v": 0}).status_code == 404
    assert client.get("/spiele/alpaka/raum/neu/").status_code == 404
    assert client.post("/spiele/alpaka/raum/neu/", {"name": "Anna"}).status_code == 404
    assert not DemoGame.objects.exists() and not Room.objects.exists()


def test_publishing_opens_the_endpoints_at_once(client, draft_game):
    assert client.get("/spiele/alpaka/raum/neu/").status_code == 404
    draft_game.is_published = True
    draft_game.save()  # drops the cached list of published games
    assert client.get("/spiele/alpaka/raum/neu/").status_code == 200


def test_staff_may_try_the_demo_of_a_draft(editor_client, draft_game):
    response = editor_client.post(
        "/spiele/alpaka/demo/start/", {"version": 0, "bots": 1}, headers=HX
    )
    assert response.status_code == 200 and DemoGame.objects.count() == 1


def test_new_demo_rows_are_limited_per_address(db):
    make_game("alpaka", title="Alpaka", demo_engine="alpaka", players_max=6)
    for _ in range(60):
        Client().post("/spiele/alpaka/demo/start/", {"version": 0, "bots": 1}, headers=HX)
    assert DemoGame.objects.count() == 60
    refused = Client().post("/spiele/alpaka/demo/start/", {"version": 0, "bots": 1}, headers=HX)
    assert refused.status_code == 200
    assert "sehr viele neue Demo-Partien" in refused.content.decode()
    assert DemoGame.objects.count() == 60


def test_cleanup_removes_demo_rows_nobody_touched_for_30_days(db):
    old = DemoGame.objects.create(visitor="alt", engine="alpaka", state=None)
    fresh = DemoGame.objects.create(visitor="neu", engine="alpaka", state=None)
    DemoGame.objects.filter(pk=old.pk).update(updated_at=clock.now() - timedelta(days=31))
    out = StringIO()
    call_command("cleanup_demos", stdout=out)
    assert "1 alte Demo-Partie" in out.getvalue()
    assert list(DemoGame.objects.values_list("pk", flat=True)) == [fresh.pk]
    assert demo_service.cleanup() == 0


@pytest.mark.parametrize("name", ["Du", "du", " DU ", "Gastgeber", "Niemand!"])
def test_names_the_table_uses_itself_are_refused(client, name):
    make_game("alpaka", title="Alpaka", demo_engine="alpaka", players_max=6)
    html = client.post("/spiele/alpaka/raum/neu/", {"name": name}).content.decode()
    assert "verwenden wir am Tisch selbst" in html and not Room.objects.exists()


def test_game_and_demo_pages_are_private_to_the_reader(client):
    make_game("alpaka", title="Alpaka", demo_engine="alpaka", players_max=6)
    # The game page is the same for everybody (the demo is a fragment of its own).
    assert client.get("/spiele/alpaka/")["Cache-Control"].startswith("public")
    for headers in ({}, {"HX-Request": "true"}):
        demo_page = client.get("/spiele/alpaka/demo/", headers=headers)["Cache-Control"]
        assert "private" in demo_page and "no-store" in demo_page


def test_status_says_why_the_reader_was_taken_out():
    state = alpaka.new_game(3, 3, {"names": ["Anna", "Ben", "Cara"]})
    seat = state["turn"]
    state, events = alpaka.timeout(state)
    log = [{"v": 1, "event": event} for event in events]
    table = present(alpaka.view(state, seat), log=log, since=0)
    assert "automatisch ausgestiegen, weil du 90 Sekunden nicht reagiert hast" in table.status
    other = present(alpaka.view(state, (seat + 1) % 3), log=log)
    assert "automatisch" not in other.status
