"""The simulated figures: the command stores them, the article shows them from data."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.engines import kaetzchen as engine
from games.models import EngineStatistics
from games.play.kaetzchen import statistics as kaetzchen_statistics

pytestmark = pytest.mark.django_db

DEALS = 300  # small, so the tests stay fast; `make run` stores 20 000


def simulate(*args, **options):
    out = StringIO()
    call_command("simulate_kaetzchen", *args, stdout=out, **options)
    return out.getvalue()


def test_command_stores_the_engine_figures():
    output = simulate(deals=DEALS, seed=3)
    stats = EngineStatistics.objects.get(engine="kaetzchen")
    assert stats.deals == DEALS and stats.seed == 3
    figures = dict(stats.figures)
    extra = figures.pop("extra_turn_rule")
    assert figures.pop("format") == kaetzchen_statistics.FORMAT
    assert figures == engine.simulate(DEALS, seed=3)
    # The same deals with the house rule „wer gewinnt, deckt noch einmal auf“.
    with_extra_turn = engine.simulate(DEALS, seed=3, extra_turn=True)
    assert extra["median_moves"] == with_extra_turn["median_moves"]
    assert extra["share_limit"] == with_extra_turn["share_limit"]
    assert "Statistik gespeichert: 300 Partien" in output


def test_if_missing_keeps_stored_figures_and_plain_runs_recompute():
    simulate(deals=DEALS)
    first = EngineStatistics.objects.get()
    output = simulate("--if-missing", deals=DEALS + 1)
    assert "nichts zu tun" in output
    assert EngineStatistics.objects.get().computed_at == first.computed_at
    simulate(deals=DEALS + 1)
    assert EngineStatistics.objects.get().deals == DEALS + 1
    assert EngineStatistics.objects.count() == 1


def test_command_rejects_zero_deals():
    with pytest.raises(CommandError):
        simulate(deals=0)


def test_german_number_notation():
    assert kaetzchen_statistics.number(20000) == "20.000"
    assert kaetzchen_statistics.number(1004) == "1004"
    assert kaetzchen_statistics.number(400.5, 1) == "400,5"
    assert kaetzchen_statistics.percent(0.3819) == "38,2\u00a0%"
    assert kaetzchen_statistics.moves_text(401.0) == "401"


def test_article_section_shows_the_stored_figures_and_a_histogram(client, content):
    simulate(deals=DEALS, seed=0)
    figures = EngineStatistics.objects.get().figures
    html = client.get("/spiele/kaetzchen-angeln/").content.decode()
    section = html[html.index('id="statistik"') :]
    section = section[: section.index("</section>")]
    median = kaetzchen_statistics.moves_text(figures["median_moves"])
    assert f"{median} Züge" in section
    assert kaetzchen_statistics.percent(figures["share_over_500"], 0) in section
    assert kaetzchen_statistics.percent(figures["share_over_1000"], 0) in section
    assert kaetzchen_statistics.percent(figures["starter_win_rate"], 0) in section
    assert "Zuglimit (5000) erreicht" in section
    assert "<figure" in section and "<figcaption" in section
    assert 'role="img"' in section and "<title" in section and "<desc" in section
    bars = re.findall(r'<rect class="kz-hist__bar', section)
    assert len(bars) == len(figures["histogram"])
    rows = re.findall(r'<tr><th scope="row">', section)
    assert len(rows) == len(figures["histogram"])
    # Coordinates are plain numbers, never localised ("12,5" would break the SVG).
    for value in re.findall(r' (?:x|y|width|height|x1|x2|y1|y2)="([^"]*)"', section):
        assert re.fullmatch(r"-?\d+(\.\d+)?", value), value


def test_histogram_heights_follow_the_counts():
    figures = engine.simulate(DEALS, seed=1)
    chart = kaetzchen_statistics.histogram(figures, DEALS)
    counts = [item["count"] for item in figures["histogram"]]
    heights = [float(bar["height"]) for bar in chart["bars"]]
    tallest = counts.index(max(counts))
    assert heights.index(max(heights)) == tallest
    for count, height in zip(counts, heights, strict=True):
        assert height == pytest.approx(heights[tallest] * count / counts[tallest], abs=0.2)
    assert chart["bars"][-1]["tail"] and chart["bars"][-1]["label"] == "mehr als 2000"


def test_section_without_stored_figures_says_so(client, content):
    html = client.get("/spiele/kaetzchen-angeln/").content.decode()
    section = html[html.index('id="statistik"') :]
    assert "simulate_kaetzchen" in section[: section.index("</section>")]


def _prose(section: str) -> str:
    return " ".join(re.findall(r"<p>(.*?)</p>", section, flags=re.S))


def test_every_number_in_the_sentences_comes_from_the_stored_figures(client, content):
    simulate(deals=DEALS, seed=2)
    stats = EngineStatistics.objects.get()
    figures, extra = stats.figures, stats.figures["extra_turn_rule"]
    html = client.get("/spiele/kaetzchen-angeln/").content.decode()
    section = html[html.index('id="statistik"') :]
    prose = _prose(section[: section.index("</section>")])
    moves = kaetzchen_statistics.moves_text
    allowed = {
        kaetzchen_statistics.number(DEALS),
        moves(figures["median_moves"]),
        moves(extra["median_moves"]),
        kaetzchen_statistics.number(extra["median_moves"] / figures["median_moves"], 1),
        kaetzchen_statistics.percent(extra["share_over_1000"], 0).split("\u00a0")[0],
        kaetzchen_statistics.number(round(extra["share_limit"] * DEALS)),
        "1000",
        "5000",
        str(stats.computed_at.day),
        str(stats.computed_at.year),
    }
    numbers = set(re.findall(r"\d+(?:[.,]\d+)?", prose))
    assert numbers and numbers <= allowed, numbers - allowed
    assert f"{kaetzchen_statistics.number(DEALS)} am Computer gemischte Partien" in prose


@pytest.mark.parametrize(
    ("rate", "draws", "verdict"),
    [(0.5, 0.0, "even"), (0.52, 0.0, "even"), (0.56, 0.0, "ahead"), (0.44, 0.0, "behind")],
)
def test_the_starter_sentence_follows_the_numbers(rate, draws, verdict):
    figures = {"starter_win_rate": rate, "draw_rate": draws}
    assert kaetzchen_statistics.starter_verdict(figures, 1000) == verdict


def test_figures_of_an_older_format_are_computed_again():
    simulate(deals=DEALS)
    stored = EngineStatistics.objects.get()
    stored.figures = engine.simulate(DEALS, seed=0)  # without the house-rule comparison
    stored.save()
    assert kaetzchen_statistics.load() is None
    assert "nichts zu tun" not in simulate("--if-missing", deals=DEALS)
    assert kaetzchen_statistics.is_current(EngineStatistics.objects.get().figures)
