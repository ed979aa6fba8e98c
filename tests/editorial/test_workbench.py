"""The editors' workbench: from the page to a block's form, drafts, one publish step,
history per object, roles."""

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse
from reversion.models import Version

from editorial.models import GameDraft
from feedback.models import ErrorReport
from games.editors import PROOFREADERS_GROUP, ensure_editors_group
from games.models import Game
from rules.models import RulesArticle, Section
from tests.feedback.formdata import form_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def proofreader_client(django_user_model):
    ensure_editors_group()
    user = django_user_model.objects.create_user("lektor", password="geheim-123", is_staff=True)
    user.groups.add(Group.objects.get(name=PROOFREADERS_GROUP))
    client = Client()
    client.force_login(user)
    return client


def _section(slug, kind):
    return Section.objects.get(article__game__slug=slug, kind=kind)


def test_staff_see_edit_links_readers_never_do_even_from_the_cache(editor_client, content):
    url = "/spiele/alpaka/"
    reader = Client()
    first = reader.get(url)
    assert "edit-link" not in first.content.decode()
    staff = editor_client.get(url).content.decode()
    goal = _section("alpaka", "ziel")
    assert f'href="{reverse("admin:rules_section_change", args=[goal.pk])}"' in staff
    assert staff.count('class="edit-link"') >= 20  # sections, examples, questions, game data
    # After staff looked (and with a public version viewed by staff, whose parts are kept),
    # readers still get a page without them – stored or freshly drawn.
    editor_client.get(url, {"fassung": "oeffentlich"})
    for _ in range(2):
        page = reader.get(url)
        assert "edit-link" not in page.content.decode()
        assert "Bearbeiten<span" not in page.content.decode()
    assert page.headers.get("X-Page-Cache") == "hit"
    public_for_staff = editor_client.get(url, {"fassung": "oeffentlich"}).content.decode()
    assert "edit-link" not in public_for_staff


def test_unchanged_block_saved_from_the_browser_is_no_change(editor_client, content):
    goal = _section("alpaka", "ziel")
    url = reverse("admin:rules_section_change", args=[goal.pk])
    data = form_data(editor_client.get(url).content.decode(), "section_form")
    # Browsers send textareas with CRLF line ends.
    data = {k: v.replace("\n", "\r\n") if isinstance(v, str) else v for k, v in data.items()}
    assert editor_client.post(url, data).status_code == 302
    article = RulesArticle.objects.prefetch_related(
        "sections", "examples", "mistakes", "questions"
    ).get(game__slug="alpaka")
    from rules.publishing import has_unpublished_changes

    assert not has_unpublished_changes(article)


def test_save_and_preview_opens_the_draft_at_the_block_and_publishing_is_one_step(
    editor_client, content
):
    goal = _section("alpaka", "ziel")
    url = reverse("admin:rules_section_change", args=[goal.pk]) + "?zur_meldung=7"
    data = form_data(editor_client.get(url).content.decode(), "section_form")
    data["body"] = "Sieger ist, wer am wenigsten Minuspunkte hat. Korrigiert."
    data["_preview"] = "1"
    response = editor_client.post(url, data)
    assert response.status_code == 302
    assert response["Location"] == "/spiele/alpaka/?zur_meldung=7#ziel"
    assert "Korrigiert." not in Client().get("/spiele/alpaka/").content.decode()
    preview = editor_client.get("/spiele/alpaka/").content.decode()
    assert "Korrigiert." in preview and "Jetzt veröffentlichen" in preview
    assert "Abschnitt „Ziel des Spiels“ geändert" in preview

    article = RulesArticle.objects.get(game__slug="alpaka")
    publish = reverse("admin:rules_rulesarticle_publish", args=[article.pk])
    response = editor_client.post(publish, {"next": "/spiele/alpaka/"}, follow=True)
    assert "ist online (Fassung 2). Veröffentlicht: Abschnitt „Ziel des Spiels“ geändert" in (
        response.content.decode()
    )
    assert "Korrigiert." in Client().get("/spiele/alpaka/").content.decode()


def test_game_data_are_a_draft_until_the_page_is_published(editor_client, content):
    game = Game.objects.get(slug="alpaka")
    other = Game.objects.get(slug="the-cat")
    url = reverse("admin:games_game_change", args=[game.pk])
    data = form_data(editor_client.get(url).content.decode(), "game_form")
    data["duration_minutes"] = "35"
    picked = data.get("related_games", [])
    data["related_games"] = [*([picked] if isinstance(picked, str) else picked), str(other.pk)]
    response = editor_client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    game.refresh_from_db()
    assert game.duration_minutes == 20 and other not in game.related_games.all()
    assert "etwa 20 Minuten" in Client().get("/spiele/alpaka/").content.decode()
    preview = editor_client.get("/spiele/alpaka/").content.decode()
    assert "etwa 35 Minuten" in preview and "Dauer (Minuten): 20 → 35" in preview
    # The form shows the draft, not the live row.
    assert 'value="35"' in editor_client.get(url).content.decode()

    article = game.article
    response = editor_client.post(
        reverse("admin:rules_rulesarticle_publish", args=[article.pk]), follow=True
    )
    text = response.content.decode()
    assert "Dauer (Minuten): 20 → 35" in text and "The Cat" in text
    game.refresh_from_db()
    assert game.duration_minutes == 35 and other in game.related_games.all()
    assert not GameDraft.objects.filter(game=game).exists()
    assert "etwa 35 Minuten" in Client().get("/spiele/alpaka/").content.decode()


def test_restoring_an_article_never_changes_a_game_row(editor_client, content):
    game = Game.objects.get(slug="alpaka")
    other = Game.objects.get(slug="the-cat")
    game.duration_minutes = 99
    game.related_games.add(other)
    game.save()
    before = Game.objects.filter(pk__in=[game.pk, other.pk]).values().order_by("pk")
    before = [dict(row) for row in before]
    picks = {g.pk: set(g.related_games.values_list("pk", flat=True)) for g in (game, other)}

    goal = _section("alpaka", "ziel")
    goal.body = "Ganz anders."
    goal.save()
    article = RulesArticle.objects.get(game=game)
    shipped = Version.objects.get_for_object(article).last()
    assert shipped.revision.get_comment() == "Mitgelieferte Inhalte geladen"
    assert any(v._model is Game for v in shipped.revision.version_set.all())
    url = reverse("admin:rules_rulesarticle_revision", args=[article.pk, shipped.pk])
    page = editor_client.get(url).content.decode()
    assert "<ins>Ganz</ins>" in page or "<ins>Ganz anders</ins>" in page
    assert editor_client.post(url).status_code == 302

    assert _section("alpaka", "ziel").body.startswith("Hier willst du möglichst")
    after = [
        dict(row) for row in Game.objects.filter(pk__in=[game.pk, other.pk]).values().order_by("pk")
    ]
    assert after == before
    assert {g.pk: set(g.related_games.values_list("pk", flat=True)) for g in (game, other)} == picks
    assert not GameDraft.objects.exists()
    # The restored text is a draft: online is still what was published.
    assert "Hier willst du möglichst" in Client().get("/spiele/alpaka/").content.decode()


def test_block_history_restores_just_that_block(editor_client, content):
    goal = _section("alpaka", "ziel")
    setup = _section("alpaka", "aufbau")
    original = goal.body
    url = reverse("admin:rules_section_change", args=[goal.pk])
    for text in ("Erste Änderung.", "Zweite Änderung."):
        data = form_data(editor_client.get(url).content.decode(), "section_form")
        data["body"] = text
        assert editor_client.post(url, data).status_code == 302
    setup.body = "Aufbau geändert."
    setup.save()
    versions = Version.objects.get_for_object(goal)
    first_edit = versions.get(serialized_data__contains="Erste")
    diff = editor_client.get(
        reverse("admin:rules_section_revision", args=[goal.pk, first_edit.pk])
    ).content.decode()
    assert "<del>Erste</del>" in diff and "<ins>Zweite</ins>" in diff
    editor_client.post(reverse("admin:rules_section_revision", args=[goal.pk, first_edit.pk]))
    assert _section("alpaka", "ziel").body == "Erste Änderung."
    assert _section("alpaka", "aufbau").body == "Aufbau geändert."
    shipped = versions.last()
    editor_client.post(reverse("admin:rules_section_revision", args=[goal.pk, shipped.pk]))
    assert _section("alpaka", "ziel").body == original


def test_proofreaders_edit_drafts_but_cannot_publish(proofreader_client, content):
    goal = _section("alpaka", "ziel")
    url = reverse("admin:rules_section_change", args=[goal.pk])
    data = form_data(proofreader_client.get(url).content.decode(), "section_form")
    data["body"] = "Vom Lektorat verbessert."
    assert proofreader_client.post(url, data).status_code == 302
    preview = proofreader_client.get("/spiele/alpaka/").content.decode()
    assert "Vom Lektorat verbessert." in preview
    assert (
        "Jetzt veröffentlichen" not in preview and "Veröffentlichen darf die Redaktion" in preview
    )
    article = goal.article
    publish = reverse("admin:rules_rulesarticle_publish", args=[article.pk])
    assert proofreader_client.post(publish).status_code == 403
    waiting = proofreader_client.get(publish).content.decode()
    assert "Abschnitt „Ziel des Spiels“ geändert" in waiting
    assert (
        "Jetzt veröffentlichen" not in waiting and "Veröffentlichen darf die Redaktion" in waiting
    )
    change = proofreader_client.get(reverse("admin:rules_rulesarticle_change", args=[article.pk]))
    assert 'name="_publish"' not in change.content.decode()
    listing = proofreader_client.get(reverse("admin:rules_rulesarticle_changelist"))
    assert 'value="publish"' not in listing.content.decode()
    # Game data: a draft, never live; the switch „veröffentlicht“ is not theirs.
    game_url = reverse("admin:games_game_change", args=[article.game_id])
    html = proofreader_client.get(game_url).content.decode()
    assert 'name="is_published"' not in html
    assert "Vom Lektorat verbessert." not in Client().get("/spiele/alpaka/").content.decode()
    # What is not theirs: users, sleeve products, deleting games.
    assert proofreader_client.get(reverse("admin:auth_user_changelist")).status_code == 403
    assert (
        proofreader_client.get(reverse("admin:sleeves_sleeveproduct_changelist")).status_code == 403
    )
    delete = reverse("admin:games_game_delete", args=[article.game_id])
    assert proofreader_client.get(delete).status_code == 403


def test_editors_publish_and_see_only_what_moderating_groups_needs(editor_client, editor):
    assert editor.has_perm("rules.publish_rulesarticle")
    assert editor.has_perm("groups.change_playgroup")
    for name in ("member", "answer", "rsvp", "gamenight", "dateoption"):
        assert not editor.has_perm(f"groups.view_{name}"), name
        url = reverse(f"admin:groups_{name}_changelist") if name != "dateoption" else None
        if url:
            assert editor_client.get(url).status_code == 403


def test_report_links_to_its_block_and_the_preview_and_suggests_the_answer(
    editor_client, editor, content
):
    game = Game.objects.get(slug="alpaka")
    report = ErrorReport.objects.create(
        game=game,
        section_kind="ziel",
        section_label="Ziel des Spiels",
        message="Da steht ein Fehler im Ziel.",
        page_url="http://testserver/spiele/alpaka/#ziel",
        handled_by=editor,
    )
    url = reverse("admin:feedback_errorreport_change", args=[report.pk])
    html = editor_client.get(url).content.decode()
    goal = _section("alpaka", "ziel")
    edit = reverse("admin:rules_section_change", args=[goal.pk]) + f"?zur_meldung={report.pk}"
    assert f'href="{edit}"' in html
    assert f'href="/spiele/alpaka/?zur_meldung={report.pk}#ziel"' in html
    assert reverse("admin:auth_user_change", args=[editor.pk]) not in html  # no user page link
    after = editor_client.get(url, {"nach_veroeffentlichung": "1"}).content.decode()
    data = form_data(after, "errorreport_form")
    assert data["status"] == "korrigiert"
    assert "korrigiert" in data["public_answer"]
    assert editor_client.post(url + "?nach_veroeffentlichung=1", data).status_code == 302
    report.refresh_from_db()
    assert report.status == "korrigiert" and report.status_changed_at is not None


def test_report_states_look_different_in_the_list(editor_client, content):
    game = Game.objects.get(slug="alpaka")
    for status in ("neu", "zu-pruefen"):
        ErrorReport.objects.create(
            game=game, message=f"Meldung {status}", page_url="http://x/", status=status
        )
    html = editor_client.get(reverse("admin:feedback_errorreport_changelist")).content.decode()
    assert 'report-state--neu">eingegangen' in html
    assert 'report-state--zu-pruefen">zurückgehalten – Echtheit prüfen' in html


def test_card_formats_are_a_draft_too(editor_client, content):
    from sleeves.content_loader import load_all as load_sleeves
    from sleeves.models import CardFormat

    load_sleeves()
    card_format = CardFormat.objects.filter(game__slug="alpaka").first()
    assert card_format is not None
    url = reverse("admin:sleeves_cardformat_change", args=[card_format.pk])
    data = form_data(editor_client.get(url).content.decode(), "cardformat_form")
    data["count"] = str(card_format.count + 4)
    assert editor_client.post(url, data).status_code == 302
    card_format.refresh_from_db()
    old = card_format.count
    assert GameDraft.objects.get(game__slug="alpaka").card_formats == {
        str(card_format.pk): {"count": old + 4}
    }
    assert f'value="{old + 4}"' in editor_client.get(url).content.decode()
    article = RulesArticle.objects.get(game__slug="alpaka")
    editor_client.post(reverse("admin:rules_rulesarticle_publish", args=[article.pk]))
    card_format.refresh_from_db()
    assert card_format.count == old + 4


def test_editors_see_no_members_of_a_group(editor_client):
    from groups.models import Member, PlayGroup

    group = PlayGroup.objects.create(name="Kartenrunde Nord", slug="kartenrunde-nord")
    Member.objects.create(group=group, name="Geheime Gerda")
    html = editor_client.get(reverse("admin:groups_playgroup_change", args=[group.pk]))
    assert html.status_code == 200
    assert "Geheime Gerda" not in html.content.decode()


def test_a_deleted_block_comes_back_alone(editor_client, content):
    game = Game.objects.get(slug="alpaka")
    game.title = "Alpaka (geändert)"
    game.save()
    goal = _section("alpaka", "ziel")
    body = goal.body
    delete = reverse("admin:rules_section_delete", args=[goal.pk])
    assert editor_client.post(delete, {"post": "yes"}).status_code == 302
    version = Version.objects.get_deleted(Section).get(object_id=str(goal.pk))
    url = reverse("admin:rules_section_recover", args=[version.pk])
    page = editor_client.get(url).content.decode()
    assert "zurückholen" in page and "Hier willst du möglichst" in page
    assert editor_client.post(url).status_code == 302
    assert _section("alpaka", "ziel").body == body
    game.refresh_from_db()
    assert game.title == "Alpaka (geändert)"  # nothing else of that revision came back


def test_editors_can_still_hide_a_published_game_at_once(editor_client, content):
    game = Game.objects.get(slug="alpaka")
    url = reverse("admin:games_game_change", args=[game.pk])
    data = form_data(editor_client.get(url).content.decode(), "game_form")
    data.pop("is_published")
    assert editor_client.post(url, data).status_code == 302
    game.refresh_from_db()
    assert not game.is_published
    assert Client().get("/spiele/alpaka/").status_code == 404


def test_a_card_format_version_is_restored_as_a_draft(editor_client, content):
    from sleeves.content_loader import load_all as load_sleeves
    from sleeves.models import CardFormat

    load_sleeves()
    import reversion

    card_format = CardFormat.objects.filter(game__slug="alpaka").first()
    with reversion.create_revision():
        card_format.save()
    shipped = Version.objects.get_for_object(card_format).get()
    count = card_format.count
    CardFormat.objects.filter(pk=card_format.pk).update(count=count + 9)
    url = reverse("admin:sleeves_cardformat_revision", args=[card_format.pk, shipped.pk])
    page = editor_client.get(url).content.decode()
    assert f"<del>{count}</del>" in page and f"<ins>{count + 9}</ins>" in page
    assert editor_client.post(url).status_code == 302
    card_format.refresh_from_db()
    assert card_format.count == count + 9  # live until published
    assert GameDraft.objects.get(game__slug="alpaka").card_formats == {
        str(card_format.pk): {"count": count}
    }


def test_editions_are_a_draft_shown_again_in_the_form(editor_client, content):
    from games.models import Edition, Publisher

    game = Game.objects.get(slug="the-cat")
    publisher = Publisher.objects.create(name="Kleinverlag")
    live = list(game.editions.values_list("pk", "note"))
    url = reverse("admin:games_game_change", args=[game.pk])
    data = form_data(editor_client.get(url).content.decode(), "game_form")
    total = int(data["editions-TOTAL_FORMS"])
    data.update(
        {
            "editions-TOTAL_FORMS": str(total + 1),
            f"editions-{total}-publisher": str(publisher.pk),
            f"editions-{total}-year": "2031",
            f"editions-{total}-note": "Neuauflage",
            f"editions-{total}-position": str(total),
        }
    )
    assert editor_client.post(url, data).status_code == 302
    assert list(game.editions.values_list("pk", "note")) == live  # nothing live yet
    assert len(GameDraft.objects.get(game=game).editions) == total + 1
    preview = editor_client.get("/spiele/the-cat/").content.decode()
    assert "Neuauflage" in preview and "Ausgaben geändert" in preview
    assert "Neuauflage" not in Client().get("/spiele/the-cat/").content.decode()

    # The form shows the draft; saving it unchanged keeps the draft as it is.
    html = editor_client.get(url).content.decode()
    assert 'value="Neuauflage"' in html
    data = form_data(html, "game_form")
    assert data["editions-INITIAL_FORMS"] == "0"
    assert editor_client.post(url, data).status_code == 302
    rows = GameDraft.objects.get(game=game).editions
    assert len(rows) == total + 1 and {r["id"] for r in rows} >= {pk for pk, _ in live}

    article = RulesArticle.objects.get(game=game)
    editor_client.post(reverse("admin:rules_rulesarticle_publish", args=[article.pk]))
    notes = list(Edition.objects.filter(game=game).values_list("pk", "note"))
    assert set(live) <= set(notes) and len(notes) == total + 1
    assert "Neuauflage" in Client().get("/spiele/the-cat/").content.decode()
