"""Delete sign-ups never confirmed within a week (run daily, like feedback_cleanup)."""

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.utils import timezone

UNCONFIRMED_DAYS = 7


class Command(BaseCommand):
    help = "Löscht Konten, die nicht binnen einer Woche bestätigt wurden."

    def handle(self, *args, **options):
        cutoff = timezone.now() - timedelta(days=UNCONFIRMED_DAYS)
        # Never logged in and no visitor id: an unconfirmed sign-up, not a blocked reader.
        stale = get_user_model().objects.filter(
            is_active=False,
            is_staff=False,
            last_login__isnull=True,
            date_joined__lt=cutoff,
            visitor_links__isnull=True,
        )
        deleted = stale.count()
        stale.delete()
        self.stdout.write(f"{deleted} unbestätigte Konten gelöscht.")
