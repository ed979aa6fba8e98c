import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse

from games.models import Game

MESSAGE_MIN_LENGTH = 8
MESSAGE_MAX_LENGTH = 2000
REFERENCE_MAX_LENGTH = 300


def new_status_token() -> str:
    # 32 random bytes: the link is the reader's only key to the report.
    return secrets.token_urlsafe(32)


class ErrorReportQuerySet(models.QuerySet):
    def not_spam(self):
        return self.filter(is_spam=False)

    def new(self):
        return self.not_spam().filter(status=ErrorReport.Status.NEW)

    def held(self):
        """Held back by the per-game limit: possibly genuine, an editor decides."""
        return self.not_spam().filter(status=ErrorReport.Status.HELD)


class ErrorReport(models.Model):
    """A reader's hint that something on a game page does not match the rulebook."""

    class Status(models.TextChoices):
        NEW = "neu", "eingegangen"
        # Over the per-game limit: kept out of spam so a flood never buries a genuine report.
        HELD = "zu-pruefen", "zurückgehalten – Echtheit prüfen"
        IN_REVIEW = "in-pruefung", "in Prüfung"
        CORRECTED = "korrigiert", "korrigiert"
        REJECTED = "abgelehnt", "abgelehnt"

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="error_reports", verbose_name="Spiel"
    )
    section_kind = models.CharField("Abschnitt", max_length=20, blank=True)
    section_label = models.CharField("Abschnitt (Überschrift)", max_length=120, blank=True)
    message = models.TextField("Was stimmt nicht?", max_length=MESSAGE_MAX_LENGTH)
    rulebook_reference = models.CharField(
        "Laut Regelheft", max_length=REFERENCE_MAX_LENGTH, blank=True
    )
    email = models.EmailField("E-Mail für Antwort", blank=True)
    page_url = models.URLField("Seite", max_length=500)
    article_version = models.PositiveIntegerField("Fassung des Artikels", null=True, blank=True)
    # The game position the reader looked at (a demo or a replay step): the record cut
    # there and whose view it was (games.play.positions); editors see it as a board.
    position = models.JSONField("Stellung", null=True, blank=True, editable=False)

    status = models.CharField(
        "Status", max_length=12, choices=Status.choices, default=Status.NEW, db_index=True
    )
    public_answer = models.TextField(
        "Antwort der Redaktion",
        blank=True,
        help_text="Öffentlich: erscheint auf der privaten Statusseite der meldenden Person "
        "und in der Benachrichtigung.",
    )
    internal_note = models.TextField(
        "Interne Notiz", blank=True, help_text="Nur für die Redaktion."
    )
    status_changed_at = models.DateTimeField("Status geändert am", null=True, blank=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="bearbeitet von",
    )
    reader_notified_at = models.DateTimeField("Leser benachrichtigt am", null=True, blank=True)

    token = models.CharField(max_length=64, unique=True, default=new_status_token, editable=False)
    # The reporting browser's visitor id (games/visitors.py): „Mein Bereich“ lists the
    # reports of an account's visitor ids, and accepted reports earn that reader points.
    visitor = models.CharField("Besucher", max_length=64, blank=True, db_index=True, editable=False)
    is_spam = models.BooleanField("Spam", default=False, db_index=True)
    spam_reasons = models.CharField("Spam-Gründe", max_length=200, blank=True)
    fill_seconds = models.PositiveIntegerField("Ausfüllzeit (s)", null=True, blank=True)
    created_at = models.DateTimeField("eingegangen am", auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField("zuletzt geändert", auto_now=True)

    objects = ErrorReportQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "Fehlermeldung"
        verbose_name_plural = "Fehlermeldungen"
        indexes = [models.Index(fields=["is_spam", "status", "-created_at"])]

    def __str__(self):
        text = " ".join(self.message.split())
        return f"{self.game.title}: {text[:60]}{'…' if len(text) > 60 else ''}"

    def get_status_url(self):
        return reverse("feedback:status", kwargs={"token": self.token})

    def get_section_url(self):
        url = self.game.get_absolute_url()
        return f"{url}#{self.section_kind}" if self.section_kind else url

    @property
    def reader_status_label(self):
        """What the reader sees: a held report has simply been received."""
        if self.status == self.Status.HELD:
            return self.Status.NEW.label
        return self.get_status_display()

    @property
    def is_closed(self):
        return self.status in (self.Status.CORRECTED, self.Status.REJECTED)


class Vote(models.Model):
    """One browser's 1–5 star rating of a game; voting again replaces it."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="votes", verbose_name="Spiel"
    )
    visitor = models.CharField("Besucher", max_length=64)
    stars = models.PositiveSmallIntegerField(
        "Sterne", validators=[MinValueValidator(1), MaxValueValidator(5)]
    )
    created_at = models.DateTimeField("abgegeben am", auto_now_add=True)
    updated_at = models.DateTimeField("zuletzt geändert", auto_now=True)

    class Meta:
        ordering = ["-updated_at"]
        verbose_name = "Bewertung"
        verbose_name_plural = "Bewertungen"
        constraints = [
            models.UniqueConstraint(fields=["game", "visitor"], name="vote_once_per_visitor"),
            models.CheckConstraint(
                condition=Q(stars__gte=1) & Q(stars__lte=5), name="vote_stars_1_to_5"
            ),
        ]

    def __str__(self):
        return f"{self.game.title}: {self.stars} ★"
