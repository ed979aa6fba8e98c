"""The Cat's worked examples as step-throughs: every example of the article steps
through what the engine plays, each step renders as a page and as an htmx partial
with the mood faces, and no step shows a card the example leaves face down."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from games.engines import the_cat
from games.play.steps import step_through
from games.play.the_cat import examples, steps
from rules.models import WorkedExample

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
SLUG = "the-cat"
FACE = re.compile(r"moods\.svg#mood-([a-z]+)")
CARD_ID = re.compile(r"\b(" + "|".join(the_cat.MOOD_KEYS) + r")-[1-4]\b")


def _examples():
    return list(WorkedExample.objects.filter(article__game__slug=SLUG).order_by("position", "pk"))


def _url(number, step=None):
    url = reverse("games:example_step", kwargs={"slug": SLUG, "number": number})
    return url if step is None else f"{url}?schritt={step}"


def _figure(html: str) -> str:
    return html.split('class="ex-steps__draw"', 1)[1].split('class="ex-steps__nav"', 1)[0]


def _named_moods(check: dict) -> set[str]:
    """The moods the example lays down itself (named stacks and the middle)."""
    named = {mood for own in check["stacks"] for stack in own for mood in stack}
    return named | set(check.get("middle") or [])


def test_every_example_of_the_article_steps_through(content):
    found = _examples()
    assert len(found) == 9
    for example in found:
        through = step_through(example.engine_check)
        assert through is not None and through.count >= 3, example.title
        assert through.template == "play/the_cat/example_step.html"
        # Every example draws the mood faces in at least one step.
        assert any(s.get("middle") or s.get("moods") for s in through.steps), example.title


def test_each_step_renders_as_a_page_and_as_an_htmx_partial(content, client):
    for number, example in enumerate(_examples(), start=1):
        through = step_through(example.engine_check)
        faces_seen = 0
        for step in range(1, through.count + 1):
            page = client.get(_url(number, step))
            partial = client.get(_url(number, step), **HTMX)
            assert page.status_code == partial.status_code == 200, (example.title, step)
            page, partial = page.content.decode(), partial.content.decode()
            title = escape(through.steps[step - 1]["title"])
            assert "<h1" in page and title in page and "play/the_cat/table.css" in page
            assert "<html" not in partial and title in partial
            assert f"Schritt {step} von {through.count}" in partial
            faces_seen += len(FACE.findall(_figure(partial)))
        assert faces_seen, example.title


def test_the_game_page_shows_each_examples_first_step_and_loads_the_rest(content, client):
    html = client.get(f"/spiele/{SLUG}/").content.decode()
    for number, example in enumerate(_examples(), start=1):
        figure = html.split(f'id="beispiel-{number}-schritte"', 1)[1].split("</figure>", 1)[0]
        steps = step_through(example.engine_check).steps
        assert escape(steps[0]["title"]) in figure
        assert f'href="{_url(number, 2)}"' in figure  # step 2 on demand (and without JS)
        shown = [s for s in steps[1:] if escape(s["title"]) in figure]
        assert not shown or all(s["title"] == steps[0]["title"] for s in shown)
        if steps[0].get("middle") or steps[0].get("moods") or steps[0].get("players"):
            assert FACE.search(figure) or "cat-back" in figure, example.title


def test_no_step_shows_a_card_the_example_leaves_face_down(content, client):
    """Only the named stacks and the open middle are drawn face up; filled stacks are
    backs (at the reveal with the engine's verdict), and no card id reaches the page."""
    for number, example in enumerate(_examples(), start=1):
        check = example.engine_check
        through = step_through(check)
        for index, step in enumerate(through.steps, start=1):
            html = client.get(_url(number, index), **HTMX).content.decode()
            assert not CARD_ID.search(html), (example.title, index)
            if check["kind"] == "deal":
                # The moods taken out for two players are never named.
                assert not any(player["stacks"] for player in step.get("players", []))
                continue
            allowed = _named_moods(check) | {card["mood"] for card in step.get("middle", [])}
            for player in step.get("players", []):
                for stack in player["stacks"]:
                    assert {card["mood"] for card in stack["cards"]} <= allowed, example.title
            shown = {face for face in FACE.findall(_figure(html))}
            assert shown <= allowed, (example.title, index, shown - allowed)


def test_two_player_deal_shows_the_middle_and_backs_only(content):
    check = {"engine": "the_cat", "kind": "deal", "players": 2}
    titles = [s["title"] for s in steps.example_steps(check)]
    assert "Es bleiben 9 Launen, 36 Karten." in titles[1]
    last = steps.example_steps(check)[-1]
    assert len(last["middle"]) == 4
    assert [p["hidden"] for p in last["players"]] == [4, 4]
    # The moods taken out are never named (the first step shows all 13 faces alike).
    removed = the_cat.new_game(0, 2)["removed"]
    assert len(removed) == 4
    for step in steps.example_steps(check)[1:]:
        text = " ".join([step["title"], *step["lines"]])
        shown = {card["mood"] for card in step.get("middle", [])}
        assert not shown & set(removed)
        assert not any(the_cat.MOOD_NAMES[mood] in text for mood in removed)
    four = steps.example_steps({**check, "players": 4})
    assert "Zu viert spielen alle 52 Karten mit." in four[1]["title"]
    assert [p["hidden"] for p in four[-1]["players"]] == [3, 3, 3, 3]


def test_the_race_steps_show_the_refusal_and_nothing_lost(content):
    example = WorkedExample.objects.get(
        article__game__slug=SLUG, title="Zwei wollen dieselbe Karte"
    )
    through = step_through(example.engine_check)
    titles = [s["title"] for s in through.steps]
    assert titles[3] == "Lena tauscht „frech“ gegen „verliebt“ aus der Mitte."
    assert titles[4] == "Ole will „hungrig“ gegen „verliebt“ tauschen – abgelehnt."
    refusal = through.steps[4]
    assert "„Zu spät – die Karte hat gerade jemand genommen.“" in refusal["lines"]
    ole = refusal["players"][1]["stacks"][0]
    assert [card["mood"] for card in ole["cards"]] == ["verliebt", "traurig", "traurig", "hungrig"]
    # The swap step marks the middle slot that changed and the card Lena got.
    swap = through.steps[3]
    assert [card["changed"] for card in swap["middle"]] == [True, False, False, False]
    assert [c["new"] for c in swap["players"][0]["stacks"][0]["cards"]].count(True) == 1


def test_round_steps_end_with_the_reveal_and_the_scoring(content):
    for example in _examples():
        check = example.engine_check
        if check["kind"] != "round":
            continue
        through = step_through(check).steps
        assert through[-2]["title"].startswith("Runde 1 vorbei:"), example.title
        assert through[-1]["title"] == "Die Wertung:"
        verdict = examples.VERIFIERS["round"](check)
        for name, points in verdict["points"].items():
            assert any(
                line.startswith(f"{name}: ")
                and f"= {points} Punkt" in line
                or line.startswith(f"{name}: Stopp zu früh: 0 Punkte")
                for line in through[-1]["lines"]
            ), (example.title, name)
        revealed = [s for p in through[-2]["players"] for s in p["stacks"]]
        assert all(stack["finished"] is not None for stack in revealed)


def test_a_wrong_engine_changes_the_steps(content, monkeypatch):
    example = WorkedExample.objects.get(article__game__slug=SLUG, title="Zu früh gerufen")
    before = step_through(example.engine_check).steps
    monkeypatch.setattr("games.engines.the_cat.engine.caller_right", lambda *args: True)
    assert step_through(example.engine_check).steps != before


def test_the_game_page_draws_mood_faces_by_reference_to_one_sprite(content, client):
    """Every face is a <use> of a symbol in the one moods.svg sprite (fetched once, cached):
    no face is drawn inline, and the page holds only the first step of each example."""
    from pathlib import Path

    from django.contrib.staticfiles import finders

    html = client.get(f"/spiele/{SLUG}/").content.decode()
    faces = re.findall(r'<svg class="cat-face"[^>]*>(.*?)</svg>', html, re.S)
    assert faces
    for inner in faces:
        assert re.fullmatch(
            r'<use href="/static/play/the_cat/moods(\.[0-9a-f]+)?\.svg#mood-[a-z]+"></use>', inner
        ), inner
    assert "<symbol" not in html and "<path" not in html.split("</header>", 1)[1]
    # The first steps only: all steps of all examples drew 574 faces.
    firsts = sum(
        len(re.findall(r'class="cat-face"', _figure_of_first_step(example)))
        for example in _examples()
    )
    assert len(faces) == firsts < 250
    sprite = Path(finders.find("play/the_cat/moods.svg")).read_text()
    for mood in the_cat.MOOD_KEYS:
        assert f'<symbol id="mood-{mood}"' in sprite


def _figure_of_first_step(example) -> str:
    from django.template.loader import render_to_string

    through = step_through(example.engine_check)
    return render_to_string(through.template, {"step": through.steps[0]})
