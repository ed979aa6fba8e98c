"""The in-page Alpaka demo: setup, play against bots with visible delays, refusals."""

from __future__ import annotations

import pytest

from games.engines import alpaka
from games.models import DemoGame
from games.play.alpaka.definition import ALPAKA as ENGINE

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


def post(client, action, data):
    return client.post(f"/spiele/alpaka/demo/{action}/", data, headers=HX).content.decode()


def row():
    return DemoGame.objects.get(engine="alpaka")


def start(client, bots="2", variant="klassisch", target="20", version="0"):
    return post(
        client, "start", {"version": version, "bots": bots, "variant": variant, "target": target}
    )


def test_game_page_shows_the_demo_setup_without_storing_anything(client, alpaka_game):
    assert "play/alpaka/table.css" in client.get("/spiele/alpaka/").content.decode()
    # The cached game page loads the visitor's demo as a fragment.
    fragment = client.get(
        "/spiele/alpaka/demo/?zurueck=/spiele/alpaka/", headers={"HX-Request": "true"}
    )
    for html in (fragment.content.decode(), client.get("/spiele/alpaka/demo/").content.decode()):
        assert 'id="alpaka-demo"' in html and "Spiel starten" in html
        for label in ("Gegner", "Klassisch", "Englert-Zusatzregel", "80 Punkte"):
            assert label in html
        for bots in range(1, 6):
            assert f'name="bots" value="{bots}"' in html
        assert "Online-Raum eröffnen" in html and "/spiele/alpaka/raum/neu/" in html
    assert not DemoGame.objects.exists()


def test_start_deals_against_the_chosen_bots(client, alpaka_game, seed, clock):
    html = start(client, bots="3", variant="englert", target="60")
    current = row()
    assert current.state is not None and current.settings["bots"] == 3
    game = current.state
    assert game["names"] == ["Du", "Flocke", "Paco", "Wolle"]
    assert (game["variant"], game["target"]) == ("englert", 60)
    assert "Deine Hand" in html and "Flocke" in html and "Englert-Zusatzregel" in html
    # Flocke starts (the reader deals first); the page asks again when Flocke's move is due.
    assert 'hx-trigger="load delay:' in html and "Flocke überlegt" in html
    assert "Deine Zugzeit" not in html  # no turn timer in the demo


@pytest.mark.parametrize(
    ("bots", "message"),
    [("0", "Wähle 1 bis 5 Bots."), ("6", "Wähle 1 bis 5 Bots."), ("viele", "Wähle 1 bis 5 Bots.")],
)
def test_start_refuses_a_wrong_number_of_bots(client, alpaka_game, bots, message):
    assert message in start(client, bots=bots)
    assert not DemoGame.objects.filter(state__stage="play").exists()


def test_start_refuses_unknown_rules(client, alpaka_game):
    assert "Ungültige Auswahl" in start(client, target="33")


def test_bots_take_turns_one_after_another(client, alpaka_game, seed, clock):
    start(client, bots="2")
    version = row().version
    assert client.get("/spiele/alpaka/demo/status/", {"v": version}).status_code == 204
    clock.advance(1.3)
    response = client.get("/spiele/alpaka/demo/status/", {"v": version})
    assert response.status_code == 200
    assert row().version == version + 1  # one bot, not both
    assert row().state["turn"] == 2
    assert "Paco überlegt" in response.content.decode()
    clock.advance(1.3)
    html = client.get("/spiele/alpaka/demo/status/", {"v": version + 1}).content.decode()
    assert row().state["turn"] == 0 and row().bot_due is None
    assert "Du bist am Zug" in html and "load delay" not in html


def _to_my_turn(client, clock):
    for _ in range(20):
        if alpaka.to_act(row().state) == [0]:
            return
        clock.advance(1.3)
        client.get("/spiele/alpaka/demo/status/", {"v": row().version})
    raise AssertionError("never my turn")


def test_playing_a_demo_game_to_the_end(client, alpaka_game, seed, clock):
    start(client, bots="1", target="20")
    for _ in range(500):
        game = row().state
        if game["phase"] == "over":
            break
        if 0 in alpaka.to_act(game):
            legal = alpaka.legal_actions(game, 0)
            choice = legal[0]
            value = f"play:{choice['card']}" if choice["type"] == "play" else choice["type"]
            post(client, "aktion", {"version": row().version, "aktion": value})
        else:
            clock.advance(1.3)
            client.get("/spiele/alpaka/demo/status/", {"v": row().version})
    html = client.get("/spiele/alpaka/demo/").content.decode()
    assert row().state["phase"] == "over"
    assert "Partie vorbei" in html or "Gewonnen!" in html
    assert "Noch eine Partie" in html and "Einstellungen ändern" in html
    again = post(
        client,
        "start",
        {"version": row().version, "bots": "1", "variant": "klassisch", "target": "20"},
    )
    assert "Runde 1" in again and row().state["phase"] == "play"


def test_refusals_change_nothing(client, alpaka_game, seed, clock):
    start(client, bots="1")
    _to_my_turn(client, clock)
    before = row()
    assert "Das Spiel hat sich inzwischen geändert" in post(
        client, "aktion", {"version": before.version - 1, "aktion": "draw"}
    )
    assert "Unbekannte Aktion" in post(
        client, "aktion", {"version": before.version, "aktion": "fliegen"}
    )
    top = before.state["discard"][-1]
    unfit = next(
        (c for c in alpaka.CARDS if not alpaka.can_play(c, top) and c in before.state["hands"][0]),
        None,
    )
    if unfit:
        assert "passt nicht auf" in post(
            client, "aktion", {"version": before.version, "aktion": f"play:{unfit}"}
        )
    after = row()
    assert after.version == before.version and after.state == before.state


def test_acting_on_a_bots_turn_is_refused(client, alpaka_game, seed, clock):
    start(client, bots="2")
    version = row().version
    html = post(client, "aktion", {"version": version, "aktion": "draw"})
    assert "Du bist nicht am Zug" in html
    assert row().version == version


def test_new_game_goes_back_to_the_setup_and_keeps_the_choices(client, alpaka_game, seed, clock):
    start(client, bots="4", variant="englert", target="80")
    html = post(client, "neu", {})
    assert "Spiel starten" in html and row().state is None
    assert (
        'value="4" checked' in html
        and 'value="englert" checked' in html
        and 'value="80" checked' in html
    )


def test_without_javascript_the_demo_redirects_back(client, alpaka_game, seed, clock):
    response = client.post(
        "/spiele/alpaka/demo/start/",
        {
            "version": "0",
            "bots": "1",
            "variant": "klassisch",
            "target": "20",
            "zurueck": "/spiele/alpaka/",
        },
    )
    assert response.status_code == 302 and response["Location"] == "/spiele/alpaka/#alpaka-demo"
    response = client.post("/spiele/alpaka/demo/neu/", {"zurueck": "https://example.org/"})
    assert response["Location"] == "/spiele/alpaka/demo/#alpaka-demo"


def test_engine_is_the_rooms_engine():
    assert ENGINE.key == "alpaka" and ENGINE.table_template == "play/alpaka/table.html"
