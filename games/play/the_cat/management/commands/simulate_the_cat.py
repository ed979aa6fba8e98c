"""Simulate The Cat bot games and store the figures of the article's statistics."""

from games.engines import the_cat
from games.play.statistics import SimulateCommand, number
from games.play.the_cat import statistics


class Command(SimulateCommand):
    help = (
        "Simuliert Spiele The Cat mit den Computergegnern – je Bot-Tempo und Spielerzahl, mit "
        "Schummelkatze und zu zweit mit jeder Wahl der entfernten Launen – und speichert die "
        "Kennzahlen für den Abschnitt „Statistik“."
    )
    engine = statistics.ENGINE
    count_option = "games"
    count_default = 6  # about ten seconds on a busy machine; --games 200 for finer numbers
    count_help = "Spiele je Einstellung"

    def is_current(self, figures):
        """Figures of the bots that play now (``make run`` recomputes older ones)."""
        return figures.get("bots") == the_cat.BOTS_VERSION

    def simulate(self, count, seed):
        return statistics.compute(count, seed)

    def summary(self, count, figures):
        rounds = sum(
            row["rounds"]
            for by_players in figures["speeds"].values()
            for row in by_players.values()
        )
        return (
            f"Statistik gespeichert: je {count} Spiele pro Einstellung, "
            f"{number(rounds)} Runden nach Tempo und Spielerzahl."
        )
