"""Unchanged room polls answered in front of Django (``site_config/asgi.py``).

A poll that finds nothing new (``rooms.views.poll``: 204) went through Django's
whole request cycle and a query; here it costs one Redis GET on the event loop.
The room's writers keep its version and next deadline under ``live.version_key``
(and a poll Django answered keeps what it read). A 204 goes out here only when
that version is the poll's and no deadline has fallen due; anything else – another
version, a due deadline, no key, Redis away, the first poll of a process, whose
headers are learned from Django's answer – goes through Django as before. The 204
tells nothing about the table, so nothing more is checked than Django's 204 checks
(not who asks).
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from urllib.parse import parse_qs

import redis.asyncio as aioredis
from a2wsgi.wsgi import build_environ
from django.conf import settings
from django.core.handlers.wsgi import WSGIRequest
from django.http import HttpResponse

from games import clock
from games.play import definition as registry
from games.play import live
from rooms import locked
from site_config import access_log, front

logger = logging.getLogger(__name__)

# rooms/urls.py: ROOM + "status/"
POLL_PATH = re.compile(r"^/spiele/(?P<slug>[-\w]+)/raum/(?P<code>[-\w]+)/status/$")
_learned: list[tuple[str, str]] | None = None
_clients: dict[int, tuple[asyncio.AbstractEventLoop, aioredis.Redis]] = {}


def candidate(scope) -> bool:
    """Whether this request is a room's poll that may be answered here."""
    return (
        scope["method"] == "GET" and live.enabled() and POLL_PATH.match(scope["path"]) is not None
    )


def learning(send):
    """``send`` that remembers the headers of Django's 204 to a poll."""

    async def wrapped(message):
        if message["type"] == "http.response.start" and message["status"] == 204:
            learn([(n.decode("latin-1"), v.decode("latin-1")) for n, v in message["headers"]])
        await send(message)

    return wrapped


def learn(headers: list[tuple[str, str]]) -> None:
    global _learned
    _learned = [(name, value) for name, value in headers if name.lower() not in front.PER_RESPONSE]


def forget() -> None:
    """Drops the learned headers (tests)."""
    global _learned
    _learned = None


async def answer(scope) -> HttpResponse | None:
    """The 204 for an unchanged poll, or None: Django answers."""
    if _learned is None:
        return None
    match = POLL_PATH.match(scope["path"])
    engine = registry.for_slug(match["slug"])
    since = _asked_version(scope)
    if engine is None or not engine.rooms or since is None:
        return None
    key = live.version_key(locked.room_channel(engine.key, match["code"]))
    try:
        stored = await _client().get(key)
    except Exception:  # Redis away or slow: Django answers, as without this path
        logger.warning("live: could not read %s; the poll goes to Django", key, exc_info=True)
        return None
    known = live.parse_notice(stored) if stored else None
    if known is None or known[0] != since:
        return None
    due = known[1]
    if due is not None and due <= clock.now().timestamp():
        return None  # Django applies the deadline
    request = WSGIRequest(build_environ(scope, io.BytesIO()))
    started = access_log.begin(request)
    response = HttpResponse(status=204)
    for name, value in _learned:
        response[name] = value
    response["Content-Length"] = "0"  # as Django's handler sends it
    return access_log.finish(request, response, started)


def _asked_version(scope) -> int | None:
    values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("v")
    try:
        return int(values[0]) if values else None
    except ValueError:
        return None


def _client() -> aioredis.Redis:
    """One client per event loop (a client belongs to the loop it was made on)."""
    loop = asyncio.get_running_loop()
    kept = _clients.get(id(loop))
    if kept is None or kept[0] is not loop:
        client = aioredis.Redis.from_url(
            settings.LIVE_REDIS_URL,
            decode_responses=True,
            socket_timeout=1,
            socket_connect_timeout=1,
        )
        kept = _clients[id(loop)] = (loop, client)
    return kept[1]
