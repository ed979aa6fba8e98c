"""A game page starts with what a reader came for: „So geht's in 2 Minuten“ on the first
screen of a phone, the long sections (examples, statistics, questions, editions …) closed
until the table of contents or a link opens them, open on wide screens and in print."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE, assert_accessible, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUGS = ["alpaka", "kaetzchen-angeln", "katz-und-maus", "the-cat"]
TOUCH_PHONE = {"has_touch": True, "is_mobile": True}
CLOSED = "details[data-fold]:not([open])"


def open_folds(page) -> int:
    return page.locator("details[data-fold][open]").count()


@pytest.mark.parametrize("slug", SLUGS)
def test_a_phone_starts_with_how_to_play_and_the_long_parts_closed(content, open_browser, slug):
    page = open_browser(PHONE, **TOUCH_PHONE)
    page.goto(f"/spiele/{slug}/")
    quick = page.locator("#so-gehts")
    expect(quick.get_by_role("heading", name="So geht’s in 2 Minuten")).to_be_in_viewport()
    # The three parts: the goal, the turn box and the end, each linked to its section.
    expect(quick.locator(".quick__label")).to_have_text(["Das Ziel", "Dein Zug", "Das Ende"])
    expect(quick.locator(".quick__more a")).to_have_count(3)
    expect(quick.get_by_role("link", name="Gleich ausprobieren")).to_have_attribute("href", "#demo")
    # The rules themselves stay open; the long parts are closed.
    expect(page.locator("#ablauf")).to_be_visible()
    assert page.locator("details[data-fold]").count() >= 9
    assert open_folds(page) == 0
    expect(page.locator("#quellen .sources").first).to_be_hidden()
    # „Auf einen Blick“ follows the article on a phone; the demo comes before the rules.
    demo_top = page.locator("#demo").bounding_box()["y"]
    assert demo_top < page.locator("#ziel").bounding_box()["y"]
    assert demo_top < page.locator("#auf-einen-blick").bounding_box()["y"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    first_screen(page, f"fold-{slug}-phone")
    screenshot(page, f"fold-{slug}-phone-page")


def test_a_link_opens_its_section_and_print_shows_them_all(content, open_browser):
    page = open_browser(PHONE, **TOUCH_PHONE)
    page.goto("/spiele/the-cat/")
    questions = page.locator("#haeufige-fragen")
    first_question = questions.locator(".question").first
    expect(first_question).to_be_hidden()

    # The table of contents opens the section it links to and scrolls to it.
    page.locator(".toc").get_by_role("link", name="Häufige Fragen").click()
    expect(questions.locator("details[data-fold]")).to_have_attribute("open", "")
    expect(first_question).to_be_visible()
    expect(questions.get_by_role("heading", name="Häufige Fragen")).to_be_in_viewport()
    assert page.url.endswith("#haeufige-fragen")
    assert open_folds(page) == 1
    first_screen(page, "fold-toc-opens-phone")

    # „So geht's“ links to open sections keep working; a tap on a heading opens or closes.
    statistics = page.locator("#statistik details[data-fold]")
    page.locator("#statistik summary").click()
    expect(statistics).to_have_attribute("open", "")
    page.locator("#statistik summary").click()
    expect(statistics).not_to_have_attribute("open", "")
    assert_accessible(page)

    # Printed, every section is there, closed or not.
    expect(page.locator("#quellen .sources").first).to_be_hidden()
    page.emulate_media(media="print")
    for part in ("#quellen .sources", "#beispiel .example", "#begriffe .glossary", "#tipps p"):
        expect(page.locator(part).first).to_be_visible()
    page.emulate_media(media="screen")
    expect(page.locator("#quellen .sources").first).to_be_hidden()


def test_an_address_with_a_section_opens_it(content, open_browser):
    page = open_browser(PHONE, **TOUCH_PHONE)
    # The way back from an example's own page („#beispiel-2“) …
    page.goto("/spiele/katz-und-maus/#beispiel-2")
    expect(page.locator("#beispiel details[data-fold]")).to_have_attribute("open", "")
    expect(page.locator("#beispiel-2")).to_be_in_viewport()
    assert open_folds(page) == 1
    # … then another section's address on the same page (hashchange), as other pages link it.
    page.goto("/spiele/katz-und-maus/#statistik")
    expect(page.locator("#statistik details[data-fold]")).to_have_attribute("open", "")
    expect(page.locator("#statistik-titel")).to_be_in_viewport()
    assert open_folds(page) == 2


def test_a_wide_screen_shows_everything_open(content, open_browser):
    page = open_browser(DESKTOP)
    page.goto("/spiele/katz-und-maus/")
    expect(page.locator("#so-gehts .quick__part")).to_have_count(3)
    expect(page.locator(CLOSED)).to_have_count(0)
    assert open_folds(page) >= 9
    expect(page.locator("#haeufige-fragen .question").first).to_be_visible()
    first_screen(page, "fold-katz-und-maus-desktop")
    # A reader can still close one.
    page.locator("#haeufige-fragen summary").click()
    expect(page.locator("#haeufige-fragen .question").first).to_be_hidden()
    assert_accessible(page)


def first_screen(page, name):
    """What the reader sees right now (``screenshot`` takes the whole page); written only
    when SCREENSHOT_DIR is set."""
    directory = os.environ.get("SCREENSHOT_DIR")
    if directory:
        Path(directory).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(directory) / f"{name}.png"))
