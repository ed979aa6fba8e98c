"""The live stream (Server-Sent Events) of a room: async, served by ASGI workers.

A stream carries version notices only (``games.play.streams``); the page answers
each by fetching its own view from the poll URL. The request is thin: find the
room's channel, read its version on (re)connect, then wait on Redis.
"""

from __future__ import annotations

from django.http import Http404
from django.views.decorators.http import require_safe

from games.play import streams
from rooms import locked, watching
from rooms.models import Room
from rooms.views import room_engine


@require_safe
async def room(request, slug, code):
    """/spiele/<slug>/raum/<code>/live/: notices whenever the room's version changes."""
    engine = await streams.in_thread(room_engine)(slug, request)
    return await room_stream(request, engine, code)


async def room_stream(request, engine, code: str):
    """The room's stream, for its players and its spectators alike."""

    def read_version():
        return (
            Room.objects.filter(code=code, engine=engine.key)
            .values_list("version", flat=True)
            .first()
        )

    return await streams.respond(request, locked.room_channel(engine.key, code), read_version)


@require_safe
async def watch(request, slug, watch_code):
    """/spiele/<slug>/zuschauen/<watch_code>/live/: the same notices for spectators
    (a version number carries no card); the channel is the room's own."""
    engine = await streams.in_thread(room_engine)(slug, request)
    code = await streams.in_thread(watching.code_of)(engine, watch_code)
    if code is None:
        raise Http404("Diesen Raum gibt es nicht (mehr).")
    return await room_stream(request, engine, code)
