import re
from datetime import date
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE, assert_accessible, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def sleeve_data(content):
    """Shipped games and sleeves, plus one priced partner product as editors would add it."""
    from sleeves.content_loader import load_all
    from sleeves.models import SleeveProduct

    load_all()
    SleeveProduct.objects.filter(code="MDG-7041").update(
        price=Decimal("5.49"),
        price_seen_on=date(2026, 11, 20),
        shop_url="https://shop.example/mayday-7041",
        is_partner_link=True,
    )


def test_finder_adds_games_and_copies_with_htmx(page, sleeve_data):
    page.goto("/sleeve-finder/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Sleeve-Finder")
    expect(page.get_by_role("link", name="Sleeve-Finder", exact=True).first).to_have_attribute(
        "aria-current", "page"
    )
    assert_accessible(page)

    page.get_by_label("Spiel suchen").fill("katz und")
    expect(page.get_by_role("heading", name="Treffer für „katz und“")).to_be_visible()
    expect(page.locator(".finder-found__item")).to_have_count(1)
    page.get_by_role("link", name="Hinzufügen: Katz und Maus").click()
    expect(page).to_have_url(re.compile(r"spiele=katz-und-maus(&|$)"))
    expect(page.locator(".finder-result")).to_contain_text("104")
    mayday = page.locator(".sleeve-plan", has_text="Mayday Games")
    expect(mayday).to_contain_text("2 Packungen")
    expect(mayday).to_contain_text("10,98 €")  # 2 × 5,49 €
    partner = mayday.get_by_role("link", name=re.compile("Partnerlink"))
    expect(partner).to_have_attribute("rel", "sponsored noopener")
    expect(page.locator(".sleeve-disclosure")).to_be_visible()

    # A second copy: the button keeps focus for keyboard users, the status is announced.
    plus = page.locator("#plus-katz-und-maus")
    plus.focus()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"spiele=katz-und-maus\*2"))
    expect(page.locator("#plus-katz-und-maus")).to_be_focused()
    expect(page.locator("#finder-status")).to_have_text(
        re.compile(r"1 Spiel ausgewählt, 208 Karten")
    )
    expect(mayday).to_contain_text("3 Packungen")

    # A game whose size is unknown is listed, not dropped.
    page.get_by_label("Spiel suchen").fill("the cat")
    page.get_by_role("link", name="Hinzufügen: The Cat").click()
    expect(page.locator(".notice--unknown")).to_contain_text("The Cat: 52 Katzenkarten")
    expect(page).to_have_url(re.compile(r"spiele=katz-und-maus\*2,the-cat"))
    assert_accessible(page)
    screenshot(page, "sleeve-finder-desktop")

    # The share field holds a bookmarkable address that rebuilds the same result.
    shared = page.get_by_label(re.compile("Link zu dieser Auswahl")).input_value()
    assert shared.endswith("/sleeve-finder/?spiele=katz-und-maus*2,the-cat")
    page.goto(shared)
    expect(page.locator(".finder-row")).to_have_count(2)
    expect(page.locator(".sleeve-plan", has_text="Mayday Games")).to_contain_text("3 Packungen")

    page.get_by_role("link", name="Entfernen: The Cat").click()
    expect(page.locator(".finder-row")).to_have_count(1)
    expect(page.locator(".notice--unknown")).to_have_count(0)
    page.go_back()
    expect(page.locator(".finder-row")).to_have_count(2)


def test_finder_on_a_phone(browser, live_server, sleeve_data):
    context = browser.new_context(viewport=PHONE, locale="de-DE", base_url=live_server.url)
    page = context.new_page()
    errors = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    try:
        page.goto("/sleeve-finder/?spiele=kaetzchen-angeln,katz-und-maus*2,alpaka,the-cat,nix")
        expect(page.locator(".notice--problem")).to_contain_text("„nix“")
        expect(page.locator(".sleeve-plan")).to_have_count(5)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert_accessible(page)
        screenshot(page, "sleeve-finder-phone")
    finally:
        context.close()
    assert errors == []


def test_finder_works_without_javascript(browser, live_server, sleeve_data):
    context = browser.new_context(java_script_enabled=False, base_url=live_server.url)
    page = context.new_page()
    try:
        page.goto("/sleeve-finder/?spiele=the-cat")
        page.get_by_label("Spiel suchen").fill("Kätzchen")
        page.get_by_role("button", name="Suchen").click()
        expect(page).to_have_url(re.compile(r"spiele=the-cat&q=K"))
        page.get_by_role("link", name="Hinzufügen: Kätzchen-Angeln").click()
        expect(page).to_have_url(re.compile(r"spiele=the-cat,kaetzchen-angeln"))
        page.get_by_role("link", name="Ein Exemplar mehr von Kätzchen-Angeln").click()
        expect(page).to_have_url(re.compile(r"kaetzchen-angeln\*2"))
        expect(page.locator(".finder-sizes")).to_contain_text("104")
        page.get_by_role("link", name="Entfernen: The Cat").click()
        expect(page.locator(".finder-row")).to_have_count(1)
    finally:
        context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_game_page_box(browser, live_server, sleeve_data, viewport):
    context = browser.new_context(viewport=viewport, locale="de-DE", base_url=live_server.url)
    page = context.new_page()
    name = "desktop" if viewport == DESKTOP else "phone"
    try:
        page.goto("/spiele/kaetzchen-angeln/")
        box = page.locator("#kartenhuellen")
        expect(box.get_by_role("heading", level=2)).to_have_text(
            "Kartenhüllen (Sleeves) für Kätzchen-Angeln"
        )
        expect(box.locator(".sleeve-plan", has_text="Mayday Games")).to_contain_text("5,49 €")
        expect(box).to_contain_text("Stand 20.11.2026")
        # The box itself never overflows (the page may hold other wide parts such as a demo).
        assert (
            page.evaluate(
                "Math.max(...[...document.querySelectorAll('#kartenhuellen, #kartenhuellen *')]"
                ".map(e => e.getBoundingClientRect().right))"
            )
            <= viewport["width"]
        )
        assert_accessible(page)
        box.scroll_into_view_if_needed()
        screenshot(page, f"sleeve-box-{name}")

        page.goto("/spiele/the-cat/")
        expect(page.locator("#kartenhuellen .sleeve-badge")).to_have_text("Maß noch unbekannt")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        assert_accessible(page)
        screenshot(page, f"sleeve-box-the-cat-{name}")
        page.get_by_role(
            "link", name="Mit weiteren Spielen im Sleeve-Finder zusammenrechnen →"
        ).click()
        expect(page).to_have_url(re.compile(r"/sleeve-finder/\?spiele=the-cat$"))
        expect(page.locator(".finder-row")).to_have_count(1)
    finally:
        context.close()
