"""Every visible control is at least 44×44 px on a touch phone (390×844), on every
page type (WCAG 2.2 target size, enhanced).

Measured: a, button, input, select, textarea, summary and [role=button]. A radio
button or checkbox counts by its label when the label wraps or names it (the label
is what a finger hits). The one exception, kept narrow: a link inside running
prose – an inline ``a`` in a paragraph, list item, table cell, definition or
caption whose own text is only part of the sentence (WCAG's "inline" exception).
Controls off screen until focused (the skip link) are measured once focused.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.engines import the_cat
from games.models import Replay
from games.play import definition as registry
from tests.browser.conftest import PHONE, open_game_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MIN_TARGET = 44

MEASURE = """
(minimum) => {
  const PROSE = "p, li, dd, dt, td, th, figcaption, blockquote, label, legend";
  const small = [];
  const seen = new Set();
  function visible(el) {
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || style.display === "none") return false;
    if (el.closest("[hidden], [inert], template, dialog:not([open])")) return false;
    const box = el.getBoundingClientRect();
    return box.width > 1 && box.height > 1;
  }
  function inProse(el) {
    if (el.tagName !== "A" || getComputedStyle(el).display !== "inline") return false;
    const block = el.parentElement && el.parentElement.closest(PROSE);
    if (!block) return false;
    const own = el.textContent.replace(/\\s+/g, " ").trim();
    const all = block.textContent.replace(/\\s+/g, " ").trim();
    return all.length > own.length + 15;  // words around it: a sentence, not a lone link
  }
  function target(el) {
    if (el.tagName === "INPUT" && /^(radio|checkbox)$/.test(el.type)) {
      return el.closest("label") || (el.id && document.querySelector(`label[for="${el.id}"]`)) || el;
    }
    return el;
  }
  const controls = document.querySelectorAll(
    "a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]"
  );
  for (const el of controls) {
    const hit = target(el);
    if (seen.has(hit) || !visible(hit) || inProse(hit)) continue;
    seen.add(hit);
    const box = hit.getBoundingClientRect();
    if (box.right < 0 || box.bottom < 0 || box.left > innerWidth + 1) continue;  // off screen
    if (box.width < minimum - 0.5 || box.height < minimum - 0.5) {
      const name = (hit.getAttribute("aria-label") || hit.textContent || hit.value || hit.name || "")
        .replace(/\\s+/g, " ").trim().slice(0, 40);
      const around = hit.parentElement && hit.parentElement.closest("[class]");
      const where = around ? String(around.className).split(" ")[0] : "";
      small.push(`${where} ${hit.tagName.toLowerCase()}.${String(hit.className).split(" ")[0]} „${name}“ ${Math.round(box.width)}×${Math.round(box.height)}`);
    }
  }
  return small;
}
"""


@pytest.fixture
def touch(browser, live_server):
    context = browser.new_context(
        viewport=PHONE, locale="de-DE", base_url=live_server.url, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    problems = []  # console errors (htmx:oobErrorNoTarget included) and uncaught script errors
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    yield page
    context.close()
    assert problems == []


def too_small(page) -> list[str]:
    assert page.evaluate("matchMedia('(pointer: coarse)').matches")
    return page.evaluate(MEASURE, MIN_TARGET)


def check(page, label: str, found: dict) -> None:
    small = too_small(page)
    if small:
        found[label] = small


def replay_id() -> str:
    definition = registry.get("the_cat")
    options = definition.game_options(["Du", "Minka"], {"speed": "flink"}, {1})
    state = the_cat.new_game(3, 2, options, now=0.0)
    log = [{"op": "advance", "now": 20.0}]
    final, _ = the_cat.advance(state, 20.0)
    record = {"seed": 3, "players": 2, "options": options, "start": 0.0, "log": log}
    return Replay.objects.create(
        engine="the_cat", source="demo", record=record, final_state=final, steps=1, public=True
    ).pk


def start_demo(page) -> None:
    """„Spiel starten“ until the game runs: a tap that lands while the demo fragment is
    being swapped in is lost, so the setup is tried again (at most three times)."""
    # The demo is a fragment loaded after the page: wait for it (setup or table) first.
    expect(page.locator("[data-demo-body], #kz-game").first).to_be_visible()
    start = page.get_by_role("button", name=re.compile(r"^Spiel starten"))
    for _ in range(3):
        if not start.count():
            return
        start.first.click()
        try:
            expect(start).to_have_count(0, timeout=10_000)
            return
        except AssertionError:
            continue
    raise AssertionError("the demo did not start after three taps on „Spiel starten“")


GAMES = ("the-cat", "katz-und-maus", "alpaka", "kaetzchen-angeln")
PAGES = (
    ("Katalog", "/"),
    *((f"Spielseite {slug}", f"/spiele/{slug}/") for slug in GAMES),
    ("Mitspieler finden", "/mitspieler-finden/"),
    ("Spielegruppen", "/spielegruppen/"),
    ("Gruppe gründen", "/spielegruppen/neu/"),
    ("Anmelden", "/konto/anmelden/"),
    ("Registrieren", "/konto/registrieren/"),
    ("Passwort vergessen", "/konto/passwort-vergessen/"),
    ("Sleeve-Finder", "/sleeve-finder/?spiele=the-cat"),
    ("Impressum", "/impressum/"),
    ("Datenschutz", "/datenschutz/"),
)


def test_every_control_on_every_page_type_is_44_px_on_a_touch_phone(touch, content):
    page = touch
    found: dict[str, list[str]] = {}
    for label, url in PAGES:
        page.goto(url)
        check(page, label, found)

    page.goto(f"/partien/{replay_id()}/")
    check(page, "Wiederholung", found)

    # A demo running, for every game with a table.
    for slug in GAMES:
        open_game_page(page, slug)
        start_demo(page)
        check(page, f"Demo {slug}", found)
        if slug == "the-cat":  # a fresh round: the hand
            take = page.locator("#the_cat-demo-body-take-0")
            expect(take).to_be_visible()
            take.click()
            expect(page.locator(".cat-hand .cat-card")).to_have_count(4)
            check(page, "Demo the-cat, Stapel auf der Hand", found)
        if slug == "katz-und-maus":  # a card chosen: its targets („Ablegen“, „Hierher“)
            mine = page.locator(".km-play label.km-src")
            expect(mine.first).to_be_visible(timeout=45_000)  # the bot's turn first, if it began
            mine.first.click()
            expect(page.locator(".km-go:visible").first).to_be_visible()
            check(page, "Demo katz-und-maus, Karte gewählt", found)
            spilled = page.evaluate(
                "[...document.querySelectorAll('.km-go')].filter(b => b.offsetParent)"
                ".filter(b => b.scrollWidth > b.clientWidth + 1).map(b => b.textContent)"
            )
            assert spilled == [], f"text spills out of „Ablegen“ buttons: {spilled}"

    # A room: the lobby, then the table.
    page.goto("/spiele/the-cat/raum/neu/")
    page.get_by_label("Dein Name am Tisch").fill("Anna")
    page.get_by_role("button", name="Raum eröffnen").click()
    expect(page).to_have_url(re.compile(r"/raum/[\w-]{16}/$"))
    page.get_by_role("button", name="Bot hinzufügen").click()
    expect(page.get_by_role("button", name="Partie starten")).to_be_enabled()
    check(page, "Raum-Lobby", found)
    page.get_by_role("button", name="Partie starten").click()
    expect(page.locator(".cat")).to_be_visible()
    check(page, "Raum-Tisch", found)

    assert found == {}, "\n".join(f"{label}: {small}" for label, small in found.items())
