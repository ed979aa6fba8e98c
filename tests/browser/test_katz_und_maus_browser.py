"""Katz und Maus in the browser: a whole two-player demo game against a bot, played
by a script through the two-step card moves (source, then target) to its end, with a
reload in the middle; a room with two browsers; axe-core and the phone layout."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import expect

from games.engines import katz_und_maus as km
from games.models import DemoGame
from rooms.models import Room
from tests.browser.conftest import DESKTOP, PHONE, assert_accessible, screenshot
from tests.factories import make_article, make_game

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]

SEED = 31
BODY = "[data-demo-body]"


@pytest.fixture
def katz(monkeypatch):
    game = make_game(
        "katz-und-maus", title="Katz und Maus", demo_engine="katz_und_maus", players_max=6
    )
    make_article(game)
    monkeypatch.setattr("games.play.table.new_seed", lambda: SEED)
    return game


def zug(action: dict) -> str:
    if action["type"] == "discard":
        return f"hand:{action['card']} discard:{action['pile'] + 1}"
    source = action["source"]
    if source == "hand":
        source = f"hand:{action['card']}"
    elif source == "discard":
        source = f"discard:{action['index'] + 1}"
    return f"{source} build:{action['pile'] + 1}"


def make_move(page, root, action: dict, drag: bool = False) -> None:
    """Choose the source card, then the target button that appeared for it
    (``drag``: drag the card onto the pile instead)."""
    if action["type"] == "end":
        root.get_by_role("button", name="Fertig – Zug beenden").click()
        return
    if action["type"] == "continue":
        root.get_by_role("button", name="Weiter").click()
        return
    button = root.locator(f'button[name="zug"][value="{zug(action)}"]')
    key = re.search(r"km-go--([\w-]+)", button.get_attribute("class")).group(1)
    expect(button).to_be_hidden()  # only the chosen source shows its targets
    source = root.locator(f'label:has(input[name="wahl"][value="{key}"])')
    if drag:
        value = zug(action)
        target = root.locator(f'.km-build:has(button[name="zug"][value="{value}"])')
        # Hand and build piles on one screen (the page may have scrolled to what is under
        # the table): the drag starts and ends where a reader sees both.
        target.scroll_into_view_if_needed()
        source.drag_to(target)
        return
    source.click()
    expect(button).to_be_visible()
    button.click()


def version(page, selector=BODY) -> int:
    return int(page.locator(selector).get_attribute("data-version"))


def no_horizontal_overflow(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def quicken_the_bot(monkeypatch) -> None:
    """From now on the bot thinks 0.1–0.15 s instead of 0.6–0.9 s: a whole game tests the
    flow, and the page still polls for each bot move when it is due (its delay follows
    ``bot_due``)."""
    from datetime import timedelta

    monkeypatch.setattr(
        "games.play.scheduler.bot_delay",
        lambda engine, key: timedelta(seconds=0.1 + 0.05 * random.Random(key).random()),
    )


def test_a_whole_demo_game_against_a_bot(katz, open_browser, monkeypatch):
    page = open_browser(DESKTOP)
    page.goto("/spiele/katz-und-maus/demo/")
    demo = page.locator("#katz_und_maus-demo")
    demo.get_by_text("10 Karten", exact=True).click()
    demo.get_by_role("button", name="Spiel starten").click()
    expect(demo.locator(".km-status")).to_contain_text("Paco überlegt")
    quicken_the_bot(monkeypatch)
    rng = random.Random(3)
    moves = 0
    reloaded = checked = dragged = False
    for _ in range(2000):
        # Wait until it is the reader's turn or the game is over (the page polls the bot's moves).
        expect(demo.locator(".km-status--mine, .km-end")).to_be_visible(timeout=30000)
        state = DemoGame.objects.get(engine="katz_und_maus").state
        if state["phase"] == km.OVER:
            break
        if state["turn"] != 0:  # the page showed an older table than the row's: wait on
            continue
        if not checked:
            screenshot(page, "katz-demo-my-turn-desktop")
            assert_accessible(page)
            checked = True
        if moves == 12 and not reloaded:
            before = version(page)
            page.reload()
            expect(demo.locator(".km-status--mine")).to_be_visible()
            assert version(page) == before  # the same game goes on
            reloaded = True
        action = km.bot_action(km.view(state, 0), rng)
        before = version(page)
        drag = not dragged and action["type"] == "play"
        make_move(page, demo, action, drag=drag)
        dragged = dragged or drag
        expect(demo.locator(BODY)).not_to_have_attribute("data-version", str(before))
        moves += 1
    expect(demo.locator(".km-end")).to_be_visible()
    assert reloaded and dragged and moves > 12
    expect(demo.locator(".km-end__title")).to_have_text(re.compile("Gewonnen!|Partie vorbei|Unent"))
    expect(demo.locator(".km-result")).to_contain_text("Wertung – Spiel 1")
    screenshot(page, "katz-demo-end-desktop")
    assert_accessible(page)
    demo.get_by_role("button", name="Noch eine Partie").click()
    expect(demo.locator(".km-bar__round")).to_have_text("Spiel 1")


def test_the_demo_on_a_phone_with_teams_of_two(katz, open_browser):
    page = open_browser(PHONE)
    page.goto("/spiele/katz-und-maus/demo/")
    demo = page.locator("#katz_und_maus-demo")
    demo.locator("label.choice--pill").nth(1).click()  # 2 bots: teams need 4 or 6 players
    demo.get_by_text("Teams", exact=True).click()
    demo.get_by_role("button", name="Spiel starten").click()
    expect(demo.locator(".room-note")).to_contain_text("nur zu viert oder zu sechst")
    demo.locator("label.choice--pill").nth(2).click()  # 3 bots
    demo.get_by_text("Teams", exact=True).click()  # the refused form shows the stored settings
    demo.get_by_role("button", name="Spiel starten").click()
    expect(demo.locator(".km-seat")).to_have_count(3)
    expect(demo.locator(".km-seat.is-partner")).to_contain_text("Minka")
    # The bots' turns at once instead of move by move.
    demo.get_by_role("button", name="Schneller").click()
    expect(demo.locator(".km-status--mine")).to_be_visible()
    assert no_horizontal_overflow(page)
    demo.get_by_label("Karte", exact=True).select_option("A")
    demo.get_by_label("auf Baustapel", exact=True).select_option("2")
    demo.get_by_role("button", name="Hinweis geben").click()
    expect(demo.locator(".km-seat.is-partner")).to_contain_text("Dein Hinweis: „Leg dein Ass")
    # Choosing a card shows where it may go; keyboard: the radio group and its targets.
    label = demo.locator("label.km-src").first
    label.click()
    expect(demo.locator(".km-go:visible").first).to_be_visible()
    expect(demo.locator(".km-prompt")).to_be_visible()
    screenshot(page, "katz-demo-phone")
    assert no_horizontal_overflow(page)
    assert_accessible(page)
    # By keyboard: a card of the radio group, then Tab to its first target and Enter.
    page.keyboard.press("Escape")
    first = demo.locator('input[name="wahl"]').first
    first.focus()
    page.keyboard.press("Space")
    expect(first).to_be_checked()
    page.keyboard.press("Tab")
    focused = page.locator(":focus")
    expect(focused).to_have_class(re.compile(r"\bkm-go\b"))
    assert focused.get_attribute("aria-label").endswith(" legen und den Zug beenden") or (
        "auf Baustapel" in focused.get_attribute("aria-label")
    )
    before = version(page)
    page.keyboard.press("Enter")
    expect(demo.locator(BODY)).not_to_have_attribute("data-version", str(before))
    expect(demo.locator(".km-log__list")).to_contain_text("Du legst")


@pytest.mark.multiplayer
def test_a_room_with_two_browsers(katz, open_browser):
    anna = open_browser(DESKTOP)
    anna.goto("/spiele/katz-und-maus/raum/neu/")
    anna.get_by_label("Dein Name am Tisch").fill("Anna")
    anna.get_by_text("10 Karten", exact=True).click()
    anna.get_by_role("button", name="Raum eröffnen").click()
    expect(anna).to_have_url(re.compile(r"/spiele/katz-und-maus/raum/[\w-]{16}/$"))
    invite = anna.locator("#invite-link").inner_text().strip()
    ben = open_browser(PHONE)
    ben.goto(invite)
    ben.get_by_label("Dein Name am Tisch").fill("Ben")
    ben.get_by_role("button", name="Beitreten").click()
    expect(anna.locator(".player")).to_have_count(2)
    expect(ben.locator(".settings-summary")).to_contain_text("10 Karten")
    screenshot(ben, "katz-lobby-phone")
    assert no_horizontal_overflow(ben)
    assert_accessible(anna)
    anna.get_by_role("button", name="Partie starten").click()
    # Seat 0 (Anna) deals, Ben starts.
    expect(ben.locator(".km-status--mine")).to_be_visible()
    expect(anna.locator(".km-status")).to_contain_text("Ben ist am Zug")
    expect(ben.locator(".km-timer")).to_contain_text("Deine Zugzeit")
    expect(ben.locator(".km-rule")).to_contain_text("höchste Handkarte")
    screenshot(ben, "katz-room-phone")
    screenshot(anna, "katz-room-desktop")
    assert no_horizontal_overflow(ben)
    assert_accessible(ben)
    rng = random.Random(4)
    pages = {0: anna, 1: ben}
    for _ in range(12):
        room = Room.objects.get()
        state = room.state
        seat = km.to_act(state)[0]
        page = pages[seat]
        expect(page.locator(".km-status--mine")).to_be_visible()
        expect(page.locator("#room-body")).to_have_attribute("data-version", str(room.version))
        make_move(page, page, km.bot_action(km.view(state, seat), rng))
        expect(page.locator("#room-body")).not_to_have_attribute("data-version", str(room.version))
        if Room.objects.get().state["phase"] != km.PLAY:
            break
    # The other browser follows without reloading.
    room = Room.objects.get()
    for page in pages.values():
        expect(page.locator("#room-body")).to_have_attribute(
            "data-version", str(room.version), timeout=5000
        )
    assert_accessible(anna)


def touch_drag(page, source, target, steps: int = 8) -> None:
    """A finger presses ``source``, moves to ``target`` and lets go: real touch events
    (Chromium turns them into pointer events of type touch), not a mouse."""
    # Piles and card on one screen, as a player holds the phone: the piles at the top.
    target.evaluate("pile => { pile.scrollIntoView({block: 'start'}); window.scrollBy(0, -100); }")
    start = source.bounding_box()
    assert start["y"] + start["height"] <= page.viewport_size["height"], "card below the screen"
    x0, y0 = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
    cdp = page.context.new_cdp_session(page)
    touch = lambda kind, x, y: cdp.send(  # noqa: E731
        "Input.dispatchTouchEvent",
        {"type": kind, "touchPoints": [] if kind == "touchEnd" else [{"x": x, "y": y}]},
    )
    touch("touchStart", x0, y0)
    touch("touchMove", x0, y0 + 12)  # the drag begins: the card's targets appear
    end = target.bounding_box()
    x1, y1 = end["x"] + end["width"] / 2, end["y"] + end["height"] / 2
    assert 0 < y1 < page.viewport_size["height"], "the pile is on the screen"
    x0, y0 = x0, y0 + 12
    for step in range(1, steps + 1):
        touch("touchMove", x0 + (x1 - x0) * step / steps, y0 + (y1 - y0) * step / steps)
    # Before letting go: the card follows the finger, the pile under it is the drop target.
    assert page.locator(".km-ghost").count() == 1
    assert page.locator(".km-build.is-drop, .km-dpile.is-drop").count() == 1
    touch("touchEnd", x1, y1)


def test_a_finger_drags_a_card_onto_a_pile_and_a_tap_still_chooses(katz, browser, live_server):
    context = browser.new_context(
        viewport=PHONE, locale="de-DE", base_url=live_server.url, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.goto("/spiele/katz-und-maus/demo/")
    demo = page.locator("#katz_und_maus-demo")
    demo.get_by_text("10 Karten", exact=True).click()
    demo.get_by_role("button", name="Spiel starten").click()
    rng = random.Random(5)
    for _ in range(200):
        expect(demo.locator(".km-status--mine")).to_be_visible(timeout=30000)
        state = DemoGame.objects.get(engine="katz_und_maus").state
        if state["turn"] != 0:
            continue
        plays = [a for a in km.legal_actions(state, 0) if a["type"] == "play"]
        if plays:
            break
        make_move(page, demo, km.bot_action(km.view(state, 0), rng))
    action = plays[0]
    value = zug(action)
    button = demo.locator(f'button[name="zug"][value="{value}"]')
    key = re.search(r"km-go--([\w-]+)", button.get_attribute("class")).group(1)
    source = demo.locator(f'label:has(input[name="wahl"][value="{key}"])')
    pile = demo.locator(f'.km-build:has(button[name="zug"][value="{value}"])')
    # A tap is still a tap: it chooses the card and shows its targets.
    source.tap()
    expect(source.locator(".km-src__input")).to_be_checked()
    expect(button).to_be_visible()
    before = version(page)
    touch_drag(page, source, pile)
    expect(demo.locator(BODY)).not_to_have_attribute("data-version", str(before))
    after = DemoGame.objects.get(engine="katz_und_maus").state
    assert after["build"] != state["build"], "the card went onto the pile"
    assert page.locator(".km-ghost").count() == 0
    context.close()
    assert problems == []
