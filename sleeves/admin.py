from django import forms
from django.contrib import admin, messages
from django.db.models import Count
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from reversion.admin import VersionAdmin

from editorial import drafts
from editorial.history import ObjectHistoryMixin
from sleeves.models import Brand, CardFormat, CardSize, ShippedRecord, SleeveProduct, SleeveSettings


@admin.register(CardSize)
class CardSizeAdmin(VersionAdmin):
    list_display = ["__str__", "name", "width_mm", "height_mm", "format_count", "product_count"]
    search_fields = ["name", "width_mm", "height_mm"]
    fields = ["name", ("width_mm", "height_mm")]

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .annotate(
                format_total=Count("card_formats", distinct=True),
                product_total=Count("sleeve_products", distinct=True),
            )
        )

    @admin.display(description="Kartenformate", ordering="format_total")
    def format_count(self, size):
        return size.format_total

    @admin.display(description="Sleeve-Produkte", ordering="product_total")
    def product_count(self, size):
        return size.product_total


class SleeveProductInline(admin.TabularInline):
    model = SleeveProduct
    fields = ["name", "code", "card_size", "per_pack", "price", "price_seen_on", "is_active"]
    autocomplete_fields = ["card_size"]
    extra = 0
    show_change_link = True


@admin.register(Brand)
class BrandAdmin(VersionAdmin):
    list_display = ["name", "website", "product_count"]
    search_fields = ["name"]
    inlines = [SleeveProductInline]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(product_total=Count("products"))

    @admin.display(description="Produkte", ordering="product_total")
    def product_count(self, brand):
        return brand.product_total


class PriceKnownFilter(admin.SimpleListFilter):
    title = "Preis"
    parameter_name = "preis"

    def lookups(self, request, model_admin):
        return [("ja", "bekannt"), ("nein", "unbekannt")]

    def queryset(self, request, queryset):
        if self.value() == "ja":
            return queryset.filter(price__isnull=False)
        if self.value() == "nein":
            return queryset.filter(price__isnull=True)
        return queryset


@admin.register(SleeveProduct)
class SleeveProductAdmin(VersionAdmin):
    list_display = [
        "brand", "name", "code", "card_size", "inner_size_label", "per_pack", "price",
        "currency", "price_seen_on", "is_partner_link", "is_inner_sleeve", "is_active",
    ]  # fmt: skip
    list_display_links = ["name"]
    list_editable = ["price", "price_seen_on"]
    list_filter = [
        "brand", "card_size", PriceKnownFilter, "is_partner_link", "is_inner_sleeve",
        "is_active", "currency",
    ]  # fmt: skip
    list_select_related = ["brand", "card_size"]
    search_fields = ["name", "code", "brand__name"]
    autocomplete_fields = ["brand", "card_size"]
    readonly_fields = ["updated_at"]
    actions = ["mark_price_seen_today", "deactivate"]
    fieldsets = [
        (None, {"fields": ["brand", ("name", "code"), "card_size", "is_active"]}),
        (
            "Innenmaß und Packung",
            {
                "fields": [
                    ("inner_width_mm", "inner_height_mm"),
                    "inner_size_source",
                    "per_pack",
                    "is_inner_sleeve",
                ]
            },
        ),
        (
            "Preis und Shop",
            {
                "fields": [
                    ("price", "currency", "price_seen_on"),
                    ("shop_url", "is_partner_link"),
                    "updated_at",
                ]
            },
        ),
    ]

    @admin.display(description="Innenmaß", ordering="inner_width_mm")
    def inner_size_label(self, product):
        return product.inner_size.label

    @admin.action(description="Preis heute geprüft (Datum auf heute setzen)")
    def mark_price_seen_today(self, request, queryset):
        updated = queryset.filter(price__isnull=False).update(price_seen_on=timezone.localdate())
        self.message_user(request, f"Bei {updated} Produkt(en) das Preisdatum auf heute gesetzt.")

    @admin.action(description="Aus dem Rechner nehmen (nicht mehr erhältlich)")
    def deactivate(self, request, queryset):
        updated = queryset.update(is_active=False)
        self.message_user(request, f"{updated} Produkt(e) werden nicht mehr empfohlen.")


class CardFormatForm(forms.ModelForm):
    class Meta:
        model = CardFormat
        fields = [
            "game", "edition", "label", "count", "size", "note", "position", "is_expansion",
            "expansion_title", "count_source", "size_source", "checked_on",
        ]  # fmt: skip

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        edition = self.fields.get("edition")
        if edition is not None:
            edition.queryset = edition.queryset.select_related("game", "publisher")
            edition.label_from_instance = lambda e: (
                f"{e.game.title}: {e}" + (f" ({e.article_number})" if e.article_number else "")
            )


class SizeKnownFilter(admin.SimpleListFilter):
    title = "Maß bekannt"
    parameter_name = "mass"

    def lookups(self, request, model_admin):
        return [("ja", "bekannt"), ("nein", "noch unbekannt")]

    def queryset(self, request, queryset):
        if self.value() == "ja":
            return queryset.filter(size__isnull=False)
        if self.value() == "nein":
            return queryset.filter(size__isnull=True)
        return queryset


@admin.register(CardFormat)
class CardFormatAdmin(ObjectHistoryMixin, VersionAdmin):
    form = CardFormatForm
    list_display = [
        "game", "label", "count", "size", "edition", "is_expansion", "count_source",
        "size_source", "checked_on",
    ]  # fmt: skip
    list_display_links = ["label"]
    list_filter = [SizeKnownFilter, "is_expansion", "size", "checked_on"]
    list_select_related = ["game", "size", "edition__publisher"]
    search_fields = ["game__title", "label", "expansion_title", "count_source", "size_source"]
    autocomplete_fields = ["game", "size"]
    fieldsets = [
        (None, {"fields": ["game", "edition", ("label", "count"), "size", "note", "position"]}),
        ("Erweiterung", {"fields": [("is_expansion", "expansion_title")]}),
        ("Quellen", {"fields": [("count_source", "size_source"), "checked_on"]}),
    ]

    def view_on_site(self, card_format):
        return card_format.game.get_absolute_url() + "#kartenhuellen"

    # A published game's card formats change through the game's draft (editorial.drafts):
    # the sleeve box shows them after the game page is published.

    def get_object(self, request, object_id, from_field=None):
        card_format = super().get_object(request, object_id, from_field)
        if card_format is not None and request.method == "GET":
            drafts.overlay_card_format(card_format)
        return card_format

    history_fields = {
        name: str(CardFormat._meta.get_field(name).verbose_name)
        for name in drafts.CARD_FORMAT_FIELDS
    }

    def history_current(self, request, obj):
        drafts.overlay_card_format(obj)
        return {
            name: getattr(obj, CardFormat._meta.get_field(name).attname)
            for name in self.history_fields
        }

    def history_old(self, version):
        return {
            name: version.field_dict.get(CardFormat._meta.get_field(name).attname)
            for name in self.history_fields
        }

    def restore_version(self, request, obj, version):
        if not drafts.uses_drafts(obj.game):
            return super().restore_version(request, obj, version)
        drafts.record_card_format(obj, self.history_old(version), request.user)
        return "Die alte Fassung ist jetzt der Entwurf; der Hüllen-Kasten zeigt sie nach dem Veröffentlichen."

    def save_model(self, request, obj, form, change):
        if change and drafts.uses_drafts(obj.game):
            drafts.record_card_format(obj, form.cleaned_data, request.user)
            obj.saved_as_draft = True
            return
        super().save_model(request, obj, form, change)

    def save_related(self, request, form, formsets, change):
        if not getattr(form.instance, "saved_as_draft", False):
            super().save_related(request, form, formsets, change)

    def response_change(self, request, obj):
        if getattr(obj, "saved_as_draft", False):
            self.message_user(
                request,
                "Als Entwurf gespeichert: Der Hüllen-Kasten zeigt die Änderung nach dem "
                "Veröffentlichen der Spielseite.",
                messages.INFO,
            )
        return super().response_change(request, obj)


@admin.register(SleeveSettings)
class SleeveSettingsAdmin(VersionAdmin):
    fields = ["tolerance_mm", "updated_at"]
    readonly_fields = ["updated_at"]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def changelist_view(self, request, extra_context=None):
        # There is exactly one settings row: open it directly.
        settings_row, _ = SleeveSettings.objects.get_or_create(pk=1)
        return redirect(reverse("admin:sleeves_sleevesettings_change", args=[settings_row.pk]))


@admin.register(ShippedRecord)
class ShippedRecordAdmin(admin.ModelAdmin):
    """Read-only log; deleting an entry lets `load_content` create that item again."""

    list_display = ["key", "loaded_at"]
    search_fields = ["key"]
    readonly_fields = ["key", "loaded_at"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
