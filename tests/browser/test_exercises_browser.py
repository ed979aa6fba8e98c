"""„Üben“ on a phone with touch, for every game: one exercise solved right, one wrong and
then right (the engine's reason and the rule's link in between), one answered with the
keyboard alone, and axe without serious or critical violations."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE, assert_accessible, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def shipped():
    from exercises.content_loader import load_all as load_exercises
    from rules.content_loader import load_all

    load_all()
    load_exercises()


@pytest.fixture
def phone(open_browser):
    """A phone with touch (console errors and other hosts fail the test)."""
    return open_browser(PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)


def exercise(page, number):
    return page.locator(f"#uebung-{number}")


def tap_answer(page, number, taps):
    """Tap (touch) each control in order: cards to choose, then the button that answers."""
    item = exercise(page, number)
    for selector in taps:
        item.locator(selector).first.tap()


def keyboard_to(page, selector, limit=60):
    """Tab until ``selector`` has focus (keyboard only); the page starts at the anchor."""
    for _ in range(limit):
        if page.evaluate(
            "s => document.activeElement && document.activeElement.matches(s)", selector
        ):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"{selector} nie mit Tab erreicht")


# Per game: (slug, right: number and taps, wrong-then-right: number, wrong taps, right taps,
#            what the engine says to the wrong one, keyboard: number, [(selector, key)], verdict)
GAMES = {
    "kaetzchen-angeln": {
        "right": (1, ['button[value="tisch:2"]']),
        "retry": (
            2,
            ['button[value="tisch:1"]'],
            ['button[value="nichts"]'],
            "Nichts passt – die Karte bleibt liegen.",
        ),
        "keyboard": (3, [('#uebung-3 button[value="tisch:1"]', "Enter")]),
    },
    "alpaka": {
        "right": (1, ['button[value="play:4"]']),
        "retry": (
            2,
            ['button[value="play:1"]'],
            ['button[value="play:A"]'],
            "Die 1 passt nicht auf die 6.",
        ),
        "keyboard": (8, [('#uebung-8 button[value="quit"]', "Enter")]),
    },
    "katz-und-maus": {
        "right": (1, ['label:has(input[value="stock"])', 'button[value="A"]']),
        "retry": (
            2,
            ['label:has(input[value="hand:2"])', 'button[value="A"]'],
            ['label:has(input[value="hand:A"])', 'button[value="A"]'],
            "Einen neuen Baustapel beginnst du nur mit einem Ass oder einem König.",
        ),
        "keyboard": (
            3,
            [('#uebung-3 input[value="stock"]', "Space"), ('#uebung-3 button[value="A"]', "Enter")],
        ),
    },
    "the-cat": {
        "right": (
            1,
            [
                'label:has(input[name="nehmen"][value="frech"])',
                'label:has(input[name="geben"][value="stolz"])',
                'button[value="swap"]',
            ],
        ),
        "retry": (
            8,
            ['button[value="stop"]'],
            ['button[value="wait"]'],
            "„Stopp!“, obwohl nicht jeder Stapel fertig ist.",
        ),
        "keyboard": (7, [('#uebung-7 button[value="stop"]', "Enter")]),
    },
}


@pytest.mark.parametrize("slug", list(GAMES))
def test_exercises_on_a_phone(phone, shipped, live_server, slug):
    plan = GAMES[slug]
    page = phone
    page.goto(f"/spiele/{slug}/ueben/")
    expect(page.locator(".exercises__progress")).to_contain_text("0 von 12 Aufgaben gelöst")
    screenshot(page, f"ueben-{slug}-phone")
    assert_accessible(page)

    # Solved right with one touch sequence: the rule, solved, the progress line.
    number, taps = plan["right"]
    tap_answer(page, number, taps)
    expect(exercise(page, number).locator(".exercise__verdict--right")).to_contain_text("Richtig!")
    expect(exercise(page, number).locator(".exercise__solved")).to_have_text("gelöst")
    expect(page.locator(".exercises__progress")).to_contain_text("1 von 12 Aufgaben gelöst")
    # Focus moved to the verdict, so a screen reader reads it where the reader is.
    expect(exercise(page, number).locator(".exercise__feedback")).to_be_focused()

    # Wrong, then right: the engine's reason, the rule's section linked.
    number, wrong, right, said = plan["retry"]
    tap_answer(page, number, wrong)
    wrong_box = exercise(page, number).locator(".exercise__verdict--wrong")
    expect(wrong_box).to_contain_text("Noch nicht.")
    expect(wrong_box).to_contain_text(said)
    assert wrong_box.get_by_role("link").get_attribute("href").startswith(f"/spiele/{slug}/#")
    screenshot(page, f"ueben-{slug}-falsch-phone")
    assert_accessible(page)
    tap_answer(page, number, right)
    expect(exercise(page, number).locator(".exercise__verdict--right")).to_contain_text("Richtig!")
    expect(page.locator(".exercises__progress")).to_contain_text("2 von 12 Aufgaben gelöst")

    # Keyboard only: from the exercise's anchor, Tab to the controls and press them.
    number, steps = plan["keyboard"]
    page.goto(f"/spiele/{slug}/ueben/#uebung-{number}")
    for selector, key in steps:
        keyboard_to(page, selector)
        page.keyboard.press(key)
    expect(exercise(page, number).locator(".exercise__verdict")).to_be_visible()
    expect(page.locator(".exercises__progress")).to_contain_text("Aufgaben gelöst")

    page.set_viewport_size(DESKTOP)
    page.goto(f"/spiele/{slug}/ueben/#uebung-{plan['retry'][0]}")
    screenshot(page, f"ueben-{slug}-desktop")


def test_without_javascript_a_plain_post_answers_and_jumps_to_the_exercise(
    browser, live_server, shipped
):
    context = browser.new_context(
        viewport=PHONE, locale="de-DE", base_url=live_server.url, java_script_enabled=False
    )
    page = context.new_page()
    page.goto("/spiele/kaetzchen-angeln/ueben/")
    page.locator('#uebung-4 button[value="nichts"]').click()
    assert page.url.endswith("/spiele/kaetzchen-angeln/ueben/4/#uebung-4")
    expect(exercise(page, 4).locator(".exercise__verdict--right")).to_contain_text("Richtig!")
    # Two misses show the solution, marked on the board.
    page.locator('#uebung-5 button[value="tisch:4"]').click()
    page.locator('#uebung-5 button[value="tisch:3"]').click()
    expect(exercise(page, 5).locator(".exercise__solution")).to_contain_text("Pik 6 ganz links")
    expect(exercise(page, 5).locator(".is-solution")).to_have_attribute("value", "tisch:1")
    context.close()
