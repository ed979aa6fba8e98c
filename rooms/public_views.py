"""„Mitspieler finden“: open public rooms on game pages and site-wide, and the public join.

The game page is cached for everybody, so its box is a fragment of its own
(``hx-get`` on load, a plain link without JavaScript). The room list polls
with the version it shows (``?v=``) and gets 204 while nothing changed.
Nothing here ever renders an invite code: joining goes through the room's
public code and the same seat rules as an invitation; only a visitor who got
a seat is sent on to the room.
"""

from __future__ import annotations

from django.apps import apps
from django.core import signing
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_http_methods, require_safe
from django.views.decorators.vary import vary_on_headers

from games.models import Game
from games.visitors import existing_visitor_id, visitor_id
from rooms import public, seating, watching
from rooms.models import Seat
from site_config.ratelimit import HOUR, Limit, client_ip, hit

# Joining takes a seat in a stranger's room: a script must not fill every open table.
PUBLIC_JOINS_PER_IP = Limit("room-public-join-ip", 30, HOUR)
GROUPS_SHOWN = 5

# The name a visitor last joined with, so „Mitspielen“ needs one click next time.
NAME_COOKIE = "tischname"
NAME_SALT = "rooms.public.name"
NAME_MAX_AGE = 60 * 60 * 24 * 365


def _definition(request, slug):
    found = public.room_definitions(request, slug=slug)
    if not found:
        raise Http404("Für dieses Spiel gibt es keine Online-Räume.")
    return found[0]


def _url(name: str, **kwargs) -> str:
    """A URL of another app that may not be installed (yet): "" then."""
    try:
        return reverse(name, kwargs=kwargs)
    except NoReverseMatch:
        return ""


def _groups(game) -> list | None:
    """Public Spielegruppen playing ``game``; None while the groups app is not there."""
    if not apps.is_installed("groups"):
        return None
    try:
        from groups.selectors import public_groups_playing
    except ImportError:
        return None
    return list(public_groups_playing(game, limit=GROUPS_SHOWN))


def _remembered_name(request) -> str:
    try:
        return request.get_signed_cookie(NAME_COOKIE, salt=NAME_SALT, max_age=NAME_MAX_AGE)
    except (KeyError, signing.BadSignature):
        return ""


def _list_context(request, definitions, poll_url: str, *, show_game: bool) -> dict:
    rooms = public.open_rooms(definitions, existing_visitor_id(request))
    return {
        "rooms": rooms,
        "fingerprint": public.fingerprint(rooms),
        "poll_url": poll_url,
        "show_game": show_game,
        "remembered_name": _remembered_name(request),
    }


def _no_store(response):
    patch_cache_control(response, private=True, no_store=True)
    return response


def _poll(request, definitions, poll_url: str, *, show_game: bool):
    """The list alone (204 while its version is the client's); None when not a poll."""
    since = request.GET.get("v")
    if not request.htmx or since is None:
        return None
    context = _list_context(request, definitions, poll_url, show_game=show_game)
    if context["fingerprint"] == since:
        return _no_store(HttpResponse(status=204))
    return _no_store(render(request, "rooms/public/_list.html", context))


@require_safe
@vary_on_headers("HX-Request")
def game_players(request, slug):
    """The game's „Mitspieler finden“: the box (htmx) or a page of its own (no JavaScript)."""
    definition = _definition(request, slug)
    poll_url = reverse("rooms:players", kwargs={"slug": slug})
    polled = _poll(request, [definition], poll_url, show_game=False)
    if polled is not None:
        return polled
    game = Game.objects.visible_to(request.user).filter(slug=slug).first()
    if game is None:
        raise Http404("Dieses Spiel gibt es nicht.")
    context = {
        **_list_context(request, [definition], poll_url, show_game=False),
        "running": watching.running_games([definition]),
        "game": game,
        "definition": definition,
        "groups": _groups(game),
        "groups_url": _url("groups:list"),
        "new_group_url": _url("groups:create"),
    }
    template = "rooms/public/game.html#box" if request.htmx else "rooms/public/game.html"
    return _no_store(render(request, template, context))


@require_safe
@vary_on_headers("HX-Request")
def find_players(request):
    """/mitspieler-finden/: open public rooms of every game."""
    definitions = public.room_definitions(request)
    poll_url = reverse("rooms:find")
    polled = _poll(request, definitions, poll_url, show_game=True)
    if polled is not None:
        return polled
    context = {
        **_list_context(request, definitions, poll_url, show_game=True),
        "running": watching.running_games(definitions),
        "definitions": definitions,
        "groups_url": _url("groups:list"),
    }
    return _no_store(render(request, "rooms/public/find.html", context))


@require_http_methods(["GET", "POST"])
def public_join(request, slug, public_code):
    """„Mitspielen“: GET shows the room and asks for a name; POST takes a seat.

    A visitor who already sits at the table goes straight to the room.
    """
    definition = _definition(request, slug)
    visitor = existing_visitor_id(request)
    seated_in = _seated_in(visitor, public_code)
    if seated_in:
        return redirect(_room_url(definition, seated_in))
    name = _remembered_name(request)
    message = ""
    status = 200
    if request.method == "POST":
        name = " ".join(str(request.POST.get("name") or name).split())
        if not name:
            pass  # the quick button without a known name: ask for it first
        elif hit(PUBLIC_JOINS_PER_IP, client_ip(request)):
            message = (
                "Von deinem Anschluss aus wurde gerade sehr oft beigetreten. "
                "Bitte versuch es in einer Stunde noch einmal."
            )
            status = 429
        else:
            visitor = visitor_id(request)
            result = seating.join_public(definition, public_code, visitor, name)
            seat = next((s for s in result.seats if s.visitor == visitor and not s.left), None)
            if result.room is not None and seat is not None:
                response = redirect(_room_url(definition, result.room.code))
                response.set_signed_cookie(
                    NAME_COOKIE,
                    seat.name,
                    salt=NAME_SALT,
                    max_age=NAME_MAX_AGE,
                    httponly=True,
                    samesite="Lax",
                    secure=request.is_secure(),
                )
                return response
            message = result.message or seating.NOT_PUBLIC
            status = 409
    found = public.open_rooms([definition], visitor, public_code=public_code)
    if not found and not message:
        status = 404
    context = {
        "definition": definition,
        "room": found[0] if found else None,
        "public_code": public_code,
        "name": name,
        "message": message,
        "name_max": seating.NAME_MAX,
        "players_url": reverse("rooms:players", kwargs={"slug": slug}),
    }
    return _no_store(render(request, "rooms/public/join.html", context, status=status))


def _seated_in(visitor: str | None, public_code: str) -> str | None:
    """The invite code of the public room where ``visitor`` sits, else None."""
    if not visitor:
        return None
    return (
        Seat.objects.filter(
            room__public_code=public_code, room__is_public=True, visitor=visitor, left=False
        )
        .values_list("room__code", flat=True)
        .first()
    )


def _room_url(definition, code: str) -> str:
    # Only for a visitor seated at this table, who has been in the room already.
    return reverse("rooms:room", kwargs={"slug": definition.slug, "code": code})
