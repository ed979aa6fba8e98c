"""Structured access log: one JSON line per request on stdout.

Fields: ``time`` (start, UTC), ``method``, ``path``, ``status``, ``duration_ms``
(until the response was handed over and closed, so a stream counts its whole
life), ``bytes`` (body size; ``null`` for a stream without Content-Length),
``request_id`` (the proxy's ``X-Request-ID`` when it sends a sane one, else a new
one; echoed in the response), ``view`` (the URL name) and ``client``.

Privacy: the query string is never logged, URL parts that are secrets (room
invite codes, the private feedback status token) are replaced by ``<code>`` /
``<token>``, and the client's address appears only as a keyed hash that changes
every day (``ACCESS_LOG_CLIENT=off`` drops even that). It lets one follow a
single client through a day's log without storing the address.

``ACCESS_LOG=off`` switches the log off; successful `/healthz` probes are not
logged (a load balancer asks every few seconds), failed and degraded ones are.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import logging
import os
import re
import sys
import time
from datetime import UTC, datetime

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings

from site_config import health
from site_config.ratelimit import client_ip

logger = logging.getLogger("kartenregeln.access")

# What a proxy may hand us as request id (nginx's $request_id is 32 hex digits).
REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{8,128}")
# URL keyword arguments that are secrets: whoever knows them may act in the room.
SECRET_KWARGS = ("code", "token")
PATH_MAX = 500
# In a path no URL pattern matched, a segment that looks like a random token (long,
# mixed case) is masked too: a mistyped room address still carries its invite code.
TOKEN_LIKE = re.compile(r"(?=[A-Za-z0-9_-]*[A-Z])(?=[A-Za-z0-9_-]*[a-z0-9])[A-Za-z0-9_-]{16,}")


class StdoutHandler(logging.StreamHandler):
    """A StreamHandler on whatever ``sys.stdout`` is when a line is written.

    A plain StreamHandler keeps the stream it was configured with; this one follows
    redirection (test capture, a server that swaps stdout after logging was set up).
    """

    def __init__(self):
        super().__init__(sys.stdout)

    @property
    def stream(self):
        return sys.stdout

    @stream.setter
    def stream(self, value):
        pass


def enabled() -> bool:
    return getattr(settings, "ACCESS_LOG", True)


def request_id(request) -> str:
    incoming = request.headers.get("X-Request-ID", "")
    return incoming if REQUEST_ID.fullmatch(incoming) else os.urandom(16).hex()


def logged_path(request) -> str:
    """The path with secret URL parts masked (segment by segment, so nothing else changes)."""
    parts = request.path.split("/")
    match = getattr(request, "resolver_match", None)
    if match is not None:
        secrets = {str(match.kwargs[name]): name for name in SECRET_KWARGS if name in match.kwargs}
        parts = [f"<{secrets[part]}>" if part in secrets else part for part in parts]
    else:
        parts = ["<?>" if TOKEN_LIKE.fullmatch(part) else part for part in parts]
    return "/".join(parts)[:PATH_MAX]


@functools.lru_cache(maxsize=4)
def _daily_key(secret: str, day: str) -> bytes:
    # Derived from the secret key and the day: yesterday's pseudonyms cannot be linked to today's.
    return hashlib.sha256(f"kartenregeln.access-log|{day}|{secret}".encode()).digest()


def client_pseudonym(request, day: str) -> str | None:
    """A keyed hash of the client address that changes daily; never the address itself."""
    if getattr(settings, "ACCESS_LOG_CLIENT", "hash") != "hash":
        return None
    key = _daily_key(settings.SECRET_KEY, day)
    return hmac.new(key, client_ip(request).encode(), hashlib.sha256).hexdigest()[:16]


def body_size(response) -> int | None:
    if response.has_header("Content-Length"):
        try:
            return int(response["Content-Length"])
        except ValueError:
            return None
    if response.streaming:
        return None
    return len(response.content)


def begin(request) -> tuple[datetime, float]:
    """Marks the request's start; ``finish`` writes its line. Shared by the middleware
    and the page front (site_config/front.py), so a page answered there logs the same."""
    request.request_id = request_id(request)
    return datetime.now(UTC), time.perf_counter()


def finish(request, response, started):
    """Echoes the request id and writes the line once the response is closed."""
    response["X-Request-ID"] = request.request_id
    if not enabled():
        return response
    healthy = response.status_code == 200 and not getattr(response, "degraded", False)
    if request.path_info == health.PATH and healthy:
        return response
    # Django closes every response once the server has sent it (WSGI and ASGI alike);
    # its closers run then, so a long stream is logged with its whole duration.
    response._resource_closers.append(lambda: _write(request, response, started))
    return response


def _write(request, response, started) -> None:
    moment, clock = started
    match = getattr(request, "resolver_match", None)
    line = {
        "time": moment.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "method": request.method,
        "path": logged_path(request),
        "status": response.status_code,
        "duration_ms": round((time.perf_counter() - clock) * 1000, 2),
        "bytes": body_size(response),
        "request_id": request.request_id,
        "view": match.view_name if match is not None else None,
        "client": client_pseudonym(request, moment.date().isoformat()),
    }
    logger.info(json.dumps(line, ensure_ascii=False, separators=(",", ":")))


class AccessLogMiddleware:
    """Outermost middleware: times the request and writes its line when the response closes."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request):
        if self.is_async:
            return self.__acall__(request)
        started = begin(request)
        return finish(request, self.get_response(request), started)

    async def __acall__(self, request):
        started = begin(request)
        return finish(request, await self.get_response(request), started)
