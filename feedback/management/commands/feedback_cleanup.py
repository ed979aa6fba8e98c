"""Keeps the privacy promise of the report form; run daily (cron/systemd timer).

- e-mail addresses of reports closed (korrigiert/abgelehnt) more than 30 days ago are erased,
- spam older than 30 days is deleted.
"""

from datetime import timedelta

from django.core.management.base import BaseCommand
from django.utils import timezone

from feedback.models import ErrorReport

RETENTION = timedelta(days=30)


class Command(BaseCommand):
    help = "Löscht E-Mail-Adressen erledigter Meldungen und alten Spam (nach 30 Tagen)."

    def handle(self, *args, **options):
        cutoff = timezone.now() - RETENTION
        closed = [ErrorReport.Status.CORRECTED, ErrorReport.Status.REJECTED]
        erased = (
            ErrorReport.objects.filter(status__in=closed, status_changed_at__lt=cutoff)
            .exclude(email="")
            .update(email="")
        )
        deleted, _ = ErrorReport.objects.filter(is_spam=True, created_at__lt=cutoff).delete()
        self.stdout.write(f"E-Mail-Adressen gelöscht: {erased}; Spam-Meldungen gelöscht: {deleted}")
