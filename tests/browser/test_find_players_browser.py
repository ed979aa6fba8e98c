"""„Mitspieler finden“ in two browsers: a host makes the lobby public, a stranger
sees the room appear on the game page without reloading, joins from there, and
both meet in the lobby; axe-core and the phone layout of the box and the pages."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from rooms.models import Room
from tests.browser.conftest import DESKTOP, PHONE, assert_accessible, screenshot
from tests.factories import make_article, make_game

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]

POLL_WAIT = 15_000  # the list asks every 10 s


@pytest.fixture
def alpaka(db):
    game = make_game("alpaka", title="Alpaka", demo_engine="alpaka", players_max=6)
    make_article(game)
    return game


def no_horizontal_overflow(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.multiplayer
def test_a_public_room_is_found_and_joined_from_another_browser(alpaka, open_browser):
    ben = open_browser(PHONE)
    ben.goto("/spiele/alpaka/")
    box = ben.locator("#mitspieler")
    expect(box.locator(".open-rooms")).to_contain_text("Gerade wartet kein öffentlicher Raum")

    anna = open_browser(DESKTOP)
    anna.goto("/spiele/alpaka/raum/neu/")
    anna.get_by_label("Dein Name am Tisch").fill("Anna")
    anna.get_by_text("60 Punkte", exact=True).click()
    anna.get_by_role("button", name="Raum eröffnen").click()
    expect(anna).to_have_url(re.compile(r"/spiele/alpaka/raum/[\w-]{16}/$"))
    code = Room.objects.get().code
    expect(anna.locator(".visibility")).to_contain_text("Privat:")
    anna.get_by_role("button", name="Öffentlich machen").click()
    expect(anna.get_by_role("button", name="Wieder privat machen")).to_be_visible()
    screenshot(anna, "finder-lobby-public-desktop")
    assert_accessible(anna)

    # Ben's list picks the room up by itself; the invite code is nowhere in his page.
    room = box.locator(".open-room")
    expect(room).to_have_count(1, timeout=POLL_WAIT)
    expect(room).to_contain_text("bei Anna")
    expect(room).to_contain_text("1 von 6 Plätzen besetzt, 5 frei")
    expect(room).to_contain_text("60 Punkte")
    assert code not in ben.content()
    box.scroll_into_view_if_needed()
    screenshot(ben, "finder-game-page-phone")
    assert no_horizontal_overflow(ben)
    assert_accessible(ben)

    room.get_by_role("button", name="Mitspielen bei Anna").click()
    expect(ben).to_have_url(re.compile(r"/spiele/alpaka/mitspieler/[\w-]+/$"))
    expect(ben.locator("h1")).to_have_text("Alpaka online mitspielen")
    assert code not in ben.content()
    screenshot(ben, "finder-join-phone")
    assert no_horizontal_overflow(ben)
    assert_accessible(ben)
    ben.get_by_label("Dein Name am Tisch").fill("Ben")
    ben.get_by_role("button", name="Mitspielen").click()

    expect(ben).to_have_url(re.compile(rf"/spiele/alpaka/raum/{code}/$"))
    expect(ben.locator(".player")).to_have_count(2)
    expect(anna.locator(".player")).to_have_count(2)
    expect(anna.locator(".players")).to_contain_text("Ben")
    expect(ben.locator(".lobby__waiting")).to_contain_text("Warte, bis Anna die Partie startet")
    expect(ben.locator(".visibility")).to_contain_text("Öffentlich:")
    assert no_horizontal_overflow(ben)


def test_the_site_wide_list_and_the_page_without_javascript(alpaka, open_browser, browser):
    anna = open_browser(DESKTOP)
    anna.goto("/spiele/alpaka/raum/neu/")
    anna.get_by_label("Dein Name am Tisch").fill("Anna")
    anna.get_by_role("button", name="Raum eröffnen").click()
    anna.get_by_role("button", name="Öffentlich machen").click()
    expect(anna.get_by_role("button", name="Wieder privat machen")).to_be_visible()

    for viewport, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        cleo = open_browser(viewport)
        cleo.goto("/spiele/alpaka/")
        expect(cleo.locator("#mitspieler .open-room")).to_contain_text("bei Anna")
        cleo.locator("#mitspieler").scroll_into_view_if_needed()
        screenshot(cleo, f"finder-game-page-{name}")
        cleo.get_by_role("link", name="Alle offenen Räume").click()
        expect(cleo).to_have_url(re.compile(r"/mitspieler-finden/$"))
        expect(cleo.locator(".open-room")).to_contain_text("Alpaka")
        expect(cleo.locator(".open-room")).to_contain_text("bei Anna")
        screenshot(cleo, f"finder-site-wide-{name}")
        assert no_horizontal_overflow(cleo)
        assert_accessible(cleo)

    # Without JavaScript the box is a link to a page of its own.
    context = browser.new_context(
        viewport=PHONE,
        locale="de-DE",
        base_url=anna.url.split("/spiele/")[0],
        java_script_enabled=False,
    )
    try:
        page = context.new_page()
        page.goto("/spiele/alpaka/")
        page.get_by_role("link", name="Offene Räume und Spielegruppen ansehen").click()
        expect(page.locator("h1")).to_have_text("Mitspieler finden: Alpaka")
        expect(page.locator(".open-room")).to_contain_text("bei Anna")
        screenshot(page, "finder-nojs-phone")
        assert no_horizontal_overflow(page)
    finally:
        context.close()
