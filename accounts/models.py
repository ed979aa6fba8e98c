"""Reader accounts: which visitor ids belong to an account, and the points ledger.

The site keys everything a reader does (votes, error reports, demo games, room seats)
by the anonymous visitor id in the signed cookie (games/visitors.py). An account
does not replace that: it owns one *primary* visitor id, which every browser the
reader logs in with switches to, and remembers every other id it adopted.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q


class VisitorLink(models.Model):
    """One visitor id adopted by an account; one of them per account is the primary id."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="visitor_links",
        verbose_name="Konto",
    )
    # Unique: a visitor id belongs to at most one account (a shared computer must not
    # hand one reader's votes to the next).
    visitor = models.CharField("Besucher-ID", max_length=64, unique=True)
    is_primary = models.BooleanField("Haupt-ID", default=False)
    linked_at = models.DateTimeField("verknüpft am", auto_now_add=True)

    class Meta:
        verbose_name = "Besucher-Verknüpfung"
        verbose_name_plural = "Besucher-Verknüpfungen"
        ordering = ["-linked_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"], condition=Q(is_primary=True), name="one_primary_visitor_per_user"
            )
        ]

    def __str__(self):
        return f"{self.user} · {self.visitor[:8]}…"


class PointEntry(models.Model):
    """One earned action in the points ledger.

    The total is the sum of the entries; nothing is stored twice because every
    (reason, object) pair can earn points only once at all – the first vote on a
    game, the acceptance of one report. Earned without an account, an entry waits
    on the visitor id (``user`` empty) until an account adopts that id.
    """

    class Reason(models.TextChoices):
        FIRST_VOTE = "erste-stimme", "erste Stimme für ein Spiel"
        REPORT_ACCEPTED = "meldung-angenommen", "Fehlermeldung angenommen"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="point_entries",
        verbose_name="Konto",
    )
    visitor = models.CharField("Besucher-ID", max_length=64, db_index=True)
    reason = models.CharField("Grund", max_length=24, choices=Reason.choices)
    # The game (first vote) or the error report (accepted) the points are for.
    object_id = models.PositiveBigIntegerField("Objekt-ID")
    points = models.PositiveSmallIntegerField("Punkte")
    note = models.CharField("Beschreibung", max_length=200, blank=True)
    created_at = models.DateTimeField("verdient am", auto_now_add=True)

    class Meta:
        verbose_name = "Punkte-Eintrag"
        verbose_name_plural = "Punkte-Einträge"
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["reason", "object_id"], name="points_once_per_object")
        ]
        indexes = [models.Index(fields=["user", "-created_at"])]

    def __str__(self):
        return f"+{self.points} · {self.get_reason_display()}"
