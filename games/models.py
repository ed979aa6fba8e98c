import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.text import slugify

from games import clock


class NamedEntry(models.Model):
    """A name with a URL-safe slug derived from it (people and publishers)."""

    name = models.CharField("Name", max_length=120, unique=True)
    slug = models.SlugField("Kürzel", max_length=140, unique=True)

    class Meta:
        abstract = True
        ordering = ["name"]

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        if not self.slug:
            self.slug = slugify(self.name)
        super().save(*args, **kwargs)


class Person(NamedEntry):
    class Meta(NamedEntry.Meta):
        verbose_name = "Person"
        verbose_name_plural = "Personen"


class Publisher(NamedEntry):
    class Meta(NamedEntry.Meta):
        verbose_name = "Verlag"
        verbose_name_plural = "Verlage"


class Mechanic(NamedEntry):
    """A way of playing (e.g. „Ablegen“); shared mechanics suggest similar games."""

    class Meta(NamedEntry.Meta):
        verbose_name = "Mechanik"
        verbose_name_plural = "Mechaniken"


def sees_drafts(user) -> bool:
    """Staff preview drafts on the site; everybody else sees published games only."""
    return user.is_authenticated and user.is_staff


class GameQuerySet(models.QuerySet):
    def published(self):
        return self.filter(is_published=True)

    def visible_to(self, user):
        return self if sees_drafts(user) else self.published()

    def for_players(self, count):
        return self.filter(players_min__lte=count, players_max__gte=count)

    def search(self, text):
        text = text.strip()
        if not text:
            return self
        return self.filter(
            Q(title__icontains=text)
            | Q(original_title__icontains=text)
            | Q(short_description__icontains=text)
            | Q(publishers__name__icontains=text)
            | Q(authors__name__icontains=text)
            # Other names of things (the published glossary): „Hilfsstapel“ finds its game.
            | Q(article__status="published", article__search_terms__icontains=text)
        ).distinct()


class DurationKind(models.TextChoices):
    ABOUT = "etwa", "etwa (Angabe der Quelle)"
    UP_TO = "bis", "bis zu (Obergrenze der Quelle)"
    ESTIMATE = "geschaetzt", "etwa (unsere Schätzung)"


class Game(models.Model):
    class Complexity(models.IntegerChoices):
        EINSTEIGER = 1, "Einsteiger"
        FORTGESCHRITTENE = 2, "Fortgeschrittene"
        KENNER = 3, "Kenner"

    title = models.CharField("Titel", max_length=120)
    slug = models.SlugField("Adresse (Slug)", max_length=120, unique=True)
    original_title = models.CharField("Originaltitel", max_length=120, blank=True)
    short_description = models.CharField(
        "Kurzbeschreibung",
        max_length=160,
        help_text="Ein Satz für Katalog und Suchmaschinen (höchstens 160 Zeichen).",
    )
    lead = models.TextField("Einleitung", blank=True, help_text="Markdown, 2–4 Sätze.")
    players_min = models.PositiveSmallIntegerField("Spieler min.")
    players_max = models.PositiveSmallIntegerField("Spieler max.")
    min_age = models.PositiveSmallIntegerField("Alter ab")
    min_age_estimated = models.BooleanField(
        "Alter von uns geschätzt",
        default=False,
        help_text="Keine Angabe von Verlag oder Quelle: Die Seite nennt das Alter als unsere Einschätzung.",
    )
    duration_minutes = models.PositiveSmallIntegerField("Dauer (Minuten)")
    duration_kind = models.CharField(
        "Art der Dauer",
        max_length=10,
        choices=DurationKind.choices,
        default=DurationKind.ABOUT,
        help_text="Wie die Quelle die Dauer angibt: ungefähr, als Obergrenze – oder gar nicht.",
    )
    year = models.PositiveSmallIntegerField("Erscheinungsjahr", null=True, blank=True)
    is_traditional = models.BooleanField(
        "traditionelles Spiel",
        default=False,
        help_text="Volksgut ohne Verlag und Erscheinungsjahr (z. B. mit einem Standardblatt).",
    )
    complexity = models.PositiveSmallIntegerField(
        "Komplexität", choices=Complexity.choices, default=Complexity.EINSTEIGER
    )
    card_count = models.PositiveSmallIntegerField("Kartenzahl", null=True, blank=True)
    article_number = models.CharField("Artikelnummer", max_length=40, blank=True)
    audience = models.CharField("Für wen", max_length=120, blank=True)
    good_to_know = models.CharField("Wissenswert", max_length=300, blank=True)
    publishers = models.ManyToManyField(
        Publisher, verbose_name="Verlage", related_name="games", blank=True
    )
    authors = models.ManyToManyField(
        Person, verbose_name="Autoren", related_name="authored_games", blank=True
    )
    illustrators = models.ManyToManyField(
        Person, verbose_name="Illustration", related_name="illustrated_games", blank=True
    )
    mechanics = models.ManyToManyField(
        Mechanic, verbose_name="Mechaniken", related_name="games", blank=True
    )
    # Picked by editors for „Ähnlich wie“; symmetrical, so one pick links both pages.
    related_games = models.ManyToManyField(
        "self", verbose_name="Ähnliche Spiele (Redaktion)", blank=True
    )
    # A key of the game registry (games.play.registry); validated there, not by
    # model choices, so a new game needs no migration.
    demo_engine = models.CharField(
        "Demo",
        max_length=20,
        blank=True,
        default="",
        help_text="Schlüssel der spielbaren Demo (leer: keine Demo).",
    )
    is_published = models.BooleanField("veröffentlicht", default=False)
    created_at = models.DateTimeField("angelegt", auto_now_add=True)
    updated_at = models.DateTimeField("zuletzt geändert", auto_now=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["title"]
        verbose_name = "Spiel"
        verbose_name_plural = "Spiele"
        constraints = [
            models.CheckConstraint(
                condition=Q(players_min__lte=models.F("players_max")),
                name="game_players_min_lte_max",
            ),
        ]

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return reverse("games:detail", kwargs={"slug": self.slug})

    def get_demo_url(self):
        return reverse("games:demo", kwargs={"slug": self.slug})

    @property
    def players_label(self):
        if self.players_min == self.players_max:
            return f"{self.players_min}"
        return f"{self.players_min}–{self.players_max}"

    @property
    def duration_label(self) -> str:
        """„etwa 20 Minuten“, „bis zu 30 Minuten“ or „etwa 15 Minuten (unsere Schätzung)“."""
        minutes = f"{self.duration_minutes} Minuten"
        if self.duration_kind == DurationKind.UP_TO:
            return f"bis zu {minutes}"
        if self.duration_kind == DurationKind.ESTIMATE:
            return f"etwa {minutes} (unsere Schätzung)"
        return f"etwa {minutes}"

    @property
    def has_demo(self):
        return bool(self.demo_engine)

    def clean(self):
        super().clean()
        from games.play import definition as registry  # the registry fills at start-up

        if self.demo_engine and registry.get(self.demo_engine) is None:
            raise ValidationError({"demo_engine": "Für diesen Schlüssel gibt es kein Spiel."})


class Edition(models.Model):
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="editions", verbose_name="Spiel"
    )
    publisher = models.ForeignKey(
        Publisher,
        on_delete=models.PROTECT,
        related_name="editions",
        verbose_name="Verlag",
        null=True,
        blank=True,
    )
    year = models.PositiveSmallIntegerField("Jahr", null=True, blank=True)
    article_number = models.CharField("Artikelnummer", max_length=40, blank=True)
    note = models.CharField("Anmerkung", max_length=200, blank=True)
    position = models.PositiveSmallIntegerField("Reihenfolge", default=0)

    class Meta:
        ordering = ["position", "year", "pk"]
        verbose_name = "Ausgabe"
        verbose_name_plural = "Ausgaben"

    def __str__(self):
        parts = [str(self.publisher) if self.publisher else "Ausgabe"]
        if self.year:
            parts.append(str(self.year))
        return " ".join(parts)


class DemoGame(models.Model):
    """One visitor's in-page demo of one game: a private table against bots.

    Game state lives in this row, never in the session dict: concurrent htmx
    requests would overwrite each other's session writes. `version` counts
    applied actions; every state-changing request names the version it expects.
    The fields mirror a room's game part (games.play.driver).
    """

    visitor = models.CharField("Besucher", max_length=64)
    engine = models.CharField("Engine", max_length=20)
    # The engine state; empty while the reader still chooses opponents and rules.
    state = models.JSONField("Zustand", null=True, blank=True)
    version = models.PositiveIntegerField("Version", default=0)
    # The reader's choices for the table: number of bots and the game's options.
    settings = models.JSONField("Einstellungen", default=dict, blank=True)
    bot_due = models.DateTimeField("Bot-Zug fällig", null=True, blank=True)
    # Seconds the table stood still because nobody watched it (games.play.driver.resume).
    clock_offset = models.FloatField("Pausen (Sekunden)", default=0)
    # The latest public events, [{"v": version, "event": {...}}], newest last.
    log = models.JSONField("Verlauf", default=list, blank=True)
    # What replays the running game (games.play.table.Table.record); None before a deal.
    record = models.JSONField("Partieprotokoll", null=True, blank=True)
    # Per-visitor facts that outlive one game (games played, starter, preferences).
    profile = models.JSONField("Profil", default=dict, blank=True)
    created_at = models.DateTimeField("angelegt", auto_now_add=True)
    updated_at = models.DateTimeField("zuletzt gespielt", auto_now=True)

    class Meta:
        verbose_name = "Demo-Partie"
        verbose_name_plural = "Demo-Partien"
        constraints = [
            models.UniqueConstraint(fields=["visitor", "engine"], name="demo_game_per_visitor"),
        ]
        indexes = [models.Index(fields=["updated_at"])]

    def __str__(self):
        return f"{self.engine} · {self.visitor[:8]}"


class EngineStatistics(models.Model):
    """Figures from simulating many random deals with an engine, for the article.

    Written by a game's management command (e.g. `simulate_<game>`), read by the
    game page, so the article quotes numbers from data, not typed by hand.
    """

    engine = models.CharField("Engine", max_length=20, unique=True)
    deals = models.PositiveIntegerField("simulierte Partien")
    seed = models.BigIntegerField("Startwert", default=0)
    figures = models.JSONField("Kennzahlen")
    computed_at = models.DateTimeField("berechnet am")

    class Meta:
        verbose_name = "Engine-Statistik"
        verbose_name_plural = "Engine-Statistiken"

    def __str__(self):
        return f"{self.engine}: {self.deals} Partien"


def new_replay_id() -> str:
    # 16 random bytes: the link is the only key to a demo's replay.
    return secrets.token_urlsafe(16)


class Replay(models.Model):
    """A finished game, kept so it can be stepped through at /partien/<id>/.

    ``record`` replays it exactly (seed, players, the engine's options, start time
    and every step, ``games.play.table.Table.record``); ``final_state`` is what the
    table ended with (tests check the replay against it). Demo replays are seen by
    whoever has the link; room replays by the room's players unless the host made
    one public. Replays go after ``games.play.replays.KEPT_DAYS`` unless an account
    saved them.
    """

    class Source(models.TextChoices):
        DEMO = "demo", "Demo"
        ROOM = "room", "Online-Raum"

    id = models.CharField(primary_key=True, max_length=32, default=new_replay_id, editable=False)
    engine = models.CharField("Engine", max_length=20)
    source = models.CharField("Herkunft", max_length=8, choices=Source.choices)
    record = models.JSONField("Partieprotokoll")
    final_state = models.JSONField("Endstand")
    steps = models.PositiveIntegerField("Schritte")
    bots = models.JSONField("Bot-Plätze", default=list, blank=True)
    # Visitor ids of the room's human players (who may open a private replay).
    players = models.JSONField("Mitspieler", default=list, blank=True)
    host = models.CharField("Gastgeber", max_length=64, blank=True)
    public = models.BooleanField("öffentlich", default=False)
    # States every ``games.play.replays.KEYFRAME_EVERY`` steps, stored on first view.
    keyframes = models.JSONField("Zwischenstände", null=True, blank=True)
    saved_by = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="saved_replays",
        verbose_name="gemerkt von",
    )
    created_at = models.DateTimeField("gespielt", default=clock.now, db_index=True)

    class Meta:
        verbose_name = "Partie-Wiederholung"
        verbose_name_plural = "Partie-Wiederholungen"
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.engine} · {self.created_at:%Y-%m-%d %H:%M}"

    def get_absolute_url(self):
        return reverse("games:replay", kwargs={"replay_id": self.pk})
