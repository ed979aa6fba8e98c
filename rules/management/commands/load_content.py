from django.core.management.base import BaseCommand

from rules.content_loader import load_all


class Command(BaseCommand):
    help = "Lädt die mitgelieferten Spiele und Regelartikel; vorhandene Spiele bleiben unverändert."

    def handle(self, *args, **options):
        report = load_all()
        for slug in report.created:
            self.stdout.write(f"angelegt: {slug}")
        for slug in report.skipped:
            self.stdout.write(f"vorhanden, nicht verändert: {slug}")
