"""Alpaka and The Cat statistics: the commands store their simulations, the game pages
draw them in their „Statistik“ section (charts and tables), and every number the
text names comes from the stored figures – including how many games were simulated."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command

from games import clock
from games.models import EngineStatistics
from games.play.alpaka import statistics as alpaka_stats
from games.play.statistics import number, percent
from games.play.the_cat import statistics as cat_stats

pytestmark = pytest.mark.django_db


def simulate(command: str, **options) -> str:
    out = StringIO()
    call_command(command, stdout=out, **options)
    return out.getvalue()


def flat(text: str) -> str:
    """Whitespace as the page text below has it (no-break spaces included)."""
    return re.sub(r"\s+", " ", text)


def section_of(html: str) -> str:
    section = html[html.index('id="statistik"') :]
    return section[: section.index("</section>")]


def test_alpaka_command_stores_the_simulation_for_its_seed():
    output = simulate("simulate_alpaka", games=2, seed=3)
    stats = EngineStatistics.objects.get(engine="alpaka")
    assert stats.deals == 2 and stats.figures == alpaka_stats.compute(2, 3)
    rows = stats.figures["rows"]
    assert [row["players"] for row in rows] == [2, 3, 4, 5, 6]
    for row in rows:
        assert row["quit_paid"] + row["quit_even"] + row["quit_cost"] == row["quits"]
        assert row["rounds_median"] >= 1 and row["points_per_round"] > 0
    assert "Statistik gespeichert: je 2 Spiele" in output


def test_the_cat_figures_of_older_bots_are_computed_again_with_if_missing():
    simulate("simulate_the_cat", games=1, seed=2)
    assert "nichts zu tun" in simulate("simulate_the_cat", games=1, seed=2, if_missing=True)
    stats = EngineStatistics.objects.get(engine="the_cat")
    del stats.figures["bots"]  # figures stored by the first bots
    stats.save()
    assert "nichts zu tun" not in simulate("simulate_the_cat", games=1, seed=2, if_missing=True)
    assert EngineStatistics.objects.get(engine="the_cat").figures["bots"] == 2


def test_the_cat_command_stores_the_simulation_for_its_seed():
    simulate("simulate_the_cat", games=1, seed=2)
    stats = EngineStatistics.objects.get(engine="the_cat")
    assert stats.figures == cat_stats.compute(1, 2)
    speeds = stats.figures["speeds"]
    # The same deals at every speed: flink bots finish a round sooner than gemütliche.
    for players in ("2", "3", "4"):
        assert (
            speeds["flink"][players]["seconds_median"]
            < speeds["gemuetlich"][players]["seconds_median"]
        )
        assert speeds["normal"][players]["right"] == speeds["normal"][players]["calls"]


def test_alpaka_page_words_its_numbers_from_the_figures(client, content):
    figures = {
        "games": 7,
        "seed": 0,
        "rows": [
            {"players": p, "rounds_median": 4 + p, "rounds_p90": 6 + p, "actions_median": 100 + p,
             "points_per_round": 3.0 + p / 2, "quits": 10, "quit_paid": 7, "quit_even": 1,
             "quit_cost": 2, "quit_saved_mean": 1.0}
            for p in (2, 3, 4, 5, 6)
        ],
    }  # fmt: skip
    EngineStatistics.objects.create(
        engine="alpaka", deals=7, seed=0, figures=figures, computed_at=clock.now()
    )
    html = section_of(client.get("/spiele/alpaka/").content.decode())
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
    assert "je 7 Spiele pro Spielerzahl, zusammen 35 simulierte Spiele" in text
    assert "50-mal" in text  # 5 × 10 quits with a choice
    assert flat(f"In {percent(0.7, 0)} der Fälle") in text and flat(percent(0.2, 0)) in text
    assert "Bei so wenigen Spielen sind die Anteile grob" in text
    assert html.count("<svg") == 3 and "<table" in html
    assert flat(number(3.0 + 6 / 2, 1)) in text  # 6 players pay most per round


def test_the_cat_page_draws_its_charts_and_tables(client, content):
    simulate("simulate_the_cat", games=1, seed=0)
    stats = cat_stats.load()
    html = section_of(client.get("/spiele/the-cat/").content.decode())
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
    assert "je 1 Spiel bis 20 Punkte pro Einstellung" in text
    assert f"zusammen {stats['total']} simulierte Spiele" in text
    assert flat(stats["slow"]) in text and flat(stats["fast"]) in text
    assert html.count("<svg") == 2 and html.count("<table") == 3
    assert "Für die Bots ist es gleich, welche vier Launen" in text  # relabelled deals


def test_each_game_page_has_its_statistics_section(client, content):
    for slug in ("alpaka", "the-cat", "katz-und-maus", "kaetzchen-angeln"):
        html = client.get(f"/spiele/{slug}/").content.decode()
        assert html.count('id="statistik"') == 1, slug
