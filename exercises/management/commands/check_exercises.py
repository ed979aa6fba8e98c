"""Runs every stored exercise through its engine (like the worked examples' checks).

Fails (exit status 1) when the engine no longer accepts an exercise's intended answer,
accepts its intended wrong answer, or gives the wrong answer another reason than the
exercise states. ``--shipped`` checks the files in exercises/content/ instead.
"""

from django.core.management.base import BaseCommand, CommandError

from exercises import content_loader, kinds
from exercises.models import Exercise


class Command(BaseCommand):
    help = "Prüft alle Übungen mit den Engines: richtige Antwort angenommen, falsche abgelehnt."

    def add_arguments(self, parser):
        parser.add_argument(
            "--shipped", action="store_true", help="die mitgelieferten Dateien statt der Datenbank"
        )

    def handle(self, *args, **options):
        if options["shipped"]:
            items = [
                (f"{data['slug']} {number}: {item['title']}", item["setup"], item["expect"])
                for path in content_loader.content_files()
                for data in [content_loader.read(path)]
                for number, item in enumerate(data.get("exercises", []), start=1)
            ]
        else:
            items = [
                (f"{e.game.slug} {e.position + 1}: {e.title}", e.setup or {}, e.expect)
                for e in Exercise.objects.select_related("game").order_by("game__slug", "position")
            ]
        problems = []
        for label, setup, expect in items:
            problem = kinds.mismatch(setup, expect)
            if problem:
                problems.append(f"{label} – {problem}")
        for line in problems:
            self.stderr.write(line)
        if problems:
            raise CommandError(
                f"{len(problems)} von {len(items)} Übungen widersprechen der Engine."
            )
        self.stdout.write(f"{len(items)} Übungen geprüft, die Engine bestätigt alle.")
