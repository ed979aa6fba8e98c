"""The play layer: shared code names no game, and a game that exists only in the
test settings (tests/takeaway) gets a demo, a full-screen page and rooms from
its one registration – played to the end through HTTP."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from games.models import DemoGame
from games.play import definition as registry
from rooms.models import Room
from tests import project_files
from tests.factories import make_game
from tests.rooms.conftest import clock  # noqa: F401, F811  (the movable clock fixture)
from tests.takeaway import engine as takeaway

ROOT = Path(__file__).resolve().parents[1]
GAME_NAMES = re.compile(r"alpaka|kaetzchen|kätzchen|katz[-_ ]?und[-_ ]?maus|the[-_]?cat", re.I)
NOT_SHARED = re.compile(
    r"^(tests|bench)/|/migrations/|/content/|^site_config/settings/|^static/vendor/|^games/engines/"
)
HX = {"HX-Request": "true"}


def shared_files() -> list[str]:
    listed = project_files.listed("*.py", "*.html", "*.js", "*.css")
    return [path for path in listed if not GAME_NAMES.search(path) and not NOT_SHARED.search(path)]


def test_shared_code_names_no_game():
    files = shared_files()
    assert "rooms/locked.py" in files and "games/play/driver.py" in files
    naming = {
        path: [
            line.strip()
            for line in (ROOT / path).read_text().splitlines()
            if GAME_NAMES.search(line)
        ]
        for path in files
    }
    assert {path: lines for path, lines in naming.items() if lines} == {}


def test_definitions_take_player_limits_from_the_engine():
    game = registry.get("takeaway")
    assert (game.min_players, game.max_players) == (takeaway.MIN_PLAYERS, takeaway.MAX_PLAYERS)
    assert registry.for_slug("nimm-drei") is game
    for definition in registry.all_definitions():
        assert definition.min_players == definition.module.MIN_PLAYERS


def test_demo_engine_is_checked_against_the_registry(db):
    game = make_game("nimm-drei", demo_engine="takeaway")
    game.full_clean()
    game.demo_engine = "gibt-es-nicht"
    with pytest.raises(ValidationError):
        game.full_clean()


@pytest.fixture
def nimm_drei(db):
    return make_game("nimm-drei", title="Nimm drei", demo_engine="takeaway", players_max=2)


def test_the_test_game_plays_to_the_end_in_the_in_page_demo(client, nimm_drei, clock):  # noqa: F811
    page = client.get("/spiele/nimm-drei/").content.decode()
    # The cached game page loads the visitor's demo as a fragment (a link without JavaScript).
    assert 'hx-get="/spiele/nimm-drei/demo/?zurueck=%2Fspiele%2Fnimm-drei%2F"' in page
    for url, headers in (
        ("/spiele/nimm-drei/demo/?zurueck=/spiele/nimm-drei/", HX),
        ("/spiele/nimm-drei/demo/", {}),
    ):
        html = client.get(url, headers=headers).content.decode()
        assert 'id="takeaway-demo"' in html and "Spiel starten" in html
    html = client.post(
        "/spiele/nimm-drei/demo/start/", {"version": 0, "bots": 1}, headers=HX
    ).content.decode()
    assert "Noch <span data-left>15</span>" in html and "Du bist am Zug." in html
    for _ in range(20):
        row = DemoGame.objects.get(engine="takeaway")
        if row.state["winner"] is not None:
            break
        if row.state["turn"] == 0:
            html = client.post(
                "/spiele/nimm-drei/demo/aktion/",
                {"version": row.version, "nimm": 1},
                headers=HX,
            ).content.decode()
        else:
            clock.advance(1)
            html = client.get("/spiele/nimm-drei/demo/status/", {"v": row.version}).content.decode()
    row = DemoGame.objects.get(engine="takeaway")
    assert row.state["winner"] == 1  # the bot leaves multiples of four
    assert "Robo gewinnt." in html and "Noch eine Partie" in html


def test_the_test_game_refuses_a_stale_demo_request(client, nimm_drei, clock):  # noqa: F811
    client.post("/spiele/nimm-drei/demo/start/", {"version": 0, "bots": 1}, headers=HX)
    row = DemoGame.objects.get(engine="takeaway")
    client.post("/spiele/nimm-drei/demo/aktion/", {"version": row.version, "nimm": 3}, headers=HX)
    again = client.post(
        "/spiele/nimm-drei/demo/aktion/", {"version": row.version, "nimm": 3}, headers=HX
    )
    assert DemoGame.objects.get(engine="takeaway").state["left"] == 12
    assert again.status_code == 200


def test_the_test_game_gets_online_rooms(client, nimm_drei, clock):  # noqa: F811
    response = client.post("/spiele/nimm-drei/raum/neu/", {"name": "Anna"})
    assert response.status_code == 302
    room_url = response["Location"]
    room = Room.objects.get()
    assert room.engine == "takeaway" and room_url.endswith(f"/raum/{room.code}/")
    html = client.get(room_url).content.decode()
    assert "Nimm drei online" in html
    client.post(room_url + "bot/", {"token": "t1"})
    client.post(room_url + "starten/")
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING
    for _ in range(20):
        room.refresh_from_db()
        if room.status == Room.Status.FINISHED:
            break
        if room.state["turn"] == 0:
            client.post(room_url + "aktion/", {"version": room.version, "nimm": 1}, headers=HX)
        else:
            clock.advance(2)
            client.get(room_url + "status/", {"v": room.version}, headers=HX)
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED and room.state["winner"] == 1
    assert "Robo gewinnt." in client.get(room_url).content.decode()


def test_a_game_without_rooms_or_demo_answers_404(client, db):
    make_game("ohne-demo")
    assert client.get("/spiele/ohne-demo/demo/").status_code == 404
    assert client.post("/spiele/ohne-demo/demo/start/", {"version": 0}).status_code == 404
    assert client.get("/spiele/ohne-demo/raum/neu/").status_code == 404


def test_a_turn_based_demo_move_waits_for_bot_moves_the_page_has_not_shown(
    client,
    nimm_drei,
    clock,  # noqa: F811
):
    """Turns stay strict: the reader's move is not applied when a bot moved meanwhile."""
    client.post("/spiele/nimm-drei/demo/start/", {"version": 0, "bots": 1}, headers=HX)
    row = DemoGame.objects.get(engine="takeaway")
    client.post("/spiele/nimm-drei/demo/aktion/", {"version": row.version, "nimm": 1}, headers=HX)
    shown = DemoGame.objects.get(engine="takeaway").version
    clock.advance(1)  # the bot's move fell due; the page never asked for it
    html = client.post(
        "/spiele/nimm-drei/demo/aktion/", {"version": shown, "nimm": 1}, headers=HX
    ).content.decode()
    row = DemoGame.objects.get(engine="takeaway")
    assert "Die Bots waren inzwischen am Zug" in html
    # 15 − 1 (reader) − 2 (the bot leaves a multiple of four); the second click did nothing.
    assert row.state["left"] == 12 and row.state["turn"] == 0
