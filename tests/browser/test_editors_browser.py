"""The editors' workbench in a browser: a reader's report to a published fix in a few clicks,
and screenshots of the new admin pages on a phone and a desktop."""

import re

import pytest
from playwright.sync_api import expect

from feedback.models import ErrorReport
from tests.browser.conftest import DESKTOP, PHONE, assert_accessible, screenshot
from tests.browser.test_feedback_browser import (  # noqa: F401 (fixtures)
    fresh_rate_limits,
    quick_readers,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIX = "Sieger ist, wer am Ende die wenigsten Minuspunkte hat (korrigiert)."


def _window(browser, live_server, viewport=DESKTOP):
    context = browser.new_context(viewport=viewport, locale="de-DE", base_url=live_server.url)
    return context, context.new_page()


def _log_in(page, name="editor"):
    page.goto("/admin/login/")
    page.get_by_label("Benutzername").fill(name)
    page.get_by_label("Passwort").fill("geheim-123")
    page.get_by_role("button", name="Anmelden").click()
    expect(page.locator("#content h1")).to_be_visible()


def _viewport_shot(page, name):
    """The visible part only (the whole game page is too tall to look at)."""
    import os
    from pathlib import Path

    if directory := os.environ.get("SCREENSHOT_DIR"):
        Path(directory).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(directory) / f"{name}.png"))


class Clicks:
    """Every click of the editor's way, counted."""

    def __init__(self):
        self.done: list[str] = []

    def __call__(self, locator, what: str):
        self.done.append(what)
        locator.click()


def test_report_to_published_fix_and_answer_in_six_clicks(
    browser,
    live_server,
    content,
    editor,
    quick_readers,  # noqa: F811
):
    reader_context, reader = _window(browser, live_server, PHONE)
    editor_context, page = _window(browser, live_server)
    try:
        # A reader reports a sentence in „Ziel des Spiels“ (the page comes from the cache).
        reader.goto("/spiele/alpaka/")
        reader.goto("/spiele/alpaka/")
        reader.get_by_role("link", name="Fehler melden im Abschnitt „Ziel des Spiels“").click()
        reader.get_by_label("Was stimmt nicht?").fill(
            "Der Satz zum Sieger ist missverständlich: es zählen die Minuspunkte am Ende."
        )
        reader.get_by_role("button", name="Hinweis senden").click()
        expect(reader.locator(".report-thanks")).to_be_visible()
        report = ErrorReport.objects.get()
        assert report.section_kind == "ziel" and not report.is_spam

        _log_in(page)
        click = Clicks()
        click(page.locator("#neue-fehlermeldungen a"), "Meldungen")
        click(page.locator("#result_list a", has_text="Der Satz zum Sieger"), "Meldung")
        screenshot(page, "editors-report-desktop")
        click(page.get_by_role("link", name="Abschnitt „Ziel des Spiels“ bearbeiten"), "Abschnitt")
        body = page.get_by_label("Text (Markdown)")
        body.fill(FIX)
        screenshot(page, "editors-block-form-desktop")
        click(page.get_by_role("button", name="Speichern und Vorschau"), "Vorschau")
        expect(page.locator("#ziel")).to_contain_text(FIX)
        expect(page.locator(".preview-bar")).to_contain_text("Abschnitt „Ziel des Spiels“ geändert")
        assert page.url.endswith("#ziel")
        assert_accessible(page)
        _viewport_shot(page, "editors-preview-desktop")
        click(page.get_by_role("button", name="Jetzt veröffentlichen"), "Veröffentlichen")
        expect(page.locator(".messagelist")).to_contain_text("ist online (Fassung 2)")
        expect(page.get_by_label("Status")).to_have_value("korrigiert")
        expect(page.get_by_label("Antwort der Redaktion")).to_contain_text("korrigiert")
        click(page.get_by_role("button", name="Sichern", exact=True), "Antworten")
        # The publish message was a .messagelist too: wait for the save's own message.
        expect(page.locator(".messagelist")).to_contain_text("erfolgreich geändert")

        assert len(click.done) <= 6, click.done
        print(f"\nclicks from the admin start page: {len(click.done)} ({', '.join(click.done)})")
        report.refresh_from_db()
        assert report.status == ErrorReport.Status.CORRECTED

        # The public page shows the fix at once (a reader who had it open reloads: browsers
        # may keep a public page 60 s, PUBLIC_CACHE_CONTROL); the status page says „korrigiert“.
        other_context, other = _window(browser, live_server, PHONE)
        other.goto("/spiele/alpaka/")
        expect(other.locator("#ziel")).to_contain_text(FIX)
        other_context.close()
        reader.reload()
        expect(reader.locator("#ziel")).to_contain_text(FIX)
        reader.goto(report.get_status_url())
        expect(reader.locator(".report-status__now")).to_contain_text("korrigiert")
    finally:
        reader_context.close()
        editor_context.close()


@pytest.mark.parametrize(("viewport", "name"), [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_new_admin_pages_look_right(browser, live_server, content, editor, viewport, name):
    from django.urls import reverse

    from games.models import Game
    from rules.models import Section, WorkedExample

    goal = Section.objects.get(article__game__slug="alpaka", kind="ziel")
    assert "Hier willst du" in goal.body
    goal.body = goal.body.replace("Hier willst du", "Bei Alpaka willst du")
    goal.save()
    example = WorkedExample.objects.get(title="Eine ganze Runde: aussteigen oder ziehen?")
    article = goal.article
    context, page = _window(browser, live_server, viewport)
    try:
        _log_in(page)
        page.goto("/spiele/alpaka/")
        expect(page.locator(".preview-bar")).to_contain_text("Abschnitt „Ziel des Spiels“ geändert")
        _viewport_shot(page, f"editors-page-top-{name}")
        page.locator("#ziel").scroll_into_view_if_needed()
        expect(page.locator("#ziel .edit-link")).to_be_visible()
        _viewport_shot(page, f"editors-page-{name}")
        page.goto(reverse("admin:rules_rulesarticle_change", args=[article.pk]))
        expect(page.locator(".field-publication")).to_contain_text("Noch nicht online")
        screenshot(page, f"editors-article-{name}")

        page.goto(reverse("admin:rules_workedexample_change", args=[example.pk]))
        expect(page.get_by_label("Züge")).to_have_value(re.compile(r"^Anna: play:4\nBen: quit\n"))
        page.get_by_label("Minuspunkte der Runde").fill("Anna: -1\nBen: 8\nCara: 5")
        page.get_by_role("button", name="Mit der Engine prüfen (ohne Speichern)").click()
        expect(page.locator(".check-result--bad")).to_contain_text(
            "„Minuspunkte der Runde“ bei Cara: im Beispiel „5“, laut Engine „4“"
        )
        screenshot(page, f"editors-example-{name}")

        page.goto(reverse("admin:rules_section_history", args=[goal.pk]))
        page.locator("#change-history a").last.click()
        expect(page.locator(".diff-table")).to_be_visible()
        expect(page.locator(".diff-table ins").first).to_be_visible()
        screenshot(page, f"editors-diff-{name}")

        page.goto(reverse("admin:games_game_change", args=[Game.objects.get(slug="alpaka").pk]))
        page.get_by_label("Dauer (Minuten)").fill("25")
        page.get_by_role("button", name="Sichern und weiter bearbeiten").click()
        expect(page.locator(".messagelist")).to_contain_text("Als Entwurf gespeichert")
        screenshot(page, f"editors-game-draft-{name}")

        page.goto(reverse("admin:rules_rulesarticle_publish", args=[article.pk]))
        expect(page.locator(".publish-box")).to_contain_text("Dauer (Minuten): 20 → 25")
        screenshot(page, f"editors-publish-{name}")
    finally:
        context.close()
