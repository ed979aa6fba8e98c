"""Replays and spectators in the browser.

- A Katz und Maus demo game is finished (the reader's moves sent by the test, the bots
  hurried with „Schneller“), its replay opened from the end of the game, stepped to
  move 10 by keyboard and buttons; the share link opened in a second browser shows the
  same board. „Alle Karten zeigen“ after the last step.
- A spectator finds a public The Cat room under „Mitspieler finden“, watches Anna's
  swaps arrive live and never gets a hidden card: every card on the spectator's page
  is a middle card (the stacks are face down; Anna's hand is hers).

Screenshots (``SCREENSHOT_DIR``): the replay at 390 and 1366 px, the spectator's view,
the statistics sections.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from games.engines import katz_und_maus as km
from games.models import DemoGame, Replay
from rooms.models import Room
from tests.browser.conftest import DESKTOP, PHONE, assert_accessible
from tests.browser.test_katz_und_maus_browser import zug
from tests.browser.test_the_cat_browser import cat, frozen  # noqa: F401 (fixtures)
from tests.factories import make_article, make_game

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]


def screenshot(page, name, selector=None):
    """For humans to look at (``SCREENSHOT_DIR``); the caret stays as it is: hiding it
    would inject an inline style, which the site's CSP refuses (a console error)."""
    directory = os.environ.get("SCREENSHOT_DIR")
    if directory:
        Path(directory).mkdir(parents=True, exist_ok=True)
        path = str(Path(directory) / f"{name}.png")
        if selector:
            page.locator(selector).first.screenshot(path=path, caret="initial")
        else:
            page.screenshot(path=path, full_page=True, caret="initial")


@pytest.fixture
def katz(monkeypatch):
    game = make_game(
        "katz-und-maus", title="Katz und Maus", demo_engine="katz_und_maus", players_max=6
    )
    make_article(game)
    monkeypatch.setattr("games.play.table.new_seed", lambda: 31)
    return game


def _post(page, path: str, data: dict):
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    response = page.request.post(
        path, form=data, headers={"X-CSRFToken": token, "HX-Request": "true"}
    )
    assert response.ok, response.status


def _finish_demo(page) -> DemoGame:
    """The reader's moves as the bot would choose them; the bots hurried after each."""
    rng = random.Random(5)
    for _ in range(3000):
        row = DemoGame.objects.get(engine="katz_und_maus")
        state = row.state
        if state["phase"] == km.OVER:
            return row
        if 0 not in km.to_act(state):
            _post(page, "/spiele/katz-und-maus/demo/schneller/", {"version": row.version})
            continue
        action = km.bot_action(km.view(state, 0), rng)
        data = {"version": row.version}
        if action["type"] in ("end", "continue"):
            data["aktion"] = action["type"]
        else:
            data["zug"] = zug(action)
        _post(page, "/spiele/katz-und-maus/demo/aktion/", data)
    raise AssertionError("the demo game did not end")


def test_replay_of_a_demo_game_step_to_10_and_share(katz, open_browser):
    page = open_browser(DESKTOP)
    page.goto("/spiele/katz-und-maus/demo/")
    demo = page.locator("#katz_und_maus-demo")
    demo.get_by_text("10 Karten", exact=True).click()
    demo.get_by_role("button", name="Spiel starten").click()
    expect(demo.locator(".km-status")).to_be_visible()
    row = _finish_demo(page)
    replay = Replay.objects.get()
    assert replay.source == "demo" and replay.steps == len(row.record["log"])
    page.reload()
    expect(demo.locator(".km-end")).to_be_visible()
    demo.get_by_role("link", name="Partie nachspielen").click()
    expect(page).to_have_url(re.compile(rf"/partien/{replay.pk}/$"))
    expect(page.locator("#replay-step")).to_have_text("0")
    # replay.js is running once it has shown its button (keys before that would be lost).
    expect(page.get_by_role("button", name="▶ Abspielen")).to_be_visible()
    # Keyboard: → five times, then the button, then ← once and → again.
    for _ in range(5):
        page.keyboard.press("ArrowRight")
        expect(page.locator("#replay-step")).to_have_text(str(_ + 1))
    for step in range(6, 11):
        page.locator("#replay-next").click()
        expect(page.locator("#replay-step")).to_have_text(str(step))
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#replay-step")).to_have_text("9")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-step")).to_have_text("10")
    expect(page).to_have_url(re.compile(r"\?zug=10$"))  # every step has its own address
    share = page.locator("#replay-share-url").input_value()
    assert share.endswith(f"/partien/{replay.pk}/?zug=10")
    board = page.locator(".replay-board").inner_html()
    assert_accessible(page)
    screenshot(page, "replay-desktop")

    other = open_browser(PHONE)  # another browser: its own cookies, never played
    other.goto(share)
    expect(other.locator("#replay-step")).to_have_text("10")
    assert other.locator(".replay-board").inner_html() == board
    screenshot(other, "replay-phone")
    assert other.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # Autoplay steps on by itself, and stops again.
    other.get_by_role("button", name="▶ Abspielen").click()
    expect(other.locator("#replay-step")).to_have_text("11", timeout=5000)
    other.get_by_role("button", name="❚❚ Anhalten").click()
    # After the last step every hand may be seen.
    other.goto(f"/partien/{replay.pk}/?zug={replay.steps}")
    other.get_by_role("link", name="Alle Karten zeigen").click()
    expect(other.locator(".replay-hands__seat")).to_have_count(2)
    assert_accessible(other)


def test_a_spectator_watches_a_public_the_cat_room_live(cat, frozen, open_browser):  # noqa: F811
    anna = open_browser(DESKTOP)
    anna.goto("/spiele/the-cat/raum/neu/")
    anna.get_by_label("Dein Name am Tisch").fill("Anna")
    anna.get_by_role("button", name="Raum eröffnen").click()
    anna.get_by_role("button", name="Öffentlich machen").click()
    # The lobby answers each click with a new body: the next click waits for it (a click
    # on the old body while the answer is on its way is dropped, and the room stayed private).
    expect(anna.get_by_role("button", name="Wieder privat machen")).to_be_visible()
    anna.get_by_role("button", name="Bot hinzufügen").click()
    expect(anna.get_by_role("button", name="Partie starten")).to_be_enabled()
    anna.get_by_role("button", name="Partie starten").click()
    expect(anna.get_by_role("button", name="Stapel 1 aufnehmen")).to_be_visible()

    viewer = open_browser(PHONE)
    viewer.goto("/mitspieler-finden/")
    viewer.get_by_role("link", name=re.compile("Zuschauen")).click()
    expect(viewer).to_have_url(re.compile(r"/spiele/the-cat/zuschauen/[\w-]+/$"))
    expect(viewer.locator(".room-note--watch")).to_be_visible()
    code = Room.objects.get().code
    assert code not in viewer.content()

    def assert_only_public_cards():
        state = Room.objects.get().state
        shown = set(viewer.locator("#room-body [data-card]").evaluate_all(
            "cards => cards.map(card => card.dataset.card)"
        ))  # fmt: skip
        assert shown <= set(state["middle"]), shown - set(state["middle"])
        expect(viewer.locator(".cat-hand")).to_have_count(0)

    assert_only_public_cards()
    # Anna takes a stack and swaps: the spectator sees the new middle card arrive.
    anna.get_by_role("button", name="Stapel 1 aufnehmen").click()
    expect(anna.locator(".cat-hand .cat-card")).to_have_count(4)
    before = set(Room.objects.get().state["middle"])
    anna.locator(".cat-hand label.cat-card").first.click()
    wanted = sorted(before)[0]
    anna.locator(f'button[name="nimm"][value="{wanted}"]').click()
    expect(anna.locator(f'.cat-hand [data-card="{wanted}"]')).to_be_visible()
    middle = Room.objects.get().state["middle"]
    arrived = (set(middle) - before).pop()
    expect(viewer.locator(f'#room-body [data-card="{arrived}"]')).to_be_visible(timeout=10000)
    assert_only_public_cards()
    # The players see that someone watches (with their next table).
    anna.get_by_role("button", name="Stapel zurücklegen").click()
    expect(anna.locator("#room-watchers")).to_have_text("1 Person schaut zu")
    assert_accessible(viewer)
    screenshot(viewer, "spectator-phone")
    viewer.set_viewport_size(DESKTOP)
    screenshot(viewer, "spectator-desktop")
    screenshot(anna, "spectator-count-player-desktop", "#room-body")


def test_statistics_sections_of_alpaka_and_the_cat(open_browser):
    for slug, title, engine in (("alpaka", "Alpaka", "alpaka"), ("the-cat", "The Cat", "the_cat")):
        make_article(make_game(slug, title=title, demo_engine=engine))
    call_command("simulate_alpaka", games=3)
    call_command("simulate_the_cat", games=1)
    for viewport, suffix in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page = open_browser(viewport)
        for slug in ("alpaka", "the-cat"):
            page.goto(f"/spiele/{slug}/#statistik")
            section = page.locator("#statistik")
            expect(section.locator("svg.stat-chart").first).to_be_visible()
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
            screenshot(page, f"statistics-{slug}-{suffix}", "#statistik")
        assert_accessible(page)
