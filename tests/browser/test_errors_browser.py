"""A failed htmx request shows the server's German message in place, never nothing."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, assert_accessible, own_stars_in_place, screenshot
from tests.factories import make_article, make_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def rated_game():
    game = make_game("sternspiel", title="Sternspiel")
    make_article(game)
    return game


@pytest.fixture
def phone(browser, live_server):
    # Own context: the failed requests below are logged to the console on purpose.
    context = browser.new_context(
        viewport=PHONE, locale="de-DE", base_url=live_server.url, has_touch=True
    )
    yield context.new_page()
    context.close()


def open_own_stars(page):
    page.goto("/spiele/sternspiel/")
    own_stars_in_place(page)


def test_csrf_failure_on_an_htmx_vote_shows_the_german_message(phone, rated_game):
    open_own_stars(phone)
    # The CSRF cookie is gone (e.g. cleared in another tab): the server answers 403.
    phone.context.clear_cookies()
    phone.locator("#stern-4").click()
    message = phone.locator(".request-error")
    expect(message).to_be_visible()
    expect(message).to_contain_text("Bitte lade die Seite neu")
    expect(message).to_have_attribute("role", "status")
    # Shown where the reader clicked: inside the rating form.
    assert phone.locator(".rating__form .request-error").count() == 1
    assert_accessible(phone)
    screenshot(phone, "htmx-error-phone")


def test_lost_connection_is_said_in_place_and_cleared_on_the_next_try(phone, rated_game):
    open_own_stars(phone)
    phone.route("**/bewerten/", lambda route: route.abort())
    phone.locator("#stern-3").click()
    message = phone.locator(".request-error")
    expect(message).to_contain_text("Keine Verbindung zum Server")
    phone.unroute("**/bewerten/")
    phone.locator("#stern-3").click()
    expect(phone.locator("#bewertung-meldung")).to_contain_text("3 von 5 Sternen")
    expect(phone.locator(".request-error:visible")).to_have_count(0)


def test_an_error_page_for_an_htmx_get_is_shown_not_dropped(phone, rated_game):
    phone.goto("/")
    # The game disappears between loading the catalogue and filtering (unpublished): 404.
    phone.route(
        "**/?*",
        lambda route: route.fulfill(
            status=400,
            content_type="text/html; charset=utf-8",
            body='<main><p data-error-message="">Ungültige Eingabe im Filter.</p></main>',
        ),
    )
    phone.get_by_label("Wir sind").select_option("3")
    expect(phone.locator(".request-error")).to_contain_text("Ungültige Eingabe im Filter.")


def test_error_pages_are_accessible_and_styled(phone):
    response = phone.goto("/meldung/%00/")
    assert response.status == 400
    expect(phone.get_by_role("heading", level=1)).to_have_text("Ungültige Anfrage")
    # Site-styled: the stylesheet applied (the header is dark), no inline style needed.
    header_bg = phone.eval_on_selector(".site-header", "e => getComputedStyle(e).backgroundColor")
    assert header_bg == "rgb(29, 42, 51)"
    assert_accessible(phone)
