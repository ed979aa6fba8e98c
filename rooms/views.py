"""Room pages and actions. Thin: the room flows decide (``rooms.lobby``, ``rooms.seating``,
``rooms.playing``, read by ``rooms.reading``), the templates show.

Every page and partial is rendered from ``view(state, seat)`` of the
requesting visitor's own seat (``None`` for spectators); the state itself
never reaches a template.
"""

from __future__ import annotations

import contextlib
import secrets

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseStopPolling

from games import availability, clock
from games.models import Game
from games.play import definition as registry
from games.play.definition import GameDefinition
from games.visitors import visitor_id
from rooms import body, lobby, locked, playing, reading, seating, watching
from rooms.models import Room
from site_config.ratelimit import HOUR, Limit, client_ip, hit

# Each room costs rows until the 24-hour cleanup; a script must not fill the table.
ROOMS_PER_IP = Limit("room-create-ip", 20, HOUR)

BODY = "rooms/room.html#body"
GONE = "rooms/room.html#gone"


def room_engine(slug: str, request=None) -> GameDefinition:
    engine = registry.for_slug(slug)
    if engine is None or not engine.rooms:
        raise Http404("Für dieses Spiel gibt es keine Online-Räume.")
    if request is not None and not availability.is_open(request, slug):
        raise Http404("Dieses Spiel gibt es nicht.")
    return engine


def _game(request, engine) -> Game:
    game = Game.objects.visible_to(request.user).filter(slug=engine.slug).first()
    if game is None:
        raise Http404("Dieses Spiel gibt es nicht.")
    return game


def _version(raw) -> int | None:
    try:
        return int(raw)
    except (TypeError, ValueError):
        return None


def room_context(
    request,
    engine,
    room: Room,
    seats,
    *,
    message: str = "",
    since=None,
    spectator=False,
    parts: body.RoomParts | None = None,
) -> dict:
    """The room body for the requesting visitor: lobby, table or join form.

    ``spectator``: the watch link's page – seat None whoever asks (rooms.watching);
    ``parts``: the room's shared parts, if already drawn for the pushes of this change.
    """
    visitor = visitor_id(request)
    me = None
    if not spectator:
        me = next((s for s in seats if s.visitor == visitor and not s.is_bot), None)
    context = body.context(
        engine,
        room,
        seats,
        me,
        origin=f"{request.scheme}://{request.get_host()}",
        message=message,
        since=since,
        spectator=spectator,
        parts=parts,
    )
    context["bot_token"] = secrets.token_urlsafe(12)
    return context


def _render_body(request, engine, result, *, since=None, spectator=False, left=False):
    if result.room is None:
        context = {"engine": engine, "message": result.message or locked.MISSING}
        # A poll is told to stop polling; the notice is still swapped in.
        response_class = HttpResponseStopPolling if request.method == "GET" else HttpResponse
        response = response_class(render(request, GONE, context).content)
    else:
        context = room_context(
            request,
            engine,
            result.room,
            result.seats,
            message=result.message,
            since=since,
            spectator=spectator,
            parts=result.parts() if result.parts is not None else None,
        )
        # Just left (the answer to „Ja, verlassen“): say so with the ways back.
        context["just_left"] = left and result.applied
        response = render(request, BODY, context)
        response["X-Room-Version"] = str(result.room.version)
    patch_cache_control(response, no_store=True)
    return response


def _respond(request, engine, code: str, result, *, since=None, left=False):
    """htmx: the new room body (with the note); without JavaScript: redirect back."""
    if request.htmx:
        return _render_body(request, engine, result, since=since, left=left)
    if result.message:
        level = messages.SUCCESS if result.applied else messages.WARNING
        messages.add_message(request, level, result.message)
    if result.room is None:
        target = reverse("rooms:create", kwargs={"slug": engine.slug})
        if result.message == locked.MISSING:
            target = reverse("games:detail", kwargs={"slug": engine.slug})
        return redirect(target)
    return redirect(reverse("rooms:room", kwargs={"slug": engine.slug, "code": code}))


# --- Pages -------------------------------------------------------------------------------


@never_cache
@require_http_methods(["GET", "POST"])
def create(request, slug):
    engine = room_engine(slug, request)
    game = _game(request, engine)
    values = {"name": "", **engine.default_options()}
    error = ""
    if request.method == "POST":
        values.update({key: request.POST.get(key, "") for key in ("name",)})
        try:
            if hit(ROOMS_PER_IP, client_ip(request)):
                raise locked.RoomError(
                    "Von deinem Anschluss wurden gerade sehr viele Räume eröffnet. "
                    "Bitte versuch es in einer Stunde noch einmal."
                )
            room = lobby.create_room(
                engine, visitor_id(request), request.POST.get("name"), request.POST
            )
        except locked.RoomError as refused:
            error = str(refused)
            for option in engine.options:
                with contextlib.suppress(ValueError):  # keep what was valid
                    values[option.key] = option.parse(request.POST.get(option.key, ""))
        else:
            url = reverse("rooms:room", kwargs={"slug": slug, "code": room.code})
            return redirect(url)
    options = engine.option_choices(values)
    context = {
        "game": game,
        "engine": engine,
        "options": options,
        "name": values["name"],
        "error": error,
        "name_max": seating.NAME_MAX,
    }
    response = render(request, "rooms/create.html", context, status=200)
    return response


@never_cache
@require_safe
def room(request, slug, code):
    engine = room_engine(slug, request)
    game = _game(request, engine)
    result = reading.load(engine, code)
    if result.room is None:
        response = render(
            request,
            "rooms/missing.html",
            {"game": game, "engine": engine, "message": locked.MISSING},
            status=404,
        )
        return response
    context = room_context(request, engine, result.room, result.seats)
    context["game"] = game
    context["live_url"] = reverse("rooms:live", kwargs={"slug": engine.slug, "code": code})
    return render(request, "rooms/room.html", context)


@require_safe
def poll(request, slug, code):
    """The live update: 204 (no query beyond one, no template) while nothing changed."""
    engine = room_engine(slug, request)
    since = _version(request.GET.get("v"))
    info = reading.poll_info(engine, code)
    if info is not None and since is not None and reading.unchanged(info, since, clock.now()):
        reading.remember(engine, code, info)  # the next polls are answered in front
        response = HttpResponse(status=204)
        patch_cache_control(response, no_store=True)
        return response
    return _render_body(request, engine, reading.load(engine, code), since=since)


# --- Actions -------------------------------------------------------------------------------


@require_POST
@vary_on_headers("HX-Request")
def join(request, slug, code):
    engine = room_engine(slug, request)
    result = seating.join(engine, code, visitor_id(request), request.POST.get("name"))
    return _respond(request, engine, code, result)


@require_POST
@vary_on_headers("HX-Request")
def options(request, slug, code):
    engine = room_engine(slug, request)
    result = lobby.update_options(engine, code, visitor_id(request), request.POST)
    return _respond(request, engine, code, result)


@require_POST
@vary_on_headers("HX-Request")
def visibility(request, slug, code):
    """The host lists the room under „Mitspieler finden“ or makes it private again."""
    engine = room_engine(slug, request)
    expected = _version(request.POST.get("version"))
    public = request.POST.get("oeffentlich") == "1"
    result = lobby.set_public(engine, code, visitor_id(request), public, expected)
    return _respond(request, engine, code, result)


@require_POST
@vary_on_headers("HX-Request")
def add_bot(request, slug, code):
    engine = room_engine(slug, request)
    result = seating.add_bot(engine, code, visitor_id(request), request.POST.get("token", ""))
    return _respond(request, engine, code, result)


@require_POST
@vary_on_headers("HX-Request")
def remove_bot(request, slug, code):
    engine = room_engine(slug, request)
    result = seating.remove_bot(engine, code, visitor_id(request), request.POST.get("platz"))
    return _respond(request, engine, code, result)


@require_POST
@vary_on_headers("HX-Request")
def start(request, slug, code):
    engine = room_engine(slug, request)
    expected = _version(request.POST.get("version"))
    result = lobby.start(engine, code, visitor_id(request))
    return _respond(request, engine, code, result, since=expected)


@require_POST
@vary_on_headers("HX-Request")
def act(request, slug, code):
    engine = room_engine(slug, request)
    expected = _version(request.POST.get("version"))
    result = playing.act(engine, code, visitor_id(request), expected, request.POST)
    return _respond(request, engine, code, result, since=expected)


@never_cache
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def leave(request, slug, code):
    engine = room_engine(slug, request)
    if request.method == "GET":
        # Without JavaScript the confirmation is a page of its own (with it, a <dialog>).
        game = _game(request, engine)
        result = reading.load(engine, code)
        if result.room is None:
            raise Http404(locked.MISSING)
        context = room_context(request, engine, result.room, result.seats)
        context["game"] = game
        return render(request, "rooms/leave_confirm.html", context)
    result = seating.leave(engine, code, visitor_id(request))
    return _respond(request, engine, code, result, left=True)


@require_POST
@vary_on_headers("HX-Request")
def rematch(request, slug, code):
    engine = room_engine(slug, request)
    expected = _version(request.POST.get("version"))
    result = playing.rematch(engine, code, visitor_id(request), expected)
    return _respond(request, engine, code, result, since=expected)


@require_POST
@vary_on_headers("HX-Request")
def to_lobby(request, slug, code):
    engine = room_engine(slug, request)
    expected = _version(request.POST.get("version"))
    result = playing.to_lobby(engine, code, visitor_id(request), expected)
    return _respond(request, engine, code, result)


# --- Spectators (rooms.watching) -------------------------------------------------------------


@never_cache
@require_safe
def watch(request, slug, watch_code):
    """/spiele/<slug>/zuschauen/<watch_code>/: the table as everyone sees it, live."""
    engine = room_engine(slug, request)
    game = _game(request, engine)
    code = watching.code_of(engine, watch_code)
    result = reading.load(engine, code) if code else locked.Result(None)
    if result.room is None:
        context = {"game": game, "engine": engine, "message": WATCH_MISSING}
        return render(request, "rooms/missing.html", context, status=404)
    watching.touch(engine.key, code, visitor_id(request))
    context = room_context(request, engine, result.room, result.seats, spectator=True)
    context["game"] = game
    context["live_url"] = body.watch_urls(engine, watch_code)["live"]
    return render(request, "rooms/room.html", context)


WATCH_MISSING = (
    "Hier gibt es nichts (mehr) zu sehen: Der Raum ist geschlossen, oder der Link stimmt nicht."
)


@require_safe
def watch_poll(request, slug, watch_code):
    """A spectator's poll: 204 while nothing changed, else the body from seat None."""
    engine = room_engine(slug, request)
    since = _version(request.GET.get("v"))
    code = watching.code_of(engine, watch_code)
    if code is None:
        return _render_body(request, engine, locked.Result(None, message=WATCH_MISSING))
    watching.touch(engine.key, code, visitor_id(request))
    info = reading.poll_info(engine, code)
    if info is not None and since is not None and reading.unchanged(info, since, clock.now()):
        response = HttpResponse(status=204)
        patch_cache_control(response, no_store=True)
        return response
    return _render_body(request, engine, reading.load(engine, code), since=since, spectator=True)
