"""Bench only (``bench_moves.py``'s floor phase): what a move costs the shipped server
before any game rule runs and before any table is drawn.

Two POST endpoints beside the site's own URLs, both through every middleware the real
move passes (visitor cookie, CSRF, htmx, rate limits, access log):

- ``nothing``: the form is read, nothing else; answered 204.
- ``write``: what ``rooms.views.act`` does around the engine – the game looked up, the
  room locked, its seats read, a new version saved, committed and announced to the
  room's streams (Redis) – without the engine's move and without drawing the answer;
  answered 204. Nobody listens to these rooms, so no view is drawn for a push either.
"""

from django.http import HttpResponse
from django.urls import path
from django.views.decorators.http import require_POST

from games.visitors import visitor_id
from rooms import locked
from rooms.views import room_engine
from site_config.urls import urlpatterns as site_urlpatterns


@require_POST
def nothing(request):
    request.POST.get("version")
    return HttpResponse(status=204)


@require_POST
def write(request, slug, code):
    engine = room_engine(slug, request)
    request.POST.get("version")
    # As a move runs (rooms.playing.act): no savepoint, since bump() refuses nothing.
    result = locked.run(
        engine, code, lambda ctx: ctx.bump(), visitor_id(request), writes_before_refusing=False
    )
    response = HttpResponse(status=204)
    response["X-Room-Version"] = str(result.room.version if result.room else "")
    return response


# Before the site's own: found at once (a room's move URL takes ~0.09 ms to resolve, which
# the floor leaves out); the site's URLs resolve as in production but for two more checks.
urlpatterns = [
    path("bench-floor/nothing/", nothing),
    path("bench-floor/<slug:slug>/<str:code>/", write),
    *site_urlpatterns,
]
