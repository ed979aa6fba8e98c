from django.contrib import admin, messages
from django.contrib.admin.options import ActionLocation
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html

from editorial import shipped
from editorial.models import ShippedItem


class PendingFilter(admin.SimpleListFilter):
    title = "Stand"
    parameter_name = "stand"

    def lookups(self, request, model_admin):
        return [("alle", "alle, auch erledigte")]

    def choices(self, changelist):
        yield {
            "selected": self.value() is None,
            "query_string": changelist.get_query_string(remove=[self.parameter_name]),
            "display": "neue Fassung wartet",
        }
        yield {
            "selected": self.value() == "alle",
            "query_string": changelist.get_query_string({self.parameter_name: "alle"}),
            "display": "alle, auch erledigte",
        }

    def queryset(self, request, queryset):
        return queryset if self.value() == "alle" else queryset.exclude(pending_hash="")


@admin.register(ShippedItem)
class ShippedItemAdmin(admin.ModelAdmin):
    """„Neue mitgelieferte Fassung“: shipped blocks newer than the database's (load_content).

    The change page is the diff with „übernehmen“ (into the draft) and „verwerfen“."""

    list_display = ["label", "game", "state", "pending_since"]
    list_filter = [PendingFilter, "game"]
    search_fields = ["label", "game__title"]
    list_select_related = ["game"]

    def has_add_permission(self, request):
        return False  # load_content finds them

    def get_actions(self, request, action_location=ActionLocation.CHANGE_LIST):
        return {}  # rows go with their game; deleting one alone only brings it back

    @admin.display(description="Stand")
    def state(self, record):
        if record.is_pending:
            return format_html("<strong>{}</strong>", "Neue mitgelieferte Fassung")
        return "erledigt"

    def change_view(self, request, object_id, form_url="", extra_context=None):
        record = get_object_or_404(ShippedItem.objects.select_related("game"), pk=object_id)
        if not self.has_view_or_change_permission(request, record):
            raise PermissionDenied
        listing = reverse("admin:editorial_shippeditem_changelist")
        if request.method == "POST" and record.is_pending:
            if not self.has_change_permission(request, record):
                raise PermissionDenied
            if "_adopt" in request.POST:
                message = shipped.adopt(record, request.user)
            else:
                message = shipped.dismiss(record)
            self.message_user(request, message, messages.SUCCESS)
            return HttpResponseRedirect(listing)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": f"Neue mitgelieferte Fassung: {record.label}",
            "subtitle": str(record.game),
            "record": record,
            "rows": shipped.diff_rows(record) if record.is_pending else [],
            "can_change": self.has_change_permission(request, record),
            "preview_url": record.game.get_absolute_url(),
        }
        return TemplateResponse(request, "admin/editorial/shipped_item.html", context)
