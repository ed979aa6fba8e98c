"""Card formats per game and the sleeve products that fit them.

Every size is stored normalised (width ≤ height), so "88 × 63" and "63 × 88" are the
same size; `save()` and `clean()` swap the numbers when an editor types them the other
way round.
"""

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q

from games.models import Edition, Game
from sleeves.calculation import DEFAULT_TOLERANCE_MM, Size


def _millimetres(label: str, **extra) -> models.DecimalField:
    return models.DecimalField(
        label,
        max_digits=5,
        decimal_places=1,
        validators=[MinValueValidator(Decimal("10")), MaxValueValidator(Decimal("400"))],
        **extra,
    )


class CardSize(models.Model):
    name = models.CharField(
        "Bezeichnung",
        max_length=60,
        blank=True,
        help_text="Üblicher Name, z. B. „Standard (Poker)“ oder „Mini-Euro“ (optional).",
    )
    width_mm = _millimetres("Breite (mm)")
    height_mm = _millimetres(
        "Höhe (mm)", help_text="Reihenfolge egal: 88 × 63 wird als 63 × 88 gespeichert."
    )

    class Meta:
        ordering = ["width_mm", "height_mm"]
        verbose_name = "Kartenmaß"
        verbose_name_plural = "Kartenmaße"
        constraints = [
            models.UniqueConstraint(
                fields=["width_mm", "height_mm"],
                name="card_size_unique",
                violation_error_message="Dieses Kartenmaß gibt es schon.",
            ),
            models.CheckConstraint(
                condition=Q(width_mm__lte=F("height_mm")), name="card_size_normalised"
            ),
        ]

    def __str__(self):
        label = self.size.label
        return f"{label} ({self.name})" if self.name else label

    def save(self, *args, **kwargs):
        self.normalise()
        super().save(*args, **kwargs)

    @property
    def size(self) -> Size:
        return Size.of(self.width_mm, self.height_mm)

    def normalise(self):
        if self.width_mm is not None and self.height_mm is not None:
            self.width_mm, self.height_mm = sorted((self.width_mm, self.height_mm))

    def clean(self):
        # Runs before the uniqueness check, so "88 × 63" is found as a duplicate of "63 × 88".
        self.normalise()


class Brand(models.Model):
    name = models.CharField("Marke", max_length=80, unique=True)
    website = models.URLField("Website des Herstellers", blank=True)
    note = models.CharField("Notiz (intern)", max_length=200, blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = "Sleeve-Marke"
        verbose_name_plural = "Sleeve-Marken"

    def __str__(self):
        return self.name


class SleeveProduct(models.Model):
    class Currency(models.TextChoices):
        EUR = "EUR", "Euro (€)"
        CHF = "CHF", "Schweizer Franken (CHF)"
        GBP = "GBP", "Pfund (£)"
        USD = "USD", "US-Dollar ($)"

    brand = models.ForeignKey(
        Brand, on_delete=models.PROTECT, related_name="products", verbose_name="Marke"
    )
    name = models.CharField("Produktname", max_length=120)
    code = models.CharField("Artikelnummer", max_length=40, blank=True)
    card_size = models.ForeignKey(
        CardSize,
        on_delete=models.PROTECT,
        related_name="sleeve_products",
        verbose_name="verkauft für Kartenmaß",
        help_text="Das Kartenmaß, unter dem die Marke die Hülle anbietet.",
    )
    inner_width_mm = _millimetres(
        "Innenmaß Breite (mm)", help_text="Tatsächliches Innenmaß der Hülle, meist 2–4 mm größer."
    )
    inner_height_mm = _millimetres("Innenmaß Höhe (mm)")
    inner_size_source = models.CharField(
        "Quelle des Innenmaßes",
        max_length=120,
        blank=True,
        help_text="z. B. „Herstellerangabe“, „nachgemessen“ oder „Richtwert“.",
    )
    per_pack = models.PositiveSmallIntegerField(
        "Hüllen je Packung", validators=[MinValueValidator(1)]
    )
    is_inner_sleeve = models.BooleanField(
        "Innenhülle (Perfect Fit)",
        default=False,
        help_text="Eng anliegende Innenhüllen zum doppelten Sleeven. Der Rechner empfiehlt sie nicht.",
    )
    price = models.DecimalField(
        "Preis je Packung",
        max_digits=8,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal("0"))],
        help_text="Leer lassen, solange kein Preis bekannt ist – dann steht „Preis unbekannt“.",
    )
    currency = models.CharField(
        "Währung", max_length=3, choices=Currency.choices, default=Currency.EUR
    )
    price_seen_on = models.DateField("Preis gesehen am", null=True, blank=True)
    shop_url = models.URLField("Shop-Link", max_length=500, blank=True)
    is_partner_link = models.BooleanField(
        "Partnerlink",
        default=False,
        help_text="Wir bekommen eine Provision. Wird auf der Website mit * gekennzeichnet.",
    )
    is_active = models.BooleanField(
        "im Rechner verwenden",
        default=True,
        help_text="Ausschalten, wenn die Hülle nicht mehr erhältlich ist.",
    )
    updated_at = models.DateTimeField("zuletzt geändert", auto_now=True)

    class Meta:
        ordering = ["brand__name", "card_size__width_mm", "card_size__height_mm", "name"]
        verbose_name = "Sleeve-Produkt"
        verbose_name_plural = "Sleeve-Produkte"
        constraints = [
            models.CheckConstraint(
                condition=Q(inner_width_mm__lte=F("inner_height_mm")),
                name="sleeve_inner_size_normalised",
            ),
            models.CheckConstraint(
                condition=Q(price__isnull=True) | Q(price__gte=0), name="sleeve_price_not_negative"
            ),
            models.UniqueConstraint(
                fields=["brand", "code"],
                condition=~Q(code=""),
                name="sleeve_code_unique_per_brand",
                violation_error_message="Diese Artikelnummer gibt es bei der Marke schon.",
            ),
        ]

    def __str__(self):
        code = f" ({self.code})" if self.code else ""
        brand = self.brand.name if self.brand_id else "?"
        return f"{brand} – {self.name}{code}"

    def save(self, *args, **kwargs):
        self.normalise()
        super().save(*args, **kwargs)

    @property
    def inner_size(self) -> Size:
        return Size.of(self.inner_width_mm, self.inner_height_mm)

    def normalise(self):
        if self.inner_width_mm is not None and self.inner_height_mm is not None:
            self.inner_width_mm, self.inner_height_mm = sorted(
                (self.inner_width_mm, self.inner_height_mm)
            )

    def clean(self):
        self.normalise()
        errors = {}
        if self.price is not None and self.price_seen_on is None:
            errors["price_seen_on"] = "Zu einem Preis gehört das Datum, an dem er gesehen wurde."
        if self.is_partner_link and not self.shop_url:
            errors["shop_url"] = "Ein Partnerlink braucht einen Shop-Link."
        if errors:
            raise ValidationError(errors)


class CardFormat(models.Model):
    """How many cards of one size a game (or one edition of it) contains."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="card_formats", verbose_name="Spiel"
    )
    edition = models.ForeignKey(
        Edition,
        on_delete=models.CASCADE,
        related_name="card_formats",
        verbose_name="Ausgabe",
        null=True,
        blank=True,
        help_text=(
            "Leer = die Ausgabe, die auf der Spielseite beschrieben ist. Weicht eine andere "
            "Ausgabe ab, trage für sie alle ihre Karten gesondert ein."
        ),
    )
    label = models.CharField(
        "Kartenart", max_length=80, default="Karten", help_text="z. B. „Katzenkarten“."
    )
    count = models.PositiveSmallIntegerField("Anzahl", validators=[MinValueValidator(1)])
    size = models.ForeignKey(
        CardSize,
        on_delete=models.PROTECT,
        related_name="card_formats",
        verbose_name="Kartenmaß",
        null=True,
        blank=True,
        help_text="Leer lassen, solange das Maß nicht verlässlich bekannt ist („Maß noch unbekannt“).",
    )
    is_expansion = models.BooleanField(
        "Erweiterung", default=False, help_text="Erweiterungen zählt die Spielseite nicht mit."
    )
    expansion_title = models.CharField("Name der Erweiterung", max_length=120, blank=True)
    count_source = models.CharField(
        "Quelle der Anzahl", max_length=120, blank=True, help_text="z. B. „Spielregel S. 1“."
    )
    size_source = models.CharField(
        "Quelle des Maßes",
        max_length=120,
        blank=True,
        help_text="z. B. „Verlagsangabe“, „nachgemessen“ oder „Sleeve-Hersteller“.",
    )
    checked_on = models.DateField("geprüft am", null=True, blank=True)
    note = models.CharField(
        "Hinweis für Leser",
        max_length=240,
        blank=True,
        help_text="Erscheint bei den Karten, z. B. „bitte vor dem Kauf nachmessen“.",
    )
    position = models.PositiveSmallIntegerField("Reihenfolge", default=0)

    class Meta:
        ordering = ["game__title", "edition_id", "is_expansion", "position", "pk"]
        verbose_name = "Kartenformat"
        verbose_name_plural = "Kartenformate"

    def __str__(self):
        size = self.size.size.label if self.size_id else "Maß unbekannt"
        game = self.game.title if self.game_id else "?"
        return f"{game}: {self.count} {self.label} ({size})"

    def clean(self):
        if self.edition_id and self.game_id and self.edition.game_id != self.game_id:
            raise ValidationError({"edition": "Diese Ausgabe gehört zu einem anderen Spiel."})
        if self.is_expansion and not self.expansion_title.strip():
            raise ValidationError({"expansion_title": "Wie heißt die Erweiterung?"})


class SleeveSettings(models.Model):
    """One row (pk 1): the numbers editors tune for the calculation."""

    tolerance_mm = models.DecimalField(
        "Toleranz (mm)",
        max_digits=3,
        decimal_places=1,
        default=DEFAULT_TOLERANCE_MM,
        validators=[MinValueValidator(Decimal("0")), MaxValueValidator(Decimal("15"))],
        help_text=(
            "So viel darf eine Hülle innen höchstens größer sein als die Karte – in der Breite "
            "und in der Höhe. Größere Hüllen gelten als „passt nicht“."
        ),
    )
    updated_at = models.DateTimeField("zuletzt geändert", auto_now=True)

    class Meta:
        verbose_name = "Einstellung Kartenhüllen"
        verbose_name_plural = "Einstellungen Kartenhüllen"

    def __str__(self):
        return "Einstellungen für den Sleeve-Rechner"

    def save(self, *args, **kwargs):
        self.pk = 1
        super().save(*args, **kwargs)

    @classmethod
    def current(cls) -> "SleeveSettings":
        """Always exactly one query; unsaved defaults until an editor saves the row."""
        return cls.objects.filter(pk=1).first() or cls(pk=1)


class ShippedRecord(models.Model):
    """Which shipped items the loader has created once; it never creates them again.

    Editors may rename or delete shipped sizes, products and formats without the next
    `load_content` bringing back the original.
    """

    key = models.CharField("Schlüssel", max_length=200, unique=True)
    loaded_at = models.DateTimeField("geladen am", auto_now_add=True)

    class Meta:
        ordering = ["key"]
        verbose_name = "mitgelieferter Datensatz"
        verbose_name_plural = "mitgelieferte Datensätze (Protokoll)"

    def __str__(self):
        return self.key
