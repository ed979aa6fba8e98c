"""The live streams (Server-Sent Events) of rooms and demos: async, served by ASGI workers.

A stream carries version notices only (``rooms.live``); the page answers each
by fetching its own view from the poll URL. The requests are thin: find the
table's channel, read its version on (re)connect, then wait on Redis.
"""

from __future__ import annotations

from django.http import Http404
from django.views.decorators.http import require_safe

from games.play import definition as registry
from games.visitors import existing_visitor_id
from rooms import live
from rooms.models import Room


def _room_engine(slug: str, request):
    from rooms.views import _engine

    return _engine(slug, request)


@require_safe
async def room(request, slug, code):
    """/spiele/<slug>/raum/<code>/live/: notices whenever the room's version changes."""
    engine = await live.in_thread(_room_engine)(slug, request)

    def read_version():
        return (
            Room.objects.filter(code=code, engine=engine.key)
            .values_list("version", flat=True)
            .first()
        )

    return await live.respond(request, live.room_channel(engine.key, code), read_version)


def _demo_definition(slug: str, request):
    from games import availability

    definition = registry.for_slug(slug)
    if definition is None or definition.demo is None:
        raise Http404("Für dieses Spiel gibt es keine Demo.")
    if not availability.is_open(request, slug):
        raise Http404("Dieses Spiel gibt es nicht.")
    return definition


@require_safe
async def demo(request, slug):
    """/spiele/<slug>/demo/live/: the reader's own demo table (bots moving on their clock)."""
    definition = await live.in_thread(_demo_definition)(slug, request)
    # Only an existing visitor can have a stored game; a new one would get a fresh id per request.
    visitor = existing_visitor_id(request)
    if visitor is None:
        raise Http404("Noch keine Demo-Partie.")

    def read_version():
        from games.models import DemoGame

        version = (
            DemoGame.objects.filter(visitor=visitor, engine=definition.key)
            .values_list("version", flat=True)
            .first()
        )
        return 0 if version is None else version

    return await live.respond(request, live.demo_channel(definition.key, visitor), read_version)
