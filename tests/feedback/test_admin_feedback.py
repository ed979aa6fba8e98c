"""The editors' side: report list, answers, e-mail, index count, permissions, escaping."""

import datetime
import importlib

import pytest
from django.apps import apps as global_apps
from django.contrib.auth.models import Group, Permission
from django.core import mail
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from feedback.models import ErrorReport
from games.editors import EDITORS_GROUP
from tests.factories import make_article, make_game
from tests.feedback.formdata import form_data

pytestmark = pytest.mark.django_db

XSS = ['<script>alert("x")</script>', '"><img src=x onerror=alert(1)>']
CHANGELIST = "admin:feedback_errorreport_changelist"


@pytest.fixture
def game():
    game = make_game("adminspiel", title="Adminspiel")
    make_article(game)
    return game


def make_report(game, **fields):
    defaults = {
        "message": "Auf S. 2 steht etwas anderes.",
        "section_kind": "ziel",
        "section_label": "Ziel des Spiels",
        "page_url": "http://testserver/spiele/adminspiel/#ziel",
        "article_version": 1,
    }
    defaults.update(fields)
    return ErrorReport.objects.create(game=game, **defaults)


def test_default_list_hides_spam_and_filters_show_it(editor_client, game):
    make_report(game, message="Echte Meldung zum Ziel")
    make_report(game, message="Billige Uhren kaufen", is_spam=True, spam_reasons="Honeypot")
    html = editor_client.get(reverse(CHANGELIST)).content.decode()
    assert "Echte Meldung zum Ziel" in html and "Billige Uhren" not in html
    assert "ohne Spam" in html
    spam = editor_client.get(reverse(CHANGELIST), {"spam": "ja"}).content.decode()
    assert "Billige Uhren" in spam and "Echte Meldung" not in spam
    both = editor_client.get(reverse(CHANGELIST), {"spam": "alle"}).content.decode()
    assert "Billige Uhren" in both and "Echte Meldung" in both


def test_list_columns_filters_and_search(editor_client, game):
    other = make_game("anderes", title="Anderes Spiel")
    older = make_report(game, message="Punkte falsch")
    ErrorReport.objects.filter(pk=older.pk).update(
        created_at=older.created_at - datetime.timedelta(days=3)
    )
    make_report(other, message="Kartenzahl falsch", section_kind="", section_label="")
    html = editor_client.get(reverse(CHANGELIST)).content.decode()
    for text in ("Meldung", "Spiel", "Abschnitt", "Status", "Alter", "eingegangen", "gerade eben"):
        assert text in html, text
    # The section links to the very place on the site.
    assert "vor 3 Tagen" in html
    assert 'href="/spiele/adminspiel/#ziel"' in html
    found = editor_client.get(reverse(CHANGELIST), {"q": "Kartenzahl"}).content.decode()
    assert "Kartenzahl falsch" in found and "Punkte falsch" not in found
    by_game = editor_client.get(reverse(CHANGELIST), {"game__id__exact": other.pk})
    assert "Punkte falsch" not in by_game.content.decode()
    by_section = editor_client.get(reverse(CHANGELIST), {"abschnitt": "ziel"}).content.decode()
    assert "Punkte falsch" in by_section and "Kartenzahl falsch" not in by_section
    by_status = editor_client.get(reverse(CHANGELIST), {"status__exact": "korrigiert"})
    assert "Punkte falsch" not in by_status.content.decode()


def test_status_actions(editor_client, editor, game):
    first, second = make_report(game), make_report(game)
    response = editor_client.post(
        reverse(CHANGELIST),
        {"action": "mark_corrected", "_selected_action": [first.pk, second.pk]},
        follow=True,
    )
    assert "2 Meldungen auf „korrigiert“ gesetzt" in response.content.decode()
    first.refresh_from_db()
    assert first.status == "korrigiert" and first.handled_by == editor
    assert first.status_changed_at is not None
    assert mail.outbox == []  # bulk actions send no mail
    editor_client.post(
        reverse(CHANGELIST), {"action": "mark_spam", "_selected_action": [second.pk]}
    )
    second.refresh_from_db()
    assert second.is_spam


def test_answer_and_status_change_notify_the_reader(
    editor_client, editor, game, django_capture_on_commit_callbacks
):
    report = make_report(game, email="leser@example.org")
    url = reverse("admin:feedback_errorreport_change", args=[report.pk])
    data = form_data(editor_client.get(url).content.decode(), "errorreport_form")
    assert data["notify_reader"] == "on"  # ticked by default
    data.update(status="korrigiert", public_answer="Danke! Wir haben S. 2 nachgelesen.")
    with django_capture_on_commit_callbacks(execute=True):
        response = editor_client.post(url, data, follow=True)
    assert "per E-Mail benachrichtigt" in response.content.decode()
    report.refresh_from_db()
    assert report.status == "korrigiert" and report.handled_by == editor
    assert report.reader_notified_at is not None
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["leser@example.org"]
    assert message.subject == "Dein Hinweis zu „Adminspiel“: korrigiert"
    assert "Danke! Wir haben S. 2 nachgelesen." in message.body
    assert f"http://testserver/meldung/{report.token}/" in message.body
    # The reader's status page shows the answer.
    status_page = Client().get(report.get_status_url()).content.decode()
    assert "Danke! Wir haben S. 2 nachgelesen." in status_page


def test_no_mail_when_unticked_or_status_unchanged_or_no_address(
    editor_client, game, django_capture_on_commit_callbacks
):
    with_address = make_report(game, email="leser@example.org")
    without = make_report(game)
    for report, changes in (
        (with_address, {"status": "in-pruefung", "notify_reader": ""}),
        (with_address, {"internal_note": "Nur eine Notiz"}),
        (without, {"status": "abgelehnt"}),
    ):
        url = reverse("admin:feedback_errorreport_change", args=[report.pk])
        data = form_data(editor_client.get(url).content.decode(), "errorreport_form")
        data.update(changes)
        if changes.get("notify_reader") == "":
            data.pop("notify_reader")
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            assert editor_client.post(url, data).status_code == 302
        assert callbacks == []
    assert mail.outbox == []


def test_reader_text_is_read_only_for_editors(editor_client, game):
    report = make_report(game, message="Original-Text der Leserin")
    url = reverse("admin:feedback_errorreport_change", args=[report.pk])
    data = form_data(editor_client.get(url).content.decode(), "errorreport_form")
    assert "message" not in data and "email" not in data
    data["message"] = "Gefälscht"
    editor_client.post(url, data)
    report.refresh_from_db()
    assert report.message == "Original-Text der Leserin"


def test_reports_cannot_be_added_by_editors(editor_client):
    assert editor_client.get(reverse("admin:feedback_errorreport_add")).status_code == 403


@pytest.mark.parametrize("payload", XSS)
def test_reader_text_is_escaped_in_admin_list_and_change_view(editor_client, game, payload):
    report = make_report(
        game,
        message=f"Text {payload}\nzweite Zeile {payload}",
        rulebook_reference=payload,
        email="a@example.org",
        section_label=payload,
        public_answer=payload,
        internal_note=payload,
    )
    pages = [
        editor_client.get(reverse(CHANGELIST)).content.decode(),
        editor_client.get(reverse(CHANGELIST), {"q": "Text"}).content.decode(),
        editor_client.get(
            reverse("admin:feedback_errorreport_change", args=[report.pk])
        ).content.decode(),
        editor_client.get(reverse("admin:index")).content.decode(),
    ]
    for html in pages:
        assert '<script>alert("x")' not in html
        assert "<img src=x" not in html
    change = pages[2]
    assert change.count("&lt;") >= 4
    assert "zweite Zeile" in change and "<br>" in change  # line breaks kept, safely


def test_admin_index_counts_new_real_reports(editor_client, game):
    html = editor_client.get(reverse("admin:index")).content.decode()
    assert "Keine neuen Fehlermeldungen" in html
    make_report(game)
    make_report(game)
    make_report(game, is_spam=True)
    make_report(game, status="korrigiert")
    html = editor_client.get(reverse("admin:index")).content.decode()
    assert "2 neue Fehlermeldungen" in html and "warten auf Prüfung" in html
    assert "?status__exact=neu" in html
    # The German admin is intact.
    assert "Kartenregeln – Redaktion" in html and "Leser-Rückmeldungen" in html
    assert "Fehlermeldungen" in html and "Bewertungen" in html


def test_admin_index_notice_needs_permission(client, django_user_model, game):
    make_report(game)
    staff = django_user_model.objects.create_user("ohne", password="x", is_staff=True)
    client.force_login(staff)
    html = client.get(reverse("admin:index")).content.decode()
    assert "Fehlermeldung" not in html


# Permissions and the editors' group -------------------------------------------


def test_editors_group_has_content_rights_but_no_auth_rights(editor):
    group = Group.objects.get(name=EDITORS_GROUP)
    labels = set(group.permissions.values_list("content_type__app_label", flat=True))
    assert {"games", "rules", "feedback"} <= labels
    assert "auth" not in labels and "admin" not in labels and "reversion" not in labels
    assert editor.has_perm("feedback.change_errorreport")
    assert editor.has_perm("rules.change_rulesarticle")
    assert not editor.has_perm("auth.change_user")
    assert not editor.has_perm("auth.add_group")


def test_editor_cannot_touch_users_or_groups(editor_client, django_user_model):
    other = django_user_model.objects.create_user("jemand", password="x")
    for name, args in (
        ("admin:auth_user_changelist", []),
        ("admin:auth_user_add", []),
        ("admin:auth_user_change", [other.pk]),
        ("admin:auth_user_password_change", [other.pk]),
        ("admin:auth_group_changelist", []),
    ):
        assert editor_client.get(reverse(name, args=args)).status_code == 403, name


def test_data_migration_creates_the_group_without_auth_permissions():
    Group.objects.filter(name=EDITORS_GROUP).delete()
    Permission.objects.filter(content_type__app_label="feedback").delete()
    migration = importlib.import_module("feedback.migrations.0002_editors_group")
    migration.create_editors_group(global_apps, None)
    group = Group.objects.get(name=EDITORS_GROUP)
    labels = set(group.permissions.values_list("content_type__app_label", flat=True))
    assert labels == {"games", "rules", "feedback"}
    assert group.permissions.filter(codename="change_errorreport").exists()
    # Running it must leave the app registry intact (post_migrate needs models_module).
    assert all(global_apps.get_app_config(label).models_module for label in labels)


def test_votes_are_viewable_and_deletable_but_not_editable(editor_client, game):
    from feedback.models import Vote

    vote = Vote.objects.create(game=game, visitor="abc", stars=5)
    assert editor_client.get(reverse("admin:feedback_vote_changelist")).status_code == 200
    url = reverse("admin:feedback_vote_change", args=[vote.pk])
    html = editor_client.get(url).content.decode()
    assert 'name="stars"' not in html
    assert (
        editor_client.post(
            reverse("admin:feedback_vote_delete", args=[vote.pk]), {"post": "yes"}
        ).status_code
        == 302
    )
    assert not Vote.objects.exists()


# create_editor ---------------------------------------------------------------


@pytest.fixture
def editor_env(monkeypatch):
    def set_env(**values):
        for name in ("EDITOR_USERNAME", "EDITOR_EMAIL", "EDITOR_PASSWORD"):
            monkeypatch.delenv(name, raising=False)
        for name, value in values.items():
            monkeypatch.setenv(name, value)

    return set_env


def test_create_editor_from_environment(editor_env, django_user_model):
    editor_env(
        EDITOR_USERNAME="chefin",
        EDITOR_EMAIL="chefin@example.org",
        EDITOR_PASSWORD="Kartenhaus-7-Lama",
    )
    call_command("create_editor")
    user = django_user_model.objects.get(username="chefin")
    assert user.is_staff and user.is_active and not user.is_superuser
    assert user.email == "chefin@example.org"
    assert user.check_password("Kartenhaus-7-Lama")
    assert user.groups.filter(name=EDITORS_GROUP).exists()
    client = Client()
    assert client.login(username="chefin", password="Kartenhaus-7-Lama")
    assert client.get(reverse(CHANGELIST)).status_code == 200
    assert client.get(reverse("admin:auth_user_changelist")).status_code == 403


def test_create_editor_is_idempotent_and_keeps_the_password(editor_env, django_user_model):
    editor_env(EDITOR_USERNAME="chefin", EDITOR_PASSWORD="Kartenhaus-7-Lama")
    call_command("create_editor")
    user = django_user_model.objects.get(username="chefin")
    user.set_password("Selbst-gewaehlt-99")
    user.save()
    editor_env(EDITOR_USERNAME="chefin", EDITOR_PASSWORD="Ganz-anderes-Passwort-3")
    call_command("create_editor")
    assert django_user_model.objects.filter(username="chefin").count() == 1
    user.refresh_from_db()
    assert user.check_password("Selbst-gewaehlt-99")
    call_command("create_editor", "--reset-password")
    user.refresh_from_db()
    assert user.check_password("Ganz-anderes-Passwort-3")


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"EDITOR_PASSWORD": "Kartenhaus-7-Lama"}, "EDITOR_USERNAME fehlt"),
        ({"EDITOR_USERNAME": "chefin"}, "EDITOR_PASSWORD fehlt"),
        ({"EDITOR_USERNAME": "chefin", "EDITOR_PASSWORD": "12345678"}, "zu schwach"),
        ({"EDITOR_USERNAME": "chefin", "EDITOR_PASSWORD": "kurz"}, "zu kurz"),
        ({"EDITOR_USERNAME": "chefin", "EDITOR_PASSWORD": "chefin2026"}, "zu schwach"),
        (
            {"EDITOR_USERNAME": "c", "EDITOR_PASSWORD": "Kartenhaus-7-Lama", "EDITOR_EMAIL": "x@"},
            "keine gültige Adresse",
        ),
    ],
)
def test_create_editor_refuses_missing_or_weak_input(editor_env, django_user_model, env, message):
    editor_env(**env)
    with pytest.raises(CommandError, match=message):
        call_command("create_editor")
    assert not django_user_model.objects.exists()


def test_mail_failure_is_logged_not_raised(game, monkeypatch, caplog):
    from feedback import notifications

    def broken(*args, **kwargs):
        raise OSError("Mailserver weg")

    monkeypatch.setattr(notifications, "send_mail", broken)
    report = make_report(game, email="leser@example.org", status="korrigiert")
    assert notifications.send_status_mail(report) is False
    assert "ließ sich nicht senden" in caplog.text
    report.refresh_from_db()
    assert report.reader_notified_at is None


def test_cleanup_erases_addresses_of_closed_reports_and_old_spam(game):
    from datetime import timedelta

    from django.utils import timezone

    old = timezone.now() - timedelta(days=31)
    closed = make_report(game, email="a@example.org", status="korrigiert", status_changed_at=old)
    recent = make_report(game, email="b@example.org", status="abgelehnt")
    recent.status_changed_at = timezone.now()
    recent.save()
    open_report = make_report(game, email="c@example.org", status_changed_at=old)
    spam = make_report(game, is_spam=True)
    ErrorReport.objects.filter(pk=spam.pk).update(created_at=old)
    fresh_spam = make_report(game, is_spam=True)
    call_command("feedback_cleanup")
    closed.refresh_from_db()
    recent.refresh_from_db()
    open_report.refresh_from_db()
    assert closed.email == ""
    assert recent.email == "b@example.org" and open_report.email == "c@example.org"
    assert not ErrorReport.objects.filter(pk=spam.pk).exists()
    assert ErrorReport.objects.filter(pk=fresh_spam.pk).exists()


@pytest.mark.parametrize(
    ("seconds", "label"),
    [
        (30, "gerade eben"),
        (60, "vor 1 Minute"),
        (150, "vor 2 Minuten"),
        (3600, "vor 1 Stunde"),
        (86400 * 2 + 5, "vor 2 Tagen"),
    ],
)
def test_age_label_is_correct_german(seconds, label):
    from feedback.admin import age_label

    assert age_label(datetime.timedelta(seconds=seconds)) == label
