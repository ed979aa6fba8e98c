"""Simulate random Kätzchen-Angeln deals and store the figures the article shows."""

from games.play.kaetzchen import statistics
from games.play.statistics import SimulateCommand


class Command(SimulateCommand):
    help = (
        "Simuliert zufällige Partien Kätzchen-Angeln (wer beginnt, wechselt von Partie zu Partie), "
        "dieselben Partien noch einmal mit der Hausregel „wer gewinnt, deckt noch einmal auf“, "
        "und speichert die Kennzahlen für den Abschnitt „Statistik“."
    )
    engine = "kaetzchen"
    count_option = "deals"
    count_default = 20000

    def simulate(self, count, seed):
        return statistics.compute(count, seed)

    def is_current(self, figures):
        return statistics.is_current(figures)

    def summary(self, count, figures):
        return (
            f"Statistik gespeichert: {count} Partien, Median {figures['median_moves']} Züge, "
            f"Mittel {figures['mean_moves']:.1f}, über 500: {figures['share_over_500']:.1%}, "
            f"über 1000: {figures['share_over_1000']:.1%}, Limit: {figures['share_limit']:.2%}, "
            f"Startspieler gewinnt: {figures['starter_win_rate']:.1%}; mit Extrazug Median "
            f"{figures['extra_turn_rule']['median_moves']} Züge."
        )
