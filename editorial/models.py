"""What editors change before it is online: drafts of a game's own data, and shipped
texts that are newer than what the database holds.

The article keeps its working copy in its own rows (rules/publishing.py); a game's row,
its „Ähnlich wie“ picks and its card formats are read by many pages (catalogue, finder,
other games' suggestions), so their live rows stay the published state and pending
changes wait here until the page is published (editorial/publish.py).
"""

from django.conf import settings
from django.db import models

from games.models import Game


class GameDraft(models.Model):
    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, related_name="draft", verbose_name="Spiel"
    )
    # Field name → new value, only fields that differ from the live row.
    fields = models.JSONField("geänderte Felder", default=dict, blank=True)
    # Many-to-many name (publishers, related_games …) → the new list of ids.
    relations = models.JSONField("geänderte Verknüpfungen", default=dict, blank=True)
    # Card format id (as text) → changed fields of that row (sleeves.CardFormat).
    card_formats = models.JSONField("geänderte Kartenformate", default=dict, blank=True)
    # The whole list of editions as it will be ([{"id": None for a new one, …}]); None: unchanged.
    editions = models.JSONField("geänderte Ausgaben", null=True, blank=True)
    updated_at = models.DateTimeField("zuletzt geändert", auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="zuletzt geändert von",
    )

    class Meta:
        verbose_name = "Entwurf der Spieldaten"
        verbose_name_plural = "Entwürfe der Spieldaten"

    def __str__(self):
        return f"Entwurf: {self.game}"

    @property
    def is_empty(self):
        return not (self.fields or self.relations or self.card_formats) and self.editions is None


class ShippedItem(models.Model):
    """One shipped block (rules/content/<slug>.toml) as load_content last saw it.

    ``shipped_hash`` is the shipped text the database was last brought in line with (by
    loading, adopting or dismissing); a different hash in the files means the shipped
    text is newer than the database's: ``pending`` until an editor adopts or dismisses it.
    """

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="shipped_items", verbose_name="Spiel"
    )
    key = models.CharField("Block", max_length=200)
    label = models.CharField("Bezeichnung", max_length=200)
    shipped_hash = models.CharField("Stand der Datei (übernommen)", max_length=64, blank=True)
    pending_hash = models.CharField("neuer Stand der Datei", max_length=64, blank=True)
    pending_data = models.JSONField("neue mitgelieferte Fassung", null=True, blank=True)
    pending_since = models.DateTimeField("neu seit", null=True, blank=True)

    class Meta:
        verbose_name = "Neue mitgelieferte Fassung"
        verbose_name_plural = "Neue mitgelieferte Fassungen"
        constraints = [
            models.UniqueConstraint(fields=["game", "key"], name="shipped_item_once"),
        ]
        ordering = ["game__title", "key"]

    def __str__(self):
        return f"{self.game}: {self.label}"

    @property
    def is_pending(self):
        return bool(self.pending_hash)
