from django import forms
from django.contrib import admin, messages
from django.utils.html import format_html
from reversion.admin import VersionAdmin

from editorial import drafts
from editorial.history import ObjectHistoryMixin
from games.models import Edition, Game, Mechanic, Person, Publisher
from games.play import definition as registry
from rules.models import PUBLISH_PERMISSION


class SortableInlineMixin:
    """Tabular inline whose rows editors drag into order; the script renumbers `position`."""

    class Media:
        js = ["admin_extra/sortable_inlines.js"]
        css = {"all": ["admin_extra/sortable_inlines.css"]}

    classes = ["sortable-inline"]
    extra = 0


class EditionForm(forms.ModelForm):
    # A row of a published game's draft that exists live (its id), so publishing updates it.
    draft_id = forms.IntegerField(widget=forms.HiddenInput, required=False)


class EditionInline(SortableInlineMixin, admin.TabularInline):
    """A published game's editions are part of its draft (editorial.drafts): the rows show
    the draft; saving stores the list, publishing updates, adds and removes editions."""

    model = Edition
    form = EditionForm
    fields = ["position", "publisher", "year", "article_number", "note", "draft_id"]
    autocomplete_fields = ["publisher"]

    def get_extra(self, request, obj=None, **kwargs):
        rows = _drafted_editions(request, obj)
        return len(rows) if rows is not None else super().get_extra(request, obj, **kwargs)


def _drafted_editions(request, game):
    """The draft's editions while the form is shown (None: show the live rows)."""
    draft = getattr(game, "loaded_draft", None)
    if request.method != "GET" or draft is None:
        return None
    return draft.editions


class DraftGameForm(forms.ModelForm):
    """Shows a published game's draft (not the live row) for its people and picks."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        draft = getattr(self.instance, "loaded_draft", None)
        if draft is not None:
            for name, ids in draft.relations.items():
                if name in self.fields:
                    self.initial[name] = ids


@admin.register(Game)
class GameAdmin(ObjectHistoryMixin, VersionAdmin):
    """A published game's changes are a draft until its page is published (editorial);
    an unpublished game is edited directly (nobody sees it yet)."""

    form = DraftGameForm
    history_fields = {
        name: str(Game._meta.get_field(name).verbose_name) for name in drafts.GAME_FIELDS
    }

    def get_object(self, request, object_id, from_field=None):
        game = super().get_object(request, object_id, from_field)
        if game is not None and game.is_published:
            draft = drafts.draft_for(game)
            if draft is not None and request.method == "GET":
                drafts.overlay(game, draft)
                game._prefetched_objects_cache = {}  # the form reads initial ids instead
            game.loaded_draft = draft
        return game

    def get_readonly_fields(self, request, obj=None):
        readonly = list(super().get_readonly_fields(request, obj))
        if not request.user.has_perm(PUBLISH_PERMISSION):
            readonly.append("is_published")
        return readonly

    def save_model(self, request, obj, form, change):
        if change and drafts.uses_drafts(obj):
            obj.saved_as_draft = True
            if "is_published" in form.changed_data:
                # Hiding (or showing) a game is a publishing decision of its own, taken at once.
                live = Game.objects.get(pk=obj.pk)
                live.is_published = obj.is_published
                live.save(update_fields=["is_published", "updated_at"])
            return  # save_related stores the draft with the relations
        super().save_model(request, obj, form, change)

    def get_formset_kwargs(self, request, obj, inline, prefix):
        kwargs = super().get_formset_kwargs(request, obj, inline, prefix)
        if not isinstance(inline, EditionInline):
            return kwargs
        rows = _drafted_editions(request, obj)
        if rows is not None:
            # The draft's rows as new forms; their hidden draft_id keeps the live id.
            kwargs["queryset"] = Edition.objects.none()
            kwargs["initial"] = [
                {**{k: v for k, v in row.items() if k != "id"}, "draft_id": row["id"]}
                for row in rows
            ]
        elif request.method == "POST" and drafts.uses_drafts(obj):
            # Rows shown from a draft come back as new forms: unchanged ones still count.
            kwargs["form_kwargs"] = {"empty_permitted": False}
        return kwargs

    def save_related(self, request, form, formsets, change):
        if getattr(form.instance, "saved_as_draft", False):
            drafts.record_game(form.instance.pk, form.cleaned_data, request.user)
            for formset in formsets:
                if formset.model is Edition:
                    drafts.record_editions(form.instance.pk, _edition_rows(formset), request.user)
                    # Nothing saved live: the admin's change message lists no rows.
                    formset.new_objects, formset.changed_objects, formset.deleted_objects = (
                        [],
                        [],
                        [],
                    )
                else:
                    self.save_formset(request, form, formset, change=change)
            return
        super().save_related(request, form, formsets, change)

    def response_change(self, request, obj):
        if getattr(obj, "saved_as_draft", False):
            self.message_user(
                request,
                format_html(
                    "Als Entwurf gespeichert: Leser sehen die Änderung erst nach dem "
                    'Veröffentlichen der Spielseite. <a href="{}">Vorschau</a>',
                    obj.get_absolute_url(),
                ),
                messages.INFO,
            )
        return super().response_change(request, obj)

    def history_current(self, request, obj):
        drafts.overlay(obj)
        return {
            name: getattr(obj, obj._meta.get_field(name).attname) for name in self.history_fields
        }

    def after_recover(self, request, obj, version):
        # A game comes back hidden: its page goes online again by publishing it.
        type(obj).objects.filter(pk=obj.pk).update(is_published=False)

    def restore_version(self, request, obj, version):
        values = {
            name: version.field_dict[obj._meta.get_field(name).attname]
            for name in drafts.GAME_FIELDS
            if obj._meta.get_field(name).attname in version.field_dict
        }
        relations = {
            name: version.field_dict[name]
            for name in drafts.GAME_RELATIONS
            if name in version.field_dict
        }
        if not drafts.uses_drafts(obj):
            return super().restore_version(request, obj, version)
        drafts.record_game(obj.pk, {**values, **relations}, request.user)
        return (
            "Die alte Fassung der Spieldaten ist jetzt der Entwurf (mit „Ähnlich wie“ und "
            "Personen). Online ändert sich erst etwas beim Veröffentlichen der Spielseite."
        )

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


def _edition_rows(formset) -> list[dict]:
    """The editions as the form left them, as draft rows."""
    rows = []
    for edition_form in formset.forms:
        data = getattr(edition_form, "cleaned_data", None)
        if not data or edition_form in formset.deleted_forms:
            continue
        row = {
            "id": edition_form.instance.pk or data.get("draft_id"),
            "publisher": data["publisher"].pk if data.get("publisher") else None,
            "year": data.get("year"),
            "article_number": data.get("article_number", ""),
            "note": data.get("note", ""),
            "position": data.get("position") or 0,
        }
        if row["id"] or any(row[name] for name in ("publisher", "year", "article_number", "note")):
            rows.append(row)  # a row added and left blank is no edition
    return rows


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
