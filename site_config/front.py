"""Cached pages answered in front of Django's handler (``asgi.py`` on the event loop,
``wsgi.py`` in the sync worker): a hit needs nothing of Django's request cycle.

``answer(environ)`` builds the request Django would build from the same environ and
asks ``page_cache.local_hit`` – the middleware's own rules (which requests qualify,
the key, the generation, this process's copy), with no network round trip. The
response gets the headers the middlewares outside the page cache (security
headers, …) added the last time this page went through Django in this process
(``learn``, fed by the server wrapper), and the access log's request id and line
(``access_log.begin``/``finish``, written when the server closes the response). So
a page answered here goes out as the Django path would send it. Until that path has
sent a page once, and whenever the copy or the generation is stale, the request
goes through Django, which refreshes both.
"""

from __future__ import annotations

from django.core.handlers.wsgi import WSGIRequest

from site_config import access_log, page_cache
from site_config.lru import SizedLRU

# Set per response, never learned: sizes, encoding, hit or miss, request id, and what
# the server adds itself.
PER_RESPONSE = {
    "content-length",
    "content-encoding",
    page_cache.HIT_HEADER.lower(),
    "x-request-id",
    "date",
    "server",
    "connection",
    "transfer-encoding",
    "set-cookie",
}
# page key → [(name, value)] the outer middlewares added to that page.
_outer = SizedLRU(
    1024 * 1024, size=lambda headers: sum(len(n) + len(v) for n, v in headers), max_entries=10_000
)


def candidate(path: str) -> bool:
    """Whether a GET of this path may be a cached page (cheap: the URL match is kept)."""
    return page_cache._cached_view_match(path) is not None


def answer(environ) -> tuple[object | None, str | None]:
    """(response, None) for a hit from this process's copy; else (None, key) with the page
    key for ``learn`` when the request may be a cached page, or (None, None)."""
    if environ.get("REQUEST_METHOD") != "GET" or not candidate(environ.get("PATH_INFO", "")):
        return None, None
    request = WSGIRequest(environ)
    if not page_cache.qualifies(request) or page_cache.cached_view_match(request) is None:
        return None, None
    key = page_cache.page_key(request)
    outer = _outer.get(key)
    if outer is None:
        return None, key
    started = access_log.begin(request)
    response = page_cache.local_hit(request)
    if response is None:
        return None, key
    store = response.headers._store
    for name, value in outer:
        store[name.lower()] = (name, value)
    return access_log.finish(request, response, started), None


def learn(key: str, headers) -> None:
    """Remembers the headers the Django path sent with a stored page (hit or miss) beyond
    the entry's own; ``headers``: (name, value) pairs as str."""
    if not any(
        name.lower() == page_cache.HIT_HEADER.lower() and value in ("hit", "miss")
        for name, value in headers
    ):
        return
    entry = page_cache._local.get(key)
    if entry is None:
        return
    stored = entry[2]
    _outer.put(
        key,
        [
            (name, value)
            for name, value in headers
            if name.lower() not in stored and name.lower() not in PER_RESPONSE
        ],
    )


def forget() -> None:
    """Drops what was learned (tests)."""
    _outer.clear()


def wsgi_headers(response) -> list[tuple[str, str]]:
    """The response's headers as Django's WSGI handler hands them to the server."""
    return [
        *response.items(),
        *(("Set-Cookie", cookie.output(header="")) for cookie in response.cookies.values()),
    ]
