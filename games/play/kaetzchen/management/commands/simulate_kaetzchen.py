"""Simulate random Kätzchen-Angeln deals and store the figures the article shows."""

from django.core.management.base import BaseCommand, CommandError

from games import clock
from games.engines import kaetzchen
from games.models import EngineStatistics

ENGINE = "kaetzchen"


class Command(BaseCommand):
    help = (
        "Simuliert zufällige Partien Kätzchen-Angeln (wer beginnt, wechselt von Partie zu Partie) und speichert "
        "die Kennzahlen für den Abschnitt „Statistik“."
    )

    def add_arguments(self, parser):
        parser.add_argument("--deals", type=int, default=20000, help="Zahl der Partien (20000)")
        parser.add_argument("--seed", type=int, default=0, help="Startwert des Zufalls (0)")
        parser.add_argument(
            "--if-missing",
            action="store_true",
            help="Nur rechnen, wenn noch keine Kennzahlen gespeichert sind.",
        )

    def handle(self, *args, deals, seed, if_missing, **options):
        if deals < 1:
            raise CommandError("--deals muss mindestens 1 sein.")
        stored = EngineStatistics.objects.filter(engine=ENGINE).first()
        if if_missing and stored is not None:
            self.stdout.write(f"Statistik vorhanden ({stored.deals} Partien), nichts zu tun.")
            return
        figures = kaetzchen.simulate(deals, seed=seed)
        EngineStatistics.objects.update_or_create(
            engine=ENGINE,
            defaults={
                "deals": deals,
                "seed": seed,
                "figures": figures,
                "computed_at": clock.now(),
            },
        )
        self.stdout.write(
            f"Statistik gespeichert: {deals} Partien, Median {figures['median_moves']} Züge, "
            f"Mittel {figures['mean_moves']:.1f}, über 500: {figures['share_over_500']:.1%}, "
            f"über 1000: {figures['share_over_1000']:.1%}, Limit: {figures['share_limit']:.2%}, "
            f"Startspieler gewinnt: {figures['starter_win_rate']:.1%}."
        )
