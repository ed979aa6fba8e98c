"""Impressum and Datenschutzerklärung: reachable from every page, kept by the editors,
shipped with placeholders that `check --deploy` warns about, and true to the code."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.management.commands.accounts_cleanup import UNCONFIRMED_DAYS
from feedback.management.commands.feedback_cleanup import RETENTION
from games import visitors
from games.play import demo_service
from groups import identity
from legal.models import LegalPage
from rooms import locked, public_views
from site_config.page_cache import HIT_HEADER
from tests.factories import make_article, make_game

pytestmark = pytest.mark.django_db


def text_of(client, url) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def test_both_pages_are_public_german_and_cached(client):
    for url, heading in (("/impressum/", "Impressum"), ("/datenschutz/", "Datenschutzerklärung")):
        response = client.get(url)
        assert response.status_code == 200
        html = response.content.decode()
        assert f"<h1>{heading}</h1>" in html
        assert '<html lang="de">' in html
        assert response["Cache-Control"].startswith("public")
        assert client.get(url)[HIT_HEADER] == "hit"


def test_every_page_links_both_in_its_footer(client, editor):
    game = make_game("sternspiel", title="Sternspiel")
    make_article(game)
    urls = [
        "/",
        game.get_absolute_url(),
        reverse("sleeves:finder"),
        reverse("groups:list"),
        reverse("groups:create"),
        reverse("accounts:login"),
        reverse("accounts:signup"),
        "/impressum/",
        "/datenschutz/",
    ]
    for url in urls:
        footer = text_of(client, url).split('<footer class="site-footer">')[1]
        assert 'href="/impressum/">Impressum</a>' in footer, url
        assert 'href="/datenschutz/">Datenschutz</a>' in footer, url
    not_found = client.get("/gibt-es-nicht/").content.decode()
    assert 'href="/datenschutz/"' in not_found
    client.force_login(editor)
    assert 'href="/impressum/"' in text_of(client, "/")


def test_the_static_500_page_links_both_too():
    page = (settings.BASE_DIR / "templates" / "500.html").read_text()
    assert 'href="/impressum/"' in page and 'href="/datenschutz/"' in page


def test_the_datenschutzerklaerung_names_every_cookie_the_site_sets(client):
    text = text_of(client, "/datenschutz/")
    cookies = {
        visitors.COOKIE_NAME,
        settings.CSRF_COOKIE_NAME,
        settings.SESSION_COOKIE_NAME,
        CookieStorage.cookie_name,
        identity.COOKIE_NAME,
        public_views.NAME_COOKIE,
    }
    for name in cookies:
        assert f"<code>{name}</code>" in text, name
    assert "Local Storage" in text


def test_the_datenschutzerklaerung_states_the_retention_the_code_enforces(client):
    text = " ".join(text_of(client, "/datenschutz/").split())
    assert demo_service.IDLE_DAYS == 30 and "bis 30 Tage nach dem letzten Zug" in text
    assert locked.IDLE_AFTER.total_seconds() == 24 * 3600
    assert "bis 24 Stunden nach der letzten Aktion" in text
    assert RETENTION.days == 30 and "bis 30 Tage nach Abschluss der Meldung" in text
    assert UNCONFIRMED_DAYS == 7 and "nicht bestätigte Registrierungen nach 7 Tagen" in text
    assert settings.SESSION_COOKIE_AGE == 14 * 24 * 3600 and "2 Wochen" in text
    for command in (
        "cleanup_demos",
        "cleanup_rooms",
        "feedback_cleanup",
        "accounts_cleanup",
        "clearsessions",
        "daily_cleanup",
    ):
        assert f"<code>{command}</code>" in text, command
    # What is logged: never the address in clear, and the visitor id explained.
    assert "Deine IP-Adresse steht nicht im Log" in text
    assert "Die Besucher-ID" in text
    for kind in ("Demo-Partien", "Online-Räume", "Fehlermeldungen", "Spielegruppen", "Konto"):
        assert kind in text
    assert "Zugriffslog und Fehlerlog" in text


def test_editors_change_the_text_in_the_admin_and_readers_see_it_at_once(client, editor_client):
    assert "Neue Anschrift" not in text_of(client, "/impressum/")
    page = LegalPage.objects.get(key="impressum")
    url = reverse("admin:legal_legalpage_change", args=[page.pk])
    assert editor_client.get(reverse("admin:legal_legalpage_changelist")).status_code == 200
    response = editor_client.post(
        url, {"title": "Impressum", "body": "## Anbieter\n\nNeue Anschrift 1, 04109 Leipzig"}
    )
    assert response.status_code == 302
    html = text_of(client, "/impressum/")
    assert "Neue Anschrift 1" in html and "BITTE AUSFÜLLEN" not in html


def test_editors_can_neither_add_nor_delete_a_page(editor_client):
    assert editor_client.get(reverse("admin:legal_legalpage_add")).status_code == 403
    page = LegalPage.objects.get(key="datenschutz")
    assert (
        editor_client.get(reverse("admin:legal_legalpage_delete", args=[page.pk])).status_code
        == 403
    )


def test_placeholders_are_marked_and_staff_get_a_notice(editor_client):
    html = text_of(Client(), "/impressum/")
    assert '<mark class="placeholder">[BITTE AUSFÜLLEN: Straße und Hausnummer]</mark>' in html
    assert "Platzhalter offen" not in html
    assert "Platzhalter offen" in text_of(editor_client, "/impressum/")


def test_markdown_is_sanitised(client):
    LegalPage.objects.filter(key="impressum").update(
        body="<script>alert(1)</script>[gefährlich](javascript:alert(1)) [gut](mailto:a@b.de) "
        '<a href="/x/" onclick="boese()">x</a>'
    )
    html = text_of(client, "/impressum/").split('class="legal__body">')[1].split("</div>")[0]
    assert "<script" not in html and "javascript:" not in html and "onclick" not in html
    assert 'href="mailto:a@b.de"' in html


def test_tables_name_their_columns_for_the_phone_layout(client):
    html = text_of(client, "/datenschutz/")
    assert re.search(r'<td data-label="Wie lange">1 Jahr</td>', html)


def test_check_deploy_warns_while_placeholders_are_left(settings):
    settings.SECURE_HSTS_SECONDS = 1  # only the legal warning is of interest here
    with pytest.raises(SystemCheckError) as raised:
        call_command("check", "--deploy", "--fail-level", "WARNING", "--tag", "security")
    assert "legal.W001" in str(raised.value)
    assert "Impressum enthält noch" in str(raised.value)
    for page in LegalPage.objects.all():
        page.body = re.sub(r"\[BITTE AUSFÜLLEN:[^\]]*\]", "ausgefüllt", page.body)
        page.save()
    try:
        call_command("check", "--deploy", "--fail-level", "WARNING", "--tag", "security")
    except SystemCheckError as error:
        assert "legal.W001" not in str(error)


def test_a_missing_row_comes_back_with_the_shipped_text(client):
    LegalPage.objects.filter(key="datenschutz").delete()
    assert "Die Besucher-ID" in text_of(client, "/datenschutz/")
    assert LegalPage.objects.filter(key="datenschutz").exists()


def test_daily_cleanup_runs_every_retention_command(capsys):
    from axes.models import AccessAttempt

    old = AccessAttempt.objects.create(
        user_agent="x", ip_address="198.51.100.1", username="a@b.de", http_accept="*/*",
        path_info="/konto/anmelden/", get_data="", post_data="", failures_since_start=1,
    )  # fmt: skip
    AccessAttempt.objects.filter(pk=old.pk).update(attempt_time=timezone.now() - timedelta(days=2))
    fresh = AccessAttempt.objects.create(
        user_agent="x", ip_address="198.51.100.2", username="c@d.de", http_accept="*/*",
        path_info="/konto/anmelden/", get_data="", post_data="", failures_since_start=1,
    )  # fmt: skip
    call_command("daily_cleanup")
    out = capsys.readouterr().out
    for expected in ("Demo-Partie", "Räume", "Spam", "unbestätigte Konten", "Sitzungen", "1 alte Anmeldeversuche"):  # fmt: skip
        assert expected in out, out
    assert list(AccessAttempt.objects.all()) == [fresh]
