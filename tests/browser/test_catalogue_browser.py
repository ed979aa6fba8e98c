import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, assert_accessible, screenshot
from tests.factories import add_people, make_article, make_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def catalogue_games():
    duo = make_game("zweierspiel", title="Zweierspiel", players_min=2, players_max=2)
    party = make_game("partyspiel", title="Partyspiel", players_min=3, players_max=6)
    add_people(party)
    make_article(duo)
    make_article(party)


def test_filter_by_players_then_open_game(page, catalogue_games):
    page.goto("/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Kartenspiele")
    expect(page.locator(".game-card")).to_have_count(2)
    assert_accessible(page)

    page.get_by_label("Wir sind").select_option("5")
    # htmx swaps only the results and pushes the filter into the URL.
    expect(page.locator(".game-card")).to_have_count(1)
    expect(page).to_have_url(re.compile(r"spieler=5"))
    expect(page.locator(".game-card")).to_contain_text("Partyspiel")
    screenshot(page, "catalogue-desktop")

    page.get_by_role("link", name="Partyspiel").click()
    expect(page).to_have_url(re.compile(r"/spiele/partyspiel/$"))
    expect(page.get_by_role("heading", name="Auf einen Blick")).to_be_visible()
    expect(page.locator("#ziel")).to_contain_text("Text zu ziel")
    assert_accessible(page)
    screenshot(page, "game-desktop")

    page.go_back()
    expect(page).to_have_url(re.compile(r"spieler=5"))
    expect(page.get_by_label("Wir sind")).to_have_value("5")


def test_text_search_and_phone_layout(browser, live_server, catalogue_games):
    context = browser.new_context(viewport=PHONE, locale="de-DE", base_url=live_server.url)
    page = context.new_page()
    try:
        page.goto("/")
        page.get_by_label("Suche").fill("zweier")
        expect(page.locator(".game-card")).to_have_count(1)
        expect(page).to_have_url(re.compile(r"q=zweier"))
        # No horizontal scrolling on a phone.
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert_accessible(page)
        screenshot(page, "catalogue-phone")
    finally:
        context.close()


def test_filters_work_without_javascript(browser, live_server, catalogue_games):
    context = browser.new_context(java_script_enabled=False, base_url=live_server.url)
    page = context.new_page()
    try:
        page.goto("/")
        page.get_by_label("Wir sind").select_option("2")
        page.get_by_role("button", name="Filtern").click()
        expect(page).to_have_url(re.compile(r"spieler=2"))
        expect(page.locator(".game-card")).to_have_count(1)
        expect(page.locator(".game-card")).to_contain_text("Zweierspiel")
    finally:
        context.close()


@pytest.mark.parametrize("slug", ["kaetzchen-angeln", "alpaka", "katz-und-maus", "the-cat"])
def test_shipped_game_pages_fit_a_360_px_phone(browser, live_server, content, slug):
    context = browser.new_context(
        viewport={"width": 360, "height": 780}, locale="de-DE", base_url=live_server.url
    )
    page = context.new_page()
    try:
        page.goto(f"/spiele/{slug}/")
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    finally:
        context.close()
