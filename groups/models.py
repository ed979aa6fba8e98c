"""Spielegruppen: groups of people who play together, their members and game nights.

Private by default. Nobody needs an account: a guest member is identified by a
personal secret link (its token ends up in a signed cookie, see identity.py), an
account member by the user FK. Joining needs the group's invite token.
"""

import secrets
import uuid
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

from games import clock

NAME_MAX_LENGTH = 80
MEMBER_NAME_MAX_LENGTH = 40
# Slugs that are paths of their own under /spielegruppen/.
RESERVED_SLUGS = {"neu"}


def new_token() -> str:
    """A secret for invite, personal and calendar links: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


class PlayGroupQuerySet(models.QuerySet):
    def listed(self):
        """Groups anyone may see in lists, the sitemap and on game pages."""
        return self.filter(is_public=True, is_hidden=False)


class PlayGroup(models.Model):
    name = models.CharField("Name", max_length=NAME_MAX_LENGTH)
    slug = models.SlugField("Adresse (Slug)", max_length=100, unique=True)
    description = models.TextField("Beschreibung", max_length=2000, blank=True)
    region = models.CharField(
        "Region",
        max_length=80,
        blank=True,
        help_text="Freier Text, z. B. „Leipzig-Süd“ oder „online“.",
    )
    is_public = models.BooleanField(
        "öffentlich",
        default=False,
        help_text="Öffentliche Gruppen stehen in der Liste und auf den Spielseiten. "
        "Beitreten geht trotzdem nur mit dem Einladungslink.",
    )
    is_hidden = models.BooleanField(
        "von der Redaktion ausgeblendet",
        default=False,
        help_text="Ausgeblendete Gruppen erscheinen nirgends; nur ihre Mitglieder sehen sie "
        "noch, der Einladungslink funktioniert nicht mehr.",
    )
    hidden_reason = models.CharField("Grund (intern)", max_length=200, blank=True)
    games = models.ManyToManyField(
        "games.Game", blank=True, related_name="play_groups", verbose_name="Spiele"
    )
    invite_token = models.CharField(
        "Einladungs-Token", max_length=32, unique=True, default=new_token
    )
    calendar_token = models.CharField(
        "Kalender-Token", max_length=32, unique=True, default=new_token
    )
    created_at = models.DateTimeField("gegründet", default=clock.now)

    objects = PlayGroupQuerySet.as_manager()

    class Meta:
        verbose_name = "Spielegruppe"
        verbose_name_plural = "Spielegruppen"
        ordering = ["name"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("groups:detail", kwargs={"slug": self.slug})

    def get_invite_url(self):
        return reverse("groups:join", kwargs={"slug": self.slug, "token": self.invite_token})

    def get_calendar_url(self):
        return reverse("groups:calendar", kwargs={"slug": self.slug, "token": self.calendar_token})

    @property
    def is_listed(self) -> bool:
        return self.is_public and not self.is_hidden


class Member(models.Model):
    class Role(models.TextChoices):
        # Founded the group or took it over (groups.services.hand_over): may delete it.
        FOUNDER = "gruender", "Leitung"
        ORGANISER = "organisator", "Organisator/in"
        MEMBER = "mitglied", "Mitglied"

    group = models.ForeignKey(PlayGroup, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="play_group_memberships",
        verbose_name="Konto",
    )
    name = models.CharField("Name in der Gruppe", max_length=MEMBER_NAME_MAX_LENGTH)
    role = models.CharField("Rolle", max_length=12, choices=Role, default=Role.MEMBER)
    # The personal link of a guest (accounts log in instead, but keep one for symmetry).
    token = models.CharField("persönlicher Token", max_length=32, unique=True, default=new_token)
    joined_at = models.DateTimeField("beigetreten", default=clock.now)

    class Meta:
        verbose_name = "Mitglied"
        verbose_name_plural = "Mitglieder"
        ordering = ["joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["group", "user"],
                condition=Q(user__isnull=False),
                name="one_membership_per_account_and_group",
            ),
        ]

    def __str__(self):
        return self.name

    @property
    def is_guest(self) -> bool:
        return self.user_id is None

    @property
    def can_manage(self) -> bool:
        return self.role in (self.Role.FOUNDER, self.Role.ORGANISER)

    @property
    def is_founder(self) -> bool:
        return self.role == self.Role.FOUNDER

    def get_personal_url(self):
        return reverse("groups:me", kwargs={"slug": self.group.slug, "token": self.token})


class GameNight(models.Model):
    group = models.ForeignKey(PlayGroup, on_delete=models.CASCADE, related_name="nights")
    title = models.CharField("Titel", max_length=80, default="Spieleabend")
    place = models.CharField("Ort", max_length=120, blank=True)
    note = models.TextField("Notiz", max_length=1000, blank=True)
    duration_minutes = models.PositiveSmallIntegerField("Dauer (Minuten)", default=180)
    games = models.ManyToManyField(
        "games.Game", blank=True, related_name="game_nights", verbose_name="Spiele"
    )
    fixed_option = models.ForeignKey(
        "DateOption",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="festgelegter Termin",
    )
    # Calendar apps recognise the event by UID and take a higher SEQUENCE as an update.
    uid = models.UUIDField("Kalender-UID", default=uuid.uuid4, unique=True, editable=False)
    sequence = models.PositiveIntegerField("Kalender-Fassung", default=0)
    created_by = models.ForeignKey(
        Member,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="vorgeschlagen von",
    )
    created_at = models.DateTimeField("angelegt", default=clock.now)
    updated_at = models.DateTimeField("geändert", default=clock.now)

    class Meta:
        verbose_name = "Spieleabend"
        verbose_name_plural = "Spieleabende"
        ordering = ["-created_at"]

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return reverse("groups:night", kwargs={"slug": self.group.slug, "night": self.pk})

    @property
    def starts_at(self):
        return self.fixed_option.starts_at if self.fixed_option_id else None

    @property
    def ends_at(self):
        start = self.starts_at
        return start + timedelta(minutes=self.duration_minutes) if start else None


class DateOption(models.Model):
    night = models.ForeignKey(GameNight, on_delete=models.CASCADE, related_name="options")
    starts_at = models.DateTimeField("Beginn")

    class Meta:
        verbose_name = "Terminvorschlag"
        verbose_name_plural = "Terminvorschläge"
        ordering = ["starts_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["night", "starts_at"], name="one_option_per_start"),
        ]

    def __str__(self):
        return f"{self.starts_at:%Y-%m-%d %H:%M}"


class Answer(models.Model):
    class Value(models.TextChoices):
        YES = "ja", "ja"
        MAYBE = "vielleicht", "vielleicht"
        NO = "nein", "nein"

    option = models.ForeignKey(DateOption, on_delete=models.CASCADE, related_name="answers")
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="answers")
    value = models.CharField("Antwort", max_length=10, choices=Value)
    answered_at = models.DateTimeField("geantwortet", default=clock.now)

    class Meta:
        verbose_name = "Antwort"
        verbose_name_plural = "Antworten"
        constraints = [
            models.UniqueConstraint(fields=["option", "member"], name="one_answer_per_option"),
        ]

    def __str__(self):
        return f"{self.member}: {self.value}"


class Rsvp(models.Model):
    night = models.ForeignKey(GameNight, on_delete=models.CASCADE, related_name="rsvps")
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="rsvps")
    attending = models.BooleanField("kommt")
    answered_at = models.DateTimeField("geantwortet", default=clock.now)

    class Meta:
        verbose_name = "Zu- oder Absage"
        verbose_name_plural = "Zu- und Absagen"
        constraints = [
            models.UniqueConstraint(fields=["night", "member"], name="one_rsvp_per_night"),
        ]

    def __str__(self):
        return f"{self.member}: {'zugesagt' if self.attending else 'abgesagt'}"
