"""Katz und Maus from simulated bot games: how games end, how long they take,
and what the source's end of game, our variant and the stock sizes change.

``compute(games, seed)`` plays the engine's ``simulate`` with the default rules
(the source's end of game) and once per alternative rule set (``RULE_SETS``),
on several processes when there are cores for them; ``present`` turns the stored
figures into what ``play/katz_und_maus/statistics.html`` draws: horizontal bar
charts (SVG geometry, readable on a 390 px phone), the tables with the same
numbers, and the facts its sentences are worded from – no number in the section's
prose is written by hand.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

from games.engines import katz_und_maus as km
from games.models import EngineStatistics
from games.play.statistics import coord, number, percent, stored

ENGINE = "katz_und_maus"
FORMAT = 2  # the source's end of game as the standard, the reshuffle as a variant

# More cards per stock than the article's table (20 for two is the source's number).
LARGER_STOCK = {2: 30, 3: 20, 4: 15, 5: 12, 6: 10}

# (key, label, simulate's options): the default rules first.
RULE_SETS = (
    ("standard", "Regeln der Quelle", {}),
    ("recycle", "Variante: Baustapel werden neuer Kartenstock", {"empty_draw": "recycle"}),
    ("removed", "Fertige Baustapel aus dem Spiel", {"completed": "remove"}),
    ("larger", "Größere Spielerstapel", {"stock_sizes": LARGER_STOCK}),
)

# The SVG's coordinate system: about a phone's column wide, so 12px text stays 12px there.
WIDTH = 360
LABEL_WIDTH = 74  # „6 Spieler“ left of the bars
RIGHT = 18  # room for half of the „100 %“ tick label
PLOT = WIDTH - LABEL_WIDTH - RIGHT
TOP = 8
AXIS_SPACE = 30  # tick labels and the axis title under the bars


def compute(games: int, seed: int, workers: int | None = None) -> dict:
    """Every rule set played ``games`` times per player count (plain JSON data).

    The runs of one rule set and player count are independent (each game's seed
    depends only on ``seed``, the player count and its number), so they are played
    on up to ``workers`` processes (default: the machine's cores, at most 4) with
    the same result as on one."""
    counts = range(km.MIN_PLAYERS, km.MAX_PLAYERS + 1)
    jobs = [(key, count, options) for key, _, options in RULE_SETS for count in counts]
    workers = workers or min(4, os.cpu_count() or 1)
    calls = [((games, seed), {"players": [count], **options}) for _, count, options in jobs]
    if workers > 1:
        # A fresh interpreter per worker (it imports only the engine, which needs no
        # Django), so no database connection is inherited.
        with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
            futures = [pool.submit(km.simulate, *args, **kwargs) for args, kwargs in calls]
            parts = [future.result() for future in futures]
    else:
        parts = [km.simulate(*args, **kwargs) for args, kwargs in calls]
    runs = {}
    for (key, _, _), part in zip(jobs, parts, strict=True):
        run = runs.setdefault(key, {**part, "rows": []})
        run["rows"] += part["rows"]
    return {"format": FORMAT, "games": games, "seed": seed, "runs": runs}


def is_current(figures: dict) -> bool:
    return figures.get("format") == FORMAT


def load() -> dict | None:
    stats = stored(ENGINE)
    return present(stats) if stats and is_current(stats.figures) else None


def _x(share: float) -> float:
    return LABEL_WIDTH + PLOT * share


def _frame(bottom: float, ticks: list[dict] | None = None) -> dict:
    """The chart's size, plot edges, grid and axis labels; bars end at ``bottom``.
    ``ticks``: (share of the plot, label) pairs; default 0–100 %."""
    return {
        "width": WIDTH,
        "height": bottom + AXIS_SPACE,
        "left": LABEL_WIDTH,
        "right": WIDTH - RIGHT,
        "bottom": bottom,
        "ticks": _ticks(bottom, ticks),
        "tick_y": bottom + 14,
        "title_y": bottom + AXIS_SPACE - 2,
    }


def _ticks(bottom: float, ticks=None) -> list[dict]:
    ticks = ticks or [(share, percent(share, 0)) for share in (0, 0.25, 0.5, 0.75, 1)]
    return [
        {"x": coord(_x(share)), "text": text, "y1": TOP, "y2": coord(bottom)}
        for share, text in ticks
    ]


def _players(count: int) -> str:
    return f"{count} Spieler"


AT = {2: "zu zweit", 3: "zu dritt", 4: "zu viert", 5: "zu fünft", 6: "zu sechst"}


def _share(share: float) -> str:
    return percent(share, 0)


# --- How games end: one stacked bar per player count --------------------------------------

ENDINGS = (
    ("stock", "Spielerstapel geleert"),
    ("won", "Kartenstock aufgebraucht, Sieg nach Karten"),
    ("tied", "Kartenstock aufgebraucht, unentschieden"),
    ("other", "festgefahren oder Zuglimit"),
)


def _endings(row: dict) -> dict[str, float]:
    tied = row["draws_exhausted"] * row["exhausted"]
    return {
        "stock": row["stock_empty"],
        "won": max(0.0, row["exhausted"] - tied),
        "tied": tied,
        "other": row["stuck"] + row["limit"],
    }


def endings_chart(rows: list[dict]) -> dict:
    step, bar = 34, 22
    bottom = TOP + step * len(rows)
    bars = []
    for index, row in enumerate(rows):
        y = TOP + index * step + (step - bar) / 2
        shares = _endings(row)
        start = 0.0
        segments = []
        for key, label in ENDINGS:
            share = shares[key]
            if share > 0:
                segments.append(
                    {
                        "key": key,
                        "x": coord(_x(start)),
                        "width": coord(PLOT * share),
                        "title": f"{label}: {percent(share, 0)}",
                    }
                )
            start += share
        first = shares["stock"]
        bars.append(
            {
                "label": _players(row["players"]),
                "label_y": coord(y + bar / 2),
                "y": coord(y),
                "height": bar,
                "segments": segments,
                # The share of emptied stocks, inside its segment when it fits.
                "value": percent(first, 0),
                "value_x": coord(_x(first) - 6 if first >= 0.2 else _x(first) + 4),
                "value_inside": first >= 0.2,
            }
        )
    return {**_frame(bottom), "bars": bars}


# --- How long a game takes: median and the 90th percentile per player count ---------------


def length_chart(rows: list[dict]) -> dict:
    step, bar = 34, 16
    top_turns = max(row["turns_p90"] for row in rows)
    tick = 10 if top_turns <= 60 else 20 if top_turns <= 120 else 50
    scale = (int(top_turns // tick) + 1) * tick  # turns at the right edge
    bottom = TOP + step * len(rows)
    bars = []
    for index, row in enumerate(rows):
        y = TOP + index * step + (step - bar) / 2
        median, p90 = row["turns_median"] / scale, row["turns_p90"] / scale
        bars.append(
            {
                "label": _players(row["players"]),
                "label_y": coord(y + bar / 2),
                "y": coord(y),
                "height": bar,
                "width": coord(PLOT * median),
                "whisker_x": coord(_x(p90)),
                "bar_end_y": coord(y + bar),
                "median_x": coord(_x(median)),
                "value": number(row["turns_median"]),
                "p90": number(row["turns_p90"]),
                # The median's number inside the bar (white), the whisker beyond it.
                "value_x": coord(_x(median) - 5),
            }
        )
    ticks = [(turns / scale, number(turns)) for turns in range(0, scale + 1, tick)]
    return {**_frame(bottom, ticks), "bars": bars}


# --- Rules compared: emptied stocks per player count and rule set ----------------------------


def rules_chart(runs: dict) -> dict:
    per_bar, gap = 14, 14
    count = len(RULE_SETS)
    group = per_bar * count + gap
    players = [row["players"] for row in runs["standard"]["rows"]]
    bottom = TOP + group * len(players)
    groups = []
    for index, players_count in enumerate(players):
        y0 = TOP + index * group + gap / 2
        group_bars = []
        for rank, (key, label, _) in enumerate(RULE_SETS):
            row = next(r for r in runs[key]["rows"] if r["players"] == players_count)
            share = row["stock_empty"]
            y = y0 + rank * per_bar
            group_bars.append(
                {
                    "key": key,
                    "y": coord(y + 1.5),
                    "height": per_bar - 3,
                    "width": coord(max(PLOT * share, 1)),
                    "text_x": coord(_x(share) + 3 if share < 0.82 else _x(share) - 3),
                    "text_y": coord(y + per_bar / 2),
                    "inside": share >= 0.82,
                    "value": percent(share, 0),
                    "title": f"{label}, {row['stock_size']} Karten: {percent(share, 0)}",
                }
            )
        groups.append(
            {
                "label": _players(players_count),
                "label_y": coord(y0 + per_bar * count / 2),
                "bars": group_bars,
            }
        )
    return {**_frame(bottom), "groups": groups}


# --- Everything the template shows ------------------------------------------------------------


def _table(rows: list[dict]) -> list[dict]:
    """Rows of the per-player-count table: a label and one cell per player count."""

    def line(label, cell):
        return {"label": label, "cells": [cell(row) for row in rows]}

    return [
        line("Karten im Spielerstapel", lambda r: str(r["stock_size"])),
        line("Züge, Median", lambda r: number(r["turns_median"])),
        line("Züge, 9 von 10 Spielen höchstens", lambda r: number(r["turns_p90"])),
        line("Runden im Mittel", lambda r: number(r["rounds_mean"], 1)),
        line("Spielerstapel geleert", lambda r: percent(r["stock_empty"], 0)),
        line("Kartenstock aufgebraucht", lambda r: percent(r["exhausted"], 0)),
        line("Unentschieden", lambda r: percent(r["draws"], 0)),
        line("Festgefahren oder Zuglimit", lambda r: percent(r["stuck"] + r["limit"], 0)),
        line("Wer beginnt, gewinnt", lambda r: percent(r["starter_wins"], 0)),
        line("… bei gleichen Chancen", lambda r: percent(r["starter_fair"], 0)),
    ]


def _rules_table(runs: dict) -> list[dict]:
    table = []
    for key, label, _ in RULE_SETS:
        rows = runs[key]["rows"]
        sizes = ", ".join(str(r["stock_size"]) for r in rows)
        table.append(
            {
                "key": key,
                "label": label,
                "sizes": sizes,
                "cells": [percent(r["stock_empty"], 0) for r in rows],
            }
        )
    return table


def _by_players(run: dict) -> dict[int, dict]:
    return {row["players"]: row for row in run["rows"]}


def _even(row: dict, games: int) -> bool:
    fair = row["starter_fair"]
    return abs(row["starter_wins"] - fair) <= 2 * (fair * (1 - fair) / games) ** 0.5


def _beyond_chance(before: dict, after: dict, games: int) -> bool:
    """More emptied stocks in ``after`` than chance explains (two standard errors)."""
    p, q = before["stock_empty"], after["stock_empty"]
    error = ((p * (1 - p) + q * (1 - q)) / games) ** 0.5
    return q - p > 2 * error if error else q > p


def margin(games: int) -> int:
    """Percentage points a share from ``games`` games may move by chance (two standard
    errors at 50 %, rounded up): what the section says about its precision."""
    return max(1, -int(-200 * (0.25 / games) ** 0.5 // 1))


def _listing(rows: list[dict], key: str = "stock_empty") -> str:
    """„zu zweit 95 %, zu dritt 88 % … und zu sechst 60 %“."""
    parts = [f"{AT[row['players']]} {_share(row[key])}" for row in rows]
    return ", ".join(parts[:-1]) + " und " + parts[-1] if len(parts) > 1 else parts[0]


def present(stats: EngineStatistics) -> dict:
    runs = stats.figures["runs"]
    rows = runs["standard"]["rows"]
    standard = _by_players(runs["standard"])
    larger = _by_players(runs["larger"])
    removed = _by_players(runs["removed"])
    recycle = _by_players(runs["recycle"])
    most = max(standard)
    worst = min(rows, key=lambda r: r["stock_empty"])
    starter_gap = max(rows, key=lambda r: abs(r["starter_wins"] - r["starter_fair"]))
    # Where the variant changes the most (the largest gain in emptied stocks).
    gain = max(standard, key=lambda n: recycle[n]["stock_empty"] - standard[n]["stock_empty"])
    return {
        "games": number(stats.deals),
        "games_value": stats.deals,  # pluralisation
        "total": number(stats.deals * len(rows) * len(RULE_SETS)),
        "margin": margin(stats.deals),
        "computed_at": stats.computed_at,
        "players": [row["players"] for row in rows],
        "table": _table(rows),
        "variant_table": _table(runs["recycle"]["rows"]),
        "rules_table": _rules_table(runs),
        "endings": endings_chart(rows),
        "variant_endings": endings_chart(runs["recycle"]["rows"]),
        "length_chart": length_chart(rows),
        "endings_legend": [{"key": key, "label": label} for key, label in ENDINGS],
        "rules": rules_chart(runs),
        "rules_legend": [{"key": key, "label": label} for key, label, _ in RULE_SETS],
        # Facts the sentences are worded from, all from the stored numbers.
        "emptied": _listing(rows),
        "worst": {
            "at": AT[worst["players"]],
            "stock": _share(worst["stock_empty"]),
            "exhausted": _share(worst["exhausted"]),
            "always": worst["stock_empty"] == 1,  # every simulated game ended so
        },
        "draws_max": percent(max(r["draws"] for r in rows), 0),
        "variant": {
            "at": AT[gain],
            "standard": _share(standard[gain]["stock_empty"]),
            "recycle": _share(recycle[gain]["stock_empty"]),
            "more": _beyond_chance(standard[gain], recycle[gain], stats.deals),
            "draws_max": percent(max(r["draws"] for r in recycle.values()), 0),
            "turns": number(recycle[gain]["turns_median"]),
            "standard_turns": number(standard[gain]["turns_median"]),
        },
        "most": {
            "at": AT[most],
            "standard": _share(standard[most]["stock_empty"]),
            "standard_size": standard[most]["stock_size"],
            "larger": _share(larger[most]["stock_empty"]),
            "larger_size": larger[most]["stock_size"],
            # „nur“ only where the simulation really shows fewer emptied stocks
            "larger_fewer": larger[most]["stock_empty"] < standard[most]["stock_empty"],
        },
        "removed_range": (
            f"{round(min(r['stock_empty'] for r in removed.values()) * 100)} bis "
            f"{_share(max(r['stock_empty'] for r in removed.values()))}"
        ),
        "removed_fewer": all(
            removed[n]["stock_empty"] <= standard[n]["stock_empty"] for n in standard
        ),
        # Few games per row: the shares move by several points from run to run.
        "rough": stats.deals < 100,
        "length": {
            "two": number(standard[min(standard)]["turns_median"]),
            "most": number(standard[most]["turns_median"]),
            "most_rounds": number(standard[most]["rounds_mean"], 1),
            "two_rounds": number(standard[min(standard)]["rounds_mean"], 1),
        },
        "starter": {
            "at": AT[starter_gap["players"]],
            "wins": percent(starter_gap["starter_wins"], 0),
            "fair": percent(starter_gap["starter_fair"], 0),
            # Within two standard errors of a fair share: no advantage to speak of.
            "even": all(_even(r, stats.deals) for r in rows),
        },
    }
