from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.http import HttpResponseRedirect
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.timezone import localtime
from reversion.admin import VersionAdmin

from games.admin import SortableInlineMixin
from rules import publishing
from rules.models import (
    CommonMistake,
    FrequentQuestion,
    GlossaryEntry,
    RulesArticle,
    Section,
    Source,
    WorkedExample,
)

# Reverting to an older version restores the working copy only; what is online
# changes when someone publishes again.
PUBLICATION_FIELDS = ("status", "published_snapshot", "published_version", "published_at")


class SectionInline(SortableInlineMixin, admin.StackedInline):
    model = Section
    fields = [
        "position",
        ("kind", "title", "pages"),
        "body",
        "summary",
        ("figure", "figure_caption"),
        "figure_alt",
    ]


class WorkedExampleInline(SortableInlineMixin, admin.StackedInline):
    model = WorkedExample
    fields = ["position", ("title", "pages"), "body", ("engine_check", "expect")]


class CommonMistakeInline(SortableInlineMixin, admin.StackedInline):
    model = CommonMistake
    fields = ["position", ("title", "pages"), "body"]


class FrequentQuestionInline(SortableInlineMixin, admin.StackedInline):
    model = FrequentQuestion
    fields = ["position", ("title", "pages"), "body"]


class SourceInline(SortableInlineMixin, admin.StackedInline):
    model = Source
    fields = ["position", ("key", "label"), "title", ("edition", "read_on"), "covers"]


class GlossaryEntryInline(SortableInlineMixin, admin.StackedInline):
    model = GlossaryEntry
    fields = ["position", ("term", "other_names"), "body"]


@admin.register(RulesArticle)
class RulesArticleAdmin(VersionAdmin):
    list_display = [
        "game", "status", "published_version", "pending_changes", "rulebook_publisher",
        "rulebook_read_on", "updated_at",
    ]  # fmt: skip
    list_filter = ["status", "rulebook_publisher"]
    search_fields = ["game__title", "sections__body"]
    list_select_related = ["game"]
    autocomplete_fields = ["game"]
    readonly_fields = ["status", "publication", "published_at", "updated_at"]
    inlines = [
        SectionInline,
        WorkedExampleInline,
        CommonMistakeInline,
        FrequentQuestionInline,
        GlossaryEntryInline,
        SourceInline,
    ]
    actions = ["publish", "unpublish"]
    fieldsets = [
        (None, {"fields": ["game", "status", "publication", "published_at", "updated_at"]}),
        (
            "Quelle",
            {
                "fields": [
                    ("rulebook_title", "rulebook_publisher"),
                    ("rulebook_version", "rulebook_year", "rulebook_pages"),
                    "rulebook_read_on",
                    "source_note",
                ]
            },
        ),
    ]

    def get_search_results(self, request, queryset, search_term):
        queryset, _ = super().get_search_results(request, queryset, search_term)
        return queryset.distinct(), False

    def get_queryset(self, request):
        # The list compares working copy and snapshot; prefetch keeps that at 4 queries.
        return super().get_queryset(request).prefetch_related(*publishing.PARTS)

    @admin.display(description="unveröffentlichte Änderungen", boolean=True)
    def pending_changes(self, article):
        return publishing.has_unpublished_changes(article)

    @admin.display(description="Veröffentlichung")
    def publication(self, article):
        if article.pk is None:
            return "Neuer Artikel – nach dem Speichern mit „Speichern und veröffentlichen“ online stellen."
        if not article.is_published or article.published_snapshot is None:
            state = "Nicht online. Die Seite zeigt Lesern „Die Regeln schreiben wir gerade“."
        else:
            state = (
                f"Online ist Fassung {article.published_version} vom "
                f"{date_format(localtime(article.published_at), 'j. F Y, H:i')} Uhr."
            )
        pending = (
            "Die Arbeitsfassung hat Änderungen, die noch nicht online sind."
            if publishing.has_unpublished_changes(article)
            else "Arbeitsfassung und Online-Fassung sind gleich."
        )
        url = article.game.get_absolute_url()
        return format_html(
            '{} {}<br><a href="{}" target="_blank">Vorschau der Arbeitsfassung</a>'
            ' · <a href="{}?{}={}" target="_blank">Online-Fassung ansehen</a>',
            state, pending, url, url,
            publishing.PUBLIC_VERSION_PARAM, publishing.PUBLIC_VERSION_VALUE,
        )  # fmt: skip

    def response_change(self, request, obj):
        if "_publish" in request.POST:
            self._publish_one(request, obj)
            return HttpResponseRedirect(request.path)
        return super().response_change(request, obj)

    def response_add(self, request, obj, post_url_continue=None):
        if "_publish" in request.POST:
            self._publish_one(request, obj)
        return super().response_add(request, obj, post_url_continue)

    def _publish_one(self, request, article):
        # Re-read the parts: the formsets just saved them.
        article = RulesArticle.objects.prefetch_related(*publishing.PARTS).get(pk=article.pk)
        publishing.publish(article)
        self.message_user(
            request,
            f"„{article.game}“ ist online (Fassung {article.published_version}).",
            messages.SUCCESS,
        )

    def revision_view(self, request, object_id, version_id, extra_context=None):
        current = (
            RulesArticle.objects.filter(pk=unquote(object_id)).values(*PUBLICATION_FIELDS).first()
        )
        request._kept_publication = current
        return super().revision_view(request, object_id, version_id, extra_context)

    def get_object(self, request, object_id, from_field=None):
        article = super().get_object(request, object_id, from_field)
        kept = getattr(request, "_kept_publication", None)
        if article is not None and kept:
            for name, value in kept.items():
                setattr(article, name, value)
        return article

    @admin.action(description="Ausgewählte Artikel veröffentlichen (Arbeitsfassung geht online)")
    def publish(self, request, queryset):
        for article in queryset:
            publishing.publish(article)
        self.message_user(request, f"{len(queryset)} Artikel veröffentlicht.")

    @admin.action(description="Ausgewählte Artikel offline nehmen (Entwurf)")
    def unpublish(self, request, queryset):
        for article in queryset:
            publishing.unpublish(article)
        self.message_user(request, f"{len(queryset)} Artikel auf Entwurf gesetzt.")
