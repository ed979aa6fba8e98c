"""Back restores the catalogue form, touch targets are large enough, nothing is cut off."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, assert_accessible, screenshot
from tests.factories import make_article, make_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MIN_TARGET = 44


@pytest.fixture
def games():
    duo = make_game("zweierspiel", title="Zweierspiel", players_min=2, players_max=2)
    party = make_game(
        "partyspiel", title="Partyspiel", players_min=3, players_max=6, duration_minutes=45
    )
    make_article(duo)
    make_article(party)


@pytest.fixture
def touch_phone(browser, live_server):
    context = browser.new_context(
        viewport=PHONE, locale="de-DE", base_url=live_server.url, has_touch=True, is_mobile=True
    )
    yield context.new_page()
    context.close()


def test_back_restores_the_catalogue_filters_from_the_address(page, games):
    page.goto("/")
    page.get_by_label("Wir sind").select_option("2")
    expect(page).to_have_url(re.compile(r"spieler=2"))
    expect(page.locator(".game-card")).to_have_count(1)
    page.get_by_label("Spieldauer").select_option("60")
    expect(page).to_have_url(re.compile(r"dauer=60"))
    page.get_by_label("Wir sind").select_option("5")
    expect(page).to_have_url(re.compile(r"spieler=5"))
    expect(page.locator(".game-card")).to_contain_text("Partyspiel")

    page.go_back()
    expect(page).to_have_url(re.compile(r"spieler=2&.*dauer=60"))
    expect(page.locator(".game-card")).to_contain_text("Zweierspiel")
    expect(page.get_by_label("Wir sind")).to_have_value("2")
    expect(page.get_by_label("Spieldauer")).to_have_value("60")

    page.go_back()
    expect(page).to_have_url(re.compile(r"spieler=2&.*dauer=(&|$)"))
    expect(page.get_by_label("Wir sind")).to_have_value("2")
    expect(page.get_by_label("Spieldauer")).to_have_value("")

    page.go_back()
    expect(page.get_by_label("Wir sind")).to_have_value("")
    expect(page.locator(".game-card")).to_have_count(2)


def test_result_count_is_grammatical(page, games):
    page.goto("/?spieler=2")
    expect(page.locator("#ergebnisse-titel")).to_have_text("1 Spiel passt zu deiner Auswahl")
    page.goto("/?spieler=4")
    expect(page.locator("#ergebnisse-titel")).to_have_text("1 Spiel passt zu deiner Auswahl")
    page.goto("/?spieler=2&dauer=15")
    expect(page.locator("#ergebnisse-titel")).to_have_text("0 Spiele passen zu deiner Auswahl")


def _heights(page, selector):
    return page.eval_on_selector_all(
        selector,
        "els => els.filter(e => e.offsetParent !== null)"
        ".map(e => [e.textContent.trim().slice(0, 30), e.getBoundingClientRect().height])",
    )


def assert_tall_enough(page, selector):
    heights = _heights(page, selector)
    assert heights, f"nothing visible for {selector}"
    small = [(label, round(h)) for label, h in heights if h < MIN_TARGET]
    assert small == [], f"{selector}: targets under {MIN_TARGET} px: {small}"


def test_touch_targets_are_44_px_high_on_a_touch_phone(touch_phone, content):
    page = touch_phone
    page.goto("/spiele/the-cat/")
    assert page.evaluate("matchMedia('(pointer: coarse)').matches")
    assert_tall_enough(page, ".site-header .brand, .site-header .nav a")
    assert_tall_enough(page, ".breadcrumbs a")
    assert_tall_enough(page, ".report-link")

    page.goto("/sleeve-finder/?spiele=the-cat")
    assert_tall_enough(page, ".finder-selection__clear")
    assert_tall_enough(page, ".finder-row__remove")
    assert_tall_enough(page, ".breadcrumbs a")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert_accessible(page)
    screenshot(page, "finder-touch-phone")


@pytest.mark.parametrize("width", [320, 360, 390])
def test_finder_search_placeholder_is_not_cut_off(browser, live_server, content, width):
    context = browser.new_context(
        viewport={"width": width, "height": 800}, locale="de-DE", base_url=live_server.url
    )
    page = context.new_page()
    try:
        page.goto("/sleeve-finder/")
        room = page.eval_on_selector(
            "#finder-q",
            """input => {
                const style = getComputedStyle(input);
                const ctx = document.createElement('canvas').getContext('2d');
                ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
                const text = ctx.measureText(input.placeholder).width;
                const box = input.clientWidth - parseFloat(style.paddingLeft)
                    - parseFloat(style.paddingRight);
                return box - text;
            }""",
        )
        assert room >= 0, f"placeholder cut off by {-room:.0f} px at {width} px"
    finally:
        context.close()
