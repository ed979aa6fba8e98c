"""The Kurzregel in Chromium: one A4 page when printed (Chromium's own PDF output), readable
on a phone and a desktop without sideways scrolling, no serious axe findings."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE, assert_accessible, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUGS = ["alpaka", "kaetzchen-angeln", "katz-und-maus", "the-cat"]
PAGE_OBJECT = re.compile(rb"/Type\s*/Page(?!s)")


@pytest.mark.parametrize("slug", SLUGS)
def test_the_kurzregel_prints_on_exactly_one_a4_page(content, page, slug):
    page.goto(f"/spiele/{slug}/kurzregel/")
    expect(page.locator(".short-rules h1")).to_contain_text("Kurzregel")
    page.emulate_media(media="print")
    # The page's own @page rule (A4) decides the size; Chromium honours it.
    pdf = page.pdf(prefer_css_page_size=True, print_background=True)
    assert pdf.startswith(b"%PDF")
    assert len(PAGE_OBJECT.findall(pdf)) == 1
    # Navigation, footer and the print button stay off the paper.
    assert page.locator(".site-header").is_hidden()
    assert page.locator(".short-rules__tools").is_hidden()


@pytest.mark.parametrize(("name", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_the_kurzregel_on_screen(content, page, name, viewport):
    page.set_viewport_size(viewport)
    page.goto("/spiele/katz-und-maus/")
    page.locator(".glance__short a").click()
    expect(page).to_have_url(re.compile(r"/spiele/katz-und-maus/kurzregel/$"))
    expect(page.locator("[data-print]")).to_be_visible()  # the script shows the button
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"]
    screenshot(page, f"kurzregel-katz-und-maus-{name}")
    assert_accessible(page)
