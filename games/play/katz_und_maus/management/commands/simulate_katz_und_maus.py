"""Simulate Katz und Maus bot games and store the figures of the article's statistics."""

from games.play.katz_und_maus import statistics
from games.play.statistics import SimulateCommand, percent


class Command(SimulateCommand):
    help = (
        "Simuliert Spiele Katz und Maus mit den Computergegnern – je Spielerzahl mit den Regeln "
        "der Quelle, mit unserer Variante (Baustapel werden neuer Kartenstock) und zwei weiteren "
        "Abweichungen – und speichert die Kennzahlen für den Abschnitt „Statistik“."
    )
    engine = statistics.ENGINE
    count_option = "games"
    # 4 rule sets × 5 player counts × 200 games, on the machine's cores (see README).
    count_default = 200
    count_help = "Spiele je Spielerzahl und Regel"

    def simulate(self, count, seed):
        return statistics.compute(count, seed)

    def is_current(self, figures):
        return statistics.is_current(figures)

    def summary(self, count, figures):
        rows = figures["runs"]["standard"]["rows"]
        endings = ", ".join(f"{row['players']}: {percent(row['stock_empty'], 0)}" for row in rows)
        return (
            f"Statistik gespeichert: je {count} Spiele pro Spielerzahl und Regel. "
            f"Spielerstapel geleert (Spieler: Anteil) – {endings}."
        )
