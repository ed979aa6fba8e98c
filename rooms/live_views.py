"""The live stream (Server-Sent Events) of a room: async, served by ASGI workers.

A stream carries the table as this browser's viewer sees it, rendered by whoever
changed it, or else a version notice on which the page fetches its view from the
poll URL (``games.play.streams``). The request is thin: find the room's channel
and the viewer (the visitor's seat, or a spectator), read the version on
(re)connect, then wait on Redis.
"""

from __future__ import annotations

from django.http import Http404
from django.views.decorators.http import require_safe

from games.play import streams
from games.visitors import existing_visitor_id
from rooms import body, locked, watching
from rooms.models import Room, Seat
from rooms.views import room_engine


def _viewer(engine, code: str, visitor: str | None) -> str:
    seat = None
    if visitor:
        seat = (
            Seat.objects.filter(room__code=code, room__engine=engine.key, visitor=visitor)
            .filter(is_bot=False)
            .first()
        )
    return body.view_key(seat)


@require_safe
async def room(request, slug, code):
    """/spiele/<slug>/raum/<code>/live/: whenever the room's version changes."""
    engine = await streams.in_thread(room_engine)(slug, request)
    viewer = await streams.in_thread(_viewer)(engine, code, existing_visitor_id(request))

    def read_version():
        return (
            Room.objects.filter(code=code, engine=engine.key)
            .values_list("version", flat=True)
            .first()
        )

    channel = locked.room_channel(engine.key, code)
    return await streams.respond(request, channel, read_version, viewer=viewer)


@require_safe
async def watch(request, slug, watch_code):
    """/spiele/<slug>/zuschauen/<watch_code>/live/: the room's own channel, seen as a
    spectator (``body.WATCHING``: drawn from ``view(state, None)``, with the watch
    code's URLs – never the invite code)."""
    engine = await streams.in_thread(room_engine)(slug, request)
    code = await streams.in_thread(watching.code_of)(engine, watch_code)
    if code is None:
        raise Http404("Diesen Raum gibt es nicht (mehr).")

    def read_version():
        return (
            Room.objects.filter(code=code, engine=engine.key)
            .values_list("version", flat=True)
            .first()
        )

    channel = locked.room_channel(engine.key, code)
    return await streams.respond(request, channel, read_version, viewer=body.WATCHING)
