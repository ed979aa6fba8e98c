"""Every retention period the Datenschutzerklärung promises, in one daily command.

Runs the apps' own cleanups (each may also run alone) and removes failed login attempts
older than a day (django-axes drops them after the 15-minute cool-off only when the next
attempt comes in).
"""

from datetime import timedelta

from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.utils import timezone

COMMANDS = [
    "cleanup_demos",
    "cleanup_replays",
    "cleanup_rooms",
    "feedback_cleanup",
    "accounts_cleanup",
    "cleanup_exercises",
]
LOGIN_ATTEMPTS_KEPT = timedelta(days=1)


class Command(BaseCommand):
    help = (
        "Löscht, was die Datenschutzerklärung nach Fristen verspricht: alte Demo-Partien und "
        "Partie-Wiederholungen, "
        "Räume, E-Mail-Adressen erledigter Meldungen, Spam, unbestätigte Konten, abgelaufene "
        "Sitzungen, alte Anmeldeversuche und Übungsstände (täglich ausführen)."
    )

    def handle(self, *args, **options):
        for name in COMMANDS:
            call_command(name, stdout=self.stdout)
        call_command("clearsessions")
        self.stdout.write("Abgelaufene Sitzungen gelöscht.")
        from axes.models import AccessAttempt

        cutoff = timezone.now() - LOGIN_ATTEMPTS_KEPT
        deleted, _ = AccessAttempt.objects.filter(attempt_time__lt=cutoff).delete()
        self.stdout.write(f"{deleted} alte Anmeldeversuche gelöscht.")
