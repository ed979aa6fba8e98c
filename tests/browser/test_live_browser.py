"""Pushed updates in real browsers against a real gunicorn with uvicorn workers: two
players in a room, and a demo that pauses in a hidden tab.

The server runs as in production (``site_config.asgi``, two uvicorn workers,
Redis for the fan-out, so the two players' streams may sit in different
processes) with ``LIVE_POLL_MS`` at ten minutes: every change the other
player sees within the test can only have come by push.
"""

from __future__ import annotations

import contextlib
import sqlite3
from datetime import UTC, datetime

import psycopg
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE, assert_accessible, screenshot, strict_windows
from tests.browser.test_the_cat_browser import coach_off
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


DEMO_WRAPPER = "document.querySelector('[data-demo][data-live-url]')"
SET_VISIBILITY = """hidden => {
  Object.defineProperty(document, "hidden", { value: hidden, configurable: true });
  Object.defineProperty(document, "visibilityState", {
    value: hidden ? "hidden" : "visible", configurable: true,
  });
  document.dispatchEvent(new Event("visibilitychange"));
  return performance.now();
}"""


def _newest_cat_demo(backends) -> tuple[int, datetime | None]:  # noqa: F811
    """(version, bot_due) of the newest The Cat demo, read from the server's database
    itself: asking the server would make the due bot moves."""
    query = "SELECT version, bot_due FROM games_demogame WHERE engine = 'the_cat' ORDER BY id DESC"
    if backends.database == "sqlite":
        with contextlib.closing(sqlite3.connect(backends.env["SQLITE_PATH"])) as db:
            version, due = db.execute(query).fetchone()
        due = datetime.fromisoformat(due).replace(tzinfo=UTC) if due else None
        return version, due
    with psycopg.connect(backends.env["DATABASE_URL"]) as db:
        return db.execute(query).fetchone()


def _demo_version(page) -> int:
    return int(page.locator("[data-demo-body]").get_attribute("data-version"))


def _start_flink_demo(page) -> None:
    """The The Cat demo against „flink“ bots on their own clock, its stream working."""
    page.goto("/spiele/the-cat/demo/")
    page.get_by_text("flink", exact=True).click()
    page.get_by_role("button", name="Spiel starten").click()
    coach_off(page)
    page.wait_for_function(f"() => !!({DEMO_WRAPPER} && {DEMO_WRAPPER}.liveWorking)")


def _wait_for_newer_table(page, version: int) -> None:
    page.wait_for_function(
        f"() => +document.querySelector('[data-demo-body]').dataset.version > {version}"
    )


def test_a_demo_in_a_hidden_tab_pauses_its_bots(windows, push_server, backends):  # noqa: F811
    """A forgotten background tab costs the server nothing: its stream closes, no poll is
    sent, a due bot move waits; back in view the bots go on, pushed as before."""
    reader = windows(DESKTOP)
    _start_flink_demo(reader)
    # A bot's move, pushed (the timed poll is ten minutes away).
    _wait_for_newer_table(reader, _demo_version(reader))

    sent = []
    reader.on("request", lambda request: sent.append(request.url))
    hidden_at = reader.evaluate(SET_VISIBILITY, True)
    reader.wait_for_function(f"() => !{DEMO_WRAPPER}.hasAttribute('sse-connect')")
    paused, _ = _newest_cat_demo(backends)
    # Three seconds by the page's own clock: the „flink“ bots make a move about every
    # second each. One fell due meanwhile and was not made.
    reader.wait_for_function(f"() => performance.now() > {hidden_at} + 3000", polling=200)
    version, due = _newest_cat_demo(backends)
    assert version == paused
    assert due is not None and due < datetime.now(UTC)
    assert sent == []

    reader.evaluate(SET_VISIBILITY, False)
    reader.wait_for_function(f"() => !!{DEMO_WRAPPER}.liveWorking")
    _wait_for_newer_table(reader, paused)
    assert _newest_cat_demo(backends)[0] > paused
    assert_accessible(reader)


def test_a_demo_hidden_and_shown_at_once_connects_again(windows, push_server):
    """Back in view before any bot moved: the stream's address is the same as before,
    and the page still connects again (htmx re-processes only changed attributes)."""
    reader = windows(PHONE)
    _start_flink_demo(reader)
    reader.evaluate(SET_VISIBILITY, True)
    reader.wait_for_function(f"() => !{DEMO_WRAPPER}.hasAttribute('sse-connect')")
    reader.evaluate(SET_VISIBILITY, False)
    reader.wait_for_function(f"() => !!{DEMO_WRAPPER}.liveWorking")
    shown = _demo_version(reader)
    _wait_for_newer_table(reader, shown)  # the bots' moves arrive pushed again
    screenshot(reader, "live-demo-back-in-view-phone")
