# ruff: noqa: F811  (pytest fixtures named like the imported clock fixture)
"""Katz und Maus on the play layer: the in-page demo against bots and online rooms,
played through HTTP; refusals change nothing; no response shows hidden cards."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

from games.engines import katz_und_maus as km
from games.models import DemoGame
from games.play.katz_und_maus import presenter
from games.play.katz_und_maus.definition import KATZ_UND_MAUS
from rooms.models import Room
from tests.factories import make_game
from tests.rooms.conftest import clock  # noqa: F401, F811  (the movable clock fixture)

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
DEMO = "/spiele/katz-und-maus/demo/"
CARD_CODE = re.compile(r'data-card="([0-9AJQK]{1,2}[CDHS])"|value="hand:([0-9AJQK]{1,2}[CDHS])')


@pytest.fixture
def game(db):
    return make_game(
        "katz-und-maus", title="Katz und Maus", demo_engine="katz_und_maus", players_max=6
    )


@pytest.fixture
def seed(monkeypatch):
    monkeypatch.setattr("games.play.table.new_seed", lambda: 31)
    return 31


def post(client, action, data):
    return client.post(f"{DEMO}{action}/", data, headers=HX).content.decode()


def row():
    return DemoGame.objects.get(engine="katz_und_maus")


def start(client, version=0, **settings):
    data = {
        "version": version,
        "bots": 1,
        "teams": "allein",
        "match": "single",
        "stock_size": 10,
        "completed": "shuffle",
        **settings,
    }
    return post(client, "start", data)


def visible_cards(view: dict) -> set[str]:
    """Every card code the viewer's own view shows."""
    cards = set(view["hand"] or [])
    for seat in view["seats"]:
        if seat["stock_top"]:
            cards.add(seat["stock_top"])
        for pile in seat["discards"]:
            cards.update(pile)
    cards.update(pile["top"] for pile in view["build"] if pile["top"])
    return cards


def assert_nothing_hidden(html: str, state: dict, seat: int) -> None:
    shown = {a or b for a, b in CARD_CODE.findall(html)}
    assert shown <= visible_cards(km.view(state, seat)), shown - visible_cards(km.view(state, seat))
    # The draw pile's order never appears: not even its top three cards in a row.
    assert "".join(state["draw_pile"][-3:]) not in html


def zug(action: dict, state: dict, seat: int) -> str:
    """The target button's value for an engine action."""
    if action["type"] == "discard":
        return f"hand:{action['card']} discard:{action['pile'] + 1}"
    source = action["source"]
    if source == "hand":
        source = f"hand:{action['card']}"
    elif source == "discard":
        source = f"discard:{action['index'] + 1}"
    return f"{source} build:{action['pile'] + 1}"


def act_data(action: dict, state: dict, seat: int) -> dict:
    if action["type"] in ("play", "discard"):
        return {"zug": zug(action, state, seat)}
    return {"aktion": action["type"]}


# --- Options and parsing -----------------------------------------------------------------


def test_parse_action_understands_every_form():
    parse = presenter.parse_action
    assert parse({"zug": "stock build:2"}) == {"type": "play", "source": "stock", "pile": 1}
    assert parse({"zug": "hand:KH build:1"}) == {
        "type": "play",
        "source": "hand",
        "card": "KH",
        "pile": 0,
    }
    assert parse({"zug": "discard:4 build:3"}) == {
        "type": "play",
        "source": "discard",
        "index": 3,
        "pile": 2,
    }
    assert parse({"zug": "hand:7S discard:2"}) == {"type": "discard", "card": "7S", "pile": 1}
    assert parse({"aktion": "play", "von": "stock", "auf": "build:4"})["pile"] == 3
    assert parse({"aktion": "discard", "karte": "10D", "auf": "3"}) == {
        "type": "discard",
        "card": "10D",
        "pile": 2,
    }
    assert parse({"aktion": "hint", "rang": "7", "stapel": "2"}) == {
        "type": "hint",
        "rank": "7",
        "pile": 1,
    }
    assert parse({"aktion": "end"}) == {"type": "end"}
    assert parse({"aktion": "continue"}) == {"type": "continue"}
    for wrong in (
        {"zug": "stock discard:1"},
        {"zug": "hand:1X build:1"},
        {"zug": "stock build:5"},
        {"zug": "stock build:0"},
        {"aktion": "fliegen"},
        {"aktion": "hint", "rang": "Z", "stapel": "1"},
        {},
    ):
        assert parse(wrong) is None, wrong


def test_engine_options_map_standard_and_refuse_what_does_not_fit():
    options = KATZ_UND_MAUS.default_options()
    mapped = KATZ_UND_MAUS.engine_options({**options, "names": ["a", "b"]}, set())
    assert mapped == {
        "teams": False,
        "stock_size": None,
        "match": "single",
        "completed": "shuffle",
        "empty_draw": "end",  # the source's end of game, not our variant
    }
    state = KATZ_UND_MAUS.new_game(1, ["a", "b"], options)
    assert state["stock_size"] == km.DEFAULT_STOCK[2]
    with pytest.raises(km.IllegalAction, match="nur zu viert oder zu sechst"):
        KATZ_UND_MAUS.new_game(1, ["a", "b", "c"], {**options, "teams": "team"})
    with pytest.raises(km.IllegalAction, match="höchstens 21 Karten"):
        KATZ_UND_MAUS.new_game(1, list("abcd"), {**options, "stock_size": 25})
    state = KATZ_UND_MAUS.new_game(1, list("abcd"), {**options, "teams": "team"})
    assert state["teams"] and state["sides"] == [[0, 2], [1, 3]]


def test_describe_words_events_per_viewer():
    names = ["Du", "Paco"]
    play = {
        "type": "play",
        "seat": 1,
        "source": "stock",
        "index": None,
        "card": "7H",
        "pile": 1,
        "value": 7,
        "stock_top": None,
    }
    assert presenter.describe(play, 0, names) == (
        "Paco legt die 7 vom Spielerstapel auf Baustapel 2."
    )
    king = {**play, "seat": 0, "source": "hand", "card": "KS", "value": 5, "pile": 0}
    assert presenter.describe(king, 0, names) == (
        "Du legst den König als 5 von der Hand auf Baustapel 1."
    )
    discard = {"type": "discard", "seat": 0, "card": "QD", "pile": 2, "forced": True}
    assert presenter.describe(discard, 0, names) == (
        "Die Zugzeit ist abgelaufen: du legst die Dame auf Ablagestapel 3 – Zugende."
    )
    assert presenter.describe({"type": "turn", "seat": 1}, 0, names) == ""


# --- The demo ------------------------------------------------------------------------------


def test_game_page_shows_the_demo_setup(client, game):
    page = client.get("/spiele/katz-und-maus/").content.decode()
    assert "play/katz_und_maus/table.css" in page
    # The cached game page loads the visitor's demo as a fragment.
    fragment = client.get(DEMO + "?zurueck=/spiele/katz-und-maus/", headers={"HX-Request": "true"})
    for html in (fragment.content.decode(), client.get(DEMO).content.decode()):
        assert 'id="katz_und_maus-demo"' in html and "Spiel starten" in html
        for label in ("Jeder für sich", "Teams", "Bis 500 Punkte", "30 Karten", "Aus dem Spiel"):
            assert label in html
        assert "/spiele/katz-und-maus/raum/neu/" in html
    assert not DemoGame.objects.exists()


def test_demo_start_deals_and_the_bot_begins(client, game, seed, clock):
    html = start(client, bots=1)
    state = row().state
    assert state["names"] == ["Du", "Paco"] and state["stock_size"] == 10
    assert state["turn"] == 1  # seat 0 deals, the bot starts
    assert "Paco überlegt" in html and 'hx-trigger="load delay:' in html
    assert "Baustapel" in html and "Deine Hand" in html and "Deine Zugzeit" not in html
    assert_nothing_hidden(html, state, 0)


def test_demo_refuses_teams_with_three_players_in_german(client, game, seed, clock):
    html = start(client, bots=2, teams="team")
    assert "Im Team spielt ihr nur zu viert oder zu sechst" in html
    assert row().state is None if DemoGame.objects.exists() else True
    html = start(client, bots=3, teams="team")
    assert row().state["teams"] is True and "Partner" in html
    assert "Hinweis an Minka" in html  # the partner sits opposite: seat 2


def _to_my_turn(client, clock):
    for _ in range(200):
        state = row().state
        if state["phase"] != km.PLAY or state["turn"] == 0:
            return
        clock.advance(1)
        client.get(f"{DEMO}status/", {"v": row().version})
    raise AssertionError("never my turn")


def test_demo_play_then_discard_ends_the_turn_and_bots_move_one_by_one(client, game, seed, clock):
    start(client, bots=2)
    version = row().version
    assert client.get(f"{DEMO}status/", {"v": version}).status_code == 204
    clock.advance(1)
    html = client.get(f"{DEMO}status/", {"v": version}).content.decode()
    assert row().version == version + 1  # exactly one bot move per due step
    assert "Paco" in html
    _to_my_turn(client, clock)
    state = row().state
    legal = km.legal_actions(state, 0)
    plays = [a for a in legal if a["type"] == "play"]
    if plays:
        before = row().version
        html = post(client, "aktion", {"version": before, **act_data(plays[0], state, 0)})
        assert row().version > before and "Du legst" in html
        state = row().state
        legal = km.legal_actions(state, 0)
    assert state["turn"] == 0
    discard = next(a for a in legal if a["type"] == "discard")
    html = post(client, "aktion", {"version": row().version, **act_data(discard, state, 0)})
    after = row().state
    assert after["turn"] == 1 and after["discards"][0][discard["pile"]][-1] == discard["card"]
    assert "Zugende" in html and "Paco überlegt" in html
    assert_nothing_hidden(html, after, 0)


def test_demo_refusals_change_nothing(client, game, seed, clock):
    start(client, bots=1)
    _to_my_turn(client, clock)
    before = row()
    html = post(client, "aktion", {"version": before.version - 1, "zug": "stock build:1"})
    assert "Das Spiel hat sich inzwischen geändert" in html
    assert "Unbekannte Aktion" in post(client, "aktion", {"version": before.version, "zug": "x"})
    build = before.state["build"]
    hand = before.state["hands"][0]
    unfit = next((c for c in hand if not km.fits(c, build[0])), None)
    if unfit:
        html = post(client, "aktion", {"version": before.version, "zug": f"hand:{unfit} build:1"})
        assert "Baustapel" in html and "König" in html  # the engine's German reason
    not_mine = next(c for c in km.DECK if c not in hand)
    html = post(client, "aktion", {"version": before.version, "zug": f"hand:{not_mine} discard:1"})
    assert "Ablegen darfst du nur eine Karte von deiner Hand." in html
    after = row()
    assert after.version == before.version and after.state == before.state


def test_a_whole_two_player_demo_game_to_its_end(client, game, seed, clock):
    """The reader plays with the engine's own bot policy on the reader's own view."""
    start(client, bots=1, stock_size=10)
    rng = random.Random(5)
    for step in range(3000):
        current = row()
        state = current.state
        if state["phase"] == km.OVER:
            break
        if 0 in km.to_act(state):
            action = km.bot_action(km.view(state, 0), rng)
            html = post(
                client, "aktion", {"version": current.version, **act_data(action, state, 0)}
            )
            assert "Das Spiel hat sich inzwischen geändert" not in html
        else:
            clock.advance(1)
            html = client.get(f"{DEMO}status/", {"v": current.version}).content.decode()
        if step % 25 == 0:
            assert_nothing_hidden(html, row().state, 0)
    state = row().state
    assert state["phase"] == km.OVER
    html = client.get(DEMO).content.decode()
    assert "Gewonnen!" in html or "Partie vorbei" in html or "Unentschieden" in html
    assert "Noch eine Partie" in html and "Wertung – Spiel 1" in html
    assert_nothing_hidden(html, state, 0)
    again = start(client, version=row().version, bots=1, stock_size=10)
    assert "Spiel 1" in again and row().state["phase"] == km.PLAY


def test_the_demo_plays_the_source_rule_unless_the_variant_is_chosen(client, game, seed, clock):
    html = client.get(DEMO, headers=HX).content.decode()
    assert "Kartenstock aufgebraucht" in html and "Variante: Baustapel mischen" in html
    assert re.search(r'name="empty_draw" value="end"[^>]*checked', html)
    start(client)
    assert row().state["empty_draw"] == "end"
    post(client, "neu", {})
    start(client, version=row().version, empty_draw="recycle")
    assert row().state["empty_draw"] == "recycle"


# --- Rooms -----------------------------------------------------------------------------------


def test_a_room_with_two_people_plays_some_moves(game, seed, clock):
    anna, ben = Client(), Client()
    response = anna.post(
        "/spiele/katz-und-maus/raum/neu/",
        {"name": "Anna", "teams": "allein", "match": "500", "stock_size": 0, "completed": "remove"},
    )
    assert response.status_code == 302
    url = response["Location"]
    ben.post(url + "beitreten/", {"name": "Ben"})
    anna.post(url + "starten/", {})
    room = Room.objects.get()
    assert room.status == Room.Status.PLAYING
    assert room.state["stock_size"] == 20 and room.state["completed"] == "remove"
    assert room.state["empty_draw"] == "end", "the source's rule unless the host picks the variant"
    players = {0: anna, 1: ben}
    rng = random.Random(2)
    moves = 0
    while moves < 30:
        room.refresh_from_db()
        state, version = room.state, room.version
        seat = km.to_act(state)[0]
        action = km.bot_action(km.view(state, seat), rng)
        response = players[seat].post(
            url + "aktion/", {"version": version, **act_data(action, state, seat)}, headers=HX
        )
        html = response.content.decode()
        room.refresh_from_db()
        assert room.version > version, html[:500]  # the move was applied
        assert_nothing_hidden(html, room.state, seat)
        other = 1 - seat
        other_html = players[other].get(url).content.decode()
        assert_nothing_hidden(other_html, room.state, other)
        moves += 1
        if room.state["phase"] != km.PLAY:
            break
    html = ben.get(url).content.decode()
    assert "Zugzeit" in html and "Baustapel" in html
    assert "höchste Handkarte" in html  # what happens on timeout is said at the table
    # A stale request changes nothing.
    room.refresh_from_db()
    before = (room.version, room.state)
    seat = km.to_act(room.state)[0]
    players[seat].post(url + "aktion/", {"version": room.version - 1, "aktion": "end"}, headers=HX)
    room.refresh_from_db()
    assert (room.version, room.state) == before


def test_a_room_timeout_discards_for_the_player(game, seed, clock):
    anna, ben = Client(), Client()
    url = anna.post(
        "/spiele/katz-und-maus/raum/neu/",
        {"name": "Anna", "teams": "allein", "match": "single", "stock_size": 10},
    )["Location"]
    ben.post(url + "beitreten/", {"name": "Ben"})
    anna.post(url + "starten/", {})
    room = Room.objects.get()
    assert room.state["turn"] == 1
    clock.advance(presenter.TURN_SECONDS + 1)
    html = anna.get(url).content.decode()
    room.refresh_from_db()
    assert room.state["turn"] == 0
    assert "Die Zugzeit ist abgelaufen: Ben legt" in html


def test_a_room_refuses_teams_for_three_in_german(game, seed, clock):
    anna = Client()
    url = anna.post(
        "/spiele/katz-und-maus/raum/neu/",
        {"name": "Anna", "teams": "team", "match": "single", "stock_size": 0},
    )["Location"]
    anna.post(url + "bot/", {"token": "a"})
    anna.post(url + "bot/", {"token": "b"})
    html = anna.post(url + "starten/", {}, headers=HX).content.decode()
    assert "nur zu viert oder zu sechst" in html
    assert Room.objects.get().status == Room.Status.LOBBY


def test_schneller_plays_the_bots_turns_at_once(client, game, seed, clock):
    html = start(client, bots=3)
    assert "Schneller" in html
    html = post(client, "schneller", {})
    state = row().state
    assert state["turn"] == 0 and state["phase"] == km.PLAY
    assert "Du bist am Zug" in html and "Schneller" not in html
    assert "Unbekannte" not in html
    html = post(client, "schneller", {})
    assert "Die Gegner sind gerade nicht am Zug." in html
    assert row().state == state


def _play_until(client, clock, done, rng, limit=3000):
    for _ in range(limit):
        current = row()
        state = current.state
        if done(state):
            return state
        if 0 in km.to_act(state):
            action = km.bot_action(km.view(state, 0), rng)
            post(client, "aktion", {"version": current.version, **act_data(action, state, 0)})
        else:
            clock.advance(1)
            client.get(f"{DEMO}status/", {"v": current.version})
    raise AssertionError("never reached")


def test_a_match_to_500_waits_for_weiter_after_each_game(client, game, seed, clock):
    start(client, bots=1, match="500", stock_size=10)
    _play_until(client, clock, lambda s: s["phase"] == km.SCORING, random.Random(1))
    html = client.get(DEMO).content.decode()
    assert "Wertung – Spiel 1" in html and 'value="continue"' in html
    assert "Punkteverlauf" in html and "bis 500 Punkte" in html
    html = post(client, "aktion", {"version": row().version, "aktion": "continue"})
    assert "Du bist bereit für das nächste Spiel." in html
    if row().state["phase"] == km.SCORING:  # the bot confirms after its delay
        clock.advance(1)
        html = client.get(f"{DEMO}status/", {"v": row().version}).content.decode()
    state = row().state
    assert state["round"] == 2 and state["phase"] == km.PLAY
    assert "Spiel 2" in html


def test_team_demo_hint_reaches_the_bot_partner(client, game, seed, clock):
    start(client, bots=3, teams="team")
    html = post(
        client, "aktion", {"version": row().version, "aktion": "hint", "rang": "A", "stapel": "3"}
    )
    state = row().state
    assert state["hints"][2] == {"from": 0, "rank": "A", "pile": 2}
    assert "Du rätst Minka: „Leg dein Ass auf Baustapel 3.“" in html
    assert "Dein Hinweis: „Leg dein Ass auf Baustapel 3“" in html and "Hinweis von Du" not in html


def test_spectator_leaving_and_rematch_in_a_room(game, seed, clock):
    anna, ben, carl = Client(), Client(), Client()
    url = anna.post(
        "/spiele/katz-und-maus/raum/neu/",
        {"name": "Anna", "teams": "allein", "match": "single", "stock_size": 10},
    )["Location"]
    ben.post(url + "beitreten/", {"name": "Ben"})
    anna.post(url + "bot/", {"token": "t"})
    anna.post(url + "starten/", {})
    room = Room.objects.get()
    assert room.state["players"] == 3
    html = carl.get(url).content.decode()  # a spectator sees no hand at all
    assert "du schaust zu" in html and "Deine Hand" not in html
    assert_nothing_hidden(html, room.state, None)
    ben.post(url + "verlassen/", {}, headers=HX)
    html = anna.get(url).content.decode()
    assert "Ben verlässt den Raum." in html
    room.refresh_from_db()
    assert room.state["out"][1] and room.state["phase"] == km.PLAY
    # Anna plays on against the bot until the game ends, then deals again.
    rng = random.Random(9)
    for _ in range(3000):
        room.refresh_from_db()
        if room.status == Room.Status.FINISHED:
            break
        state = room.state
        if 0 in km.to_act(state):
            action = km.bot_action(km.view(state, 0), rng)
            anna.post(
                url + "aktion/", {"version": room.version, **act_data(action, state, 0)}, headers=HX
            )
        else:
            clock.advance(1)
            anna.get(url + "status/", {"v": room.version}, headers=HX)
    assert room.status == Room.Status.FINISHED
    html = anna.get(url).content.decode()
    assert "Neue Partie" in html and "Wertung – Spiel 1" in html
    anna.post(url + "neue-partie/", {"version": room.version}, headers=HX)
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING and room.state["players"] == 2


def test_two_equal_hand_cards_are_both_choosable():
    state = km.new_game(3, 2, {"stock_size": 10})
    seat = state["turn"]
    state["hands"][seat] = ["4H", "4H", "9C", "JD", "KS"]
    table = presenter.present(km.view(state, seat))
    hand = table["me"]["hand"]
    assert [c["key"] for c in hand] == ["hand-0", "hand-0", "hand-2", "hand-3", "hand-4"]
    assert hand[0]["movable"] and hand[1]["movable"] and hand[0]["focus"]
    assert not hand[1]["focus"]


@pytest.mark.parametrize(
    ("players", "teams", "match"),
    [
        (2, False, "500"),
        (3, False, "single"),
        (4, True, "single"),
        (5, False, "single"),
        (6, True, "500"),
    ],
)
def test_every_event_of_bot_games_is_worded_for_every_seat(players, teams, match):
    rng = random.Random(players)
    names = [f"P{seat}" for seat in range(players)]
    state = km.new_game(
        7, players, {"teams": teams, "match": match, "stock_size": 8, "names": names}
    )
    log = [{"v": 0, "event": e} for e in presenter.opening_events(state)]
    for step in range(1, 4000):
        if km.outcome(state) is not None or state["round"] > 2:
            break
        seat = km.to_act(state)[0]
        if teams and step % 7 == 0 and state["phase"] == km.PLAY:
            state, events = km.apply(state, seat, {"type": "hint", "rank": "5", "pile": 1})
            log += [{"v": step, "event": e} for e in events]
        state, events = km.apply(state, seat, km.bot_action(km.view(state, seat), rng))
        log += [{"v": step, "event": e} for e in events]
        if step % 40 == 0 or km.outcome(state) is not None:
            for viewer in [*range(players), None]:
                table = presenter.present(km.view(state, viewer), log=log[-40:], since=step - 40)
                assert table.status or table.finished
    kinds = {entry["event"]["type"] for entry in log}
    assert {"deal", "play", "discard", "round_end"} <= kinds
    for entry in log:
        for viewer in [*range(players), None]:
            text = presenter.describe(entry["event"], viewer, names)
            assert "None" not in text and "{" not in text
            assert text or entry["event"]["type"] == "turn", entry


def test_a_room_host_may_choose_the_reshuffle_variant(game, seed, clock):
    anna, ben = Client(), Client()
    response = anna.post(
        "/spiele/katz-und-maus/raum/neu/",
        {"name": "Anna", "teams": "allein", "match": "single", "empty_draw": "recycle"},
    )
    url = response["Location"]
    assert "Variante: Baustapel mischen" in anna.get(url).content.decode()
    ben.post(url + "beitreten/", {"name": "Ben"})
    anna.post(url + "starten/", {})
    assert Room.objects.get().state["empty_draw"] == "recycle"
