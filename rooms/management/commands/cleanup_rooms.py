from django.core.management.base import BaseCommand

from rooms.cleanup import cleanup


class Command(BaseCommand):
    help = "Entfernt Online-Räume, in denen 24 Stunden lang niemand etwas getan hat."

    def handle(self, *args, **options):
        removed = cleanup()
        self.stdout.write(
            f"{removed} {'Raum' if removed == 1 else 'Räume'} ohne Aktivität entfernt."
        )
