"""Simulate Alpaka bot games and store the figures of the article's statistics."""

from games.play.alpaka import statistics
from games.play.statistics import SimulateCommand, number


class Command(SimulateCommand):
    help = (
        "Simuliert Spiele Alpaka mit den Computergegnern – je Spielerzahl von 2 bis 6 – und "
        "speichert die Kennzahlen für den Abschnitt „Statistik“ (lohnt Aussteigen, Punkte je "
        "Runde, Spiellänge)."
    )
    engine = statistics.ENGINE
    count_option = "games"
    count_default = 40  # a few seconds; --games 1000 for finer shares
    count_help = "Spiele je Spielerzahl"

    def simulate(self, count, seed):
        return statistics.compute(count, seed)

    def summary(self, count, figures):
        rows = figures["rows"]
        quits = sum(r["quits"] for r in rows)
        paid = sum(r["quit_paid"] for r in rows)
        return (
            f"Statistik gespeichert: je {count} Spiele pro Spielerzahl. "
            f"Ausstiege mit Alternative: {number(quits)}, davon zahlten sich {number(paid)} aus."
        )
