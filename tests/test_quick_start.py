"""„So geht's in 2 Minuten“ at the top of a game page and the long sections as <details>
(issue 27, item 6); the browser side is tests/browser/test_game_page_fold_browser.py."""

import re

import pytest

from rules.models import Section
from rules.publishing import build_snapshot, publish
from tests.factories import make_article, make_game

pytestmark = pytest.mark.django_db

SLUGS = ["alpaka", "kaetzchen-angeln", "katz-und-maus", "the-cat"]


def quick_box(html: str) -> str:
    match = re.search(r'<section class="quick" id="so-gehts".*?</section>', html, re.S)
    assert match, "no „So geht's“ box"
    return match.group(0)


@pytest.mark.parametrize("slug", SLUGS)
def test_every_shipped_game_starts_with_goal_turn_and_end(client, content, slug):
    html = client.get(f"/spiele/{slug}/").content.decode()
    box = quick_box(html)
    assert "So geht’s in 2 Minuten" in box
    assert re.findall(r'class="quick__label">([^<]+)<', box) == ["Das Ziel", "Dein Zug", "Das Ende"]
    for anchor in ("ziel", "ablauf", "spielende"):
        assert f'href="#{anchor}"' in box
    assert 'href="#demo"' in box
    # Before the table of contents, the demo and the rules.
    assert html.index('id="so-gehts"') < html.index('class="toc"') < html.index('id="demo"')
    # The turn box is the one „Ablauf“ shows above its text.
    ablauf = html[html.index('id="ablauf"') :]
    turn = re.search(
        r'class="quick__part quick__part--ablauf">.*?</h3>(.*?)<p class="quick__more"', box, re.S
    )
    assert turn.group(1).strip()[:60] in ablauf


@pytest.mark.parametrize("slug", SLUGS)
def test_long_sections_are_details_and_the_rules_are_not(client, content, slug):
    html = client.get(f"/spiele/{slug}/").content.decode()
    folded = re.findall(r'<section class="rules-section[^"]*\bfold\b[^"]*" id="([^"]+)"', html)
    assert {"beispiel", "irrtuemer", "haeufige-fragen", "statistik", "quellen"} <= set(folded)
    assert not {"ziel", "material", "aufbau", "ablauf", "spielende"} & set(folded)
    # Closed in the HTML (js/fold.js opens them on wide screens); the heading keeps its id.
    assert html.count('<details class="fold__details" data-fold>') == len(folded)
    assert '<details class="fold__details" data-fold open' not in html
    for anchor in folded:
        assert f'<summary class="fold__summary"><h2 id="{anchor}-titel">' in html
    assert "js/fold" in html


def test_parts_without_text_are_left_out(client):
    game = make_game("ohne-kurz", title="Ohne Kurz")
    article = make_article(game, published=False, sections=("ziel", "ablauf", "spielende"))
    article.sections.filter(kind="ziel").update(gist="Als Erster **fertig** sein.")
    publish(article)
    box = quick_box(client.get(game.get_absolute_url()).content.decode())
    # No turn summary and no gist of the end: only the goal.
    assert re.findall(r'class="quick__label">([^<]+)<', box) == ["Das Ziel"]
    assert "Als Erster <strong>fertig</strong> sein." in box


def test_the_gist_is_published_and_loaded_like_the_other_section_fields(content):
    from games.models import Game

    article = Game.objects.get(slug="the-cat").article
    goal = article.sections.get(kind=Section.Kind.GOAL)
    assert "Stopp!" in goal.gist
    assert article.published_snapshot == build_snapshot(article)
    shipped = [s for s in article.published_snapshot["sections"] if s["kind"] == "ziel"]
    assert shipped[0]["gist"] == goal.gist
    # A section without one keeps the snapshot's old shape (older snapshots stay equal).
    assert (
        "gist"
        not in [s for s in article.published_snapshot["sections"] if s["kind"] == "material"][0]
    )
