"""The Kätzchen-Angeln demo through its views: state in the visitor's row, versions,
Kätzchen's turn, „Zum Ergebnis“, new games, the no-JavaScript path and hidden cards."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.engines import kaetzchen as engine
from games.models import DemoGame
from games.play import demo_service
from rules.models import WorkedExample
from rules.publishing import publish
from site_config.page_cache import bump_generation
from tests.factories import make_article, make_game

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
SLUG = {"slug": "kaetzchen-angeln"}
URLS = {
    "flip": reverse("games:demo_act", kwargs=SLUG),
    "cat": reverse("games:demo_bot", kwargs=SLUG),
    "finish": reverse("games:demo_extra", kwargs={**SLUG, "name": "ergebnis"}),
    "new": reverse("games:demo_new", kwargs=SLUG),
    "auto": reverse("games:demo_extra", kwargs={**SLUG, "name": "auto"}),
    "speed": reverse("games:demo_extra", kwargs={**SLUG, "name": "tempo"}),
}
PAGE = "/spiele/kaetzchen-angeln/"
DEMO_PAGE = "/spiele/kaetzchen-angeln/demo/"


@pytest.fixture
def seeds(monkeypatch):
    """New games are dealt from these seeds, in order."""
    queue = [1001, 1002, 1003, 1004, 1005, 1006]
    monkeypatch.setattr("games.play.table.new_seed", lambda: queue.pop(0))
    return queue


@pytest.fixture(autouse=True)
def game_page(content):
    """The shipped game (its demo answers only for a published game)."""
    return PAGE


# The game page is cached for everybody and loads the visitor's demo as this fragment.
DEMO_FRAGMENT = DEMO_PAGE + "?zurueck=%2Fspiele%2Fkaetzchen-angeln%2F"


def get_demo(client):
    return client.get(DEMO_FRAGMENT, **HTMX)


def row():
    return DemoGame.objects.get(engine="kaetzchen")


def post(client, name, version, htmx=True, **data):
    payload = {"version": version, "zurueck": PAGE, **data}
    return client.post(URLS[name], payload, **(HTMX if htmx else {}))


def demo_region(html: str) -> str:
    """The demo's part of a page (the article around it quotes example cards)."""
    start = html.index('id="kz-demo"')
    return html[start : html.index("kaetzchen.js", start)]


def board_version(html: str) -> int:
    return int(re.search(r'id="kz-game"[^>]*data-version="(\d+)"', html, re.S).group(1))


def set_state(state, version=None, profile=None):
    current = row()
    current.state = state
    if version is not None:
        current.version = version
    if profile is not None:
        current.profile = profile
    current.save()
    return current


def state_with(you, cat, table=(), turn=0, moves=10, limit=5000):
    state = engine.new_game(7, options={"limit": limit})
    state.update(piles=[list(you), list(cat)], table=list(table), turn=turn, moves=moves)
    return state


def rest_of_deck(*used):
    return [code for code in engine.CARDS if code not in set().union(*used)]


# --------------------------------------------------------------------------
# Flipping


def test_first_flip_creates_the_row_and_applies_it(client, seeds):
    response = post(client, "flip", 0)
    assert response.status_code == 200
    game = row()
    assert game.version == 1
    assert game.state["moves"] == 1
    assert game.state["seed"] == 1001
    # The coach keeps its own keys beside these (tests/test_coach.py).
    assert {"games": 1, "auto": False, "speed": "normal"}.items() <= game.profile.items()
    html = response.content.decode()
    assert 'id="kz-game"' in html and "<html" not in html  # the partial only
    assert board_version(html) == 1
    assert "besucher" in response.cookies  # the visitor id for the next requests


def test_flip_then_cat_then_flip(client, seeds):
    post(client, "flip", 0)
    response = post(client, "cat", 1)
    assert row().state["moves"] == 2 and row().version == 2
    assert 'data-turn="you"' in response.content.decode()
    post(client, "flip", 2)
    assert row().state["moves"] == 3


def test_repeated_request_with_the_same_version_flips_once(client, seeds):
    post(client, "flip", 0)
    post(client, "cat", 1)
    first = post(client, "flip", 2)
    again = post(client, "flip", 2)  # double click / repeated request
    assert row().state["moves"] == 3 and row().version == 3
    assert board_version(again.content.decode()) == 3
    assert first.status_code == again.status_code == 200


def test_stale_tab_changes_nothing(client, seeds):
    post(client, "flip", 0)
    post(client, "cat", 1)
    before = row().state
    response = post(client, "cat", 1)  # an old tab asks again for Kätzchen's flip
    assert row().state == before and row().version == 2
    assert board_version(response.content.decode()) == 2


def test_request_without_version_changes_nothing(client, seeds):
    post(client, "flip", 0)
    response = client.post(URLS["cat"], {"zurueck": PAGE}, **HTMX)
    assert response.status_code == 200
    assert row().state["moves"] == 1


def test_visitor_flip_on_kaetzchens_turn_is_refused(client, seeds):
    post(client, "flip", 0)
    before = row().state
    response = post(client, "flip", 1)
    assert row().state == before and row().version == 1
    html = response.content.decode()
    assert "Warte auf den Gegner" in html
    assert 'data-turn="cat"' in html


def test_kaetzchen_does_not_flip_on_the_visitors_turn(client, seeds):
    response = post(client, "cat", 0)
    assert DemoGame.objects.count() == 0  # nothing was stored
    assert response.status_code == 200
    post(client, "flip", 0)
    post(client, "cat", 1)
    before = row().state
    response = post(client, "cat", 2)
    assert row().state == before and row().version == 2
    assert "Warte" not in response.content.decode()


def test_flip_response_shows_the_fish_with_the_won_row(client, seeds):
    post(client, "flip", 0)
    table = ["5S", "9H", "KD", "3C"]
    you = ["9C", "2D"]
    cat = rest_of_deck(table, you)
    set_state(state_with(you, cat, table, turn=0), version=5)
    html = post(client, "flip", 5).content.decode()
    assert 'data-flip-kind="fish"' in html and 'data-flip-seat="you"' in html
    assert 'data-flip-count="4"' in html
    assert "Geangelt! Du nimmst 4 Karten." in html
    # The row as it was when the card landed: 5S stays, 9H..9C are marked as won, both nines match.
    cards = re.findall(r'class="kz-card([^"]*)" data-card="(\w+)"', html)
    assert [code for _, code in cards] == ["5S", "9H", "KD", "3C", "9C"]
    marks = {code: classes for classes, code in cards}
    assert "is-won" not in marks["5S"]
    assert "is-match" in marks["9H"] and "is-match" in marks["9C"] and "is-new" in marks["9C"]
    assert all("is-won" in marks[code] for code in ("9H", "KD", "3C", "9C"))
    # Counts: the pile shows the count before the won cards arrive, then the final one.
    assert 'data-you="5"' in html
    assert re.search(r'data-kz-count="you"[^>]*>1<', html)


def test_flip_response_for_a_jack_clear(client, seeds):
    post(client, "flip", 0)
    table = ["5S", "9H"]
    cat = ["JD", "2C"]
    you = rest_of_deck(table, cat)
    set_state(state_with(you, cat, table, turn=1), version=3)
    html = post(client, "cat", 3).content.decode()
    assert 'data-flip-kind="jack"' in html and 'data-flip-seat="cat"' in html
    assert "Bube räumt ab! Kätzchen nimmt 3 Karten." in html


def test_page_reload_shows_the_stored_game(client, game_page, seeds):
    post(client, "flip", 0)
    post(client, "cat", 1)
    state = row().state
    html = get_demo(client).content.decode()
    assert board_version(html) == 2
    assert 'data-moves="2"' in html
    for code in state["table"]:
        assert f'data-card="{code}"' in html
    assert f'data-you="{len(state["piles"][0])}"' in html
    assert 'data-phase="play"' in html
    # Reloading never replays the last flip's animation.
    assert "data-flip-kind" not in html
    full = client.get(DEMO_PAGE).content.decode()
    assert board_version(full) == 2


def test_a_new_visitor_gets_a_fresh_game_and_no_row(client, game_page):
    html = demo_region(get_demo(client).content.decode())
    assert DemoGame.objects.count() == 0
    assert 'data-phase="deal"' in html and 'data-you="26"' in html and 'data-cat="26"' in html
    assert "Tippe auf deinen Stapel" in html
    assert "In diesem Spiel deckt der Gegner zuerst auf" not in html


# --------------------------------------------------------------------------
# New games, starter, Auto


def test_starter_alternates_from_game_to_game(client, game_page, seeds):
    post(client, "flip", 0)
    assert row().state["starter"] == 0
    post(client, "new", 1)
    assert row().state["starter"] == 1 and row().profile["games"] == 2
    html = demo_region(get_demo(client).content.decode())
    assert "In diesem Spiel deckt der Gegner zuerst auf" in html
    assert "Tippe auf deinen Stapel" not in html
    post(client, "new", 2)
    assert row().state["starter"] == 0 and row().profile["games"] == 3
    html = demo_region(get_demo(client).content.decode())
    assert "In diesem Spiel deckt der Gegner zuerst auf" not in html


def test_new_game_before_the_first_flip_is_the_second_game(client, seeds):
    """The page showed game 1 (dealt, not yet stored); a new deal is game 2."""
    post(client, "new", 0)
    assert row().state["starter"] == 1 and row().profile["games"] == 2


def test_new_game_with_a_stale_version_keeps_the_running_game(client, seeds):
    post(client, "flip", 0)
    post(client, "new", 0)
    assert row().state["moves"] == 1 and row().state["seed"] == 1001


def test_auto_is_remembered_without_touching_the_game(client, game_page, seeds):
    post(client, "flip", 0)
    response = client.post(URLS["auto"], {"an": "1", "zurueck": PAGE}, **HTMX)
    assert response.status_code == 204
    assert row().profile["auto"] is True and row().version == 1
    assert 'data-auto="1"' in get_demo(client).content.decode()
    client.post(URLS["auto"], {"an": "0", "zurueck": PAGE}, **HTMX)
    assert row().profile["auto"] is False


def test_autos_speed_is_remembered_without_touching_the_game(client, game_page, seeds):
    post(client, "flip", 0)
    html = get_demo(client).content.decode()
    assert 'data-speed="normal"' in html
    assert 'role="group" aria-label="Tempo von Auto"' in html
    assert 'value="normal" class="kz-btn kz-speed__choice" aria-pressed="true"' in html
    response = client.post(URLS["speed"], {"tempo": "sehr-schnell", "zurueck": PAGE}, **HTMX)
    assert response.status_code == 204
    assert row().profile["speed"] == "sehr-schnell" and row().version == 1
    html = get_demo(client).content.decode()
    assert 'data-speed="sehr-schnell"' in html
    assert 'value="sehr-schnell" class="kz-btn kz-speed__choice" aria-pressed="true"' in html
    # An unknown speed is refused; the stored one stays.
    client.post(URLS["speed"], {"tempo": "blitz", "zurueck": PAGE}, **HTMX)
    assert row().profile["speed"] == "sehr-schnell"
    # Without JavaScript the choice redirects back to the demo.
    response = client.post(URLS["speed"], {"tempo": "schnell", "zurueck": PAGE})
    assert response.status_code == 302 and row().profile["speed"] == "schnell"


def test_statistics_counts_are_pluralised(monkeypatch):
    from django.template.loader import render_to_string
    from django.utils import timezone

    from games.play.kaetzchen import statistics

    bins = [
        {"from": 0, "to": 99, "count": 1},
        {"from": 100, "to": 199, "count": 3},
        {"from": 200, "to": 5000, "count": 0},
    ]
    figures = {"histogram": bins, "median_moves": 150}
    stats = {
        "games": "4",
        "computed_at": timezone.now(),
        "facts": [],
        "median": "150",
        "median_value": 150,
        "histogram": statistics.histogram(figures, 4),
    }
    monkeypatch.setattr(statistics, "load", lambda: stats)
    html = render_to_string("play/kaetzchen/statistics.html", {})
    assert "0–99 Züge: 1 Partie (" in html
    assert "100–199 Züge: 3 Partien (" in html
    assert "enden nach 100–199 Zügen" in html and "Median liegt bei 150 Zügen" in html


# --------------------------------------------------------------------------
# Zum Ergebnis


def test_finish_plays_out_exactly_like_flipping_by_hand(client, seeds):
    post(client, "flip", 0)
    post(client, "cat", 1)
    state = row().state
    by_hand = state
    while by_hand["result"] is None:
        by_hand, _ = engine.apply(by_hand, by_hand["turn"], {"type": "flip"})
    html = post(client, "finish", 2).content.decode()
    final = row().state
    assert final["result"] == by_hand["result"]
    assert final["moves"] == by_hand["moves"] and final["piles"] == by_hand["piles"]
    assert 'id="kz-result"' in html and 'data-phase="over"' in html
    title = {"you": "Sieg!", "cat": "Niederlage", None: "Unentschieden"}[final["result"]["winner"]]
    assert f'id="kz-result-title">{title}<' in html
    assert f"<dd>{final['moves']}</dd>" in html
    assert f"{final['moves'] - 2} davon hat „Zum Ergebnis“" in html
    # Finishing again changes nothing.
    post(client, "finish", 3)
    assert row().version == 3


def test_limit_result_says_the_card_count_decides(client, seeds):
    post(client, "flip", 0)
    you, cat = engine.deal(5)
    state = state_with(you, cat, turn=0, moves=0, limit=7)
    set_state(state, version=4)
    html = post(client, "finish", 4).content.decode()
    assert "Zuglimit erreicht – Kartenzahl entscheidet" in html
    assert row().state["moves"] == 7


def test_finished_game_refuses_flips_and_offers_a_new_round(client, seeds):
    post(client, "flip", 0)
    post(client, "finish", 1)
    before = row().state
    html = post(client, "flip", 2).content.decode()
    assert row().state == before
    assert "Die Partie ist bereits beendet." in html
    assert "Neue Runde" in html
    post(client, "new", 2)
    assert row().state["moves"] == 0 and row().state["result"] is None


# --------------------------------------------------------------------------
# Without JavaScript


def test_without_javascript_forms_redirect_back_to_the_page(client, game_page, seeds):
    # Without JavaScript the demo is the full-screen page (the game page links to it).
    response = post(client, "flip", 0, htmx=False, zurueck=DEMO_PAGE)
    assert response.status_code == 302
    assert response["Location"] == DEMO_PAGE + "#kz-demo"
    response = post(client, "flip", 1, htmx=False, zurueck=DEMO_PAGE)  # Kätzchen's turn
    assert response["Location"] == DEMO_PAGE + "#kz-demo"
    html = client.get(DEMO_PAGE).content.decode()  # the refusal travels as a message
    assert "Warte auf den Gegner" in html
    again = client.get(DEMO_PAGE).content.decode()
    assert 'data-note="1"' in html and 'data-note="1"' not in again
    # The visible button for Kätzchen's turn (hidden when JavaScript runs).
    assert "Kätzchen aufdecken lassen" in html
    response = post(client, "cat", 1, htmx=False)
    assert response.status_code == 302 and row().state["moves"] == 2


def test_confirmation_pages_without_javascript(client, game_page, seeds):
    post(client, "flip", 0, htmx=False)
    page = client.get(URLS["finish"], {"zurueck": DEMO_PAGE})
    html = page.content.decode()
    assert page.status_code == 200
    assert "Zum Ergebnis springen?" in html and 'name="version" value="1"' in html
    assert f'href="{DEMO_PAGE}#kz-demo"' in html
    response = client.post(URLS["finish"], {"version": 1, "zurueck": DEMO_PAGE})
    assert response["Location"] == DEMO_PAGE + "#kz-demo"
    assert row().state["result"] is not None
    html = client.get(URLS["new"], {"zurueck": PAGE}).content.decode()
    assert "Neues Spiel starten?" in html


def test_redirect_target_must_be_on_this_site(client, seeds):
    response = client.post(URLS["flip"], {"version": 0, "zurueck": "https://example.com/"})
    assert response["Location"] == DEMO_PAGE + "#kz-demo"
    response = client.post(URLS["flip"], {"version": 1, "zurueck": "//example.com/x"})
    assert response["Location"].startswith(DEMO_PAGE)


def test_actions_need_post(client):
    assert client.get(URLS["flip"]).status_code == 405
    assert client.get(URLS["cat"]).status_code == 405
    assert client.get(URLS["auto"]).status_code == 405


# --------------------------------------------------------------------------
# The page markup


def test_game_container_has_sync_and_history_off(client, game_page):
    page = client.get(game_page).content.decode()
    html = get_demo(client).content.decode()
    assert re.search(r'id="kz-game"[^>]*hx-sync="this:drop"', html, re.S)
    assert 'id="kz-demo" hx-history="false"' in html
    assert 'role="status" aria-live="polite"' in html
    assert "kaetzchen.css" in page and "kaetzchen.js" in html
    for part in (page, html):
        assert "<script>" not in part  # no inline script (CSP)
        assert ' style="' not in part  # no inline styles (CSP)
    demo = demo_region(html)
    assert "Rückgängig" not in demo and "Tipp:" not in demo and "Hinweis:" not in demo


def test_low_pile_is_highlighted(client, game_page, seeds):
    post(client, "flip", 0)
    you = ["2C", "3C"]
    cat = rest_of_deck(you)
    set_state(state_with(you, cat, turn=0))
    html = get_demo(client).content.decode()
    assert re.search(r'class="kz-seat kz-seat--you[^"]*is-low', html)
    assert not re.search(r'class="kz-seat kz-seat--cat[^"]*is-low', html)


# --------------------------------------------------------------------------
# Hidden information


_ENCODINGS = {}  # every way a page could name a card -> its code
for _code in engine.CARDS:
    _ENCODINGS[f'data-card="{_code}"'] = _code
    _ENCODINGS[engine.card_label(_code)] = _code
    _ENCODINGS[engine.card_symbol(_code)] = _code
# Longest first, and not inside a longer number or label ("Kreuz 10" is not "Kreuz 1…").
CARD_NAMES = re.compile(
    r"(?<![\dA-Z])("
    + "|".join(re.escape(name) for name in sorted(_ENCODINGS, key=len, reverse=True))
    + r")(?!\d)"
)


def shown_cards(html: str) -> set[str]:
    return {_ENCODINGS[match] for match in CARD_NAMES.findall(html)}


def pile_sequences(state) -> list[str]:
    """The next three cards of each pile, in the encodings a page could use."""
    sequences = []
    for pile in state["piles"]:
        top = pile[:3]
        if len(top) == 3:
            sequences.append("".join(top))
            sequences.append(" ".join(top))
            sequences.append(", ".join(engine.card_symbol(c) for c in top))
            sequences.append(", ".join(engine.card_label(c) for c in top))
            sequences.append('", "'.join(top))
    return sequences


def test_no_response_of_a_whole_game_reveals_pile_order(client, game_page, seeds):
    """Script a game through the views; every response shows only public cards."""
    responses = [demo_region(get_demo(client).content.decode())]
    flipped: set[str] = set()  # every card that has been face up so far
    version = 0
    for _step in range(160):
        state = row().state if version else None
        if state is not None and state["result"] is not None:
            break
        turn = "flip" if state is None or state["turn"] == 0 else "cat"
        html = post(client, turn, version).content.decode()
        version += 1
        state = row().state
        flipped.add(state["last"]["card"])  # just turned face up in front of everybody
        responses.append(html)
        assert shown_cards(html) <= flipped, shown_cards(html) - flipped
        for sequence in pile_sequences(state):
            if not set(sequence.replace(",", " ").split()) <= flipped:
                assert sequence not in html
        if version % 10 == 0:  # a reload now and then
            page = demo_region(get_demo(client).content.decode())
            assert shown_cards(page) <= flipped
            responses.append(page)
    assert version > 20
    # „Zum Ergebnis“: the cards flipped on the way are public now, but nothing more.
    walk = row().state
    while walk["result"] is None:
        flipped.add(walk["piles"][walk["turn"]][0])
        walk, _ = engine.apply(walk, walk["turn"], {"type": "flip"})
    html = post(client, "finish", version).content.decode()
    assert shown_cards(html) <= flipped
    responses.append(html)
    game_seed = row().state["seed"]
    for html in responses:
        assert str(game_seed) not in html
        assert '"piles"' not in html


def test_page_of_a_fresh_game_shows_no_card_at_all(client, game_page, seeds):
    post(client, "new", 0)
    html = demo_region(get_demo(client).content.decode())
    assert shown_cards(html) == set()


# --------------------------------------------------------------------------
# Speed budget: database work per flip


@pytest.mark.django_db(transaction=True)
def test_one_flip_reads_and_writes_the_row_once(client, seeds):
    """One SELECT (… FOR UPDATE on PostgreSQL) and one UPDATE inside the transaction."""
    post(client, "flip", 0)
    with CaptureQueriesContext(connection) as queries:
        post(client, "cat", 1)
    statements = [query["sql"].split()[0].upper() for query in queries.captured_queries]
    work = [s for s in statements if s not in ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE")]
    assert work == ["SELECT", "UPDATE"], statements
    assert len(statements) <= 4  # plus BEGIN (IMMEDIATE) and COMMIT


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def _checked_example(article, number):
    return WorkedExample.objects.create(
        article=article,
        title=f"Beispiel {number}",
        body="Text.",
        engine_check={"engine": "kaetzchen", "kind": "flip", "table": ["5S", "9H"], "card": "9C"},
        expect={"kind": "fish", "won": ["9H", "9C"], "table": ["5S"]},
        position=number,
    )


def test_game_page_queries_statistics_and_demo_row_once_each(client, seeds):
    """Statistics cost one query, the exercises beside the sections one more (a game
    with exercise kinds); the drawn examples none – however many there are (no N+1). The
    visitor's demo row is a fragment of its own."""
    call_command("simulate_kaetzchen", deals=50, stdout=StringIO())
    plain = make_game("ohne-demo")
    make_article(plain, sections=("ziel", "beispiel"))
    base = _queries(client, plain.get_absolute_url())

    game = make_game("kaetzchen-test", demo_engine="kaetzchen")
    article = make_article(game, published=False, sections=("ziel", "beispiel", "statistik"))
    _checked_example(article, 1)
    publish(article)
    url = game.get_absolute_url()
    html = client.get(url).content.decode()
    assert "kz-hist" in html and "kz-steps" in html
    client.cookies.clear()
    bump_generation()  # count a render, not a page-cache hit
    assert _queries(client, url) == base + 2  # statistics, exercises; the demo is a fragment

    post(client, "flip", 0)  # now the visitor has a row (and a cookie)
    bump_generation()
    assert _queries(client, url) == base + 2  # the cached page never looks at the row
    for number in range(2, 8):
        _checked_example(article, number)
    publish(article)
    assert client.get(url).content.decode().count('<figure class="ex-steps is-stepping"') == 7
    bump_generation()
    assert _queries(client, url) == base + 2


def test_demo_service_is_engine_agnostic(db):
    """A different engine's action runs through the same locking and versioning."""
    calls = []

    def create():
        return {"n": 0}, {}

    def bump(current):
        current.state = {"n": current.state["n"] + 1}
        calls.append(current.state["n"])
        return "ok"

    first = demo_service.perform("v1", "other", bump, create=create, expected_version=0)
    assert first.applied and first.result == "ok" and first.row.version == 1
    stale = demo_service.perform("v1", "other", bump, create=create, expected_version=0)
    assert stale.stale and not stale.applied and stale.row.state == {"n": 1}
    kept = demo_service.perform(
        "v1", "other", bump, create=create, expected_version=None, bump_version=False
    )
    assert kept.applied and kept.row.version == 1 and kept.row.state == {"n": 2}
    assert calls == [1, 2]
    assert demo_service.current("v1", "other").state == {"n": 2}
    assert demo_service.current("v2", "other") is None


def test_demo_service_reports_refusals_and_keeps_the_row(db):
    from games.engines.base import IllegalAction

    def create():
        return {"n": 0}, {}

    def refuse(current):
        current.state = {"n": 99}  # half-done work must not survive
        raise IllegalAction("Nicht jetzt.")

    demo_service.perform("v1", "other", lambda r: None, create=create, expected_version=0)
    outcome = demo_service.perform("v1", "other", refuse, create=create, expected_version=1)
    assert outcome.error == "Nicht jetzt." and not outcome.applied
    assert outcome.row.state == {"n": 0}
    assert DemoGame.objects.get(visitor="v1").state == {"n": 0}


def test_demo_pages_set_the_visitor_cookie_before_the_first_action(client, content):
    from games.visitors import COOKIE_NAME

    for url, headers in ((DEMO_FRAGMENT, HTMX), (DEMO_PAGE, {})):
        client.cookies.clear()
        response = client.get(url, **headers)
        assert COOKIE_NAME in response.cookies, url
        assert response.cookies[COOKIE_NAME]["httponly"]
    # The game page is the same for everybody: the fragment it loads sets the cookie.
    client.cookies.clear()
    assert not client.get("/spiele/kaetzchen-angeln/").cookies
    # A page without a demo (the catalogue) sets no cookie.
    client.cookies.clear()
    assert COOKIE_NAME not in client.get("/spiele/").cookies
