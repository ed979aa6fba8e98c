"""A demo game of each game played to its end on the game page, with the console listened
to (issue 27, item 5): the ``open_browser`` windows fail the test on any console error or
uncaught script error (e.g. ``htmx:oobErrorNoTarget``).

The reader's moves are the ones the game's bot would choose, sent as the page's forms send
them (as tests/browser/test_replays_browser.py does); the bots are hurried where the demo
has a way to ask for their next move. The page stays open throughout and draws every new
table as it arrives (poll or push). Kätzchen-Angeln ends through its own „Zum Ergebnis“;
The Cat's last round is arranged one swap before a correct „Stopp!“ that ends the game
(a real round runs on the bots' clock, tests/browser/test_the_cat_browser.py).
"""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import expect

from games.engines import alpaka
from games.engines import katz_und_maus as km
from games.engines.base import OVER
from games.models import DemoGame
from tests.browser.conftest import DESKTOP, PHONE, open_game_page, show_demo
from tests.browser.test_katz_und_maus_browser import zug
from tests.browser.test_replays_browser import _post
from tests.browser.test_the_cat_browser import arrange, coach_off, frozen  # noqa: F401 (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MOVES = 3000


def _start(page, slug: str, choices: list[str]):
    demo = open_game_page(page, slug)
    for choice in choices:
        demo.get_by_text(choice, exact=True).click()
    demo.get_by_role("button", name="Spiel starten").click()
    return demo


def _play_out(page, slug: str, engine: str, module, reader_move, hurry: str) -> DemoGame:
    """The reader's moves (``reader_move(action) -> form data``) and the bots hurried
    until the game is over."""
    rng = random.Random(7)
    for _ in range(MOVES):
        row = DemoGame.objects.get(engine=engine)
        state = row.state
        if state["phase"] == OVER:
            return row
        if 0 not in module.to_act(state):
            _post(page, f"/spiele/{slug}/demo/{hurry}/", {"version": row.version})
            continue
        action = module.bot_action(module.view(state, 0), rng)
        _post(page, f"/spiele/{slug}/demo/aktion/", {"version": row.version, **reader_move(action)})
    raise AssertionError(f"the {engine} demo game did not end")


def _shows_the_end(page):
    """The page was open while the moves were sent; loaded again it shows the end."""
    page.reload()
    show_demo(page)
    expect(page.locator("#demo").get_by_role("button", name="Noch eine Partie")).to_be_visible()


def _alpaka_move(action: dict) -> dict:
    if action["type"] == "play":
        return {"aktion": f"play:{action['card']}"}
    return {"aktion": action["type"]}


def _katz_move(action: dict) -> dict:
    if action["type"] in ("end", "continue"):
        return {"aktion": action["type"]}
    return {"zug": zug(action)}


def test_alpaka_to_the_end(content, open_browser):
    page = open_browser(PHONE)
    _start(page, "alpaka", ["1", "20 Punkte"])
    coach_off(page)
    _play_out(page, "alpaka", "alpaka", alpaka, _alpaka_move, "gegner")
    _shows_the_end(page)


def test_katz_und_maus_to_the_end(content, open_browser):
    page = open_browser(DESKTOP)
    _start(page, "katz-und-maus", ["1", "10 Karten"])
    coach_off(page)
    _play_out(page, "katz-und-maus", "katz_und_maus", km, _katz_move, "schneller")
    _shows_the_end(page)


def test_kaetzchen_angeln_to_the_end(content, open_browser):
    page = open_browser(PHONE)
    demo = open_game_page(page, "kaetzchen-angeln")
    pile = demo.locator("#kz-pile-you")
    pile.click()  # the real UI: one flip of the own pile, then the rest at once
    demo.get_by_role("button", name="Zum Ergebnis").click()
    page.get_by_role("button", name="Ja, zum Ergebnis").click()
    result = page.get_by_role("dialog", name=re.compile("^(Sieg!|Niederlage|Unentschieden)$"))
    expect(result).to_be_visible()
    assert DemoGame.objects.get(engine="kaetzchen").state["result"] is not None


def test_the_cat_last_round_to_the_end(content, frozen, open_browser):  # noqa: F811
    page = open_browser(DESKTOP)
    demo = _start(page, "the-cat", ["2", "gemütlich"])
    coach_off(page)
    # The last round: 17 points already, three finished stacks, the fourth one swap away.
    arrange(frozen, scores=[17, 3, 2])
    page.reload()
    demo = show_demo(page)
    demo.get_by_role("button", name="Stapel 4 aufnehmen").click()
    demo.locator(".cat-hand").get_by_text("traurig").click()
    frozen.advance(3)  # the bots move meanwhile; the page draws their moves
    demo.get_by_role("button", name=re.compile(r"^albern aus der Mitte nehmen")).click()
    demo.get_by_role("button", name="Stopp!").click()
    expect(demo.get_by_role("button", name="Noch eine Partie")).to_be_visible(timeout=15000)
    assert DemoGame.objects.get(engine="the_cat").state["phase"] == OVER


def test_an_answer_for_a_replaced_table_finds_the_live_region(content, frozen, open_browser):  # noqa: F811
    """A poll sent before the reader's move and answered after it: the table it was sent
    from is gone. Its answer (with the bots' news for the live region, an out-of-band
    part) goes to the table shown now – before, htmx looked for the live region inside
    the detached old table: „htmx:oobErrorNoTarget“ for ``#the_cat-demo-live``."""
    page = open_browser(DESKTOP)
    demo = _start(page, "the-cat", ["2", "gemütlich"])
    coach_off(page)
    held = []
    page.route(
        "**/spiele/the-cat/demo/status/**",
        lambda route: route.continue_() if held else held.append(route),
    )
    with page.expect_request("**/spiele/the-cat/demo/status/**"):
        pass
    frozen.advance(20)  # the bots have moved by the time the held poll is answered
    before = int(demo.locator("[data-demo-body]").get_attribute("data-version"))
    demo.get_by_role("button", name="Stapel 1 aufnehmen").click()
    expect(demo.locator(".cat-hand")).to_contain_text("Deine Hand: Stapel 1")
    stale = held[0]
    response = stale.fetch()
    answered = int(response.headers["x-room-version"])
    with page.expect_event("requestfinished", lambda request: request is stale.request):
        stale.fulfill(response=response)
    page.unroute("**/spiele/the-cat/demo/status/**")
    # The answer was handled (a console error fails the test); the table shown is at least
    # as new as it, with the bots' news in the live region and the reader's hand in place.
    page.wait_for_function(
        "v => Number(document.querySelector('[data-demo-body]').dataset.version) >= v", arg=answered
    )
    assert answered > before
    expect(page.locator("#the_cat-demo-live")).not_to_be_empty()
    expect(demo.locator(".cat-hand")).to_contain_text("Deine Hand: Stapel 1")
