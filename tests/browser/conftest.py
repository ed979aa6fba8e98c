"""Playwright driving Debian's Chromium against Django's live server."""

import os
from pathlib import Path

import pytest

CHROMIUM = Path(os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        # Never a silent skip: CI must run these tests (`make test` installs Chromium).
        pytest.fail(f"Chromium fehlt unter {CHROMIUM}; `make browser` installiert es.")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(viewport=DESKTOP, locale="de-DE", base_url=live_server.url)
    page = context.new_page()
    external = []
    # The site must never load anything from another host.
    page.on(
        "request",
        lambda request: (
            external.append(request.url)
            if not request.url.startswith((live_server.url, "data:", "about:"))
            else None
        ),
    )
    console_errors = []
    page.on("console", lambda msg: console_errors.append(msg.text) if msg.type == "error" else None)
    yield page
    context.close()
    assert external == [], f"Requests to other hosts: {external}"
    assert console_errors == [], f"Console errors (e.g. CSP violations): {console_errors}"


def strict_windows(browser, base_url):
    """Browser windows with their own cookies (one per player); console errors, uncaught
    script errors and requests to other hosts fail the test when it ends."""
    contexts, problems = [], []

    def open_(viewport, **options):  # options: e.g. has_touch, is_mobile for a phone
        context = browser.new_context(
            viewport=viewport, locale="de-DE", base_url=base_url, **options
        )
        context.grant_permissions(["clipboard-read", "clipboard-write"])
        page = context.new_page()
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda error: problems.append(str(error)))
        page.on(
            "request",
            lambda r: (
                problems.append(r.url)
                if not r.url.startswith((base_url, "data:", "about:"))
                else None
            ),
        )
        contexts.append(context)
        return page

    yield open_
    for context in contexts:
        context.close()
    assert problems == []


@pytest.fixture
def open_browser(browser, live_server):
    yield from strict_windows(browser, live_server.url)


def show_demo(page):
    """Scroll to the game page's demo, as a reader does: it is drawn when it comes into view
    (a fragment of the cached page); returns once the table replaced the placeholder."""
    from playwright.sync_api import expect

    page.locator("#demo").scroll_into_view_if_needed()
    expect(page.locator("#demo [data-fragment]")).to_have_count(0)
    return page.locator("#demo")


def open_game_page(page, slug: str):
    """The game page with its demo in view (``show_demo``)."""
    page.goto(f"/spiele/{slug}/")
    return show_demo(page)


def own_stars_in_place(page):
    """Wait until the reader's own star form (a fragment, with CSRF token) has replaced the
    cached page's placeholder: before that, a star opens the rating page (the way without
    JavaScript)."""
    from playwright.sync_api import expect

    expect(page.locator(".rating__form[hx-post]")).to_be_visible()


def assert_accessible(page):
    """axe-core (bundled with axe-playwright-python): no serious or critical violations."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    assert results.response["passes"], "axe-core did not run"
    bad = [
        f"{v['id']} ({v['impact']}): {v['help']} – {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    assert bad == [], "\n".join(bad)


def screenshot(page, name):
    """Screenshots for humans to look at; written only when SCREENSHOT_DIR is set."""
    directory = os.environ.get("SCREENSHOT_DIR")
    if directory:
        Path(directory).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(directory) / f"{name}.png"), full_page=True)
