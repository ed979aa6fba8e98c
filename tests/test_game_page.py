import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from rules.models import RulesArticle, Section
from rules.publishing import publish
from tests.factories import add_people, make_article, make_game

pytestmark = pytest.mark.django_db


def json_ld_blocks(html):
    blocks = re.findall(r'<script type="application/ld\+json"[^>]*>(.*?)</script>', html, re.S)
    return [json.loads(block) for block in blocks]


@pytest.fixture
def game():
    game = make_game("the-test", title="The Test", article_number="01807", year=2018, card_count=52)
    add_people(
        game,
        authors=("Brad Ross", "Don Ullman"),
        illustrators=("Raimund Frey",),
        publishers=("AMIGO",),
    )
    make_article(game)
    return game


def test_game_page_shows_metadata_sections_examples_and_mistakes(client, game):
    response = client.get(game.get_absolute_url())
    html = response.content.decode()
    assert response.status_code == 200
    for text in (
        "Auf einen Blick",
        "2–4 Personen",
        "ab 8 Jahren",
        "etwa 20 Minuten",
        "Einsteiger",
        "AMIGO",
        "Brad Ross, Don Ullman",
        "Raimund Frey",
        "01807",
        "Ziel des Spiels",
        "Ein Beispiel",
        "Ein Irrtum",
        "Zuletzt aktualisiert",
        "S. 1",
    ):
        assert text in html, text
    # Sections appear in their stored order.
    assert html.index('id="ziel"') < html.index('id="ablauf"') < html.index('id="beispiel"')
    assert "<title>The Test – Spielregeln" in html
    assert '<link rel="canonical" href="http://testserver/spiele/the-test/">' in html
    assert 'property="og:title"' in html


def test_json_ld_is_valid_schema_org_game(client, game):
    blocks = json_ld_blocks(client.get(game.get_absolute_url()).content.decode())
    by_type = {block["@type"]: block for block in blocks}
    data = by_type["Game"]
    assert data["numberOfPlayers"] == {"@type": "QuantitativeValue", "minValue": 2, "maxValue": 4}
    assert data["typicalAgeRange"] == "8-"
    assert data["timeRequired"] == "PT20M"
    assert data["identifier"] == "01807"
    assert data["inLanguage"] == "de"
    assert [a["name"] for a in data["author"]] == ["Brad Ross", "Don Ullman"]
    assert data["contributor"] == [{"@type": "Person", "name": "Raimund Frey"}]
    assert data["publisher"] == [{"@type": "Organization", "name": "AMIGO"}]
    assert "aggregateRating" not in data
    crumbs = by_type["BreadcrumbList"]["itemListElement"]
    assert [c["position"] for c in crumbs] == [1, 2]
    assert crumbs[1]["item"] == "http://testserver/spiele/the-test/"


def test_json_ld_cannot_be_broken_out_of(client, game):
    game.short_description = "</script><script>alert(1)</script>"
    game.save()
    html = client.get(game.get_absolute_url()).content.decode()
    assert "<script>alert(1)" not in html
    assert json_ld_blocks(html)[0]["description"] == "</script><script>alert(1)</script>"


def test_unpublished_game_is_404_for_public_and_preview_for_staff(editor):
    client, editor_client = Client(), Client()
    editor_client.force_login(editor)
    draft = make_game("entwurf", published=False)
    make_article(draft, published=False)
    assert client.get(draft.get_absolute_url()).status_code == 404
    response = editor_client.get(draft.get_absolute_url())
    assert response.status_code == 200
    assert "Vorschau" in response.content.decode()


def test_draft_article_hidden_from_public(editor):
    client, editor_client = Client(), Client()
    editor_client.force_login(editor)
    game = make_game("halbfertig")
    make_article(game, published=False)
    public = client.get(game.get_absolute_url()).content.decode()
    assert "schreiben wir gerade" in public
    assert "Text zu <strong>ziel</strong>" not in public
    staff = editor_client.get(game.get_absolute_url()).content.decode()
    assert "Text zu <strong>ziel</strong>" in staff and "Vorschau" in staff


def test_section_html_is_sanitised_on_the_page(client, game):
    section = Section.objects.get(article__game=game, kind="ziel")
    section.body = 'Gut <script>alert("x")</script><b onmouseover="alert(1)">fett</b>'
    section.save()
    publish(section.article)  # readers see published text only
    html = client.get(game.get_absolute_url()).content.decode()
    assert 'alert("x")' not in html and "onmouseover" not in html
    assert "<b>fett</b>" in html


def test_game_page_query_count_is_fixed(client, game, django_assert_num_queries):
    # Session/auth are not touched by an anonymous visitor: game (the article joined,
    # its snapshot hashed by the database, games/views.py) + the votes' average and
    # count + 3 m2m + the snapshot (read once a part shows it) + card formats (sleeves
    # box; a game with formats adds settings + products, see tests/sleeves/test_views.py)
    # + „Ähnlich wie“ (picks and suggestions in one query, games/similar.py). Nothing
    # kept yet (first request).
    with django_assert_num_queries(8):
        client.get(game.get_absolute_url())
    # More sections, people and editions must not add queries (no N+1). The new people
    # and publishers make „Ähnlich wie“ and the sleeve box drawn again; the article's
    # parts (unchanged snapshot, tests/test_page_parts.py) and the votes' numbers (no
    # vote changed) are kept.
    add_people(game, authors=("A", "B", "C", "D"), illustrators=("E", "F"), publishers=("G", "H"))
    article = RulesArticle.objects.get(game=game)
    for position, kind in enumerate(["material", "aufbau", "spielende", "varianten"], start=10):
        Section.objects.create(article=article, kind=kind, body="mehr", position=position)
    with django_assert_num_queries(7):
        client.get(game.get_absolute_url())
    # An editor's change to another game's article makes the stored page a miss, but the
    # whole article area is kept: only the game's row is read.
    other = make_article(make_game("anderes-spiel"))
    client.get(game.get_absolute_url())  # a new game is one more candidate for „Ähnlich wie“
    other.rulebook_title = "Neue Fassung"
    other.save()
    with django_assert_num_queries(1):
        response = client.get(game.get_absolute_url())
    assert response["X-Page-Cache"] == "miss"
    html = response.content.decode()
    assert game.title in html and 'id="fehler-melden"' in html


def test_unknown_game_gives_german_404(client, db):
    response = client.get("/spiele/gibt-es-nicht/")
    assert response.status_code == 404
    assert "Diese Seite gibt es nicht" in response.content.decode()


def test_demo_page_404_without_demo(client, game):
    assert client.get(reverse("games:demo", args=[game.slug])).status_code == 404


def test_print_stylesheet_hides_navigation_and_demo():
    from pathlib import Path

    css = (Path(__file__).resolve().parent.parent / "static/css/site.css").read_text()
    print_block = css[css.index("@media print") :]
    for selector in (".site-header", ".demo-slot", ".breadcrumbs", ".toc"):
        assert selector in print_block
    assert "size: A4" in css


def test_the_demo_is_drawn_when_it_comes_into_view_and_its_link_works_without_js(client):
    """The page is cached for everyone; the reader's own table is a fragment loaded once its
    slot is in view (a table drawn at once blocked a phone's first second), and without
    JavaScript the placeholder links the full-screen demo."""
    game = make_game("alpaka", title="Alpaka", demo_engine="alpaka")
    make_article(game)
    html = client.get(game.get_absolute_url()).content.decode()
    slot = html[html.index('id="demo"') :]
    slot = slot[: slot.index("</section>")]
    fragment = re.search(r'<div class="fragment" hx-get="([^"]+)" hx-trigger="([^"]+)"', slot)
    assert fragment is not None
    assert fragment.group(2) == "intersect once"
    assert f'href="{game.get_demo_url()}"' in slot
    # The other fragments of the page (own stars, …) still load at once.
    assert 'hx-trigger="load"' in html.replace(fragment.group(0), "")
