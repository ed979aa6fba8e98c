"""Simulate Katz und Maus bot games and store the figures of the article's statistics."""

from games.play.katz_und_maus import statistics
from games.play.statistics import SimulateCommand, percent


class Command(SimulateCommand):
    help = (
        "Simuliert Spiele Katz und Maus mit den Computergegnern – je Spielerzahl mit den Regeln "
        "dieser Seite und mit drei abweichenden Regeln – und speichert die Kennzahlen für den "
        "Abschnitt „Statistik“."
    )
    engine = statistics.ENGINE
    count_option = "games"
    # A few seconds: 4 rule sets × 5 player counts × 10 games. More with --games.
    count_default = 10
    count_help = "Spiele je Spielerzahl und Regel"

    def simulate(self, count, seed):
        return statistics.compute(count, seed)

    def summary(self, count, figures):
        rows = figures["runs"]["standard"]["rows"]
        endings = ", ".join(f"{row['players']}: {percent(row['stock_empty'], 0)}" for row in rows)
        return (
            f"Statistik gespeichert: je {count} Spiele pro Spielerzahl und Regel. "
            f"Spielerstapel geleert (Spieler: Anteil) – {endings}."
        )
