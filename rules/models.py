from django.contrib.staticfiles import finders
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone

from games.models import Game

PUBLISH_PERMISSION = "rules.publish_rulesarticle"


def normalize_text(value: str) -> str:
    """Browsers send textareas with CRLF; the shipped text has LF. Without this one save
    of an untouched block would count as a change (history, diff, „unveröffentlicht“)."""
    return value.replace("\r\n", "\n").replace("\r", "\n").strip() if value else value


class BlockMixin:
    """What every block of an article (section, example, mistake, question) shares, and
    the rows of its sources and glossary: text normalised on save, and a new row without
    a position goes to the end."""

    TEXT_FIELDS = ("body",)

    def save(self, *args, **kwargs):
        for name in self.TEXT_FIELDS:
            setattr(self, name, normalize_text(getattr(self, name)))
        if self.position is None:
            siblings = type(self).objects.filter(article_id=self.article_id).exclude(pk=self.pk)
            last = siblings.aggregate(models.Max("position"))["position__max"]
            self.position = 0 if last is None else last + 1
        super().save(*args, **kwargs)


# A citation names a source of the article by its key: „[@regelbeschreibung S. 2]“ in a
# text, „@regelbeschreibung S. 2“ in a „Beleg“ field (rules/citations.py).
CITATION_HELP = "Quelle mit Kürzel und Seite, z. B. „@regelbeschreibung S. 2“ (siehe Quellen)."


class RulesArticle(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", "Entwurf"
        PUBLISHED = "published", "veröffentlicht"

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, related_name="article", verbose_name="Spiel"
    )
    status = models.CharField("Status", max_length=10, choices=Status.choices, default=Status.DRAFT)
    rulebook_title = models.CharField("Regelheft", max_length=160, blank=True)
    rulebook_publisher = models.CharField("Herausgeber des Regelhefts", max_length=120, blank=True)
    rulebook_version = models.CharField("Version", max_length=40, blank=True)
    rulebook_year = models.PositiveSmallIntegerField("Jahr", null=True, blank=True)
    rulebook_pages = models.PositiveSmallIntegerField("Seiten", null=True, blank=True)
    rulebook_read_on = models.DateField("gelesen am", null=True, blank=True)
    source_note = models.CharField("Quelle (Satz)", max_length=300, blank=True)
    published_at = models.DateTimeField("veröffentlicht am", null=True, blank=True)
    updated_at = models.DateTimeField("zuletzt geändert", auto_now=True)
    # The public page renders this copy (taken by the publish action, see
    # rules/publishing.py), so editors can change the rows below without the
    # public seeing half-finished work.
    published_snapshot = models.JSONField(
        "veröffentlichte Fassung", null=True, blank=True, editable=False
    )
    published_version = models.PositiveIntegerField("Fassung", default=0, editable=False)
    # The published glossary's words (terms and other names), for the catalogue search:
    # set by publishing, so a working copy's new words are not found before they are online.
    search_terms = models.TextField("Suchbegriffe (veröffentlicht)", blank=True, editable=False)

    class Meta:
        verbose_name = "Regelartikel"
        verbose_name_plural = "Regelartikel"
        # „Lektorat“ edits drafts; only whoever holds this („Redaktion“) puts them online.
        permissions = [("publish_rulesarticle", "Darf Spielseiten veröffentlichen")]

    def __str__(self):
        return f"Regeln: {self.game.title}"

    def save(self, *args, **kwargs):
        if self.is_published and self.published_at is None:
            self.published_at = timezone.now()
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return self.game.get_absolute_url()

    @property
    def is_published(self):
        return self.status == self.Status.PUBLISHED

    @property
    def citations(self):
        """The listed sources as the texts cite them (rules.citations)."""
        from rules.citations import Citations

        return Citations.of(self.sources.all())


class Section(BlockMixin, models.Model):
    class Kind(models.TextChoices):
        AT_A_GLANCE = "auf-einen-blick", "Auf einen Blick"
        GOAL = "ziel", "Ziel des Spiels"
        MATERIAL = "material", "Material"
        SETUP = "aufbau", "Aufbau"
        PLAY = "ablauf", "Ablauf"
        END = "spielende", "Spielende und Wertung"
        EXAMPLES = "beispiel", "Beispiele"
        MISTAKES = "irrtuemer", "Häufige Irrtümer"
        TIPS = "tipps", "Tipps"
        VARIANTS = "varianten", "Varianten und Festlegungen"
        ONLINE = "online", "So funktioniert die Demo"
        STATISTICS = "statistik", "Statistik"
        EDITIONS = "ausgaben", "Ausgaben & Erweiterungen"
        CREDITS = "autoren", "Autoren & Verlag"
        HISTORY = "geschichte", "Geschichte"
        FAQ = "haeufige-fragen", "Häufige Fragen"
        GLOSSARY = "begriffe", "Begriffe und andere Namen"
        SOURCES = "quellen", "Quellen"
        # Not part of the article: the one printable page at /spiele/<slug>/kurzregel/.
        SHORT_RULES = "kurzregel", "Kurzregel (eigene Druckseite)"

    article = models.ForeignKey(
        RulesArticle, on_delete=models.CASCADE, related_name="sections", verbose_name="Artikel"
    )
    kind = models.CharField("Art", max_length=20, choices=Kind.choices)
    title = models.CharField(
        "Überschrift", max_length=120, blank=True, help_text="Leer: Standardüberschrift der Art."
    )
    body = models.TextField("Text (Markdown)", blank=True)
    pages = models.CharField("Beleg", max_length=40, blank=True, help_text=CITATION_HELP)
    position = models.PositiveSmallIntegerField("Reihenfolge", default=0)
    # „Dein Zug auf einen Blick“: a short list shown in a box above the body
    # (meant for „Ablauf“, printed as well).
    summary = models.TextField(
        "Zug auf einen Blick (Markdown-Liste)",
        blank=True,
        help_text="3–5 Schritte als nummerierte Liste; erscheint als Kasten über dem Text.",
    )
    # „So geht's in 2 Minuten“ at the top of the game page: one or two sentences of the
    # goal („Ziel“) and of the end („Spielende“); the turn comes from „Ablauf“'s summary.
    gist = models.TextField(
        "In Kürze (Markdown)",
        blank=True,
        help_text="Ein, zwei Sätze für den Kasten „So geht's in 2 Minuten“ oben auf der "
        "Spielseite (bei „Ziel des Spiels“ und „Spielende“).",
    )
    # A picture drawn for this site, shipped as a static file (e.g. the table
    # layout under „Aufbau“).
    figure = models.CharField(
        "Abbildung (statische Datei)",
        max_length=200,
        blank=True,
        help_text="Pfad unter static/, z. B. „img/aufbau/spielname.svg“.",
    )
    figure_alt = models.TextField(
        "Textalternative der Abbildung",
        blank=True,
        help_text="Beschreibt vollständig, was das Bild zeigt (für Screenreader und ohne Bild).",
    )
    figure_caption = models.CharField("Bildunterschrift", max_length=200, blank=True)

    class Meta:
        ordering = ["position", "pk"]
        verbose_name = "Abschnitt"
        verbose_name_plural = "Abschnitte"
        constraints = [
            models.UniqueConstraint(fields=["article", "kind"], name="section_kind_once"),
        ]

    TEXT_FIELDS = ("body", "summary", "gist", "figure_alt")
    # The long parts a reader looks up rather than reads first: closed on a phone's game
    # page (reachable through the table of contents), open on wide screens and in print.
    FOLDED = frozenset(
        {
            Kind.EXAMPLES, Kind.MISTAKES, Kind.TIPS, Kind.VARIANTS, Kind.ONLINE,
            Kind.STATISTICS, Kind.EDITIONS, Kind.CREDITS, Kind.HISTORY, Kind.FAQ,
            Kind.GLOSSARY, Kind.SOURCES,
        }
    )  # fmt: skip

    def __str__(self):
        return self.heading

    @property
    def heading(self):
        return self.title or self.get_kind_display()

    def clean(self):
        errors = {}
        if self.figure:
            if finders.find(self.figure) is None:
                errors["figure"] = "Diese Datei gibt es unter static/ nicht."
            if not self.figure_alt.strip():
                errors["figure_alt"] = "Eine Abbildung braucht eine Textalternative."
        if errors:
            raise ValidationError(errors)

    @property
    def anchor(self):
        return self.kind

    @property
    def folded(self) -> bool:
        return self.kind in self.FOLDED


class OrderedArticlePart(BlockMixin, models.Model):
    article = models.ForeignKey(RulesArticle, on_delete=models.CASCADE, verbose_name="Artikel")
    title = models.CharField("Titel", max_length=160)
    body = models.TextField("Text (Markdown)")
    pages = models.CharField("Beleg", max_length=40, blank=True, help_text=CITATION_HELP)
    position = models.PositiveSmallIntegerField("Reihenfolge", default=0)

    class Meta:
        abstract = True
        ordering = ["position", "pk"]

    def __str__(self):
        return self.title


class WorkedExample(OrderedArticlePart):
    # A machine-checkable description of the example; CI runs it through the engine.
    engine_check = models.JSONField("Prüfung (Engine-Eingabe)", null=True, blank=True)
    expect = models.JSONField("Erwartetes Ergebnis", null=True, blank=True)

    class Meta(OrderedArticlePart.Meta):
        default_related_name = "examples"
        verbose_name = "Beispiel"
        verbose_name_plural = "Beispiele"


class CommonMistake(OrderedArticlePart):
    class Meta(OrderedArticlePart.Meta):
        default_related_name = "mistakes"
        verbose_name = "Häufiger Irrtum"
        verbose_name_plural = "Häufige Irrtümer"


class FrequentQuestion(OrderedArticlePart):
    """One question players argue about at the table, with the answer and the rule."""

    title = models.CharField("Frage", max_length=160)
    body = models.TextField(
        "Antwort (Markdown)", help_text="Mit der Regel, auf die sich die Antwort stützt."
    )
    pages = models.CharField("Beleg", max_length=40, blank=True, help_text=CITATION_HELP)

    class Meta(OrderedArticlePart.Meta):
        default_related_name = "questions"
        verbose_name = "Häufige Frage"
        verbose_name_plural = "Häufige Fragen"


class Source(BlockMixin, models.Model):
    """What the article rests on: a text we used, which edition, when we read it, what
    it covers. Texts cite it by ``key`` („[@key]“, „[@key S. 2]“)."""

    # Edited in the article's form: normalised like a block's text (BlockMixin).
    TEXT_FIELDS = ("title", "edition", "covers")

    article = models.ForeignKey(
        RulesArticle, on_delete=models.CASCADE, related_name="sources", verbose_name="Artikel"
    )
    key = models.SlugField(
        "Kürzel",
        max_length=40,
        help_text="Im Text belegt als „[@kürzel]“ oder „[@kürzel S. 2]“.",
    )
    label = models.CharField("Kurzname im Beleg", max_length=60)
    title = models.CharField("Was es ist", max_length=300)
    edition = models.CharField("Ausgabe oder Fassung", max_length=200, blank=True)
    read_on = models.DateField(
        "gelesen am",
        null=True,
        blank=True,
        help_text="Nur ausfüllen, wenn die Redaktion diesen Text selbst gelesen hat.",
    )
    covers = models.TextField("Was sie abdeckt (Markdown)", blank=True)
    position = models.PositiveSmallIntegerField("Reihenfolge", default=0)

    class Meta:
        ordering = ["position", "pk"]
        verbose_name = "Quelle"
        verbose_name_plural = "Quellen"
        constraints = [
            models.UniqueConstraint(fields=["article", "key"], name="source_key_once"),
        ]

    def __str__(self):
        return f"{self.label} ({self.key})"

    @property
    def anchor(self):
        return f"quelle-{self.key}"


class GlossaryEntry(BlockMixin, models.Model):
    """A word of the article with the other names readers know it by (the catalogue
    search finds the game by all of them)."""

    TEXT_FIELDS = ("body",)

    article = models.ForeignKey(
        RulesArticle, on_delete=models.CASCADE, related_name="glossary", verbose_name="Artikel"
    )
    term = models.CharField("Begriff (wie im Artikel)", max_length=80)
    other_names = models.CharField(
        "Andere Namen",
        max_length=300,
        blank=True,
        help_text="Durch Kommas getrennt, z. B. „Spielstapel, Stockstapel“.",
    )
    body = models.TextField("Erklärung (Markdown)", blank=True)
    position = models.PositiveSmallIntegerField("Reihenfolge", default=0)

    class Meta:
        ordering = ["position", "pk"]
        verbose_name = "Begriff"
        verbose_name_plural = "Begriffe und andere Namen"

    def __str__(self):
        return self.term

    @property
    def names(self) -> list[str]:
        return [name.strip() for name in self.other_names.split(",") if name.strip()]
