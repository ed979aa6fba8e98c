"""Rendered parts of a game page kept across page-cache misses (games/templatetags/page_parts,
site_config/content_versions): an edit shows at once, other games' parts stay warm, and a
miss with warm parts costs few queries."""

from decimal import Decimal

import pytest
from django.test import Client

import games.views
import rules.templatetags.rules_markup as rules_markup
from feedback.models import Vote
from rules.models import Section
from rules.publishing import publish
from site_config import content_versions, page_cache
from site_config.lru import SizedLRU
from sleeves.models import CardFormat, CardSize
from tests.factories import add_people, make_article, make_game

pytestmark = pytest.mark.django_db


def _publish_section(game, kind: str, body: str) -> None:
    section = Section.objects.get(article__game=game, kind=kind)
    section.body = body
    section.save()
    publish(section.article)


@pytest.fixture
def two_games():
    first = make_game("erstes-teilspiel", title="Erstes Teilspiel")
    second = make_game("zweites-teilspiel", title="Zweites Teilspiel")
    for game in (first, second):
        add_people(game)
        make_article(game)
    _publish_section(second, "ablauf", "Ablauf nur im **zweiten** Spiel.")
    return first, second


@pytest.fixture
def markdown_sources(monkeypatch):
    """The texts the page renders from Markdown in this request (not taken from a part)."""
    seen: list[str] = []
    real = rules_markup.render_markdown

    def recording(text):
        seen.append(text)
        return real(text)

    monkeypatch.setattr(rules_markup, "render_markdown", recording)
    return seen


def html(url: str, client=None) -> str:
    response = (client or Client()).get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def test_a_published_section_edit_shows_and_other_games_keep_their_parts(
    two_games, markdown_sources
):
    first, second = two_games
    for game in two_games:
        html(game.get_absolute_url())  # both pages and their parts drawn once

    _publish_section(first, "ablauf", "Neuer **Ablauf** im ersten Spiel.")

    assert "Neuer <strong>Ablauf</strong> im ersten Spiel." in html(first.get_absolute_url())
    assert "Neuer **Ablauf** im ersten Spiel." in markdown_sources  # drawn again
    markdown_sources.clear()
    # The second game's page is a page-cache miss too (the generation went up) …
    response = Client().get(second.get_absolute_url())
    assert response[page_cache.HIT_HEADER] == "miss"
    assert "Ablauf nur im <strong>zweiten</strong> Spiel." in response.content.decode()
    # … but its sections come from the kept parts, not from Markdown again.
    assert "Ablauf nur im **zweiten** Spiel." not in markdown_sources


def test_a_snapshot_changed_without_a_new_version_shows(two_games):
    first, _second = two_games
    html(first.get_absolute_url())
    article = first.article
    snapshot = article.published_snapshot
    for section in snapshot["sections"]:
        if section["kind"] == "ziel":
            section["body"] = "Korrigiertes Ziel."
    article.published_snapshot = snapshot
    article.save(update_fields=["published_snapshot"])
    assert "Korrigiertes Ziel." in html(first.get_absolute_url())


def test_staff_see_their_working_copy_not_the_kept_public_part(two_games, editor_client):
    first, _second = two_games
    html(first.get_absolute_url())  # the public part is kept
    section = Section.objects.get(article__game=first, kind="ziel")
    section.body = "Entwurf der Redaktion."
    section.save()
    assert "Entwurf der Redaktion." in html(first.get_absolute_url(), editor_client)
    assert "Entwurf der Redaktion." not in html(first.get_absolute_url())


def test_the_sleeve_box_stays_kept_until_the_sleeve_data_changes(two_games, monkeypatch):
    first, _second = two_games
    size = CardSize.objects.create(name="Testformat", width_mm=Decimal(63), height_mm=Decimal(88))
    CardFormat.objects.create(game=first, label="Karten im Kasten", count=55, size=size)
    calls = []
    real = games.views.box_for

    def counting(game):
        calls.append(game.pk)
        return real(game)

    monkeypatch.setattr(games.views, "box_for", counting)
    assert "Karten im Kasten" in html(first.get_absolute_url())
    assert calls == [first.pk]

    Vote.objects.create(game=first, visitor="jemand", stars=4)  # a new page, same sleeves
    assert "Karten im Kasten" in html(first.get_absolute_url())
    assert calls == [first.pk]

    card_format = CardFormat.objects.get(game=first)
    card_format.label = "Umbenannte Karten"
    card_format.save()
    page = html(first.get_absolute_url())
    assert "Umbenannte Karten" in page and "Karten im Kasten" not in page
    assert calls == [first.pk, first.pk]


def test_a_game_page_miss_with_kept_parts_needs_one_query(
    two_games, django_assert_num_queries, markdown_sources
):
    first, _second = two_games
    url = first.get_absolute_url()
    html(url)
    markdown_sources.clear()
    page_cache._bump()  # as after an editor's change elsewhere
    # The game's row with its article's identity: the whole article area is kept.
    with django_assert_num_queries(1):
        response = Client().get(url)
    assert response[page_cache.HIT_HEADER] == "miss"
    assert markdown_sources == []
    assert "Erstes Teilspiel" in response.content.decode()


@pytest.mark.parametrize(
    "url", ["/", "/?spieler=3&q=Teil", "/sleeve-finder/?spiele=erstes-teilspiel"]
)
def test_catalogue_and_finder_misses_are_drawn_from_kept_parts(
    two_games, url, django_assert_num_queries
):
    first_page = html(url)
    page_cache._bump()
    with django_assert_num_queries(0):
        response = Client().get(url)
    assert response[page_cache.HIT_HEADER] == "miss"
    assert response.content.decode() == first_page


def test_kept_catalogue_and_finder_follow_what_they_show(two_games):
    first, _second = two_games
    finder = f"/sleeve-finder/?spiele={first.slug}"
    for url in ("/", "/?spieler=3", finder):
        html(url)
    first.title = "Umbenanntes Teilspiel"
    first.save()
    for url in ("/", "/?spieler=3", finder):
        assert "Umbenanntes Teilspiel" in html(url), url
    Vote.objects.create(game=first, visitor="v1", stars=5)
    assert "1 Stimme" in html("/")
    size = CardSize.objects.create(name="Finderformat", width_mm=Decimal(61), height_mm=Decimal(99))
    CardFormat.objects.create(game=first, label="Finderkarten", count=33, size=size)
    assert "61 × 99 mm" in html(finder)


def test_people_and_their_structured_data_follow_an_edit_and_a_vote(two_games):
    first, _second = two_games
    url = first.get_absolute_url()
    author = first.authors.first()
    assert author.name in html(url)
    author.name = "Neu Benannte Autorin"
    author.save()
    page = html(url)
    # The facts box and the JSON-LD both show the new name (their parts read people).
    assert page.count("Neu Benannte Autorin") == 2
    Vote.objects.create(game=first, visitor="v1", stars=4)
    assert '"ratingCount": 1' in html(url)


def test_parts_are_kept_unpickled_within_a_budget():
    store = SizedLRU(300, size=content_versions.kept_size, max_entries=3)
    part = "x" * 150
    store.put("a", part)
    store.put("b", "y" * 150)
    assert store.get("a") is part  # the same object: nothing pickled on the way
    store.put("c", "z")  # 301 characters: the least recently used one ("b") goes
    assert store.get("b") is None and store.get("a") is part and store.get("c") == "z"
    store.put("d", {"vote_count": 1})  # counts as 100
    store.put("e", {"vote_count": 2})  # over the budget again: the oldest ("a") goes
    assert store.get("a") is None and list(store.entries) == ["c", "d", "e"]
