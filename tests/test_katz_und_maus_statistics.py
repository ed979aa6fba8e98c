"""Katz und Maus statistics: the command stores the engine's simulation, the
article's „Statistik“ section draws it (charts and tables) or says it is missing."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.engines import katz_und_maus as km
from games.models import EngineStatistics
from games.play.katz_und_maus import statistics
from games.play.statistics import number, percent

pytestmark = pytest.mark.django_db

GAMES = 2  # per player count and rule set: small, so the tests stay fast
PAGE = "/spiele/katz-und-maus/"


def simulate(*args, **options) -> str:
    out = StringIO()
    call_command("simulate_katz_und_maus", *args, stdout=out, **options)
    return out.getvalue()


def section_of(html: str) -> str:
    section = html[html.index('id="statistik"') :]
    return section[: section.index("</section>")]


def test_command_stores_what_simulate_returns_for_the_seed():
    output = simulate(games=GAMES, seed=5)
    stats = EngineStatistics.objects.get(engine="katz_und_maus")
    assert stats.deals == GAMES and stats.seed == 5
    assert stats.figures["format"] == statistics.FORMAT
    runs = stats.figures["runs"]
    # The default rules are the source's: the game ends when the draw pile is used up.
    assert runs["standard"] == km.simulate(GAMES, 5) == km.simulate(GAMES, 5, empty_draw="end")
    assert runs["recycle"] == km.simulate(GAMES, 5, empty_draw="recycle")
    assert runs["larger"] == km.simulate(GAMES, 5, stock_sizes=statistics.LARGER_STOCK)
    assert runs["removed"] == km.simulate(GAMES, 5, completed="remove")
    assert [row["stock_size"] for row in runs["standard"]["rows"]] == [20, 15, 12, 10, 8]
    assert [row["stock_size"] for row in runs["larger"]["rows"]] == [30, 20, 15, 12, 10]
    assert "Statistik gespeichert: je 2 Spiele" in output


def test_the_runs_on_several_processes_equal_the_runs_on_one():
    assert statistics.compute(GAMES, 3, workers=2) == statistics.compute(GAMES, 3, workers=1)


def test_figures_of_an_older_format_are_computed_again():
    simulate(games=GAMES, seed=1)
    stored = EngineStatistics.objects.get(engine="katz_und_maus")
    stored.figures = {"games": GAMES, "seed": 1, "runs": {}}  # before the source's rule
    stored.save()
    assert statistics.load() is None
    assert "nichts zu tun" not in simulate("--if-missing", games=GAMES)
    assert statistics.is_current(EngineStatistics.objects.get(engine="katz_und_maus").figures)


def test_if_missing_keeps_the_stored_figures():
    simulate(games=GAMES, seed=1)
    first = EngineStatistics.objects.get(engine="katz_und_maus")
    assert "nichts zu tun" in simulate("--if-missing", games=GAMES + 1)
    assert EngineStatistics.objects.get(engine="katz_und_maus").computed_at == first.computed_at
    simulate(games=GAMES + 1, seed=1)
    assert EngineStatistics.objects.get(engine="katz_und_maus").deals == GAMES + 1


def test_command_rejects_zero_games():
    with pytest.raises(CommandError):
        simulate(games=0)


def test_the_endings_bar_splits_into_the_simulated_shares():
    row = {
        "players": 6, "stock_empty": 0.5, "exhausted": 0.4, "draws_exhausted": 0.25,
        "stuck": 0.1, "limit": 0.0,
    }  # fmt: skip
    chart = statistics.endings_chart([row])
    segments = {s["key"]: float(s["width"]) for s in chart["bars"][0]["segments"]}
    assert segments == pytest.approx(
        {
            "stock": statistics.PLOT * 0.5,
            "won": statistics.PLOT * 0.3,
            "tied": statistics.PLOT * 0.1,
            "other": statistics.PLOT * 0.1,
        },
        abs=0.1,
    )
    assert chart["bars"][0]["value"] == percent(0.5, 0)


def test_game_page_shows_charts_and_tables_from_the_stored_figures(client, content):
    simulate(games=GAMES, seed=2)
    runs = EngineStatistics.objects.get(engine="katz_und_maus").figures["runs"]
    section = section_of(client.get(PAGE).content.decode())
    # Endings with the source's rule and with our variant, length, rules compared.
    assert section.count("<svg") == 4 and section.count("<figure") == 4
    assert 'role="img"' in section and section.count("<title id=") == 4
    assert section.count("<desc") == 4
    assert section.count("<table") == 2 and "<caption" in section
    # One bar per player count, its emptied-stock share written beside it.
    standard = runs["standard"]["rows"]
    value = re.compile(r'<text class="km-chart__value[^"]*"[^>]*>([^<]+)</text>')
    endings = section[section.index('id="km-endings-title"') :]
    endings = endings[: endings.index("</svg>")]
    assert value.findall(endings) == [percent(row["stock_empty"], 0) for row in standard]
    # Game length: the median of each player count written on its bar.
    length = section[section.index('id="km-length-title"') :]
    length = length[: length.index("</svg>")]
    assert value.findall(length) == [number(row["turns_median"]) for row in standard]
    for row in standard:
        assert f"<td>{row['stock_size']}</td>" in section
    # The comparison: four bars per player count.
    assert len(re.findall(r'<rect class="km-chart__rule ', section)) == 4 * len(standard)
    for _key, label, _ in statistics.RULE_SETS:
        assert label in section
    # The source's rule and our variant each get their endings chart.
    variant = section[section.index('id="km-variant-title"') :]
    variant = variant[: variant.index("</svg>")]
    assert value.findall(variant) == [
        percent(row["stock_empty"], 0) for row in runs["recycle"]["rows"]
    ]
    # No inline styles (the site's CSP), and SVG coordinates are never localised.
    assert "style=" not in section
    for value in re.findall(r' (?:x|y|width|height|x1|x2|y1|y2)="([^"]*)"', section):
        assert re.fullmatch(r"-?\d+(\.\d+)?", value), value


def _prose(section: str) -> str:
    """The section's sentences: its paragraphs, without charts, legends and tables."""
    return " ".join(re.findall(r"<p>(.*?)</p>", section, flags=re.S))


def _allowed_numbers(stats) -> set[str]:
    """Every number the sentences may state: formatted from the stored figures."""
    allowed = {number(stats.deals), number(stats.deals * 5 * 4), "104"}
    allowed.add(str(statistics.margin(stats.deals)))
    allowed |= {str(stats.computed_at.day), str(stats.computed_at.year)}
    for run in stats.figures["runs"].values():
        for row in run["rows"]:
            allowed.add(str(row["stock_size"]))
            for key in ("stock_empty", "exhausted", "draws", "starter_wins", "starter_fair"):
                allowed.add(percent(row[key], 0).split("\u00a0")[0])
            allowed.add(number(row["turns_median"]))
            allowed.add(number(row["rounds_mean"], 1))
    return allowed


@pytest.mark.parametrize("games", [2, 12])
def test_every_number_in_the_sentences_comes_from_the_stored_figures(client, content, games):
    simulate(games=games, seed=4)
    stats = EngineStatistics.objects.get(engine="katz_und_maus")
    prose = _prose(section_of(client.get(PAGE).content.decode()))
    numbers = re.findall(r"\d+(?:[.,]\d+)?", prose)
    assert numbers, prose
    assert set(numbers) <= _allowed_numbers(stats), set(numbers) - _allowed_numbers(stats)
    # The sentences say how many games they rest on and how far a share may be off.
    assert f"je {number(games)} Spiel" in prose
    assert f"etwa {statistics.margin(games)} Prozentpunkte" in prose
    # No hand-written counts from an older, larger simulation.
    assert "300" not in prose.replace(number(stats.deals * 20), "")


def test_the_margin_shrinks_with_the_sample():
    assert statistics.margin(10) == 32
    assert statistics.margin(200) == 8
    assert statistics.margin(10_000) == 1


def test_section_without_stored_figures_says_so_in_german(client, content):
    response = client.get(PAGE)
    assert response.status_code == 200
    section = section_of(response.content.decode())
    assert "noch nicht gelaufen" in section and "simulate_katz_und_maus" in section
    assert "<svg" not in section


def _row(players, stock_empty, starter_wins=0.5):
    return {
        "players": players, "stock_size": 10, "games": 10, "turns_mean": 40.0,
        "turns_median": 40.0, "turns_p90": 60, "rounds_mean": 20.0, "moves_mean": 100.0,
        "stock_empty": stock_empty, "exhausted": 1 - stock_empty, "draws": 0.0,
        "draws_exhausted": 0.0, "stuck": 0.0, "limit": 0.0, "starter_wins": starter_wins,
        "starter_fair": 0.5, "turns_histogram": [],
    }  # fmt: skip


def test_the_explanation_follows_the_numbers_it_is_given(db):
    """„nur“ and „am seltensten“ only where the figures show it; few games are called rough."""
    from django.utils import timezone

    def stats(standard, other, games):
        run = lambda share: {"rows": [_row(2, share)]}  # noqa: E731
        figures = {"runs": {key: run(other) for key, _, _ in statistics.RULE_SETS}}
        figures["runs"]["standard"] = run(standard)
        return EngineStatistics(
            engine="katz_und_maus", deals=games, seed=0, figures=figures,
            computed_at=timezone.now(),
        )  # fmt: skip

    fewer = statistics.present(stats(0.9, 0.5, 300))
    assert fewer["most"]["larger_fewer"] and not fewer["variant"]["more"]
    assert not fewer["worst"]["always"] and not fewer["rough"]
    assert fewer["most"]["standard"] == percent(0.9, 0)
    more = statistics.present(stats(0.5, 0.9, 300))
    assert more["variant"]["more"], "the variant empties more stocks, beyond chance"
    close = statistics.present(stats(0.5, 0.55, 30))
    assert not close["variant"]["more"], "5 points from 30 games is within chance"
    noisy = statistics.present(stats(1.0, 1.0, 10))
    assert not noisy["most"]["larger_fewer"] and noisy["worst"]["always"] and noisy["rough"]


def test_every_rule_set_has_its_colour():
    from pathlib import Path

    css = (
        Path(statistics.__file__).parent / "static" / "play" / "katz_und_maus" / "article.css"
    ).read_text()
    for key, _, _ in statistics.RULE_SETS:
        assert f".km-chart__rule--{key}," in css and f".km-swatch--{key} " in css, key
