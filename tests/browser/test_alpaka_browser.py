"""Alpaka online: two browsers create, join, play a round to its scoring and
confirm; the in-page demo against a bot. axe-core checks lobby, table and demo."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE, assert_accessible, screenshot
from tests.factories import make_article, make_game

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]

# With this seed Ben starts round 1 holding cards that fit; Anna has playable cards once alone.
SEED = 4242


@pytest.fixture
def alpaka(monkeypatch):
    game = make_game("alpaka", title="Alpaka", demo_engine="alpaka", players_max=6)
    make_article(game)
    monkeypatch.setattr("games.play.table.new_seed", lambda: SEED)
    return game


@pytest.mark.multiplayer
def test_two_players_create_join_play_a_round_and_confirm(alpaka, open_browser):
    anna = open_browser(DESKTOP)
    anna.goto("/spiele/alpaka/raum/neu/")
    anna.get_by_label("Dein Name am Tisch").fill("Anna")
    anna.get_by_text("20 Punkte").click()
    anna.get_by_role("button", name="Raum eröffnen").click()
    expect(anna).to_have_url(re.compile(r"/spiele/alpaka/raum/[\w-]{16}/$"))
    expect(anna.locator(".player")).to_have_count(1)
    invite = anna.locator("#invite-link").inner_text().strip()
    assert invite == anna.url
    anna.get_by_role("button", name="Link kopieren").click()
    expect(anna.locator("[data-copy-status]")).to_have_text("Link kopiert!")
    expect(anna.get_by_role("button", name="Partie starten")).to_be_disabled()
    assert_accessible(anna)

    ben = open_browser(PHONE)
    ben.goto(invite)
    ben.get_by_label("Dein Name am Tisch").fill("  Ben ")
    ben.get_by_role("button", name="Beitreten").click()
    expect(ben.locator(".lobby__waiting")).to_contain_text("Warte, bis Anna die Partie startet")
    # Anna sees Ben arrive without reloading (polling).
    expect(anna.locator(".player")).to_have_count(2)
    expect(anna.locator(".players")).to_contain_text("Ben")
    anna.get_by_text("Englert-Zusatzregel").click()  # the host changes the rule set …
    expect(ben.locator(".settings-summary")).to_contain_text(
        "Englert-Zusatzregel"
    )  # … everyone sees it
    anna.get_by_text("Klassisch").click()
    expect(ben.locator(".settings-summary")).to_contain_text("Klassisch")
    screenshot(anna, "alpaka-lobby-desktop")
    screenshot(ben, "alpaka-lobby-phone")
    assert_accessible(ben)

    anna.get_by_role("button", name="Partie starten").click()
    expect(anna.locator(".alp-bar__round")).to_have_text("Runde 1")
    expect(ben.locator(".alp-bar__round")).to_have_text("Runde 1")
    expect(ben.locator(".alp-status")).to_contain_text("Du bist am Zug")
    expect(anna.locator(".alp-status")).to_contain_text("Ben ist am Zug")
    expect(ben.locator(".alp-timer")).to_contain_text("Deine Zugzeit")
    expect(anna.locator(".alp-timer")).to_contain_text("Zugzeit von Ben")
    countdown = anna.locator("[data-countdown-text]")
    expect(countdown).not_to_have_text(countdown.inner_text())  # the clock runs
    expect(anna.get_by_role("button", name="Ziehen")).to_be_disabled()
    screenshot(anna, "alpaka-table-waiting-desktop")
    screenshot(ben, "alpaka-table-my-turn-phone")
    assert_accessible(ben)
    assert_accessible(anna)

    # Ben lays a fitting card by its accessible name, then quits; Anna is left alone.
    playable = ben.locator(".alp-group--playable").first
    name = playable.get_attribute("aria-label")
    assert re.fullmatch(r"(\d|Alpaka) ablegen( \(du hast \d\))?", name)
    ben.get_by_role("button", name=name).click()
    expect(ben.locator(".alp-status")).to_contain_text("Anna ist am Zug")
    expect(anna.locator(".alp-status")).to_contain_text("Du bist am Zug")
    expect(anna.locator(".alp-log__list li").first).to_contain_text("Ben legt")
    anna.get_by_role("button", name="Aussteigen").click()
    expect(ben.locator(".alp-status")).to_contain_text("Du bist am Zug")
    # Alone at the table: no drawing any more, with the reason right there.
    expect(ben.get_by_role("button", name="Ziehen")).to_be_disabled()
    expect(ben.locator(".alp-why").first).to_contain_text("Alle anderen sind ausgestiegen")
    screenshot(ben, "alpaka-table-alone-phone")
    for _ in range(8):
        if ben.locator(".alp-score").count():
            break
        version = ben.locator("#room-body").get_attribute("data-version")
        if ben.locator(".alp-group--playable").count():
            ben.locator(".alp-group--playable").first.click()
        else:
            ben.get_by_role("button", name="Aussteigen").click()
        # The table has taken the move (a new version), whatever it was.
        expect(ben.locator("#room-body")).not_to_have_attribute("data-version", version)

    # The score table: every hand revealed, a 45-second clock and „Weiter“.
    for page in (anna, ben):
        expect(page.locator(".alp-score__title")).to_contain_text("Wertung – Runde 1")
        expect(page.locator(".alp-timer")).to_contain_text("Weiter in")
    expect(anna.locator(".alp-score__table tbody tr")).to_have_count(2)
    screenshot(anna, "alpaka-scoring-desktop")
    screenshot(ben, "alpaka-scoring-phone")
    assert_accessible(anna)
    anna.get_by_role("button", name="Weiter").click()
    expect(anna.locator(".alp-score__waiting")).to_contain_text("Es fehlt noch: Ben")
    expect(ben.locator(".alp-score__table")).to_contain_text("bereit")
    ben.get_by_role("button", name="Weiter").click()
    expect(ben.locator(".alp-bar__round")).to_have_text("Runde 2")
    expect(anna.locator(".alp-bar__round")).to_have_text("Runde 2")
    expect(anna.locator(".alp-sheet summary")).to_have_text("Punkteverlauf")

    # A reload (or a second tab) sits at the same seat.
    ben.reload()
    expect(ben.locator(".alp-me__name")).to_have_text("Deine Hand")

    # Ben leaves (after confirming in a dialog): below two players the game ends.
    ben.get_by_role("link", name="Raum verlassen").click()
    dialog = ben.locator("#leave-dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Bleiben").click()
    expect(dialog).to_be_hidden()
    ben.get_by_role("link", name="Raum verlassen").click()
    dialog.get_by_role("button", name="Ja, verlassen").click()
    left = ben.locator("#room-left")
    expect(left).to_contain_text("Du hast den Raum verlassen")
    expect(left).to_be_focused()  # in view, and read out: the ways back follow
    expect(left.get_by_role("link", name="Offene Räume ansehen")).to_be_visible()
    expect(left.get_by_role("link", name="Zur Spielseite")).to_be_visible()
    expect(anna.locator(".alp-end__title")).to_have_text("Gewonnen!")
    expect(anna.locator(".alp-end__summary")).to_contain_text("zu wenige Spieler")
    screenshot(anna, "alpaka-final-desktop")
    assert_accessible(anna)
    anna.get_by_role("button", name="Neue Partie").click()
    expect(anna.locator(".room-note").first).to_contain_text("fehlen Mitspieler")
    expect(anna.get_by_role("button", name="Bot hinzufügen")).to_be_visible()


def test_the_in_page_demo_against_a_bot(alpaka, open_browser):
    page = open_browser(PHONE)
    page.goto("/spiele/alpaka/")
    demo = page.locator("#alpaka-demo")
    expect(demo.get_by_role("button", name="Spiel starten")).to_be_visible()
    expect(demo.get_by_role("link", name="Online-Raum eröffnen")).to_have_attribute(
        "href", "/spiele/alpaka/raum/neu/"
    )
    demo.locator("label.choice--pill").first.click()  # the pill reads „1 Bot“
    expect(demo.get_by_label("1 Bot", exact=True)).to_be_checked()
    screenshot(page, "alpaka-demo-setup-phone")
    demo.get_by_role("button", name="Spiel starten").click()
    # The bot (seat 1) opens; it thinks visibly for about a second, then it is the reader's turn.
    expect(demo.locator(".alp-status")).to_contain_text("Flocke überlegt")
    expect(demo.locator(".alp-status")).to_contain_text("Du bist am Zug", timeout=5000)
    expect(demo.locator(".alp-log__list li").first).to_contain_text("Flocke")
    assert_accessible(page)
    screenshot(page, "alpaka-demo-phone")
    for _ in range(3):
        status = demo.locator(".alp-status")
        if "am Zug" not in status.inner_text():
            break
        if demo.locator(".alp-group--playable").count():
            demo.locator(".alp-group--playable").first.click()
        else:
            demo.get_by_role("button", name="Ziehen").click()
        # The bot answers on its own after its short delay.
        expect(status).not_to_contain_text("Du bist am Zug", timeout=3000)
        expect(demo.locator(".alp-status, .alp-score")).not_to_contain_text(
            "überlegt", timeout=5000
        )
    page.set_viewport_size(DESKTOP)
    screenshot(page, "alpaka-demo-desktop")
    # „Neues Spiel“ asks first.
    demo.get_by_role("button", name="Neues Spiel").click()
    dialog = page.locator("#alpaka-demo-new")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Ja, neues Spiel").click()
    expect(dialog).to_be_hidden()
    expect(demo.get_by_role("button", name="Spiel starten")).to_be_visible()
