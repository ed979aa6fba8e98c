"""The stored Kätzchen-Angeln figures as the article shows them: key numbers
in German notation and a histogram of game lengths as SVG geometry.

``compute(deals, seed)`` plays the deals with the site's rules and the same deals
with the house rule „wer gewinnt, deckt noch einmal auf“; every sentence of the
section is worded from these stored numbers (``present``), none is written by hand.
"""

from __future__ import annotations

from games.engines import kaetzchen
from games.models import EngineStatistics
from games.play.statistics import coord, number, percent, stored

ENGINE = "kaetzchen"
FORMAT = 2  # figures with the house-rule comparison


def compute(deals: int, seed: int) -> dict:
    figures = kaetzchen.simulate(deals, seed=seed)
    extra = kaetzchen.simulate(deals, seed=seed, extra_turn=True)
    figures["format"] = FORMAT
    figures["extra_turn_rule"] = {
        key: extra[key]
        for key in ("median_moves", "mean_moves", "p90_moves", "share_over_1000", "share_limit")
    }
    return figures


def is_current(figures: dict) -> bool:
    return figures.get("format") == FORMAT


def starter_verdict(figures: dict, games: int) -> str:
    """„even“, „ahead“ or „behind“: the starter's wins among decided games, compared
    with half of them; within two standard errors counts as even."""
    decided = games * (1 - figures["draw_rate"])
    if decided < 1:
        return "even"
    share = figures["starter_win_rate"] * games / decided
    error = (0.25 / decided) ** 0.5
    if abs(share - 0.5) <= 2 * error:
        return "even"
    return "ahead" if share > 0.5 else "behind"


# The SVG's coordinate system (viewBox); CSS scales it to the column width.
WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 48, 10, 14, 40
TICK_STEPS = (0.01, 0.02, 0.025, 0.05, 0.1, 0.2, 0.25, 0.5)


def moves_text(value) -> str:
    decimals = 0 if float(value).is_integer() else 1
    return number(value, decimals)


def load() -> dict | None:
    stats = stored(ENGINE)
    return present(stats) if stats and is_current(stats.figures) else None


STARTER_NOTES = {
    "even": "kein Vorteil, der über den Zufall hinausgeht",
    "ahead": "etwas öfter als der Zufall erwarten lässt",
    "behind": "etwas seltener als der Zufall erwarten lässt",
}


def present(stats: EngineStatistics) -> dict:
    figures = stats.figures
    games = stats.deals
    at_limit = round(figures["share_limit"] * games)
    extra = figures["extra_turn_rule"]
    verdict = starter_verdict(figures, games)
    facts = [
        ("Simulierte Partien", number(games), "wer beginnt, wechselt – wie in der Demo"),
        (
            "Median",
            f"{moves_text(figures['median_moves'])} Züge",
            "die Hälfte der Partien ist spätestens dann vorbei",
        ),
        (
            "Mittelwert",
            f"{number(figures['mean_moves'])} Züge",
            "lange Partien ziehen ihn hoch"
            if figures["mean_moves"] > figures["median_moves"]
            else "",
        ),
        (
            "9 von 10 Partien",
            f"höchstens {number(figures['p90_moves'])} Züge",
            "",
        ),
        ("Länger als 500 Züge", percent(figures["share_over_500"], 0), ""),
        ("Länger als 1000 Züge", percent(figures["share_over_1000"], 0), ""),
        (
            f"Zuglimit ({number(figures['limit'])}) erreicht",
            percent(figures["share_limit"], 2) if at_limit else "nie",
            f"{number(at_limit)} von {number(games)} Partien",
        ),
        (
            "Wer beginnt, gewinnt",
            percent(figures["starter_win_rate"], 0),
            STARTER_NOTES[verdict],
        ),
        (
            "Kürzeste / längste Partie",
            f"{number(figures['min_moves'])} / {number(figures['max_moves'])} Züge",
            "",
        ),
    ]
    return {
        "games": number(games),
        "games_value": games,
        "computed_at": stats.computed_at,
        "starter": verdict,
        # The house rule „wer gewinnt, deckt noch einmal auf“ on the same deals.
        "extra_turn": {
            "median": moves_text(extra["median_moves"]),
            "mean": number(extra["mean_moves"]),
            "over_1000": percent(extra["share_over_1000"], 0),
            "limit": percent(extra["share_limit"], 1),
            "limit_games": number(round(extra["share_limit"] * games)),
            "factor": number(extra["median_moves"] / figures["median_moves"], 1),
        },
        "facts": [{"label": a, "value": b, "note": c} for a, b, c in facts],
        "median": moves_text(figures["median_moves"]),
        "median_value": figures["median_moves"],  # for pluralisation
        "histogram": histogram(figures, games),
    }


def histogram(figures: dict, games: int) -> dict:
    """Bars, axes and labels in SVG coordinates; the last bin collects the long tail."""
    bins = figures["histogram"]
    plot_width, plot_height = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    slot = plot_width / len(bins)
    shares = [item["count"] / games for item in bins]
    step = next((s for s in TICK_STEPS if max(shares) / s <= 5), 1.0)
    ticks = int(max(shares) / step) + 1
    top = step * ticks

    def y(share: float) -> float:
        return TOP + plot_height * (1 - share / top)

    bars = []
    for index, (item, share) in enumerate(zip(bins, shares, strict=True)):
        tail = index == len(bins) - 1 and item["to"] > bins[0]["to"] * len(bins)
        label = f"mehr als {number(item['from'] - 1)}" if tail else f"{item['from']}–{item['to']}"
        bars.append(
            {
                "x": LEFT + index * slot + 1.5,
                "y": y(share),
                "width": slot - 3,
                "height": TOP + plot_height - y(share),
                "label": label,
                "count": number(item["count"]),
                # Raw numbers for the template's pluralize („1 Partie“, „1 Zug“); a range
                # of moves („100–199“) is plural, only a bin of exactly one move is not.
                "number": item["count"],
                "moves_to": item["to"] if item["from"] == item["to"] else 2,
                "share": percent(share),
                "tail": tail,
            }
        )

    # x labels at bin edges every 500 moves, and one for the tail bin.
    width_of_bin = bins[0]["to"] - bins[0]["from"] + 1
    x_labels = []
    for index in range(0, len(bins)):
        edge = index * width_of_bin
        if edge % 500 == 0 and not bars[index]["tail"]:
            x_labels.append({"x": coord(LEFT + index * slot), "text": number(edge)})
    if bars[-1]["tail"]:
        x_labels.append({"x": coord(bars[-1]["x"] + bars[-1]["width"] / 2), "text": "mehr"})
    decimals = 0 if round(step * 100, 6).is_integer() else 1
    y_labels = [
        {"y": coord(y(step * i)), "text": percent(step * i, decimals)} for i in range(ticks + 1)
    ]
    median = figures["median_moves"]
    median_x = LEFT + (median / width_of_bin) * slot
    tallest = max(bars, key=lambda bar: bar["height"])
    for bar in bars:
        for key in ("x", "y", "width", "height"):
            bar[key] = coord(bar[key])
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "top": TOP,
        "baseline": TOP + plot_height,
        "bars": bars,
        "x_labels": x_labels,
        "y_labels": y_labels,
        "median_x": coord(median_x),
        "median_label_x": coord(median_x + 6),
        "x_title_y": HEIGHT - 4,
        "peak": tallest,
    }
