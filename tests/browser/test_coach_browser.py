"""The demo's coach in a browser: Alpaka's guided first game on a phone (touch) to its
first two coach notes, a „Tipp“, a bot move's „Warum?“ and the switch; axe-core on each."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    DESKTOP,
    PHONE,
    assert_accessible,
    open_game_page,
    screenshot,
    show_demo,
)
from tests.browser.test_alpaka_browser import SEED, alpaka  # noqa: F401 (fixture: seeded deal)
from tests.factories import make_article, make_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def phone(open_browser):
    """A phone with a touch screen (console errors and other hosts fail the test)."""
    return open_browser(PHONE, has_touch=True, is_mobile=True)


def _demo_shot(demo, name: str) -> None:
    """The demo region alone, next to the full-page screenshots (SCREENSHOT_DIR only)."""
    directory = os.environ.get("SCREENSHOT_DIR")
    if directory:
        demo.screenshot(path=str(Path(directory) / f"{name}-demo.png"))


def _play_one_move(demo) -> None:
    """The reader's move: a fitting card if there is one, else draw (or quit)."""
    version = demo.locator("[data-demo-body]").get_attribute("data-version")
    playable = demo.locator(".alp-group--playable")
    if playable.count():
        playable.first.tap()
    elif demo.get_by_role("button", name="Ziehen").is_enabled():
        demo.get_by_role("button", name="Ziehen").tap()
    else:
        demo.get_by_role("button", name="Aussteigen").tap()
    expect(demo.locator("[data-demo-body]")).not_to_have_attribute("data-version", version)


def test_guided_first_game_on_a_phone_notes_tip_and_why(alpaka, phone):  # noqa: F811
    page = phone
    open_game_page(page, "alpaka")
    demo = page.locator("#alpaka-demo")
    demo.locator("label.choice--pill").first.tap()  # one bot: the reader's turns come soon
    demo.get_by_role("button", name="Spiel starten").tap()

    # First note: what fits (or, if nothing does, drawing or quitting) – linked to the rules.
    note = demo.locator("[data-coach-note]")
    expect(note).to_be_visible(timeout=8000)
    expect(demo.locator(".alp-status")).to_contain_text("Du bist am Zug")
    first = note.get_attribute("data-coach-note")
    assert first in ("fits", "nothing_fits")
    expect(note.get_by_role("link")).to_have_attribute("href", "/spiele/alpaka/#ablauf")
    expect(demo.locator(".coach__note-region")).to_have_attribute("aria-live", "polite")

    # „Tipp“ shows the move a strong bot would make, and why.
    demo.get_by_role("button", name="Tipp").tap()
    tip = demo.locator("[data-coach-tip]")
    expect(tip).to_contain_text("Tipp:")
    expect(tip).to_contain_text("Warum?")
    # The bot's move in the log can be asked „Warum?“.
    why = demo.locator(".coach__why").first
    why.locator("summary").tap()
    expect(why.locator("p")).to_be_visible()
    screenshot(page, "coach-first-note-tip-phone")
    _demo_shot(demo, "coach-first-note-tip-phone")
    assert_accessible(page)

    # The reader moves; at the next turn the second note comes (the first counts as read).
    _play_one_move(demo)
    expect(note).not_to_have_attribute("data-coach-note", first, timeout=8000)
    expect(note).to_be_visible()
    second = note.get_attribute("data-coach-note")
    assert second != first
    screenshot(page, "coach-second-note-phone")
    _demo_shot(demo, "coach-second-note-phone")
    assert_accessible(page)
    page.set_viewport_size(DESKTOP)
    screenshot(page, "coach-second-note-desktop")
    _demo_shot(demo, "coach-second-note-desktop")
    page.set_viewport_size(PHONE)

    # „Erklärungen aus“ hides the notes and is remembered across a reload.
    switch = demo.get_by_role("button", name="Erklärungen")
    expect(switch).to_have_attribute("aria-pressed", "true")
    switch.tap()
    expect(demo.get_by_role("button", name="Erklärungen")).to_have_attribute(
        "aria-pressed", "false"
    )
    expect(demo.locator("[data-coach-note]")).to_have_count(0)
    page.reload()
    show_demo(page)
    expect(demo.get_by_role("button", name="Erklärungen")).to_have_attribute(
        "aria-pressed", "false"
    )
    expect(demo.locator("[data-coach-note]")).to_have_count(0)
    assert_accessible(page)


@pytest.fixture
def cat(monkeypatch):
    game = make_game("the-cat", title="The Cat", demo_engine="the_cat", players_max=4)
    make_article(game)
    monkeypatch.setattr("games.play.table.new_seed", lambda: SEED)
    return game


def test_the_cat_guided_first_round_on_a_phone(cat, phone):
    """The Cat's first round: the bots wait (the page names it), a stack taken brings the
    note on swapping, and „Tipp“ works from the reader's side of the table only."""
    page = phone
    page.goto("/spiele/the-cat/demo/")
    page.get_by_role("button", name="Spiel starten").tap()
    note = page.locator("[data-coach-note]")
    expect(note).to_have_attribute("data-coach-note", "waiting")
    expect(note).to_contain_text("Die Bots warten auf dich")
    expect(page.locator(".cat-timer, .table-timer")).to_have_count(0)  # no time pressure
    page.get_by_role("button", name="Stapel 1 aufnehmen").tap()
    expect(note).to_have_attribute("data-coach-note", "swap")
    page.get_by_role("button", name="Tipp").tap()
    expect(page.locator("[data-coach-tip]")).to_contain_text("Tipp:")
    screenshot(page, "coach-the-cat-phone")
    _demo_shot(page.locator("#the_cat-demo"), "coach-the-cat-phone")
    assert_accessible(page)
