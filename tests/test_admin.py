import pytest
from django.urls import reverse

from games.models import Edition, Game, Person, Publisher
from rules.models import RulesArticle
from tests.factories import add_people, make_article, make_game

pytestmark = pytest.mark.django_db

MODELS = [Game, Person, Publisher, RulesArticle]


@pytest.fixture
def game():
    game = make_game("admin-spiel")
    add_people(game)
    Edition.objects.create(
        game=game, publisher=Publisher.objects.first(), year=2020, note="Erstausgabe"
    )
    make_article(game)
    return game


@pytest.mark.parametrize("model", MODELS)
def test_editor_can_open_changelist_and_add_form(editor_client, game, model):
    opts = model._meta
    changelist = editor_client.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist"))
    assert changelist.status_code == 200
    add = editor_client.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_add"))
    assert add.status_code == 200


def test_game_change_form_has_view_on_site_and_german_labels(editor_client, game):
    html = editor_client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert "Auf der Website anzeigen" in html or "Auf der Website ansehen" in html
    assert "Spieler min." in html and "Komplexität" in html
    assert "sortable_inlines.js" in html
    assert 'id="id_slug"' in html and "prepopulated" in html


def test_article_change_form_has_sortable_inlines(editor_client, game):
    article = RulesArticle.objects.get(game=game)
    html = editor_client.get(
        reverse("admin:rules_rulesarticle_change", args=[article.pk])
    ).content.decode()
    assert html.count("sortable-inline") >= 3
    assert "Abschnitte" in html and "Beispiele" in html and "Häufige Irrtümer" in html


def test_publish_action(editor_client):
    article = make_article(make_game("neu"), published=False)
    response = editor_client.post(
        reverse("admin:rules_rulesarticle_changelist"),
        {"action": "publish", "_selected_action": [article.pk]},
        follow=True,
    )
    assert response.status_code == 200
    article.refresh_from_db()
    assert article.is_published and article.published_at is not None


def test_editor_cannot_touch_users(editor_client):
    assert editor_client.get(reverse("admin:auth_user_changelist")).status_code == 403
    assert editor_client.get(reverse("admin:auth_group_changelist")).status_code == 403


def test_search_and_filters(editor_client, game):
    response = editor_client.get(
        reverse("admin:games_game_changelist"), {"q": "admin", "complexity__exact": 1}
    )
    assert response.status_code == 200
    assert "Admin Spiel" in response.content.decode()
    response = editor_client.get(reverse("admin:rules_rulesarticle_changelist"), {"q": "ziel"})
    assert response.status_code == 200


def test_admin_action_bar_is_german(editor_client, game):
    html = editor_client.get(reverse("admin:games_game_changelist")).content.decode()
    assert "Ausführen" in html and ">Run<" not in html
    assert "bitte auswählen" in html and "Select an option" not in html
