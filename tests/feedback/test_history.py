"""History with django-reversion: who changed what and when, viewable and revertible in the admin."""

import pytest
from django.test import Client
from django.urls import reverse
from reversion.models import Version

from games.models import Game
from rules.models import RulesArticle, Section
from rules.publishing import publish
from tests.feedback.formdata import form_data

pytestmark = pytest.mark.django_db


def change_via_admin(client, url, form_id, **changes):
    data = form_data(client.get(url).content.decode(), form_id)
    data.update(changes)
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return data


def test_game_change_is_a_draft_and_restore_makes_a_draft(editor_client, editor, content):
    game = Game.objects.get(slug="the-cat")
    url = reverse("admin:games_game_change", args=[game.pk])
    change_via_admin(editor_client, url, "game_form", title="The Cat (geändert)")
    game.refresh_from_db()
    assert game.title == "The Cat"  # a published game changes through its draft only
    assert game.draft.fields == {"title": "The Cat (geändert)"}

    history = editor_client.get(reverse("admin:games_game_history", args=[game.pk]))
    html = history.content.decode()
    assert history.status_code == 200
    assert "Mitgelieferte Inhalte geladen" in html

    # The shipped version against the draft, word by word; restoring it empties the draft.
    oldest = Version.objects.get_for_object(game).last()
    revision_url = reverse("admin:games_game_revision", args=[game.pk, oldest.pk])
    page = editor_client.get(revision_url).content.decode()
    assert "<ins>(geändert)</ins>" in page or "<ins>" in page
    assert editor_client.post(revision_url).status_code == 302
    game.refresh_from_db()
    assert game.title == "The Cat"
    assert (
        not hasattr(Game.objects.get(pk=game.pk), "draft")
        or not Game.objects.get(pk=game.pk).draft.fields
    )


def test_article_revert_restores_sections_but_not_what_is_online(editor_client, content):
    article = RulesArticle.objects.get(game__slug="the-cat")
    goal = Section.objects.get(article=article, kind="ziel")
    original_goal = goal.body
    url = reverse("admin:rules_section_change", args=[goal.pk])
    change_via_admin(editor_client, url, "section_form", body="Kaputt editiert.")
    publish(RulesArticle.objects.get(pk=article.pk))
    article.refresh_from_db()
    assert article.published_version == 2
    assert "Kaputt editiert." in Client().get("/spiele/the-cat/").content.decode()

    versions = Version.objects.get_for_object(article)
    shipped = versions.last()
    revision_url = reverse("admin:rules_rulesarticle_revision", args=[article.pk, shipped.pk])
    page = editor_client.get(revision_url).content.decode()
    assert "<del>" in page or "<ins>" in page  # the diff of the goal section
    assert editor_client.post(revision_url).status_code == 302

    goal = Section.objects.get(article=article, kind="ziel")
    assert goal.body == original_goal
    article.refresh_from_db()
    # Reverting restored the working copy; the online version is unchanged until published.
    assert article.published_version == 2 and article.is_published
    assert "Kaputt editiert." in Client().get("/spiele/the-cat/").content.decode()
    publish(RulesArticle.objects.get(pk=article.pk))
    assert "Kaputt editiert." not in Client().get("/spiele/the-cat/").content.decode()


def test_deleted_game_can_be_recovered(editor_client, content):
    game = Game.objects.get(slug="alpaka")
    delete_url = reverse("admin:games_game_delete", args=[game.pk])
    assert editor_client.post(delete_url, {"post": "yes"}).status_code == 302
    assert not Game.objects.filter(slug="alpaka").exists()
    recover = editor_client.get(reverse("admin:games_game_recoverlist"))
    assert recover.status_code == 200
    assert "Alpaka" in recover.content.decode()


@pytest.mark.parametrize(
    "model_admin",
    [
        "games_game",
        "games_person",
        "games_publisher",
        "rules_rulesarticle",
    ],
)
def test_history_pages_render_in_german(editor_client, content, model_admin):
    from django.apps import apps

    app_label, model_name = model_admin.split("_")
    obj = apps.get_model(app_label, model_name).objects.first()
    html = editor_client.get(
        reverse(f"admin:{model_admin}_history", args=[obj.pk])
    ).content.decode()
    assert "Wählen Sie ein Datum" in html or "Änderungsgeschichte" in html


def test_sections_and_examples_are_part_of_the_article_history(content):
    article = RulesArticle.objects.get(game__slug="the-cat")
    revision = Version.objects.get_for_object(article).first().revision
    models = {v.content_type.model for v in revision.version_set.all()}
    assert {"rulesarticle", "section", "workedexample", "commonmistake"} <= models


def test_sleeve_records_are_kept_in_history(editor_client):
    import reversion

    from sleeves.models import Brand, CardFormat, CardSize, SleeveProduct, SleeveSettings

    for model in (Brand, CardFormat, CardSize, SleeveProduct, SleeveSettings):
        assert reversion.is_registered(model), model
    add_url = reverse("admin:sleeves_cardsize_add")
    data = form_data(editor_client.get(add_url).content.decode(), "cardsize_form")
    data.update(name="Standard", width_mm="63.5", height_mm="88")
    assert editor_client.post(add_url, data).status_code == 302
    size = CardSize.objects.get(name="Standard")
    assert Version.objects.get_for_object(size).count() == 1
    history = editor_client.get(reverse("admin:sleeves_cardsize_history", args=[size.pk]))
    assert history.status_code == 200 and "editor" in history.content.decode()
