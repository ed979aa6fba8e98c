"""Kätzchen-Angeln in the browser: one test per feature of seed 000, axe in every layout.

Animations run at a fraction of their speed (localStorage "kaetzchen-tempo", read by
static/js/kaetzchen.js) unless a test needs to catch one in the middle.
"""

from __future__ import annotations

import contextlib
import re
import warnings
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from games.engines import kaetzchen as engine
from games.models import DemoGame
from games.visitors import COOKIE_NAME
from tests.browser.conftest import DESKTOP, PHONE, assert_accessible, screenshot, show_demo
from tests.factories import visitor_cookie

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAGE = "/spiele/kaetzchen-angeln/"
DEMO = "/spiele/kaetzchen-angeln/demo/"
LANDSCAPE = {"width": PHONE["height"], "height": PHONE["width"]}
FAST = 0.05
VISITOR = "browser-test-visitor"

# The animation helper records every Web Animation the script starts.
RECORD_ANIMATIONS = """
window.__kzAnimations = [];
const originalAnimate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  window.__kzAnimations.push(typeof options === "number" ? options : options.duration);
  return originalAnimate.call(this, frames, options);
};
"""

# The test's own recorder (kaetzchen.js has no hook for tests): the page's clock
# (performance.now()) at every click and key, every request the page sends (htmx uses
# XMLHttpRequest) and every change of the board: a new board, its animation's start and end.
# Its listeners sit on window in the capture phase, so they run before kaetzchen.js's
# listeners on document and see the board as the script's input gate sees it.
RECORD_EVENTS = """
(() => {
  const events = (window.__kzEvents = []);
  const board = () => document.getElementById("kz-game");
  const now = () => performance.now();
  function state() {
    const b = board();
    const demo = document.getElementById("kz-demo");
    return {
      root: Boolean(demo && demo.dataset.ready),
      ready: Boolean(b && b.dataset.ready),
      moving: Boolean(b && b.classList.contains("is-animating")),
      turn: b ? b.dataset.turn : null,
      moves: b ? Number(b.dataset.moves) : null,
      animations: (window.__kzAnimations || []).length,
    };
  }
  for (const kind of ["click", "keydown", "keyup"]) {
    window.addEventListener(kind, (event) => {
      if (event.repeat) return;
      const target = event.target instanceof Element ? event.target : null;
      const b = board();
      events.push({
        kind, t: now(), key: event.key || null,
        onBoard: Boolean(target && b && b.contains(target)),
        ...state(),
      });
    }, true);
  }
  const open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (method, url) {
    this.__kzUrl = String(url);
    return open.apply(this, arguments);
  };
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function () {
    const entry = { kind: "request", t: now(), url: this.__kzUrl, done: null };
    events.push(entry);
    this.addEventListener("loadend", () => { entry.done = now(); });
    return send.apply(this, arguments);
  };
  let last = { element: null, moving: false };
  new MutationObserver(() => {
    const b = board();
    const s = state();
    if (b && b !== last.element) events.push({ kind: "board", t: now(), moves: s.moves, turn: s.turn });
    if (s.moving !== last.moving) events.push({ kind: s.moving ? "start" : "rest", t: now(), moves: s.moves });
    last = { element: b, moving: s.moving };
  }).observe(document, {
    subtree: true, childList: true, attributes: true, attributeFilter: ["class"],
  });
})();
"""


@pytest.fixture(autouse=True)
def _content(content):
    return content


@pytest.fixture
def seeds(monkeypatch):
    queue = list(range(501, 520))
    monkeypatch.setattr("games.play.table.new_seed", lambda: queue.pop(0))
    return queue


def open_demo(browser, live_server, viewport=DESKTOP, tempo=FAST, visitor=None, **options):
    """A browser context with its own visitor; returns (context, page, errors)."""
    context = browser.new_context(
        viewport=viewport, locale="de-DE", base_url=live_server.url, **options
    )
    context.add_init_script(f"localStorage.setItem('kaetzchen-tempo', '{tempo}');")
    context.add_init_script(RECORD_ANIMATIONS)
    context.add_init_script(RECORD_EVENTS)
    if visitor:
        value = visitor_cookie(visitor)
        context.add_cookies([{"name": COOKIE_NAME, "value": value, "url": live_server.url}])
    page = context.new_page()
    errors = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return context, page, errors


@pytest.fixture
def demo(browser, live_server):
    """Open pages with `demo(viewport=…, tempo=…, visitor=…)`; checks for JS errors at the end."""
    opened = []

    def make(**kwargs):
        context, page, errors = open_demo(browser, live_server, **kwargs)
        opened.append((context, errors))
        return page

    yield make
    for context, errors in opened:
        context.close()
        assert errors == [], errors


def stored(state, version=5, games=3, auto=False):
    """Put a hand-made position into the browser visitor's row (with an empty log: a
    timing test that sets up again starts from scratch)."""
    return DemoGame.objects.update_or_create(
        visitor=VISITOR,
        engine="kaetzchen",
        defaults={
            "state": state,
            "version": version,
            "profile": {"games": games, "auto": auto},
            "log": [],
        },
    )[0]


def position(you, cat, table=(), turn=0, moves=20, limit=5000, starter=0):
    state = engine.new_game(99, options={"limit": limit})
    state.update(
        piles=[list(you), list(cat)], table=list(table), turn=turn, moves=moves, starter=starter
    )
    return state


def others(*used):
    taken = set().union(*map(set, used))
    return [code for code in engine.CARDS if code not in taken]


def game(page):
    return page.locator("#kz-game")


def settled(page, moves):
    """The board shows `moves` and has come to rest (set up by the script, nothing moving)."""
    expect(page.locator(f'#kz-game[data-ready][data-moves="{moves}"]')).to_have_count(1)
    expect(page.locator("#kz-game:is(.is-animating, .is-dealing, .is-waiting)")).to_have_count(0)


def row():
    return DemoGame.objects.get(engine="kaetzchen")


def wait_until(page, condition, timeout=30):
    """Poll from Python (the page's CSP forbids Playwright's string functions)."""
    for _ in range(int(timeout / 0.05)):
        if condition():
            return
        page.wait_for_timeout(50)
    raise AssertionError("condition not reached")


def moves_shown(page) -> int:
    return int(game(page).get_attribute("data-moves"))


def table_cards(page) -> list[str]:
    return page.locator("#kz-game .kz-row .kz-card").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )


# --------------------------------------------------------------------------
# Judging by what happened: the recorder's page timestamps (RECORD_EVENTS)
#
# A test that acts inside an animation's time window never judges by the gaps it meant to
# make (a busy machine stretches them): it reads when its taps and keys really reached the
# page, replays kaetzchen.js's input gate on them, and when a precondition was missed (a tap
# came after the animation, two taps too far apart to be one gesture) it sets up again, a
# few times, then fails saying so.

SCRIPT = (
    Path(__file__).resolve().parents[2] / "games/play/kaetzchen/static/play/kaetzchen/kaetzchen.js"
)


def _script_constant(name: str) -> int:
    return int(re.search(rf"var {name} = (\d+);", SCRIPT.read_text()).group(1))


# The gate's quiet times (ms): after an input has ended an animation, inputs within
# QUIET_AFTER_SKIP only end it, too; each such input extends the quiet by QUIET_AFTER_SWALLOWED.
QUIET_AFTER_SKIP = _script_constant("QUIET_AFTER_SKIP")
QUIET_AFTER_SWALLOWED = _script_constant("QUIET_AFTER_SWALLOWED")
# Inputs this close to the end of a quiet time are not judged either way.
EDGE = 40
ATTEMPTS = 4


class Missed(Exception):
    """A timing test's precondition was missed (e.g. the tap came after the animation)."""


def retried(attempt, attempts=ATTEMPTS):
    """Runs `attempt()` until it raises no Missed; fails after `attempts` misses."""
    reasons = []
    for number in range(1, attempts + 1):
        try:
            result = attempt()
        except Missed as missed:
            reasons.append(f"attempt {number}: {missed}")
            continue
        if reasons:  # shown in pytest's summary: how often a busy machine made us retry
            warnings.warn("set up again: " + "; ".join(reasons), stacklevel=2)
        return result
    pytest.fail(
        f"Precondition missed in all {attempts} attempts (is the machine that busy?):\n"
        + "\n".join(reasons)
    )


def recorded(page, *kinds) -> list[dict]:
    """What the recorder saw, oldest first (all of it, or only events of these kinds)."""
    found = page.evaluate("window.__kzEvents")
    return [event for event in found if not kinds or event["kind"] in kinds]


def wait_for_events(page, count, *kinds) -> list[dict]:
    """Waits until the page has seen `count` events of these kinds; returns them all."""
    found = []

    def seen():
        found[:] = recorded(page, *kinds)
        return len(found) >= count

    wait_until(page, seen)
    return found


def flip_requests(page, after=float("-inf")) -> list[dict]:
    """The visitor's flips the page has sent (after the page time `after`)."""
    return [
        event
        for event in recorded(page, "request")
        if "/demo/aktion/" in event["url"] and event["t"] > after
    ]


def page_now(page) -> float:
    return page.evaluate("performance.now()")


def idle(page):
    """Waits until every request the page has sent has got its answer."""
    wait_until(page, lambda: all(event["done"] is not None for event in recorded(page, "request")))


def give_up(page, reason) -> Missed:
    """Closes an attempt whose precondition was missed (once nothing is on its way any
    more, so no late request changes the next attempt's game); returns the Missed to raise."""
    idle(page)
    page.context.close()
    return Missed(reason)


def gate(inputs) -> tuple[list[str], float]:
    """kaetzchen.js's input gate replayed on recorded clicks and keys, with their real page
    times: for each input „ignored“ (a key before the script was set up, a click beside the
    board), „ends“ (it came while something moved or before the board was set up: it only
    ends that), „swallowed“ (within the quiet time after), „unclear“ (too close to the quiet
    time's end to tell) or „passes“ (it reached the game). Also returns the page time when
    the quiet time ends."""
    quiet = float("-inf")
    verdicts = []
    for event in inputs:
        t = event["t"]
        if (event["kind"] == "keydown" and not event["root"]) or (
            event["kind"] == "click" and event["ready"] and not event["onBoard"]
        ):
            verdict = "ignored"
        elif not event["ready"] or event["moving"]:
            verdict = "ends"
            quiet = max(quiet, t + QUIET_AFTER_SKIP)
        elif t < quiet - EDGE:
            verdict = "swallowed"
            quiet = max(quiet, t + QUIET_AFTER_SWALLOWED)
        elif t <= quiet + EDGE:
            verdict = "unclear"
            quiet = max(quiet, t + QUIET_AFTER_SWALLOWED)
        else:
            verdict = "passes"
        verdicts.append(verdict)
    return verdicts, quiet


def gaps(inputs) -> list[int]:
    return [round(b["t"] - a["t"]) for a, b in zip(inputs, inputs[1:], strict=False)]


def taps_report(page, taps, verdicts) -> str:
    """For a Missed message: the taps' gaps, the gate's verdicts, and when the animation
    they were meant for came to rest (ms after the first tap)."""
    rests = [e["t"] - taps[0]["t"] for e in recorded(page, "rest") if e["t"] >= taps[0]["t"]]
    rest = f"{rests[0]:.0f} ms after the first" if rests else "not yet"
    return f"taps {gaps(taps)} ms apart: {verdicts}; the animation rested {rest}"


def page_timers_run(page, ms):
    """Returns once a page timer of `ms` set now has fired: every timer the page had set
    before with a shorter delay has fired by then, however busy the machine is."""
    page.evaluate("ms => new Promise(resolve => setTimeout(resolve, ms))", ms)


def scrolled(page) -> float:
    """Waits until the page has stopped scrolling (the same position in three frames in a
    row); returns window.scrollY."""
    return page.evaluate(
        """() => new Promise(resolve => {
          let last = null, same = 0;
          function frame() {
            same = window.scrollY === last ? same + 1 : 0;
            last = window.scrollY;
            if (same >= 3) resolve(last); else requestAnimationFrame(frame);
          }
          requestAnimationFrame(frame);
        })"""
    )


def rendered(page):
    """Returns after the page has drawn two frames and run the tasks they queued (e.g. its
    IntersectionObserver callbacks after a scroll or a resize)."""
    page.evaluate(
        "() => new Promise(resolve => requestAnimationFrame(() => "
        "requestAnimationFrame(() => setTimeout(resolve, 0))))"
    )


# --------------------------------------------------------------------------
# Dealing


def test_deal_is_skippable_and_taps_or_keys_only_finish_it(demo):
    def space(page):
        page.keyboard.press("Space")

    def tap_on_the_pile(page):
        page.locator("#kz-pile-you").click()

    def skip(page):
        try:
            page.get_by_role("button", name="Überspringen").click(timeout=5000)
        except PlaywrightTimeoutError:
            raise give_up(page, "the deal had ended before „Überspringen“ was clicked") from None

    for act, kind in ((space, "keydown"), (tap_on_the_pile, "click"), (skip, "click")):
        retried(lambda act=act, kind=kind: _deal_ended_by(demo, act, kind))


def _deal_ended_by(demo, act, kind):
    """One input during the deal ends it and does nothing else."""
    DemoGame.objects.all().delete()
    page = demo(tempo=3)  # slow enough to act during the deal
    page.goto(DEMO)
    expect(page.locator("#kz-game.is-dealing")).to_have_count(1)
    act(page)
    (event,) = wait_for_events(page, 1, kind)
    cards = len(engine.CARDS)
    if not event["moving"] or event["animations"] >= cards:
        raise give_up(page, f"the {kind} came after the last card had left the deck")
    # It ended the deal at once: no card left the deck after it.
    expect(page.locator("#kz-game.is-dealing")).to_have_count(0)
    assert len(page.evaluate("window.__kzAnimations")) == event["animations"]
    expect(page.locator('[data-kz-count="you"]')).to_have_text("26")
    expect(page.locator('[data-kz-count="cat"]')).to_have_text("26")
    expect(page.get_by_role("button", name="Überspringen")).to_be_hidden()
    settled(page, 0)
    assert flip_requests(page) == [] and DemoGame.objects.count() == 0  # no card was flipped
    page.context.close()


# --------------------------------------------------------------------------
# Flipping


def test_flip_by_click_key_and_tap(demo, browser, live_server, seeds):
    page = demo()
    page.goto(DEMO)
    settled(page, 0)
    expect(page.locator("#kz-tap-hint")).to_contain_text("Tippe auf deinen Stapel")
    expect(page.locator("#kz-tap-hint")).to_be_visible()
    page.get_by_role("button", name="Dein Stapel – oberste Karte aufdecken").click()
    settled(page, 2)  # Kätzchen answered by itself
    expect(page.locator("#kz-tap-hint")).to_have_count(0)
    page.get_by_role("button", name="Aufdecken", exact=True).click()
    settled(page, 4)
    game(page).focus()
    page.keyboard.press("Space")
    settled(page, 6)
    page.keyboard.press("Enter")
    settled(page, 8)
    assert row().state["moves"] == 8
    screenshot(page, "kaetzchen-desktop-play")

    phone = demo(viewport=PHONE, has_touch=True, is_mobile=True)
    phone.goto(DEMO)
    settled(phone, 0)
    phone.locator("#kz-pile-you").tap()
    settled(phone, 2)


def test_fishing_is_highlighted_then_collected_and_a_tap_only_finishes_it(demo):
    table = ["5S", "9H", "KD", "3C"]
    you = ["9C", "2D", "4S"]
    cat = others(table, you)

    def attempt():
        stored(position(you, cat, table, turn=0))
        page = demo(tempo=4, visitor=VISITOR)
        page.goto(DEMO)
        settled(page, 20)
        page.locator("#kz-pile-you").click()
        highlighted = page.locator(".kz-card.is-highlight")
        expect(highlighted).to_have_count(2)
        expect(page.locator(".kz-card.is-highlight[data-card='9H']")).to_be_visible()
        expect(page.locator(".kz-card.is-highlight[data-card='9C']")).to_be_visible()
        expect(page.locator("[data-kz-status]")).to_have_text(
            "Geangelt! Du nimmst 4 Karten. Kätzchen ist dran."
        )
        expect(page.locator("[data-kz-flash]")).to_have_text("Geangelt!")
        # A tap during the collect animation only finishes it.
        page.locator("#kz-pile-you").click()
        tap = wait_for_events(page, 2, "click")[1]
        if not tap["moving"]:
            raise give_up(page, "the second tap came after the animation")
        return page

    page = retried(attempt)
    expect(page.locator("#kz-game .kz-row .kz-card")).to_have_count(1)
    expect(page.locator('[data-kz-count="you"]')).to_have_text("6")
    expect(page.locator("#kz-game.is-animating")).to_have_count(0)
    idle(page)
    assert len(flip_requests(page)) == 1 and visitor_flips() == 1  # exactly one flip


def test_jack_clear_has_its_own_message(demo):
    table = ["5S", "9H", "KD"]
    cat = ["JD", "2C"]
    you = others(table, cat)

    def attempt():
        stored(position(you, cat, table, turn=1))
        page = demo(tempo=2, visitor=VISITOR)
        page.goto(DEMO)
        expect(page.locator("[data-kz-flash]")).to_have_text("Bube räumt ab!")
        expect(page.locator(".kz-card.is-jack[data-card='JD']")).to_be_visible()
        expect(page.locator("[data-kz-status]")).to_have_text(
            "Bube räumt ab! Kätzchen nimmt 4 Karten. Du bist dran."
        )
        page.keyboard.press("Escape")  # a key finishes the animation, nothing else
        (key,) = wait_for_events(page, 1, "keydown")
        if not key["moving"]:
            raise give_up(page, "Escape came after the animation")
        return page

    page = retried(attempt)
    expect(page.locator("#kz-game .kz-row .kz-card")).to_have_count(0)
    expect(page.get_by_text("Der Tisch ist leer.")).to_be_visible()
    expect(page.locator('[data-kz-count="cat"]')).to_have_text("5")
    assert flip_requests(page) == [] and row().state["moves"] == 21


def test_tap_during_kaetzchens_turn_only_says_wait(demo):
    you = ["2D", "3D", "4D"]
    cat = others(you)

    def attempt():
        stored(position(you, cat, turn=1))
        page = demo(tempo=4, visitor=VISITOR)  # Kätzchen waits over three seconds
        page.goto(DEMO)
        expect(game(page)).to_have_attribute("data-turn", "cat")
        expect(page.locator(".kz-seat--cat .kz-seat__turn")).to_have_text("am Zug")
        page.locator("#kz-pile-you").click()
        (tap,) = wait_for_events(page, 1, "click")
        if tap["moving"] or tap["turn"] != "cat":
            raise give_up(page, "the tap came after Kätzchen's flip had arrived")
        return page

    page = retried(attempt)
    expect(page.locator("[data-kz-status]")).to_contain_text("Warte auf den Gegner")
    expect(page.locator("#kz-live")).to_contain_text("Warte auf den Gegner")
    assert flip_requests(page) == []
    # Then Kätzchen flips by itself.
    expect(game(page)).to_have_attribute("data-moves", "21", timeout=15000)
    assert row().state["piles"][0] == you and visitor_flips() == 0


# --------------------------------------------------------------------------
# Starter, Auto


def test_starter_alternates_and_kaetzchen_announces_its_start(demo, seeds):
    page = demo()
    page.goto(DEMO)
    settled(page, 0)
    expect(page.locator("#kz-tap-hint")).to_be_visible()
    expect(page.locator("#kz-cat-starts")).to_have_count(0)
    page.get_by_role("button", name="Neues Spiel").click()  # nothing played yet: no question
    expect(page.locator("#kz-cat-starts")).to_have_text(
        "In diesem Spiel deckt der Gegner zuerst auf"
    )
    settled(page, 1)  # Kätzchen flipped first, without a click
    assert row().state["starter"] == 1 and row().profile["games"] == 2
    expect(page.locator("#kz-tap-hint")).to_have_count(0)

    page.get_by_role("button", name="Neues Spiel").click()
    page.get_by_role("button", name="Ja, neu mischen").click()
    settled(page, 0)
    assert row().state["starter"] == 0 and row().profile["games"] == 3
    expect(page.locator("#kz-cat-starts")).to_have_count(0)
    expect(game(page)).to_have_attribute("data-turn", "you")


def test_auto_flips_both_sides_until_switched_off(demo, seeds):
    page = demo(tempo=0.05)
    page.goto(DEMO)
    settled(page, 0)
    switch = page.get_by_role("button", name="Auto")
    expect(switch).to_have_attribute("aria-pressed", "false")
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")
    wait_until(page, lambda: moves_shown(page) >= 8)
    assert row().profile["auto"] is True
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "false")
    off = wait_for_events(page, 2, "click")[-1]["t"]
    # A flip already on its way lands, Kätzchen answers; then the board rests on the
    # visitor's turn.
    expect(page.locator('#kz-game[data-turn="you"]:not(.is-animating)')).to_have_count(
        1, timeout=10000
    )
    moves = game(page).get_attribute("data-moves")
    # With Auto on, the page would have set a timer for the next flip (its pause is 33 ms
    # at this tempo) when the board came to rest; a later 20 times longer timer has fired.
    page_timers_run(page, 650)
    assert flip_requests(page, after=off) == []
    assert game(page).get_attribute("data-moves") == moves
    assert row().profile["auto"] is False
    page.reload()
    expect(page.get_by_role("button", name="Auto")).to_have_attribute("aria-pressed", "false")


# --------------------------------------------------------------------------
# Zum Ergebnis, result, new game


def test_zum_ergebnis_asks_then_shows_the_real_result(demo, seeds):
    page = demo()
    page.goto(DEMO)
    settled(page, 0)
    page.locator("#kz-pile-you").click()
    settled(page, 2)
    before = row().state
    page.get_by_role("button", name="Zum Ergebnis").click()
    question = page.get_by_role("dialog", name="Zum Ergebnis springen?")
    expect(question).to_be_visible()
    assert_accessible(page)
    page.get_by_role("button", name="Weiterspielen").click()
    expect(question).to_be_hidden()
    assert row().state == before

    page.get_by_role("button", name="Zum Ergebnis").click()
    page.get_by_role("button", name="Ja, zum Ergebnis").click()
    end, summary = engine.finish(before)
    title = {"you": "Sieg!", "cat": "Niederlage", None: "Unentschieden"}[summary["winner"]]
    result = page.get_by_role("dialog", name=title)
    expect(result).to_be_visible()
    expect(result).to_contain_text(f"Züge insgesamt{summary['moves']}")
    expect(result).to_contain_text(f"Dein Stapel{summary['you']} Karte")
    expect(result).to_contain_text(f"Kätzchens Stapel{summary['cat']} Karte")
    assert row().state["result"] == end["result"]
    screenshot(page, "kaetzchen-desktop-result")


def test_result_dialog_shows_the_loss_and_starts_a_new_round(demo, seeds):
    table = ["8S", "4C", "KD"]
    you = ["2D"]
    cat = others(table, you)
    stored(position(you, cat, table, turn=0, moves=41), games=3)
    page = demo(visitor=VISITOR)
    page.goto(DEMO)
    settled(page, 41)
    page.locator("#kz-pile-you").click()
    result = page.get_by_role("dialog", name="Niederlage")
    expect(result).to_be_visible()
    expect(result).to_contain_text("Dein Stapel ist leer.")
    expect(result).to_contain_text("Dein Stapel0 Karten")
    expect(result).to_contain_text(f"Kätzchens Stapel{len(cat)} Karten")
    expect(result).to_contain_text("Züge insgesamt42")
    expect(page.locator("#kz-live")).to_contain_text("Dein Stapel ist leer – Kätzchen gewinnt.")
    assert_accessible(page)
    result.get_by_role("button", name="Neue Runde").click()
    expect(result).to_have_count(0)
    settled(page, 1)  # game 4: Kätzchen starts and flips at once
    assert row().profile["games"] == 4 and row().state["starter"] == 1


def test_limit_result_names_the_card_count(demo):
    you, cat = engine.deal(77)
    stored(position(you, cat, turn=0, moves=0, limit=9))
    page = demo(visitor=VISITOR)
    page.goto(DEMO)
    page.get_by_role("button", name="Zum Ergebnis").click()
    page.get_by_role("button", name="Ja, zum Ergebnis").click()
    expect(page.get_by_role("dialog")).to_contain_text("Zuglimit erreicht – Kartenzahl entscheidet")
    expect(page.get_by_role("dialog")).to_contain_text("Züge insgesamt9")


def test_new_game_mid_game_asks_once(demo, seeds):
    page = demo()
    page.goto(DEMO)
    settled(page, 0)
    page.locator("#kz-pile-you").click()
    settled(page, 2)
    page.get_by_role("button", name="Neues Spiel").click()
    question = page.get_by_role("dialog", name="Neues Spiel starten?")
    expect(question).to_be_visible()
    page.keyboard.press("Escape")
    expect(question).to_be_hidden()
    assert row().state["moves"] == 2
    settled(page, 2)
    page.get_by_role("button", name="Neues Spiel").click()
    page.get_by_role("button", name="Ja, neu mischen").click()
    expect(question).to_be_hidden()
    expect(game(page)).to_have_attribute("data-phase", "deal")
    assert row().state["moves"] <= 1 and row().profile["games"] == 2


# --------------------------------------------------------------------------
# Saving, layouts, accessibility


def test_reload_and_switching_fullscreen_continue_the_game(demo, seeds):
    page = demo()
    page.goto(DEMO)
    settled(page, 0)
    for moves in (2, 4, 6):
        page.locator("#kz-pile-you").click()
        settled(page, moves)
    cards = table_cards(page)
    counts = (
        page.locator('[data-kz-count="you"]').text_content(),
        page.locator('[data-kz-count="cat"]').text_content(),
    )
    for url in (DEMO, PAGE):
        page.goto(url)
        if url == PAGE:
            show_demo(page)
        settled(page, 6)
        assert table_cards(page) == cards
        assert (
            page.locator('[data-kz-count="you"]').text_content(),
            page.locator('[data-kz-count="cat"]').text_content(),
        ) == counts
        expect(page.locator(".kz-moves")).to_have_text("Züge: 6")


@pytest.mark.parametrize(
    ("name", "viewport"),
    [("phone-portrait", PHONE), ("phone-landscape", LANDSCAPE), ("desktop", DESKTOP)],
)
def test_layout_fits_and_is_accessible(demo, name, viewport):
    table = ["AS", "2H", "3D", "4C", "5S", "6H", "7D", "8C", "9S", "10H", "QD", "KC"]
    you = ["AH", "2S", "JH"]
    cat = others(table, you)
    stored(position(you, cat, table, turn=0))
    page = demo(viewport=viewport, visitor=VISITOR, has_touch=viewport != DESKTOP)
    for url in (DEMO, PAGE):
        page.goto(url)
        if url == PAGE:
            show_demo(page)
        settled(page, 20)
        page.locator("#kz-demo").scroll_into_view_if_needed()
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        finish = page.get_by_role("button", name="Zum Ergebnis")
        expect(finish).to_be_visible()
        for locator in (
            page.locator("#kz-pile-you"),
            page.locator('[data-kz-pile="cat"]'),
            page.get_by_role("button", name="Aufdecken", exact=True),
            finish,
            page.locator("#kz-game .kz-row .kz-card").last,
            page.locator("[data-kz-status]"),
        ):
            expect(locator).to_be_visible()
        if url == DEMO:
            # Full screen: the whole table fits on the screen, nothing to scroll.
            box = page.locator("#kz-game").bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"] + 1
        label = page.locator("#kz-finish .kz-btn__label")
        if name == "phone-portrait":
            assert label.bounding_box()["width"] <= 1  # an icon button, named for screen readers
        else:
            expect(label).to_be_visible()
        assert_accessible(page)
        screenshot(page, f"kaetzchen-{name}-{'vollbild' if url == DEMO else 'seite'}")


def test_status_line_is_a_live_region(demo, seeds):
    page = demo()
    page.goto(DEMO)
    settled(page, 0)
    live = page.locator("#kz-live")
    expect(live).to_have_attribute("aria-live", "polite")
    expect(live).to_have_attribute("role", "status")
    page.locator("#kz-pile-you").click()
    settled(page, 2)
    status = page.locator("[data-kz-status]").text_content()
    assert re.match(r"Kätzchen (deckt .* auf\.|.*nimmt \d+ Karten?\.) Du bist dran\.$", status)
    expect(live).to_have_text(status)


def test_reduced_motion_skips_the_movement(demo, browser, live_server):
    table = ["5S", "9H", "KD", "3C"]
    you = ["9C", "2D", "4S"]
    cat = others(table, you)
    stored(position(you, cat, table, turn=0))
    page = demo(tempo=1, visitor=VISITOR, reduced_motion="reduce")
    page.goto(DEMO)
    settled(page, 20)
    page.locator("#kz-pile-you").click()
    expect(page.locator("#kz-game .kz-row .kz-card")).to_have_count(1)
    assert page.evaluate("window.__kzAnimations") == []  # no card flies
    pile = page.locator(".kz-pile--you .kz-pile__stack")
    assert pile.evaluate("el => getComputedStyle(el).animationName") == "none"

    # The same flip with motion does animate (the first page is closed: it would let
    # Kätzchen answer on the reset position).
    page.context.close()
    row_ = row()
    row_.state = position(you, cat, table, turn=0)
    row_.save()
    moving = demo(tempo=1, visitor=VISITOR)
    moving.goto(DEMO)
    settled(moving, 20)
    moving.locator("#kz-pile-you").click()
    wait_until(moving, lambda: moving.evaluate("window.__kzAnimations.length") > 0)


def test_works_without_javascript(browser, live_server, seeds):
    context = browser.new_context(java_script_enabled=False, base_url=live_server.url)
    page = context.new_page()
    try:
        page.goto(DEMO)
        page.get_by_role("button", name="Aufdecken", exact=True).click()
        expect(page.locator(".kz-moves")).to_have_text("Züge: 1")
        page.get_by_role("button", name="Aufdecken", exact=True).click()
        expect(page.locator("[data-kz-status]")).to_contain_text("Warte auf den Gegner")
        page.get_by_role("button", name="Kätzchen aufdecken lassen").click()
        expect(page.locator(".kz-moves")).to_have_text("Züge: 2")
        page.get_by_role("button", name="Zum Ergebnis").click()
        expect(page.get_by_role("heading", name="Zum Ergebnis springen?")).to_be_visible()
        page.get_by_role("button", name="Ja, zum Ergebnis").click()
        expect(page.locator("#kz-result")).to_be_visible()
        expect(page).to_have_url(re.compile(r"/spiele/kaetzchen-angeln/demo/"))
        assert row().state["result"] is not None
    finally:
        context.close()


# --------------------------------------------------------------------------
# One input gate for taps, clicks and keys (issue 13: „nie eine Karte zu viel“)


def phone(demo, **kwargs):
    return demo(viewport=PHONE, has_touch=True, is_mobile=True, **kwargs)


def visitor_flips() -> int:
    """How many cards the visitor has flipped in the stored game."""
    return sum(
        1
        for entry in row().log
        if entry["event"].get("type") == "flip" and not entry["event"]["seat"]
    )


def test_two_quick_taps_during_kaetzchens_flip_only_finish_it(demo):
    you = ["2D", "3D", "4D", "5D"]
    cat = ["9S", *others(you, ["9S"])]  # Kätzchen's card wins nothing on the empty table

    def attempt():
        stored(position(you, cat, turn=1))
        page = phone(demo, tempo=4, visitor=VISITOR)  # Kätzchen's flip takes over a second
        page.goto(DEMO)
        expect(page.locator('#kz-game.is-animating[data-moves="21"]')).to_have_count(
            1, timeout=15000
        )
        pile = page.locator("#kz-pile-you")
        for _ in range(3):  # the third tap: still part of the same gesture
            pile.tap()
        taps = wait_for_events(page, 3, "click")
        verdicts, quiet = gate(taps)
        if verdicts[0] != "ends" or not set(verdicts[1:]) <= {"ends", "swallowed"}:
            raise give_up(page, taps_report(page, taps, verdicts))
        return page, quiet

    page, quiet = retried(attempt)
    expect(page.locator("#kz-game.is-animating")).to_have_count(0)
    assert flip_requests(page) == []
    assert row().state["moves"] == 21 and row().state["piles"][0] == you
    # A tap after the quiet time flips, exactly one card.
    wait_until(page, lambda: page_now(page) > quiet + EDGE)
    page.locator("#kz-pile-you").tap()
    # 22; Kätzchen's answer (23) may already have followed on a busy machine.
    expect(game(page)).to_have_attribute("data-moves", re.compile(r"^2[23]$"))
    assert len(flip_requests(page)) == 1 and row().state["piles"][0] == you[1:]


def test_two_quick_taps_during_the_deal_make_no_move(demo):
    def attempt():
        DemoGame.objects.all().delete()
        page = phone(demo, tempo=3)
        page.goto(DEMO)
        expect(page.locator("#kz-game.is-dealing")).to_have_count(1)
        pile = page.locator("#kz-pile-you")
        pile.tap()
        pile.tap()
        taps = wait_for_events(page, 2, "click")
        verdicts, _ = gate(taps)
        if verdicts[0] != "ends" or verdicts[1] not in ("ends", "swallowed"):
            raise give_up(page, taps_report(page, taps, verdicts))
        return page

    page = retried(attempt)
    settled(page, 0)
    assert flip_requests(page) == []
    assert DemoGame.objects.count() == 0  # no card was flipped


def test_keys_right_after_load_never_flip_before_the_deal(demo):
    """Space pressed again and again from the moment the page arrives: before the script
    has set up the demo a key does nothing, then it only ends the deal, and keys right
    after that are swallowed."""

    def attempt():
        DemoGame.objects.all().delete()
        page = demo(tempo=3)
        page.goto(DEMO, wait_until="commit")
        # Press until the script has swallowed two keys (or give up after 200 presses).
        for _ in range(200):
            page.keyboard.press("Space")
            if sum(event["root"] for event in recorded(page, "keydown")) >= 2:
                break
        page.wait_for_load_state("load")
        keys = recorded(page, "keydown")
        verdicts, _ = gate(keys)
        if "ends" not in verdicts or {"passes", "unclear"} & set(verdicts):
            raise give_up(
                page,
                "keys (gate, ms after the one before): "
                f"{list(zip(verdicts, gaps([keys[0], *keys]), strict=True))}",
            )
        settled(page, 0)
        assert flip_requests(page) == [] and DemoGame.objects.count() == 0
        page.context.close()

    for _ in range(3):
        retried(attempt)


def test_taps_on_kaetzchens_turn_send_nothing_even_while_the_server_is_slow(demo):
    you = ["2D", "3D", "4D"]
    cat = ["9S", *others(you, ["9S"])]
    stored(position(you, cat, turn=1))
    page = phone(demo, tempo=4, visitor=VISITOR)
    held = []
    page.route("**/demo/gegner/", lambda route: held.append(route))
    page.goto(DEMO)
    settled(page, 20)
    status = page.locator("[data-kz-status]")
    pile = page.locator("#kz-pile-you")
    pile.tap()  # during Kätzchen's pause (or once its request is on its way)
    expect(status).to_contain_text("Warte auf den Gegner")
    wait_until(page, lambda: held)  # Kätzchen's request is on its way and hangs
    for _ in range(2):  # each tap says it again
        status.evaluate("el => { el.textContent = ''; }")
        pile.tap()
        expect(status).to_contain_text("Warte auf den Gegner")
    taps = wait_for_events(page, 3, "click")
    assert all(tap["turn"] == "cat" and not tap["moving"] for tap in taps)
    assert flip_requests(page) == []
    held[0].continue_()
    expect(game(page)).to_have_attribute("data-moves", "21")
    assert flip_requests(page) == [] and row().state["piles"][0] == you


def test_own_flip_on_its_way_takes_no_second_tap(demo):
    you = ["2D", "3D", "4D"]
    cat = ["9S", *others(you, ["9S"])]
    stored(position(you, cat, turn=0))
    page = phone(demo, visitor=VISITOR)
    held = []
    page.route("**/demo/aktion/", lambda route: held.append(route))
    page.goto(DEMO)
    settled(page, 20)
    status = page.locator("[data-kz-status]")
    pile = page.locator("#kz-pile-you")
    pile.tap()
    wait_until(page, lambda: held)
    for _ in range(3):  # each tap while the flip is on its way only says „Warte“
        status.evaluate("el => { el.textContent = ''; }")
        pile.tap()
        expect(status).to_contain_text("Warte auf den Gegner")
    assert len(flip_requests(page)) == 1 and len(held) == 1
    held[0].continue_()
    # The flip arrives (21); on a busy machine Kätzchen's answer (22) may already have
    # followed before the page is looked at again – either way the visitor flipped once.
    expect(game(page)).to_have_attribute("data-moves", re.compile(r"^2[12]$"))
    assert len(flip_requests(page)) == 1 and visitor_flips() == 1


@pytest.mark.parametrize("turn", [0, 1])
def test_taps_before_the_script_runs_flip_at_most_once(demo, turn):
    """Before the script runs, the pile is a plain form: the server's version check
    refuses a second submission, and on Kätzchen's turn it only says „Warte“."""
    you = ["2D", "3D", "4D"]
    cat = ["9S", *others(you, ["9S"])]
    stored(position(you, cat, turn=turn))
    page = phone(demo, visitor=VISITOR)
    scripts = []
    page.route("**/kaetzchen.js*", lambda route: scripts.append(route))
    # Playwright sends each submission to the server itself and waits for the answer, so
    # every submission the browser made is judged even if the browser gave up on it (a
    # second submission replaces the navigation of the first).
    sent, answered = [], []

    def forward(route):
        sent.append(route.request.url)
        response = route.fetch(max_redirects=0)
        answered.append(response.status)
        with contextlib.suppress(PlaywrightError):  # the browser may no longer wait for it
            route.fulfill(response=response)

    page.route(re.compile(r".*/demo/(aktion|gegner)/$"), forward)
    page.goto(DEMO, wait_until="commit")
    pile = page.locator("#kz-pile-you")
    pile.tap()
    if pile.count():
        pile.tap()
    # The second tap hit the old page (the server refuses the old version) or the
    # new one, where Kätzchen is to move; on Kätzchen's turn both only say „Warte“.
    expect(page.locator("[data-kz-status]")).to_contain_text(
        "Warte auf den Gegner"
        if turn
        else re.compile("Kätzchen ist dran|Warte auf den Gegner|inzwischen geändert")
    )
    wait_until(page, lambda: sent and len(answered) == len(sent))
    assert row().state["moves"] == 20 + (turn == 0)
    assert row().state["piles"][0] == (you if turn else you[1:])
    for route in scripts:
        route.continue_()


# --------------------------------------------------------------------------
# Keys on the game page, Auto's speed


def test_space_flips_on_the_game_page_once_the_demo_is_in_view(demo, seeds):
    page = demo()
    page.goto(PAGE)
    show_demo(page)  # drawn once it came into view
    expect(page.locator("#kz-tap-hint")).to_contain_text(
        "oder drücke die Leertaste, solange das Spiel zu sehen ist"
    )
    page.evaluate("window.scrollTo(0, 0)")
    rendered(page)  # the script's observer has seen where the demo is
    if page.locator("#kz-demo").evaluate("el => el.getBoundingClientRect().top") > 400:
        page.keyboard.press("Space")  # the demo is out of view: Space scrolls the page
        wait_for_events(page, 1, "keyup")  # the key has been handled
        wait_until(page, lambda: page.evaluate("window.scrollY") > 0)
        scrolled(page)  # keyboard scrolling is animated: let it end before scrolling on
        assert flip_requests(page) == [] and DemoGame.objects.count() == 0
    page.locator("#kz-game").evaluate("el => el.scrollIntoView({block: 'center'})")
    settled(page, 0)
    rendered(page)
    scroll = page.evaluate("window.scrollY")
    page.keyboard.press("Space")
    settled(page, 2)
    assert page.evaluate("window.scrollY") == scroll  # flipped, not scrolled
    page.keyboard.press("Enter")
    settled(page, 4)
    # Focus in a form field or on a link elsewhere keeps its keys.
    link = page.locator("main a[href]:not(#kz-demo a)").first
    link.focus()
    before = len(recorded(page, "keyup"))
    page.keyboard.press("Space")
    wait_for_events(page, before + 1, "keyup")
    idle(page)
    assert len(flip_requests(page)) == 2 and row().state["moves"] == 4


def test_auto_speed_is_a_remembered_choice_with_shorter_animations(demo, seeds):
    table = ["5S", "9H", "KD", "3C"]
    you = ["9C", "2D", "4S", "6S", "7S", "8S"]
    cat = others(table, you)
    stored(position(you, cat, table, turn=0), auto=False)
    page = demo(tempo=1, visitor=VISITOR)
    page.goto(DEMO)
    settled(page, 20)
    group = page.get_by_role("group", name="Tempo von Auto")
    expect(group).to_be_hidden()  # only with Auto
    page.get_by_role("button", name="Auto").click()
    expect(group).to_be_visible()
    normal = group.get_by_role("button", name="normal")
    fastest = group.get_by_role("button", name="sehr schnell")
    expect(normal).to_have_attribute("aria-pressed", "true")
    fastest.click()
    expect(fastest).to_have_attribute("aria-pressed", "true")
    expect(normal).to_have_attribute("aria-pressed", "false")
    wait_until(page, lambda: row().profile.get("speed") == "sehr-schnell")
    # A move already flying at the old speed may land after the switch: count from later on.
    switched = moves_shown(page)
    wait_until(page, lambda: moves_shown(page) >= switched + 2)
    page.evaluate("window.__kzAnimations = []")
    wait_until(page, lambda: moves_shown(page) >= switched + 10)
    durations = page.evaluate("window.__kzAnimations")
    assert durations and all(0 < d < 300 for d in durations)  # shorter, never skipped
    page.get_by_role("button", name="Auto").click()
    wait_until(page, lambda: row().profile["auto"] is False)
    page.reload()
    page.get_by_role("button", name="Auto").click()
    expect(page.get_by_role("button", name="sehr schnell")).to_have_attribute(
        "aria-pressed", "true"
    )
    assert_accessible(page)
    for viewport in (PHONE, LANDSCAPE, DESKTOP):
        page.set_viewport_size(viewport)
        rendered(page)
        # The full-screen table still fits on the screen with the speed choice shown.
        # Auto keeps playing: measure between two of its board swaps.
        boxes = _table_and_fastest(page)
        box = boxes["table"]
        assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"] + 1
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        assert boxes["button"]["height"] >= 44
        screenshot(page, f"kaetzchen-auto-speed-{viewport['width']}")


def _table_and_fastest(page) -> dict:
    """Bounding boxes of the table and the „sehr schnell“ button, taken between two of
    Auto's board swaps (while one swaps in, the old elements have no box)."""
    fastest = page.get_by_role("button", name="sehr schnell")
    boxes = {}

    def measured() -> bool:
        boxes.update(table=game(page).bounding_box(), button=fastest.bounding_box())
        return boxes["table"] is not None and boxes["button"] is not None

    wait_until(page, measured)
    return boxes


@pytest.mark.slow
def test_measure_auto_moves_per_minute(demo, capsys):
    """Not a speed goal: prints how many moves Auto makes per minute at each speed. The
    three speeds play side by side (a busy machine slows them alike), each timed by its
    page's clock from its first new board to the one `moves` moves later."""
    moves = 8
    speeds = {"normal": "normal", "schnell": "schnell", "sehr-schnell": "sehr schnell"}
    you, cat = engine.deal(4242)
    pages = {}
    for value, label in speeds.items():
        DemoGame.objects.create(
            visitor=f"{VISITOR}-{value}",
            engine="kaetzchen",
            state=position(you, cat, turn=0, moves=2),
            version=5,
            profile={"games": 3, "auto": True, "speed": value},
        )
        pages[label] = demo(tempo=1, visitor=f"{VISITOR}-{value}")
    for page in pages.values():
        page.goto(DEMO)
    boards = {}

    def measured():
        boards.update({label: recorded(page, "board") for label, page in pages.items()})
        return all(len(found) > moves + 1 for found in boards.values())

    wait_until(pages["normal"], measured, timeout=120)
    rates, latency = {}, {}
    for label, page in pages.items():
        first, last = boards[label][1], boards[label][moves + 1]  # [0]: the page's own board
        rates[label] = (last["moves"] - first["moves"]) * 60_000 / (last["t"] - first["t"])
        requests = page.evaluate(
            "performance.getEntriesByType('resource')"
            ".filter(e => /demo[/](aktion|gegner)[/]/.test(e.name)).map(e => e.duration)"
        )
        latency[label] = sum(requests) / max(len(requests), 1)
    with capsys.disabled():
        print("\nAuto, moves per minute:", {k: round(v) for k, v in rates.items()})
        print("Mean request time (ms):", {k: round(v) for k, v in latency.items()})
    assert rates["normal"] < rates["schnell"] < rates["sehr schnell"]
