from django.contrib import admin

from games.admin import SortableInlineMixin
from rules.models import CommonMistake, RulesArticle, Section, WorkedExample


class SectionInline(SortableInlineMixin, admin.StackedInline):
    model = Section
    fields = ["position", ("kind", "title", "pages"), "body"]


class WorkedExampleInline(SortableInlineMixin, admin.StackedInline):
    model = WorkedExample
    fields = ["position", ("title", "pages"), "body", ("engine_check", "expect")]


class CommonMistakeInline(SortableInlineMixin, admin.StackedInline):
    model = CommonMistake
    fields = ["position", ("title", "pages"), "body"]


@admin.register(RulesArticle)
class RulesArticleAdmin(admin.ModelAdmin):
    list_display = ["game", "status", "rulebook_publisher", "rulebook_read_on", "updated_at"]
    list_filter = ["status", "rulebook_publisher"]
    search_fields = ["game__title", "sections__body"]
    list_select_related = ["game"]
    autocomplete_fields = ["game"]
    readonly_fields = ["published_at", "updated_at"]
    inlines = [SectionInline, WorkedExampleInline, CommonMistakeInline]
    actions = ["publish", "unpublish"]
    fieldsets = [
        (None, {"fields": ["game", "status", "published_at", "updated_at"]}),
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

    @admin.action(description="Ausgewählte Artikel veröffentlichen")
    def publish(self, request, queryset):
        for article in queryset:
            article.status = RulesArticle.Status.PUBLISHED
            article.save()
        self.message_user(request, f"{queryset.count()} Artikel veröffentlicht.")

    @admin.action(description="Ausgewählte Artikel auf Entwurf zurücksetzen")
    def unpublish(self, request, queryset):
        updated = queryset.update(status=RulesArticle.Status.DRAFT)
        self.message_user(request, f"{updated} Artikel auf Entwurf gesetzt.")
