"""The shipped initial content: complete, loadable, and never overwriting editors' work."""

import pytest

from games.models import Game
from rules.content_loader import content_files, load_all, read_content
from rules.models import Section

pytestmark = pytest.mark.django_db

SLUGS = {"kaetzchen-angeln", "alpaka", "katz-und-maus", "the-cat"}
REQUIRED_KINDS = {"ziel", "aufbau", "ablauf", "spielende", "beispiel", "irrtuemer", "varianten"}


def test_content_files_cover_the_four_seed_games():
    assert {read_content(path)["game"]["slug"] for path in content_files()} == SLUGS


def test_loading_creates_published_games_with_complete_articles(content):
    assert set(content.created) == SLUGS
    for game in Game.objects.all():
        assert game.is_published
        article = game.article
        assert article.is_published and article.published_at
        kinds = set(article.sections.values_list("kind", flat=True))
        assert kinds >= REQUIRED_KINDS, (game.slug, REQUIRED_KINDS - kinds)
        assert kinds <= set(Section.Kind.values)
        assert article.examples.count() >= 1, game.slug
        assert article.mistakes.count() >= 3, game.slug
        assert len(game.short_description) <= 160


def test_metadata_from_the_seeds(content):
    cat = Game.objects.get(slug="the-cat")
    assert (cat.players_min, cat.players_max, cat.min_age, cat.duration_minutes, cat.year) == (
        2,
        4,
        8,
        20,
        2018,
    )
    assert cat.get_complexity_display() == "Einsteiger"
    assert cat.article_number == "01807"
    assert [p.name for p in cat.publishers.all()] == ["AMIGO"]
    assert sorted(p.name for p in cat.authors.all()) == ["Brad Ross", "Don Ullman", "Jack Ullman"]
    assert [p.name for p in cat.illustrators.all()] == ["Raimund Frey"]
    # What we read is the description of the rulebook, not the rulebook itself.
    assert cat.article.rulebook_read_on is None
    sources = {s.key: s for s in cat.article.sources.all()}
    assert sources["regelbeschreibung"].read_on.isoformat() == "2026-12-02"
    assert sources["amigo-spielregel"].read_on is None
    assert cat.card_count == 52

    mouse = Game.objects.get(slug="katz-und-maus")
    assert (mouse.players_min, mouse.players_max, mouse.min_age, mouse.duration_minutes) == (
        2,
        6,
        8,
        30,
    )
    assert mouse.card_count == 104
    alpaka = Game.objects.get(slug="alpaka")
    assert (alpaka.players_min, alpaka.players_max, alpaka.min_age, alpaka.duration_minutes) == (
        2,
        6,
        8,
        20,
    )
    assert alpaka.card_count == 56 and alpaka.demo_engine == "alpaka"
    kitten = Game.objects.get(slug="kaetzchen-angeln")
    assert (kitten.players_min, kitten.players_max) == (2, 2)
    assert "小猫钓鱼" in kitten.original_title
    assert kitten.demo_engine == "kaetzchen" and kitten.card_count == 52


def test_reloading_never_overwrites_editors_changes(content):
    game = Game.objects.get(slug="the-cat")
    game.title = "The Cat (redigiert)"
    game.save()
    section = game.article.sections.get(kind="ziel")
    section.body = "Von der Redaktion geändert."
    section.save()

    report = load_all()

    assert report.created == [] and set(report.skipped) == SLUGS
    game.refresh_from_db()
    assert game.title == "The Cat (redigiert)"
    assert game.article.sections.get(kind="ziel").body == "Von der Redaktion geändert."


def test_a_deleted_game_comes_back_on_reload(content):
    Game.objects.filter(slug="alpaka").delete()
    assert load_all().created == ["alpaka"]


@pytest.mark.parametrize("slug", sorted(SLUGS))
def test_texts_use_german_typography(slug):
    data = next(read_content(p) for p in content_files() if read_content(p)["game"]["slug"] == slug)
    texts = [data["game"]["short_description"], data["game"].get("lead", "")]
    for part in ("sections", "examples", "mistakes"):
        texts += [item.get("body", "") for item in data.get(part, [])]
        texts += [item.get("title", "") for item in data.get(part, [])]
    for text in texts:
        assert '"' not in text, f"straight quotes instead of „…“ in {slug}: {text[:80]}"
        assert "<" not in text, f"raw HTML in {slug}: {text[:80]}"


@pytest.mark.parametrize("slug", sorted(SLUGS))
def test_every_game_page_renders_the_whole_article(client, content, slug):
    game = Game.objects.get(slug=slug)
    html = client.get(game.get_absolute_url()).content.decode()
    for section in game.article.sections.exclude(kind__in=["auf-einen-blick", "kurzregel"]):
        assert f'id="{section.kind}"' in html
    for example in game.article.examples.all():
        assert example.title in html.replace("&#x27;", "'").replace("&quot;", '"')
