from django import forms
from django.contrib import admin
from reversion.admin import VersionAdmin

from games.models import Edition, Game, Mechanic, Person, Publisher
from games.play import definition as registry


class SortableInlineMixin:
    """Tabular inline whose rows editors drag into order; the script renumbers `position`."""

    class Media:
        js = ["admin_extra/sortable_inlines.js"]
        css = {"all": ["admin_extra/sortable_inlines.css"]}

    classes = ["sortable-inline"]
    extra = 0


class EditionInline(SortableInlineMixin, admin.TabularInline):
    model = Edition
    fields = ["position", "publisher", "year", "article_number", "note"]
    autocomplete_fields = ["publisher"]


@admin.register(Game)
class GameAdmin(VersionAdmin):
    def formfield_for_dbfield(self, db_field, request, **kwargs):
        if db_field.name == "demo_engine":
            # The registered games, not model choices: a new game needs no migration.
            return forms.TypedChoiceField(
                label=db_field.verbose_name,
                choices=registry.key_choices,
                required=False,
                help_text=db_field.help_text,
            )
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    list_display = [
        "title", "players_label", "min_age", "duration_minutes", "complexity", "year",
        "demo_engine", "is_published", "updated_at",
    ]  # fmt: skip
    list_filter = ["is_published", "complexity", "demo_engine", "publishers"]
    list_editable = ["is_published"]
    search_fields = ["title", "original_title", "short_description", "article_number"]
    prepopulated_fields = {"slug": ["title"]}
    autocomplete_fields = ["publishers", "authors", "illustrators", "mechanics", "related_games"]
    readonly_fields = ["created_at", "updated_at"]
    inlines = [EditionInline]
    fieldsets = [
        (None, {"fields": ["title", "slug", "original_title", "short_description", "lead"]}),
        (
            "Auf einen Blick",
            {
                "fields": [
                    ("players_min", "players_max"),
                    ("min_age", "min_age_estimated", "duration_minutes", "duration_kind"),
                    ("year", "complexity"),
                    ("card_count", "article_number"),
                    "audience",
                    "good_to_know",
                ]
            },
        ),
        ("Menschen & Verlage", {"fields": ["publishers", "authors", "illustrators"]}),
        (
            "Ähnlich wie",
            {
                "fields": ["related_games", "mechanics"],
                "description": "Von der Redaktion gewählte ähnliche Spiele stehen zuerst. Dazu schlägt "
                "die Seite Spiele mit gemeinsamer Mechanik und überlappender Spielerzahl vor.",
            },
        ),
        ("Demo & Veröffentlichung", {"fields": ["demo_engine", "is_published"]}),
        ("Verlauf", {"fields": ["created_at", "updated_at"], "classes": ["collapse"]}),
    ]

    @admin.display(description="Spieler", ordering="players_min")
    def players_label(self, game):
        return game.players_label


@admin.register(Person)
class PersonAdmin(VersionAdmin):
    list_display = ["name", "slug"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Publisher)
class PublisherAdmin(VersionAdmin):
    list_display = ["name", "slug"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Mechanic)
class MechanicAdmin(VersionAdmin):
    list_display = ["name", "slug"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}
