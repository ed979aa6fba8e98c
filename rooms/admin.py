"""The rooms in the admin: read-only views for support (state and codes are not edited by hand)."""

from django.contrib import admin

from rooms.models import Room, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    fields = ("number", "name", "is_host", "is_bot", "left", "joined_at")
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    """Read-only overview for operators; rooms are run by their players only."""

    list_display = ("code", "engine", "status", "is_public", "version", "last_activity")
    list_filter = ("engine", "status", "is_public")
    fields = (
        "code",
        "engine",
        "status",
        "is_public",
        "public_code",
        "public_since",
        "options",
        "version",
        "games_played",
        "created_at",
        "last_activity",
    )
    readonly_fields = fields
    inlines = [SeatInline]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
