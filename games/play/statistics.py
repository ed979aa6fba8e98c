"""Simulation figures on a game's page, the same for every game.

A game's ``simulate_<game>`` command subclasses ``SimulateCommand`` (how many
games, the seed, ``--if-missing``, storing in ``EngineStatistics``); its
statistics module reads them back with ``stored`` and words them with the
German number helpers here. This module knows no game.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from games import clock
from games.models import EngineStatistics


def number(value, decimals: int = 0) -> str:
    """German notation: 1004, 20.000, 400,5 (separators from five digits on)."""
    text = f"{value:,.{decimals}f}" if abs(value) >= 10000 else f"{value:.{decimals}f}"
    return text.replace(",", "\u2009").replace(".", ",").replace("\u2009", ".")


def percent(share: float, decimals: int = 1) -> str:
    return f"{number(share * 100, decimals)}\u00a0%"


def coord(value: float) -> str:
    """An SVG coordinate as text: templates would localise a float to "12,5"."""
    return f"{value:.1f}"


def stored(engine: str) -> EngineStatistics | None:
    """The figures a game's command stored (one query), or None before its first run."""
    return EngineStatistics.objects.filter(engine=engine).first()


class SimulateCommand(BaseCommand):
    """``manage.py simulate_<game> [--<count> N] [--seed S] [--if-missing]``.

    A subclass names its ``engine`` (the ``EngineStatistics`` key), the count
    option and its default, and implements ``simulate`` and ``summary``.
    """

    engine = ""
    count_option = "deals"  # --deals: how many games the simulation plays
    count_default = 1000
    count_help = "Zahl der Partien"

    def simulate(self, count: int, seed: int) -> dict:
        raise NotImplementedError

    def summary(self, count: int, figures: dict) -> str:
        """One German line about what was stored."""
        raise NotImplementedError

    def is_current(self, figures: dict) -> bool:
        """Whether stored figures have the shape the article reads now (older ones are
        computed again, also with ``--if-missing``)."""
        return True

    def add_arguments(self, parser):
        parser.add_argument(
            f"--{self.count_option}",
            type=int,
            default=self.count_default,
            help=f"{self.count_help} ({self.count_default})",
        )
        parser.add_argument("--seed", type=int, default=0, help="Startwert des Zufalls (0)")
        parser.add_argument(
            "--if-missing",
            action="store_true",
            help="Nur rechnen, wenn noch keine Kennzahlen gespeichert sind.",
        )

    def handle(self, *args, seed, if_missing, **options):
        count = options[self.count_option]
        if count < 1:
            raise CommandError(f"--{self.count_option} muss mindestens 1 sein.")
        known = stored(self.engine)
        if if_missing and known is not None and self.is_current(known.figures):
            self.stdout.write(f"Statistik vorhanden ({known.deals} Partien), nichts zu tun.")
            return
        figures = self.simulate(count, seed)
        EngineStatistics.objects.update_or_create(
            engine=self.engine,
            defaults={"deals": count, "seed": seed, "figures": figures, "computed_at": clock.now()},
        )
        self.stdout.write(self.summary(count, figures))


# --- One horizontal bar chart, drawn by play/_bar_chart.html -----------------------------------

CHART_WIDTH = 360  # about a phone's column: 12px text stays 12px there
CHART_RIGHT = 52  # room for the value right of the longest bar („100 %“)
CHART_TOP = 8
CHART_AXIS = 30  # tick labels and the axis title under the bars


def bar_chart(
    bars: list[dict],
    *,
    scale: float,
    tick_every: float,
    tick_text=lambda value: number(value),
    axis_title: str,
    label_width: int = 110,
) -> dict:
    """Geometry of a horizontal bar chart. ``bars``: dicts with ``label``, ``value`` (in the
    axis' unit), ``text`` (the value as shown) and optionally ``whisker`` (a second value
    drawn as a thin line, e.g. the 90th percentile) and ``key`` (a CSS modifier)."""
    step, height = 30, 18
    plot = CHART_WIDTH - label_width - CHART_RIGHT
    bottom = CHART_TOP + step * len(bars)

    def x(value: float) -> float:
        return label_width + plot * min(value / scale, 1.0) if scale else label_width

    drawn = []
    for index, bar in enumerate(bars):
        y = CHART_TOP + index * step + (step - height) / 2
        end = x(bar["value"])
        whisker = bar.get("whisker")
        drawn.append(
            {
                **bar,
                "y": coord(y),
                "height": height,
                "label_y": coord(y + height / 2),
                "width": coord(max(end - label_width, 1)),
                "text_x": coord(max(end, x(whisker) if whisker is not None else end) + 4),
                "whisker_x": coord(x(whisker)) if whisker is not None else "",
                "bar_end_y": coord(y + height),
            }
        )
    ticks = []
    value = 0.0
    while value <= scale + 1e-9:
        ticks.append({"x": coord(x(value)), "text": tick_text(value)})
        value += tick_every
    return {
        "width": CHART_WIDTH,
        "height": bottom + CHART_AXIS,
        "left": label_width,
        "label_x": label_width - 8,
        "right": label_width + plot,
        "top": CHART_TOP,
        "bottom": coord(bottom),
        "tick_y": coord(bottom + 14),
        "title_y": coord(bottom + CHART_AXIS - 2),
        "axis_title": axis_title,
        "ticks": ticks,
        "bars": drawn,
    }


def nice_scale(largest: float, steps: int = 4) -> tuple[float, float]:
    """(axis end, tick distance) for values up to ``largest``: 1, 2 or 5 times a power of ten."""
    import math

    if largest <= 0:
        return 1.0, 0.25
    raw = largest / steps
    power = 10 ** math.floor(math.log10(raw))
    tick = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    return tick * math.ceil(largest / tick - 1e-9), tick


def median(values: list[float]) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def quantile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def margin(count: int) -> int:
    """Percentage points a share from ``count`` cases may move by chance (two standard
    errors at 50 %, rounded up): what a section says about its precision."""
    return max(1, -int(-200 * (0.25 / count) ** 0.5 // 1)) if count else 100
