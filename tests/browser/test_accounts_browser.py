"""Reader accounts in the browser: sign up, confirm by the mailed link, vote, see the points.

The live server runs in this test's process, so the locmem outbox holds its mails.
"""

import re

import pytest
from django.core import mail
from playwright.sync_api import expect

from accounts import services
from feedback.models import ErrorReport
from tests.browser.conftest import PHONE, assert_accessible, own_stars_in_place, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EMAIL = "lena@example.org"
PASSWORD = "Spielabend-mit-Lama-42"


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def check(page, name):
    """axe clean, no horizontal overflow, and screenshots on desktop and phone."""
    assert_accessible(page)
    no_sideways_scroll(page)
    screenshot(page, f"accounts-{name}-desktop")
    desktop = page.viewport_size
    page.set_viewport_size(PHONE)
    no_sideways_scroll(page)
    assert_accessible(page)
    screenshot(page, f"accounts-{name}-phone")
    page.set_viewport_size(desktop)


def test_sign_up_confirm_vote_and_see_the_points(page, content, live_server):
    page.goto("/spiele/the-cat/")
    page.get_by_role("link", name="Mein Bereich").click()
    expect(page).to_have_url(re.compile(r"/konto/anmelden/\?next=/mein-bereich/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Anmelden")
    check(page, "login")
    page.get_by_role("link", name="Konto anlegen").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Konto anlegen")
    page.get_by_label("E-Mail-Adresse").fill(EMAIL)
    page.get_by_label("Passwort", exact=True).fill(PASSWORD)
    page.get_by_label("Passwort wiederholen").fill("etwas-anderes-12")
    page.get_by_role("button", name="Konto anlegen").click()
    expect(page.locator(".errorlist")).to_contain_text("stimmen nicht überein")
    check(page, "signup-error")
    page.get_by_label("Passwort", exact=True).fill(PASSWORD)
    page.get_by_label("Passwort wiederholen").fill(PASSWORD)
    page.get_by_role("button", name="Konto anlegen").click()

    expect(page.get_by_role("heading", level=1)).to_contain_text("Fast geschafft")
    check(page, "signup-done")
    assert len(mail.outbox) == 1
    link = re.search(r"http://\S+/konto/bestaetigen/\S+/", mail.outbox[0].body).group(0)
    assert link.startswith(live_server.url)

    page.goto(link)
    expect(page.get_by_role("heading", level=1)).to_have_text("Konto bestätigen")
    check(page, "confirm")
    page.get_by_role("button", name="Ja, Konto bestätigen").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Mein Bereich")
    expect(page.locator(".account-messages")).to_contain_text("Dein Konto ist bestätigt")
    expect(page.locator(".points-total")).to_contain_text("0 Punkte")
    check(page, "my-area-empty")

    page.goto("/spiele/the-cat/")
    expect(page.locator("#bewertung")).to_contain_text("Die erste Stimme bringt +5 Punkte.")
    own_stars_in_place(page)
    page.get_by_role("button", name="4 von 5 Sternen – sehr gut").click()
    expect(page.locator("#bewertung-meldung")).to_contain_text("+5 Punkte")

    page.get_by_role("link", name="Mein Bereich").click()
    expect(page.locator(".points-total")).to_contain_text("5 Punkte")
    expect(page.locator(".points-table")).to_contain_text("Erste Stimme für ein Spiel: The Cat")
    expect(page.get_by_role("region", name="Meine Bewertungen")).to_contain_text("The Cat")
    check(page, "my-area")

    page.get_by_role("button", name="Abmelden").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Du bist abgemeldet")
    check(page, "logged-out")


def test_password_pages_and_a_full_my_area_on_a_phone(page, content, django_user_model):
    user = django_user_model.objects.create_user(EMAIL, EMAIL, PASSWORD)
    services.adopt(user, "lenas-browser")
    from feedback.models import Vote
    from games.models import Game

    for game in Game.objects.all()[:3]:
        Vote.objects.create(game=game, visitor="lenas-browser", stars=5)
        ErrorReport.objects.create(
            game=game,
            message="Beim Ausspielen muss man Farbe bedienen – das steht im Regelheft auf S. 4 "
            "ganz unten, hier fehlt es.",
            page_url="http://t/",
            visitor="lenas-browser",
            section_label="Ablauf einer Runde",
            status=ErrorReport.Status.CORRECTED,
        )
    services.award_accepted_reports(ErrorReport.objects.values_list("pk", flat=True))

    page.goto("/konto/passwort-vergessen/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Passwort vergessen?")
    check(page, "password-reset")
    page.get_by_label("E-Mail-Adresse").fill(EMAIL)
    page.get_by_role("button", name="Link schicken").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Schau in dein Postfach")
    check(page, "password-reset-done")
    link = re.search(r"http://\S+/konto/passwort-neu/\S+/", mail.outbox[-1].body).group(0)
    page.goto(link)
    expect(page.get_by_role("heading", level=1)).to_have_text("Neues Passwort wählen")
    check(page, "password-new")
    page.get_by_label("Neues Passwort", exact=True).fill("Neues-Kartenglueck-2026")
    page.get_by_label("Neues Passwort bestätigen").fill("Neues-Kartenglueck-2026")
    page.get_by_role("button", name="Passwort speichern").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Passwort geändert")

    page.get_by_role("link", name="Jetzt anmelden").click()
    page.get_by_label("E-Mail-Adresse").fill(EMAIL.upper())
    page.get_by_label("Passwort").fill("Neues-Kartenglueck-2026")
    page.get_by_role("button", name="Anmelden").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Mein Bereich")
    expect(page.locator(".points-total")).to_contain_text(
        "45 Punkte"
    )  # 3 first votes and 3 accepted reports
    check(page, "my-area-full")
    page.get_by_role("link", name="Passwort ändern").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Passwort ändern")
    check(page, "password-change")

    page.goto("/mein-bereich/")
    page.get_by_role("link", name="Konto löschen").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Konto löschen")
    check(page, "delete")
    page.get_by_label("Dein Passwort").fill("Neues-Kartenglueck-2026")
    page.get_by_role("button", name="Konto endgültig löschen").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Dein Konto ist gelöscht")
    check(page, "deleted")

    page.goto("/konto/bestaetigen/neuer-link/")
    check(page, "resend")
