"""The Katz und Maus article in a real browser: the statistics section (two charts,
two tables) and a worked example stepped through with htmx, on a phone and a
desktop, without horizontal overflow and without serious axe findings."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE, assert_accessible, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(("name", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_statistics_and_a_worked_example_step_by_step(content, page, name, viewport):
    call_command("simulate_katz_und_maus", games=2, stdout=StringIO())
    page.set_viewport_size(viewport)
    page.goto("/spiele/katz-und-maus/#statistik")

    section = page.locator("#statistik")
    expect(section.locator("svg.km-chart")).to_have_count(4)
    expect(section.locator("table.km-stats__table")).to_have_count(2)
    chart = section.locator("svg.km-chart").first
    box = chart.bounding_box()
    assert box["width"] <= viewport["width"]
    section.scroll_into_view_if_needed()
    screenshot(page, f"katz-und-maus-statistics-{name}")

    figure = page.locator("#beispiel-1-schritte")
    # On a phone the examples are closed until the reader follows the table of contents.
    page.locator(".toc a[href='#beispiel']").click()
    count = figure.locator(".ex-steps__count")
    forward = page.locator("#beispiel-1-weiter")
    figure.scroll_into_view_if_needed()
    expect(count).to_have_text("Schritt 1 von 15")
    forward.click()
    expect(count).to_have_text("Schritt 2 von 15")
    expect(figure.locator(".ex-steps__step")).to_contain_text("Anna zieht 1 Karte nach.")
    forward.click()
    expect(count).to_have_text("Schritt 3 von 15")
    expect(figure.locator(".km-ex__build.is-changed")).to_contain_text("zeigt 4")
    expect(forward).to_be_focused()
    screenshot(page, f"katz-und-maus-example-step-{name}")

    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    assert_accessible(page)
