"""Worked examples step by step in a real browser: Weiter and Zurück swap only the
example's figure, focus stays on the button, the step is announced; axe is happy."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE, assert_accessible, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROUND = 3  # Alpaka: „Allein am Tisch“ (start, two moves, round end, scoring)


@pytest.mark.parametrize(("name", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_step_forward_and_back_with_the_buttons(content, page, name, viewport):
    page.set_viewport_size(viewport)
    page.goto(f"/spiele/alpaka/#beispiel-{ROUND}")
    example = page.locator(f"#beispiel-{ROUND}")
    figure = page.locator(f"#beispiel-{ROUND}-schritte")
    steps = figure.locator(".ex-steps__step")
    count = figure.locator(".ex-steps__count")
    back = page.locator(f"#beispiel-{ROUND}-zurueck")
    forward = page.locator(f"#beispiel-{ROUND}-weiter")
    announce = page.locator(f"#beispiel-{ROUND}-ansage")

    # The page holds the first step; the others load on demand with Weiter.
    expect(steps.first).to_be_visible()
    expect(steps).to_have_count(1)
    expect(count).to_have_text("Schritt 1 von 5")
    expect(back).to_have_attribute("aria-disabled", "true")
    example.scroll_into_view_if_needed()
    body = example.locator(".example__body")
    body_text = body.inner_text()

    forward.click()
    expect(count).to_have_text("Schritt 2 von 5")
    expect(steps).to_have_count(1)
    expect(steps.first).to_contain_text("Anna legt eine 4.")
    expect(announce).to_have_text("Schritt 2 von 5: Anna legt eine 4.")
    expect(forward).to_be_focused()  # the keyboard stays where it was
    assert body.inner_text() == body_text  # only the figure was swapped

    page.keyboard.press("Enter")  # Weiter by keyboard
    expect(count).to_have_text("Schritt 3 von 5")
    expect(steps.first).to_contain_text("Anna legt eine 4.")
    forward.click()
    expect(count).to_have_text("Schritt 4 von 5")
    expect(steps.first).to_contain_text("Runde vorbei: Bei Anna passt keine Karte mehr.")
    forward.click()
    expect(count).to_have_text("Schritt 5 von 5")
    expect(steps.first).to_contain_text("Die Wertung:")
    expect(forward).to_have_text("Von vorn")
    screenshot(page, f"example-steps-{name}")

    back.click()
    expect(count).to_have_text("Schritt 4 von 5")
    expect(back).to_be_focused()
    for shown in (3, 2, 1):
        back.click()
        expect(count).to_have_text(f"Schritt {shown} von 5")
    expect(back).to_have_attribute("aria-disabled", "true")
    expect(announce).to_contain_text("Schritt 1 von 5: Oben liegt eine 3.")
    # The address stays the game page; the steps never leave it.
    assert page.url.endswith(f"/spiele/alpaka/#beispiel-{ROUND}")
    assert_accessible(page)


def test_kaetzchen_example_steps_and_is_accessible(content, page):
    page.set_viewport_size(PHONE)
    page.goto("/spiele/kaetzchen-angeln/#beispiel-1")
    figure = page.locator("#beispiel-1-schritte")
    page.locator("#beispiel-1-weiter").click()
    expect(figure.locator(".ex-steps__count")).to_have_text("Schritt 2 von 5")
    page.locator("#beispiel-1-weiter").click()
    expect(figure.locator(".ex-steps__count")).to_have_text("Schritt 3 von 5")
    expect(figure.locator(".kz-card.is-match")).to_have_count(2)
    assert_accessible(page)


def test_without_javascript_each_step_is_a_link_to_its_page(content, browser, live_server):
    context = browser.new_context(
        viewport=PHONE, locale="de-DE", base_url=live_server.url, java_script_enabled=False
    )
    page = context.new_page()
    page.goto("/spiele/alpaka/")
    figure = page.locator(f"#beispiel-{ROUND}-schritte")
    # On a phone the examples are a closed section; a tap on its heading opens it, script or not.
    expect(figure).to_be_hidden()
    page.locator("#beispiel summary").click()
    # The game page holds the first step; the others load on demand, here as pages.
    expect(figure.locator(".ex-steps__step")).to_have_count(1)
    expect(figure.locator(".ex-steps__count")).to_have_text("Schritt 1 von 5")
    figure.locator(f"#beispiel-{ROUND}-weiter").click()
    assert page.url.endswith(f"/spiele/alpaka/beispiel/{ROUND}/?schritt=2")
    expect(page.locator(".ex-steps__count")).to_have_text("Schritt 2 von 5")
    page.locator(f"#beispiel-{ROUND}-weiter").click()
    expect(page.locator(".ex-steps__count")).to_have_text("Schritt 3 von 5")
    assert page.url.endswith("?schritt=3")
    context.close()


def test_a_second_tap_before_htmx_settled_still_steps_in_place(content, page):
    """htmx binds a swapped-in figure only when it settles (20 ms, longer on a busy
    phone); a tap on the new Weiter before then must step on, not follow the plain link
    to the step's own page. The settle is stretched here to make that window certain."""
    page.set_viewport_size(PHONE)
    page.goto(f"/spiele/alpaka/#beispiel-{ROUND}")
    figure = page.locator(f"#beispiel-{ROUND}-schritte")
    count = figure.locator(".ex-steps__count")
    forward = page.locator(f"#beispiel-{ROUND}-weiter")
    expect(count).to_have_text("Schritt 1 von 5")
    page.evaluate("htmx.config.defaultSettleDelay = 1500")

    forward.click()
    expect(count).to_have_text("Schritt 2 von 5")
    assert figure.evaluate("figure => figure.classList.contains('htmx-added')")  # not yet bound
    forward.click()
    expect(count).to_have_text("Schritt 3 von 5")
    expect(figure.locator(".ex-steps__step").first).to_contain_text("Anna legt eine 4.")
    assert page.url.endswith(f"/spiele/alpaka/#beispiel-{ROUND}")
    # Once htmx has settled and bound the figure itself, the next tap steps on once.
    expect(figure).not_to_have_class(re.compile(r"\bhtmx-added\b"), timeout=5000)
    forward.click()
    expect(count).to_have_text("Schritt 4 von 5")
    assert page.url.endswith(f"/spiele/alpaka/#beispiel-{ROUND}")
