"""Exercises („Üben“) as content, and each visitor's progress.

An exercise belongs to a game, has a place in its list (``position``; the page numbers
them 1, 2, … and anchors them ``uebung-<n>``) and may name the article section it
practises. Its position and answers are JSON for the engine (``setup``, ``expect``),
edited in typed fields (``exercises.admin``; see ``exercises.kinds``).

Progress is kept per visitor id (``games.visitors``): an account sees the progress of
every id it adopted, and logging in moves a browser's progress to the account's id.
"""

from django.db import models

from games.models import Game
from rules.models import Section


class ExerciseQuerySet(models.QuerySet):
    def published(self):
        return self.filter(is_published=True)


class Exercise(models.Model):
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="exercises", verbose_name="Spiel"
    )
    position = models.PositiveSmallIntegerField("Reihenfolge", default=0)
    title = models.CharField("Titel", max_length=120)
    question = models.TextField(
        "Frage (Markdown)", help_text="Was zu tun ist – die Antwort gibt man auf dem Tisch."
    )
    section = models.CharField(
        "Abschnitt des Artikels",
        max_length=20,
        choices=Section.Kind.choices,
        blank=True,
        help_text="Die Übung erscheint als Karte neben diesem Abschnitt; falsche Antworten "
        "verlinken ihn.",
    )
    right_text = models.TextField(
        "Erklärung bei richtiger Antwort (Markdown)", help_text="Welche Regel gilt und warum."
    )
    wrong_text = models.TextField(
        "Erklärung bei falscher Antwort (Markdown)",
        help_text="Warum nicht – ohne die Lösung zu verraten.",
    )
    solution_text = models.TextField(
        "Lösung (Markdown)", help_text="Erscheint nach dem zweiten Fehlversuch."
    )
    setup = models.JSONField("Stellung und Antworten", null=True, blank=True)
    expect = models.JSONField("Erwartete Begründung", null=True, blank=True)
    is_published = models.BooleanField("Veröffentlicht", default=True)
    updated_at = models.DateTimeField("zuletzt geändert", auto_now=True)

    objects = ExerciseQuerySet.as_manager()

    class Meta:
        ordering = ["game", "position", "pk"]
        verbose_name = "Übung"
        verbose_name_plural = "Übungen"

    def __str__(self):
        return f"{self.game.title}: {self.title}"


class ExerciseProgress(models.Model):
    """One visitor's tries at one exercise."""

    visitor = models.CharField("Besucher-ID", max_length=64)
    exercise = models.ForeignKey(
        Exercise, on_delete=models.CASCADE, related_name="progress", verbose_name="Übung"
    )
    misses = models.PositiveSmallIntegerField("Fehlversuche", default=0)
    solved_at = models.DateTimeField("gelöst am", null=True, blank=True)
    updated_at = models.DateTimeField("zuletzt geübt", auto_now=True)

    class Meta:
        verbose_name = "Übungsstand"
        verbose_name_plural = "Übungsstände"
        constraints = [
            models.UniqueConstraint(fields=["visitor", "exercise"], name="progress_once"),
        ]
        indexes = [models.Index(fields=["visitor"], name="progress_visitor")]

    def __str__(self):
        return f"{self.exercise}: {'gelöst' if self.solved else f'{self.misses} Fehlversuche'}"

    @property
    def solved(self) -> bool:
        return self.solved_at is not None
