"""Pushed updates in two real browsers against a real gunicorn with uvicorn workers.

The server runs as in production (``site_config.asgi``, two uvicorn workers,
Redis for the fan-out, so the two players' streams may sit in different
processes) with ``LIVE_POLL_MS`` at ten minutes: every change the other
player sees within the test can only have come by push.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE, assert_accessible, screenshot, strict_windows
from tests.servers.conftest import AppServer, backends  # noqa: F401  (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.servers]

NEVER_MS = "600000"  # the poll fallback: ten minutes, longer than this test


@pytest.fixture
def push_server(backends, tmp_path):  # noqa: F811
    env = {**backends.env, "LIVE_POLL_MS": NEVER_MS}
    server = AppServer("live", env, tmp_path, workers=2).start()
    yield server
    server.stop()
    assert "Traceback" not in server.log_text(), server.log_tail(80)


@pytest.fixture
def windows(browser, push_server):
    """Browser windows with their own cookies; console errors and foreign requests fail."""
    yield from strict_windows(browser, push_server.url)


def _stream_works(page) -> None:
    """The page's stream has delivered its first event (from then on it does not poll)."""
    page.wait_for_function(
        "() => { const w = document.querySelector('[data-live-stream]'); return !!(w && w.liveWorking); }"
    )


def test_the_other_player_sees_each_change_by_push(windows, push_server):
    anna, ben = windows(DESKTOP), windows(PHONE)

    anna.goto("/spiele/alpaka/raum/neu/")
    anna.get_by_label("Dein Name am Tisch").fill("Anna")
    anna.get_by_role("button", name="Raum eröffnen").click()
    expect(anna.locator(".player")).to_have_count(1)
    invite = anna.locator("#invite-link").inner_text().strip()
    assert f"every {NEVER_MS}ms" in anna.locator("#room-body").get_attribute("hx-trigger")
    _stream_works(anna)

    # Ben joins: Anna's lobby shows him without reloading and without a poll.
    ben.goto(invite)
    ben.get_by_label("Dein Name am Tisch").fill("Ben")
    ben.get_by_role("button", name="Beitreten").click()
    expect(anna.locator(".players")).to_contain_text("Ben")
    _stream_works(ben)

    # Anna starts: Ben's lobby turns into the table.
    anna.get_by_role("button", name="Partie starten").click()
    expect(ben.locator(".alp-bar__round")).to_have_text("Runde 1")
    expect(anna.locator(".alp-status")).to_contain_text("am Zug")

    # Whoever is on turn plays a card (or draws); the other sees the move in the log.
    ben_begins = "Du bist am Zug" in ben.locator(".alp-status").inner_text()
    on_turn, other = (ben, anna) if ben_begins else (anna, ben)
    mover = "Ben" if ben_begins else "Anna"
    expect(on_turn.locator(".alp-status")).to_contain_text("Du bist am Zug")
    fetched = []  # the other page's requests for its table: none, the table comes pushed
    other.on(
        "request",
        lambda request: fetched.append(request.url) if "/status/" in request.url else None,
    )
    if on_turn.locator(".alp-group--playable").count():
        on_turn.locator(".alp-group--playable").first.click()
    else:
        on_turn.get_by_role("button", name="Ziehen").click()
    expect(other.locator(".alp-status")).to_contain_text("Du bist am Zug")
    expect(other.locator(".alp-log__list li").first).to_contain_text(mover)

    # The table the other player sees is the newest version pushed, drawn by the server.
    version = int(other.locator("#room-body").get_attribute("data-version"))
    newest = other.evaluate("() => document.querySelector('[data-live-stream]').liveNewest")
    assert newest == version
    assert fetched == []
    screenshot(other, "live-room-after-pushed-move")
    assert_accessible(other)
