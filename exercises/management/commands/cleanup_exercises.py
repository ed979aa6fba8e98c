from django.core.management.base import BaseCommand

from exercises import progress


class Command(BaseCommand):
    help = "Löscht Übungsstände ohne Konto, die ein Jahr niemand angefasst hat (täglich ausführen)."

    def handle(self, *args, **options):
        count = progress.cleanup()
        self.stdout.write(f"{count} alte Übungsstände gelöscht.")
