"""Sources and glossary (rules as written) in the editors' workbench: edited in the
article's form, named before publishing, published in the one step, restored with the
article, tracked as shipped blocks; citations and „Bearbeiten“ links side by side."""

import shutil

import pytest
from django.test import Client
from django.urls import reverse
from reversion.models import Version

from editorial.models import ShippedItem
from editorial.publish import pending, publish_page
from games.models import Game
from rules.content_loader import CONTENT_DIR, load_all
from rules.models import GlossaryEntry, RulesArticle, Section, Source
from rules.publishing import PARTS, has_unpublished_changes
from tests.feedback.formdata import form_data

pytestmark = pytest.mark.django_db


def _article(slug="alpaka"):
    return RulesArticle.objects.prefetch_related(*PARTS).get(game__slug=slug)


def test_the_article_form_saved_from_the_browser_unchanged_is_no_change(editor_client, content):
    article = _article()
    source = article.sources.first()
    source.covers += "\n\nZweiter Absatz."  # more than one line
    source.save()
    publish_page(article.game)
    url = reverse("admin:rules_rulesarticle_change", args=[article.pk])
    html = editor_client.get(url).content.decode()
    assert 'name="sources-0-key"' in html and 'name="glossary-0-term"' in html
    assert "Bearbeiten" in html and "Block hinzufügen" in html  # the blocks stay a list
    data = form_data(html, "rulesarticle_form")
    # Browsers send textareas with CRLF line ends.
    data = {k: v.replace("\n", "\r\n") if isinstance(v, str) else v for k, v in data.items()}
    response = editor_client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert not has_unpublished_changes(_article())


def test_a_changed_source_and_glossary_are_named_and_go_online_in_one_step(editor_client, content):
    game = Game.objects.get(slug="alpaka")
    source = Source.objects.get(article__game=game, key="spielregel")
    source.label = "Regelblatt"
    source.save()
    entry = GlossaryEntry.objects.filter(article__game=game).first()
    entry.other_names += ", Schlusswort"
    entry.save()
    lines = pending(game).lines
    assert "Quelle „spielregel“ geändert" in lines
    assert f"Begriff „{entry.term}“ geändert" in lines
    assert "Regelblatt" not in Client().get("/spiele/alpaka/").content.decode()
    assert "Schlusswort" not in _article().search_terms

    article = _article()
    publish = reverse("admin:rules_rulesarticle_publish", args=[article.pk])
    response = editor_client.post(publish, follow=True)
    assert "Quelle „spielregel“ geändert" in response.content.decode()
    page = Client().get("/spiele/alpaka/").content.decode()
    assert "Regelblatt" in page and 'href="#quelle-spielregel"' in page
    article = _article()
    assert not has_unpublished_changes(article)
    assert "Schlusswort" in article.search_terms
    assert article.published_snapshot["sources"][0]["label"] == "Regelblatt"


def test_restoring_an_article_brings_back_its_sources_and_glossary(editor_client, content):
    article = _article()
    sources = list(article.sources.values("key", "label", "covers"))
    terms = list(article.glossary.values_list("term", flat=True))
    Source.objects.filter(article=article, key="spielregel").update(label="Falsch")
    article.glossary.first().delete()
    GlossaryEntry.objects.create(article=article, term="Neu", body="Nur ein Versuch.")

    shipped = Version.objects.get_for_object(article).last()
    url = reverse("admin:rules_rulesarticle_revision", args=[article.pk, shipped.pk])
    page = editor_client.get(url).content.decode()
    assert "Quelle „spielregel“: Kurzname" in page and "Begriff „Neu“: Begriff" in page
    assert editor_client.post(url).status_code == 302

    article = _article()
    assert list(article.sources.values("key", "label", "covers")) == sources
    assert list(article.glossary.values_list("term", flat=True)) == terms


def test_a_newer_shipped_source_is_reported_and_adopted_as_a_draft(editor_client, tmp_path):
    directory = tmp_path / "content"
    shutil.copytree(CONTENT_DIR, directory)
    load_all(directory)
    path = directory / "alpaka.toml"
    text = path.read_text()
    assert 'label = "Spielregel"' in text
    path.write_text(text.replace('label = "Spielregel"', 'label = "Spielregel (neu)"', 1))
    assert load_all(directory).newer == ["alpaka: Quelle „spielregel“"]

    record = ShippedItem.objects.exclude(pending_hash="").get()
    url = reverse("admin:editorial_shippeditem_change", args=[record.pk])
    assert "(neu)</ins>" in editor_client.get(url).content.decode()
    assert editor_client.post(url, {"_adopt": "1"}).status_code == 302
    assert Source.objects.get(article__game__slug="alpaka", key="spielregel").label == (
        "Spielregel (neu)"
    )
    assert "Spielregel (neu)" not in Client().get("/spiele/alpaka/").content.decode()
    assert load_all(directory).newer == []


def test_staff_see_citations_and_edit_links_side_by_side(editor_client, content):
    page = editor_client.get("/spiele/katz-und-maus/").content.decode()
    assert 'class="edit-link"' in page and "#quelle-" in page
    assert 'id="irrtum-1"' in page and 'id="quellen"' in page
    reader = Client().get("/spiele/katz-und-maus/").content.decode()
    assert "edit-link" not in reader and "#quelle-" in reader


def test_the_kurzregel_has_an_edit_link_for_staff_only(editor_client, content):
    short = Section.objects.get(article__game__slug="alpaka", kind="kurzregel")
    url = reverse("admin:rules_section_change", args=[short.pk])
    assert f'href="{url}"' in editor_client.get("/spiele/alpaka/kurzregel/").content.decode()
    reader = Client().get("/spiele/alpaka/kurzregel/").content.decode()
    assert "edit-link" not in reader and url not in reader


def test_proofreaders_edit_sources_and_glossary_too(django_user_model, content):
    from django.contrib.auth.models import Group

    from games.editors import PROOFREADERS_GROUP, ensure_editors_group

    ensure_editors_group()
    user = django_user_model.objects.create_user("lektor", password="geheim-123", is_staff=True)
    user.groups.add(Group.objects.get(name=PROOFREADERS_GROUP))
    client = Client()
    client.force_login(user)
    article = _article()
    url = reverse("admin:rules_rulesarticle_change", args=[article.pk])
    html = client.get(url).content.decode()
    assert 'name="sources-0-label"' in html and 'name="glossary-0-body"' in html
    data = form_data(html, "rulesarticle_form")
    data["sources-0-label"] = "Regelblatt"
    assert client.post(url, data).status_code == 302
    assert _article().sources.first().label == "Regelblatt"
    assert "Regelblatt" not in Client().get("/spiele/alpaka/").content.decode()  # a draft
