"""Read-only queries other apps use (game pages, „Mein Bereich“) and the list page."""

from datetime import timedelta

from django.db.models import Count, Prefetch, Q

from games import clock
from games.models import Game
from groups.models import GameNight, Member, PlayGroup


def _with_size_and_games(queryset):
    return queryset.annotate(member_count=Count("members", distinct=True)).prefetch_related(
        Prefetch("games", queryset=Game.objects.published().order_by("title"))
    )


def listed_groups():
    """Public groups the editors have not hidden, with member_count and published games."""
    return _with_size_and_games(PlayGroup.objects.listed()).order_by("name")


def public_groups_playing(game, limit: int | None = None):
    """Public, not hidden groups that play ``game``: named in the group's games or
    chosen for one of its game nights. Each row has ``member_count`` and its
    published ``games`` prefetched. For the „Mitspieler finden“ box on game pages."""
    groups = (
        PlayGroup.objects.listed()
        .filter(Q(games=game) | Q(nights__games=game))
        .values("pk")
        .distinct()
    )
    queryset = _with_size_and_games(PlayGroup.objects.filter(pk__in=groups)).order_by(
        "-member_count", "name"
    )
    return queryset[:limit] if limit else queryset


def upcoming_nights(group_or_groups, now=None):
    """Nights still to come: fixed ones not over yet, open polls with a future option.
    Fixed nights first by date, then the open polls."""
    now = now or clock.now()
    groups = group_or_groups if isinstance(group_or_groups, list | tuple) else [group_or_groups]
    nights = (
        GameNight.objects.filter(group__in=groups)
        .select_related("fixed_option", "group")
        .prefetch_related("options")
    )
    # A night still counts as coming while it runs (up to a day of duration).
    fixed = [
        night
        for night in nights.filter(
            fixed_option__isnull=False, fixed_option__starts_at__gte=now - timedelta(days=1)
        )
        if night.ends_at >= now
    ]
    fixed.sort(key=lambda night: night.starts_at)
    open_polls = list(
        nights.filter(fixed_option__isnull=True, options__starts_at__gte=now).distinct()
    )
    return fixed + open_polls


def past_nights(group, now=None):
    now = now or clock.now()
    return [
        night
        for night in GameNight.objects.filter(group=group, fixed_option__isnull=False)
        .select_related("fixed_option")
        .order_by("-fixed_option__starts_at")
        if night.ends_at < now
    ]


def groups_of_user(user, now=None):
    """For „Mein Bereich“: the user's memberships, each with ``group`` and ``next_nights``
    (upcoming fixed nights and open polls, see upcoming_nights)."""
    if not getattr(user, "is_authenticated", False):
        return []
    memberships = list(
        Member.objects.filter(user=user).select_related("group").order_by("group__name")
    )
    nights = upcoming_nights([m.group for m in memberships], now) if memberships else []
    for membership in memberships:
        membership.next_nights = [n for n in nights if n.group_id == membership.group_id]
    return memberships
