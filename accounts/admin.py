from django.contrib import admin

from accounts.models import PointEntry, VisitorLink


@admin.register(VisitorLink)
class VisitorLinkAdmin(admin.ModelAdmin):
    list_display = ["user", "short_visitor", "is_primary", "linked_at"]
    list_filter = ["is_primary"]
    search_fields = ["user__username", "user__email", "visitor"]
    readonly_fields = ["user", "visitor", "is_primary", "linked_at"]
    list_select_related = ["user"]

    @admin.display(description="Besucher-ID")
    def short_visitor(self, link):
        return f"{link.visitor[:8]}…"

    def has_add_permission(self, request):
        return False  # links come from logins only


@admin.register(PointEntry)
class PointEntryAdmin(admin.ModelAdmin):
    list_display = ["created_at", "user", "reason", "note", "points", "is_pending"]
    list_filter = ["reason", ("user", admin.EmptyFieldListFilter)]
    search_fields = ["user__username", "user__email", "note"]
    readonly_fields = ["user", "visitor", "reason", "object_id", "points", "note", "created_at"]
    list_select_related = ["user"]
    date_hierarchy = "created_at"

    @admin.display(description="wartet auf Konto", boolean=True)
    def is_pending(self, entry):
        return entry.user_id is None

    def has_add_permission(self, request):
        return False  # points are earned, never typed in
