"""Worked examples as step-throughs: the engine plays each checked example, the game
page shows its first step and every other step loads on demand (htmx fetches one step's
figure; without JavaScript the same link is a page of its own)."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import escape

from games.play import definition as registry
from games.play.steps import step_through
from rules.models import RulesArticle, WorkedExample

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
GAMES = (
    "kaetzchen-angeln",
    "alpaka",
    "the-cat",
    "katz-und-maus",
)  # the games whose examples step through
STEP = re.compile(r'<li class="ex-steps__step">')


def _examples(slug):
    return list(WorkedExample.objects.filter(article__game__slug=slug).order_by("position", "pk"))


def _url(slug, number, step=None):
    url = reverse("games:example_step", kwargs={"slug": slug, "number": number})
    return url if step is None else f"{url}?schritt={step}"


@pytest.mark.parametrize("slug", GAMES)
def test_every_checked_example_steps_through_what_the_engine_plays(content, slug):
    examples = _examples(slug)
    assert examples
    for example in examples:
        through = step_through(example.engine_check)
        assert through is not None, example.title
        assert through.count >= 2, example.title
        game = registry.get(example.engine_check["engine"])
        assert through.template == game.example_step_template
        for step in through.steps:
            assert step["title"].strip(), example.title
            # Presenters word events; no German comes from the engine's events.
            assert "text" not in step


def test_kaetzchen_steps_show_the_cards_the_engine_moves(content):
    """The won cards and the table left behind are the engine's, as the example expects."""
    for example in _examples("kaetzchen-angeln"):
        check, expect = example.engine_check, example.expect
        steps = step_through(check).steps
        if check["kind"] != "flip":
            assert expect["winner"] in ("you", "cat", None)
            assert "Zuglimit erreicht" in steps[-1]["title"]
            continue
        shown = [[card["code"] for card in row["cards"]] for s in steps for row in s["rows"]]
        if expect["won"]:
            assert expect["won"] in shown, example.title
            assert any(s["title"].startswith("Unter d") for s in steps)
        assert expect["table"] in shown, example.title


def test_kaetzchen_steps_name_who_flips_as_the_article_does(content):
    """„Du“ flips unless the check says ``by = "cat"`` – then „dein Gegenüber“ (not the
    demo's Kätzchen) flips and wins, and the verifier checks that same flip."""
    from games import example_checks

    example = WorkedExample.objects.get(
        article__game__slug="kaetzchen-angeln", title="Der nächste Bube nimmt den ersten mit"
    )
    assert example.engine_check["by"] == "cat"
    titles = [s["title"] for s in step_through(example.engine_check).steps]
    assert "Dein Gegenüber deckt Herz Bube auf." in titles
    assert "Bube räumt ab! Dein Gegenüber nimmt 4 Karten." in titles
    assert not any("Kätzchen" in title or "Du " in title for title in titles)
    last = {"engine": "kaetzchen", "kind": "flip", "table": ["8S"], "card": "2D",
            "last_card": True, "by": "cat"}  # fmt: skip
    assert step_through(last).steps[-1]["title"] == (
        "Der Stapel deines Gegenübers ist leer – du gewinnst!"
    )
    assert example_checks.verify(last)["game_over"] is True
    with pytest.raises(ValueError):
        example_checks.verify({**last, "by": "niemand"})


def test_alpaka_round_steps_are_one_per_move_then_round_end_and_scoring(content):
    for example in _examples("alpaka"):
        check = example.engine_check
        if check["kind"] != "round":
            continue
        titles = [s["title"] for s in step_through(check).steps]
        moves = len(check["moves"])
        assert len(titles) == 1 + moves + 2, example.title
        assert titles[-2].startswith("Runde vorbei:")
        assert titles[-1] == "Die Wertung:"


def test_a_wrong_engine_changes_the_steps(content, monkeypatch):
    """The steps are played, not written down: a different rule shows at once."""
    from games.engines import kaetzchen

    example = next(e for e in _examples("kaetzchen-angeln") if e.engine_check.get("kind") == "flip")
    before = step_through(example.engine_check).steps
    real = kaetzchen.resolve_flip
    monkeypatch.setattr(
        kaetzchen,
        "resolve_flip",
        lambda table, card: {**real([], card), "table": [*table, card], "kind": "stay"},
    )
    assert step_through(example.engine_check).steps != before


@pytest.mark.parametrize("slug", GAMES)
def test_the_game_page_holds_the_first_step_and_links_the_others(content, client, slug):
    html = client.get(f"/spiele/{slug}/").content.decode()
    examples = _examples(slug)
    assert len(STEP.findall(html)) == len(examples)  # one step per example, not all
    assert html.count('<figure class="ex-steps is-stepping"') == len(examples)
    for number, example in enumerate(examples, start=1):
        steps = step_through(example.engine_check).steps
        assert escape(steps[0]["title"]) in html
        assert f"Schritt 1 von {len(steps)}" in html
        # The next step loads on demand: htmx fetches it, without htmx the link is a page.
        assert f'href="{_url(slug, number, 2)}" hx-get="{_url(slug, number, 2)}"' in html
        assert f'id="beispiel-{number}-ansage" role="status" aria-live="polite"' in html
    # Later steps are not in the page (the page stays light).
    later = [step_through(e.engine_check).steps[-1]["title"] for e in examples]
    first = {step_through(e.engine_check).steps[0]["title"] for e in examples}
    assert any(escape(title) not in html for title in later if title not in first)


@pytest.mark.parametrize("slug", GAMES)
def test_every_step_is_a_cached_page_and_a_cached_partial(content, client, slug):
    """Steps on demand cost a click a cache hit: the step's page and its htmx figure are
    whole-page cached like the game page (public, no token), each under its own URL."""
    from django.test import Client

    url = _url(slug, 1, 2)
    for headers in ({}, HTMX):
        first = Client().get(url, **headers)
        again = Client().get(url, **headers)
        assert (first["X-Page-Cache"], again["X-Page-Cache"]) == ("miss", "hit")
        assert again.content == first.content
        assert again["Cache-Control"].startswith("public")
        assert "csrfmiddlewaretoken" not in first.content.decode()
    page, part = Client().get(url).content.decode(), Client().get(url, **HTMX).content.decode()
    assert "<h1" in page and "<h1" not in part


@pytest.mark.parametrize("slug", GAMES)
def test_the_htmx_partial_holds_exactly_the_step_asked_for(content, client, slug):
    examples = _examples(slug)
    for number in (1, len(examples)):
        through = step_through(examples[number - 1].engine_check)
        for step in range(1, through.count + 1):
            response = client.get(_url(slug, number, step), **HTMX)
            assert response.status_code == 200
            assert "HX-Request" in response["Vary"]
            html = response.content.decode()
            assert len(STEP.findall(html)) == 1
            assert f"Schritt {step}:</span> " in html
            assert f"Schritt {step} von {through.count}" in html
            assert f'<ol class="ex-steps__list" start="{step}">' in html
            # Only the example's figure and its announcement – no other page parts.
            assert html.lstrip().startswith(
                f'<figure class="ex-steps is-stepping" id="beispiel-{number}-schritte">'
            )
            for part in (
                "<html",
                "<head",
                "<body",
                "<header",
                "<main",
                "<footer",
                "<h1",
                "<h3",
                "example__body",
            ):
                assert part not in html, part
            announcement = f'<p id="beispiel-{number}-ansage" hx-swap-oob="innerHTML">'
            assert html.count(announcement) == 1
            assert f"Schritt {step} von {through.count}: " in html.split(announcement)[1]
            # Zurück/Weiter point at the neighbours; the last step offers „Von vorn“.
            if step > 1:
                assert f'hx-get="{_url(slug, number, step - 1)}"' in html
            else:
                assert (
                    'aria-disabled="true"><span aria-hidden="true">←</span> Zurück</button>' in html
                )
            following = step + 1 if step < through.count else 1
            assert f'hx-get="{_url(slug, number, following)}"' in html
            assert ("Von vorn" in html) == (step == through.count)


def test_without_htmx_a_step_is_a_page_of_its_own(content, client):
    example = _examples("alpaka")[0]  # the narrated round
    through = step_through(example.engine_check)
    response = client.get(_url("alpaka", 1, 2))
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1" in html and example.title in html
    assert len(STEP.findall(html)) == 1
    assert through.steps[1]["title"] in html
    assert 'class="ex-steps is-stepping"' in html  # the links show without scripting
    assert "hx-swap-oob" not in html
    assert 'href="/spiele/alpaka/#beispiel-1"' in html
    assert "play/alpaka/table.css" in html  # the game's own drawing styles


@pytest.mark.parametrize(
    "url",
    [
        "/spiele/alpaka/beispiel/1/?schritt=0",
        "/spiele/alpaka/beispiel/1/?schritt=99",
        "/spiele/alpaka/beispiel/1/?schritt=zwei",
        "/spiele/alpaka/beispiel/1/?schritt=-1",
        "/spiele/alpaka/beispiel/0/",
        "/spiele/alpaka/beispiel/99/",
        "/spiele/gibt-es-nicht/beispiel/1/",
    ],
)
def test_steps_and_examples_out_of_range_are_not_found(content, client, url):
    assert client.get(url, **HTMX).status_code == 404
    assert client.get(url).status_code == 404


def test_an_example_without_a_check_has_no_steps(content, client):
    article = RulesArticle.objects.get(game__slug="alpaka")
    snapshot = article.published_snapshot
    snapshot["examples"][0] = {**snapshot["examples"][0], "engine_check": None}
    article.save(update_fields=["published_snapshot"])
    assert client.get(_url("alpaka", 1)).status_code == 404
    assert client.get(_url("alpaka", 2)).status_code == 200


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_drawing_steps_costs_no_query_per_example(content, client):
    """The game page and a step cost the same number of queries for 1 or all examples."""
    url = "/spiele/alpaka/"
    client.get(url)  # the visitor cookie, statistics caches …
    everything = _queries(client, url)
    step = _queries(client, _url("alpaka", 1, 2))
    article = RulesArticle.objects.get(game__slug="alpaka")
    article.published_snapshot["examples"] = article.published_snapshot["examples"][0:1]
    article.save(update_fields=["published_snapshot"])
    one = client.get(url).content.decode()
    assert one.count('<figure class="ex-steps is-stepping"') == 1
    assert _queries(client, url) == everything
    assert _queries(client, _url("alpaka", 1, 2)) == step
    assert step <= 4, step
    print(f"queries: game page {everything}, one step {step}")


def test_every_katz_und_maus_step_renders_as_page_and_as_htmx_partial(content, client):
    """Each example of the article, each of its steps: a page of its own and the
    htmx figure, both with the step's sentence worded from the engine's events."""
    examples = _examples("katz-und-maus")
    assert len(examples) == 13
    for number, example in enumerate(examples, start=1):
        through = step_through(example.engine_check)
        assert through is not None, example.title
        for step, shown in enumerate(through.steps, start=1):
            title = escape(shown["title"])
            page = client.get(_url("katz-und-maus", number, step))
            assert page.status_code == 200, (example.title, step)
            assert title in page.content.decode() and "<h1" in page.content.decode()
            part = client.get(_url("katz-und-maus", number, step), **HTMX).content.decode()
            assert title in part and '<div class="km-ex">' in part and "<h1" not in part


def test_katz_und_maus_turn_steps_end_where_the_example_says(content):
    """The last step of a played turn draws the build piles the example expects."""
    from games.play.katz_und_maus.presenter import value_name

    for example in _examples("katz-und-maus"):
        check, expect = example.engine_check, example.expect
        if check["kind"] != "turn" or "build" not in expect:
            continue
        last = step_through(check).steps[-1]
        shown = [pile["text"] for pile in last["build"]]
        wanted = [f"zeigt {value_name(v)}" if v else "frei" for v in expect["build"]]
        for text, want, value in zip(shown, wanted, expect["build"], strict=True):
            assert text == want or (value and text.startswith("König als")), example.title
