"""Editors see groups to moderate them: hide (with an internal reason), never read secrets."""

from django.contrib import admin
from django.db.models import Count

from groups.models import Answer, DateOption, GameNight, Member, PlayGroup, Rsvp


class MemberInline(admin.TabularInline):
    model = Member
    extra = 0
    fields = ["name", "role", "user", "joined_at"]
    readonly_fields = ["user", "joined_at"]
    show_change_link = True


@admin.register(PlayGroup)
class PlayGroupAdmin(admin.ModelAdmin):
    list_display = ["name", "region", "is_public", "is_hidden", "size", "created_at"]
    list_filter = ["is_public", "is_hidden"]
    search_fields = ["name", "description", "region", "slug"]
    readonly_fields = ["slug", "created_at"]
    # Secret tokens stay out of the form: editors moderate, they do not join.
    exclude = ["invite_token", "calendar_token"]
    filter_horizontal = ["games"]
    inlines = [MemberInline]
    actions = ["hide", "unhide"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(member_count=Count("members"))

    @admin.display(description="Mitglieder", ordering="member_count")
    def size(self, group):
        return group.member_count

    @admin.action(description="Ausgewählte Gruppen ausblenden")
    def hide(self, request, queryset):
        updated = queryset.update(is_hidden=True)
        self.message_user(request, f"{updated} Gruppe(n) ausgeblendet.")

    @admin.action(description="Ausgewählte Gruppen wieder einblenden")
    def unhide(self, request, queryset):
        updated = queryset.update(is_hidden=False)
        self.message_user(request, f"{updated} Gruppe(n) wieder eingeblendet.")


class DateOptionInline(admin.TabularInline):
    model = DateOption
    extra = 0


@admin.register(GameNight)
class GameNightAdmin(admin.ModelAdmin):
    list_display = ["title", "group", "fixed_option", "created_at"]
    search_fields = ["title", "group__name", "place", "note"]
    list_select_related = ["group", "fixed_option"]
    raw_id_fields = ["group", "created_by", "fixed_option"]
    filter_horizontal = ["games"]
    readonly_fields = ["uid", "sequence", "created_at", "updated_at"]
    inlines = [DateOptionInline]


@admin.register(Member)
class MemberAdmin(admin.ModelAdmin):
    list_display = ["name", "group", "role", "is_account", "joined_at"]
    list_filter = ["role"]
    search_fields = ["name", "group__name"]
    list_select_related = ["group"]
    raw_id_fields = ["group", "user"]
    exclude = ["token"]

    @admin.display(description="mit Konto", boolean=True)
    def is_account(self, member):
        return member.user_id is not None


@admin.register(Answer)
class AnswerAdmin(admin.ModelAdmin):
    list_display = ["member", "option", "value", "answered_at"]
    list_filter = ["value"]
    list_select_related = ["member", "option"]
    raw_id_fields = ["member", "option"]


@admin.register(Rsvp)
class RsvpAdmin(admin.ModelAdmin):
    list_display = ["member", "night", "attending", "answered_at"]
    list_filter = ["attending"]
    list_select_related = ["member", "night"]
    raw_id_fields = ["member", "night"]
