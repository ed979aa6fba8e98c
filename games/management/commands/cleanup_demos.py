from django.core.management.base import BaseCommand

from games.play import demo_service


class Command(BaseCommand):
    help = "Löscht Demo-Partien, die 30 Tage niemand angefasst hat (täglich ausführen)."

    def handle(self, *args, **options):
        count = demo_service.cleanup()
        self.stdout.write(f"{count} alte Demo-Partie(n) gelöscht.")
