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
