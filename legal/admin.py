from django.contrib import admin

from legal.models import LegalPage


@admin.register(LegalPage)
class LegalPageAdmin(admin.ModelAdmin):
    list_display = ["__str__", "title", "open_placeholders", "updated_at"]
    fields = ["title", "body", "updated_at"]
    readonly_fields = ["updated_at"]

    @admin.display(description="offene Platzhalter")
    def open_placeholders(self, page):
        return len(page.placeholders())

    # The two pages exist from the first migrate on; the site links exactly these.
    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
