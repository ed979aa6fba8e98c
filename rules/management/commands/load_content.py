from django.core.management.base import BaseCommand

from exercises.content_loader import load_all as load_exercises
from rules.content_loader import load_all
from sleeves.content_loader import load_all as load_sleeves


class Command(BaseCommand):
    help = "Lädt die mitgelieferten Spiele und Regelartikel; vorhandene Spiele bleiben unverändert."

    def handle(self, *args, **options):
        report = load_all()
        for slug in report.created:
            self.stdout.write(f"angelegt: {slug}")
        for slug in report.skipped:
            self.stdout.write(f"vorhanden, nicht verändert: {slug}")
        for item in report.newer:
            self.stdout.write(
                f"neue mitgelieferte Fassung (im Admin übernehmen oder verwerfen): {item}"
            )
        # Sleeve data after the games: card formats need their game.
        sleeves = load_sleeves()
        for item in sleeves.created:
            self.stdout.write(f"angelegt: {item}")
        for item in sleeves.waiting:
            self.stdout.write(f"übersprungen (fehlt noch): {item}")
        # Exercises after the games they belong to.
        exercises = load_exercises()
        for item in exercises.created:
            self.stdout.write(f"angelegt: {item}")
        for item in exercises.waiting:
            self.stdout.write(f"übersprungen (fehlt noch): {item}")
