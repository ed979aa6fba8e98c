from django.core.management.base import BaseCommand

from games.play import replays


class Command(BaseCommand):
    help = (
        f"Löscht Partie-Wiederholungen, die älter als {replays.KEPT_DAYS} Tage sind und "
        "kein Konto gemerkt hat (täglich ausführen)."
    )

    def handle(self, *args, **options):
        count = replays.cleanup()
        self.stdout.write(f"{count} alte Partie-Wiederholung(en) gelöscht.")
