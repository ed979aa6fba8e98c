"""Drafts while the published version stays online; publishing makes a new version."""

import datetime
import importlib

import pytest
from django.apps import apps as global_apps
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from rules import publishing
from rules.models import RulesArticle, Section
from tests.factories import make_article, make_game
from tests.feedback.formdata import form_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def article():
    game = make_game("entwurfsspiel", title="Entwurfsspiel")
    return make_article(game)


def edit_working_copy(article):
    section = article.sections.get(kind="ziel")
    section.body = "Neuer Text, noch nicht freigegeben."
    section.save()
    Section.objects.create(article=article, kind="tipps", body="Ein frischer Tipp.", position=9)


def test_readers_keep_seeing_the_published_version_while_editors_edit(client, article):
    edit_working_copy(article)
    html = client.get(article.game.get_absolute_url()).content.decode()
    assert "Text zu <strong>ziel</strong>" in html
    assert "noch nicht freigegeben" not in html
    assert "Ein frischer Tipp" not in html
    assert "Arbeitsfassung" not in html


def test_staff_preview_the_working_copy_with_a_banner_and_a_switch(editor_client, article):
    edit_working_copy(article)
    url = article.game.get_absolute_url()
    html = editor_client.get(url).content.decode()
    assert "Neuer Text, noch nicht freigegeben." in html and "Ein frischer Tipp" in html
    assert "Vorschau der Arbeitsfassung" in html
    assert "Leser sehen Fassung 1" in html
    assert 'href="?fassung=oeffentlich"' in html
    public = editor_client.get(url, {"fassung": "oeffentlich"}).content.decode()
    assert "Text zu <strong>ziel</strong>" in public and "noch nicht freigegeben" not in public
    assert "Online-Fassung:</strong> So sehen Leser diese Seite (Fassung 1" in public


def test_no_banner_when_working_copy_equals_the_published_version(editor_client, article):
    html = editor_client.get(article.game.get_absolute_url()).content.decode()
    assert "Vorschau der Arbeitsfassung" not in html
    assert not publishing.has_unpublished_changes(
        RulesArticle.objects.prefetch_related("sections", "examples", "mistakes").get()
    )


def test_publish_puts_the_working_copy_online_as_next_version(client, article):
    edit_working_copy(article)
    article.refresh_from_db()
    moment = timezone.now() + datetime.timedelta(days=3)
    publishing.publish(article, now=moment)
    article.refresh_from_db()
    assert article.published_version == 2 and article.published_at == moment
    html = client.get(article.game.get_absolute_url()).content.decode()
    assert "Neuer Text, noch nicht freigegeben." in html and "Ein frischer Tipp" in html
    # "Zuletzt aktualisiert" is the publication date.
    local = timezone.localtime(moment)
    assert f'Zuletzt aktualisiert: <time datetime="{local:%Y-%m-%d}">' in html
    assert "(Fassung 2)" in html


def test_unpublish_takes_the_article_offline(client, article):
    publishing.unpublish(article)
    html = client.get(article.game.get_absolute_url()).content.decode()
    assert "schreiben wir gerade" in html


def test_snapshot_round_trip_keeps_everything_the_page_shows(article):
    article.rulebook_read_on = datetime.date(2026, 11, 10)
    article.save()
    publishing.publish(article)
    article.refresh_from_db()
    public = publishing.PublishedArticle(article)
    assert public.rulebook_read_on == datetime.date(2026, 11, 10)
    assert [s.heading for s in public.sections] == [
        "Ziel des Spiels", "Ablauf", "Beispiele", "Häufige Irrtümer",
    ]  # fmt: skip
    assert [e.title for e in public.examples.all()] == ["Ein Beispiel"]
    assert [m.title for m in public.mistakes.all()] == ["Ein Irrtum"]


def test_admin_publish_action_and_save_and_publish_button(editor_client, article):
    edit_working_copy(article)
    response = editor_client.post(
        reverse("admin:rules_rulesarticle_changelist"),
        {"action": "publish", "_selected_action": [article.pk]},
        follow=True,
    )
    assert "1 Artikel veröffentlicht." in response.content.decode()
    article.refresh_from_db()
    assert article.published_version == 2
    assert "Ein frischer Tipp" in str(article.published_snapshot)

    # Edit the intro of a section in the change form, then "Speichern und veröffentlichen".
    url = reverse("admin:rules_rulesarticle_change", args=[article.pk])
    html = editor_client.get(url).content.decode()
    assert 'name="_publish"' in html
    assert "Online ist Fassung 2" in html
    # The section's text is edited in its own form; the article's button publishes it.
    goal = article.sections.get(kind="ziel")
    goal.body = "Per Admin geändert."
    goal.save()
    data = form_data(html, "rulesarticle_form")
    data["_publish"] = "Speichern und veröffentlichen"
    response = editor_client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    article.refresh_from_db()
    assert article.published_version == 3
    assert "Per Admin geändert." in Client().get(article.game.get_absolute_url()).content.decode()


def test_plain_save_in_admin_changes_only_the_working_copy(editor_client, article):
    url = reverse("admin:rules_rulesarticle_change", args=[article.pk])
    data = form_data(editor_client.get(url).content.decode(), "rulesarticle_form")
    data["source_note"] = "Nur gesichert."
    data["rulebook_title"] = "Neue Spielregel"
    assert editor_client.post(url, data).status_code == 302
    article.refresh_from_db()
    assert article.published_version == 1
    public = Client().get(article.game.get_absolute_url()).content.decode()
    assert "Neue Spielregel" not in public
    changelist = editor_client.get(reverse("admin:rules_rulesarticle_changelist")).content.decode()
    assert 'alt="True"' in changelist  # "unveröffentlichte Änderungen" icon


def test_status_is_not_editable_in_the_form(editor_client, article):
    url = reverse("admin:rules_rulesarticle_change", args=[article.pk])
    data = form_data(editor_client.get(url).content.decode(), "rulesarticle_form")
    assert "status" not in data


def test_content_loader_publishes_with_a_snapshot(client, content):
    article = RulesArticle.objects.get(game__slug="the-cat")
    assert article.is_published and article.published_version == 1
    assert len(article.published_snapshot["sections"]) == article.sections.count()
    assert client.get("/spiele/the-cat/").status_code == 200


def test_data_migration_snapshots_articles_published_before_snapshots():
    game = make_game("altbestand")
    article = make_article(game, published=False)
    RulesArticle.objects.filter(pk=article.pk).update(status="published")
    migration = importlib.import_module("rules.migrations.0003_snapshot_published_articles")
    migration.snapshot_published(global_apps, None)
    article.refresh_from_db()
    assert article.published_version == 1
    fresh = RulesArticle.objects.prefetch_related("sections", "examples", "mistakes").get(
        pk=article.pk
    )
    assert article.published_snapshot == publishing.build_snapshot(fresh)


def test_json_ld_date_modified_follows_publication(client, article):
    later = timezone.now() + datetime.timedelta(days=10)
    publishing.publish(article, now=later)
    html = client.get(article.game.get_absolute_url()).content.decode()
    assert f'"dateModified": "{later.isoformat()}"' in html
