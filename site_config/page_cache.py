"""Whole public pages from the cache, invalidated by a site-wide content generation.

A page view opts in with ``@cached_page``. Its response, rendered for an anonymous
reader, holds nothing that belongs to one visitor (no CSRF token, no demo state,
no own vote): those parts are fragments the page loads afterwards
(``templates/includes/fragment.html``). The response bytes and headers are stored
under a key made of scheme, host, path, query string and whether htmx asked.

``PageCacheMiddleware`` sits right after WhiteNoise and answers a cookie-less GET
(or one whose cookies do not change the page) before sessions, CSRF, auth or the
URL's view run: from the process's own copy when it knows the current generation
(read from the shared cache at most once a second), else with one round trip
(``get_many`` of page and generation: one MGET on Redis). Every content change an
editor can make bumps the generation (``site_config.page_cache_signals``), so all
stored pages become misses at once; nothing needs to know which pages showed the
changed row.

Logged-in readers who are not staff get the same stored page through the view
decorator (after the session is loaded). Staff never get or store a cached page:
they see drafts and the preview bar.

Stored pages go out compressed (brotli when the ``brotli`` package is there, else
gzip) to browsers that accept it, with ``Vary: Accept-Encoding``. Only these are
compressed by the app: they hold no secret by construction (no CSRF token, no
cookie, nothing of one visitor), so BREACH has nothing to guess. Per-visitor
responses (fragments and forms with a CSRF token, demo state, rooms) go out as
they are. An entry keeps the body as rendered plus each encoding asked for so far,
each compressed once.

``local_hit`` answers from this process's copy alone (no network, no compression);
``site_config.front`` uses it to answer hits in front of Django's handler.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import time
from functools import lru_cache, wraps
from pathlib import Path

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.http import HttpResponse
from django.urls import Resolver404, resolve, reverse
from django.utils.cache import patch_vary_headers

from site_config import content_versions, shared_cache
from site_config.lru import SizedLRU

try:  # optional (pyproject): ~12 % smaller than gzip; without it pages go out gzipped
    import brotli
except ImportError:  # pragma: no cover - depends on the environment
    brotli = None

GENERATION_KEY = "pagecache:generation"
HIT_HEADER = "X-Page-Cache"
# Readers' browsers and shared caches may keep a public page this long (then revalidate
# in the background); editors' changes are at most this old there.
PUBLIC_CACHE_CONTROL = "public, max-age=60, stale-while-revalidate=120"
# Rendered for a logged-in reader: not for shared caches.
SIGNED_IN_CACHE_CONTROL = "private, no-cache"
# Staff see drafts and the preview bar: nobody keeps that.
STAFF_CACHE_CONTROL = "private, no-store"
# Per-visitor fragments and pages (demo state, own vote, forms with a CSRF token).
PER_VISITOR_CACHE_CONTROL = "private, no-store"
# Headers never replayed from the cache (set fresh on every response, or per request).
_NOT_STORED = {"set-cookie", HIT_HEADER.lower(), "date", "content-length", "content-encoding"}
# Preferred first. Fast settings: a miss compresses the page once (about 1–2 ms for
# 100 KB); the best settings would cost a brotli page 100 ms and save 8 %.
ENCODINGS = ("br", "gzip") if brotli is not None else ("gzip",)
BROTLI_QUALITY = 5
GZIP_LEVEL = 6
# Below this a compressed body saves less than a packet.
MIN_COMPRESSED_SIZE = 1024


def page_seconds() -> int:
    return getattr(settings, "PAGE_CACHE_SECONDS", 60 * 60)


def _cookies_that_matter() -> tuple[str, ...]:
    """Cookies that can change a cacheable page: the session (login, staff) and
    pending messages. The visitor id and the CSRF cookie only matter to fragments."""
    return (settings.SESSION_COOKIE_NAME, "messages")


def generation_of(value) -> int | None:
    return value if isinstance(value, int) else None


def current_generation() -> int:
    value = generation_of(cache.get(GENERATION_KEY))
    return value if value is not None else _start_generation()


def _start_generation() -> int:
    """A missing generation (first start, eviction) starts from the clock, so it can
    never equal the generation of a page stored before the key was lost."""
    cache.add(GENERATION_KEY, time.time_ns(), timeout=None)
    return generation_of(cache.get(GENERATION_KEY)) or 0


def _bump() -> None:
    try:
        value = cache.incr(GENERATION_KEY)
    except ValueError:  # missing: every stored page is a miss anyway
        value = _start_generation()
    _known.remember(value)  # this process sees its own bump at once


# The generation as this process last read it: asked again at most every
# PAGE_CACHE_GENERATION_SECONDS (default 1 s), so a hit needs no network round trip;
# other processes see an editor's change within that time.
_known = shared_cache.Remembered(lambda: getattr(settings, "PAGE_CACHE_GENERATION_SECONDS", 1.0))
# The pages this process served last (entry: generation, status, headers, bodies: the
# rendered bytes under "" and each compressed variant asked for so far under its
# encoding); the shared cache stays the place every process stores into.
_local = SizedLRU(32 * 1024 * 1024, size=lambda entry: sum(map(len, entry[3].values())))


def accepted_encoding(request) -> str:
    """The best encoding of ENCODINGS the client accepts ("" for none), by its q-values."""
    header = request.META.get("HTTP_ACCEPT_ENCODING", "")
    if not header:
        return ""
    accepted = {}
    for item in header.split(","):
        name, _, params = item.strip().partition(";")
        quality = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                quality = float(params[2:])
            except ValueError:
                quality = 0.0
        accepted[name.strip().lower()] = quality
    wildcard = accepted.get("*", 0.0)
    for encoding in ENCODINGS:
        if accepted.get(encoding, wildcard) > 0:
            return encoding
    return ""


def _compress(content: bytes, encoding: str) -> bytes:
    if encoding == "br":
        return brotli.compress(content, quality=BROTLI_QUALITY, mode=brotli.MODE_TEXT)
    return gzip.compress(content, compresslevel=GZIP_LEVEL, mtime=0)


def _encoding_for(entry, encoding: str) -> str:
    """The encoding this entry is sent in: none for a small body."""
    return encoding if len(entry[3][""]) >= MIN_COMPRESSED_SIZE else ""


def _with_encoding(entry, encoding: str):
    """The entry with a body in ``encoding`` (compressed now if it had none): a new tuple,
    as readers share entries."""
    bodies = entry[3]
    if encoding in bodies:
        return entry
    return (*entry[:3], {**bodies, encoding: _compress(bodies[""], encoding)})


def _local_page(key: str, generation: int):
    """This process's copy of a page, if it is of the current generation."""
    entry = _local.get(key)
    return entry if entry is not None and entry[0] == generation else None


@shared_cache.on_recovery
def _forget_everything() -> None:
    """Redis is back: content may have changed while no generation could be bumped."""
    _local.clear()
    _known.remember(None)
    _bump()
    content_versions.bump_all()


def bump_generation(changed_model=None) -> None:
    """Every stored page is a miss from now on.

    Bumped at once and again after the transaction commits: a page rendered in
    between (still reading the old rows) is stored under the first bump's
    generation and dropped by the second. With ``changed_model`` (the signals), only
    the rendered parts that read that table are drawn again; without it (a change
    that sent no signal), all parts kept by content versions are.
    """
    _bump()
    transaction.on_commit(_bump)
    if changed_model is None:
        content_versions.bump_all()
        transaction.on_commit(content_versions.bump_all)
    else:
        content_versions.bump_for(changed_model)


CODE_SUFFIXES = {".py", ".html", ".css", ".js", ".svg", ".json", ".txt"}
CODE_SKIPPED = {".venv", ".git", "tests", "bench", "node_modules", "__pycache__", "media"}


@lru_cache(maxsize=1)
def code_stamp() -> str:
    """A hash of the code, templates and static files this process serves.

    Part of every key: after a deploy no page (or fragment) drawn by the old code is
    served, and app servers running the same code share their entries.
    """
    if configured := getattr(settings, "PAGE_CACHE_CODE_STAMP", ""):
        return configured
    digest = hashlib.sha256()
    root = Path(settings.BASE_DIR)
    collected = Path(settings.STATIC_ROOT)
    manifest = collected / "staticfiles.json"  # the hashed static names the pages link to
    if manifest.is_file():
        digest.update(manifest.read_bytes())
    for directory, subdirectories, files in os.walk(root):
        if Path(directory) == collected:
            subdirectories[:] = []
            continue
        subdirectories[:] = sorted(d for d in subdirectories if d not in CODE_SKIPPED)
        for name in sorted(files):
            path = Path(directory, name)
            if path.suffix in CODE_SUFFIXES:
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def query_part_key(request, name: str, *groups: str, with_address: bool = False) -> str:
    """The key of a rendered part that shows rows of the content ``groups`` chosen by the
    query string (templatetags/page_parts), e.g. the catalogue's results. Empty for staff,
    who also see drafts. ``with_address``: the part names scheme and host (a share link)."""
    if request.user.is_staff:
        return ""
    address = (request.scheme, request.get_host()) if with_address else ()
    return ":".join(
        (code_stamp(), name, content_versions.versions(*groups), *address, request.GET.urlencode())
    )


def page_key(request) -> str:
    raw = "|".join(
        (
            code_stamp(),
            request.scheme,
            # The raw Host header: a host Django refuses never renders, so never has an entry.
            request.META.get("HTTP_HOST") or request.META.get("SERVER_NAME", ""),
            request.get_full_path(),
            "htmx" if request.headers.get("HX-Request") == "true" else "page",
        )
    )
    return "pagecache:page:" + hashlib.sha256(raw.encode()).hexdigest()[:40]


def qualifies(request) -> bool:
    """A request whose answer may come from (and go into) the cache."""
    if request.method != "GET":
        return False
    return not any(name in request.COOKIES for name in _cookies_that_matter())


def _replay(entry, encoding: str) -> HttpResponse:
    """The stored page as a response, its body in ``encoding`` (which the entry holds)."""
    _generation, status, headers, bodies = entry
    content = bodies[encoding]
    response = HttpResponse(content, status=status)
    # The stored headers were checked and encoded when the page was stored; copying them
    # into the response's mapping skips the per-header checks (a hit must be cheap).
    store = response.headers._store
    store.update(headers)
    store["content-length"] = ("Content-Length", str(len(content)))
    if encoding:
        store["content-encoding"] = ("Content-Encoding", encoding)
    store[HIT_HEADER.lower()] = (HIT_HEADER, "hit")
    return response


def cached_view_match(request):
    """The URL match of a request for a ``@cached_page`` view, or None; also set as
    ``request.resolver_match`` (the access log names the view of a hit)."""
    match = _cached_view_match(request.path_info)
    if match is not None:
        request.resolver_match = match
    return match


def local_hit(request) -> HttpResponse | None:
    """The stored page from this process's copy alone, or None: no network round trip
    and no compression, so it may run on an event loop (site_config.front). Same rules
    as ``lookup``: a qualifying request for a cached view, the generation known and
    fresh, the copy of that generation, the body already held in the encoding asked for."""
    if not qualifies(request) or cached_view_match(request) is None:
        return None
    generation = _known.fresh()
    if generation is None:
        return None
    entry = _local_page(page_key(request), generation)
    if entry is None:
        return None
    encoding = _encoding_for(entry, accepted_encoding(request))
    if encoding not in entry[3]:
        return None
    return _replay(entry, encoding)


def lookup(request) -> HttpResponse | None:
    """The stored page for this request, or None; remembers the generation for ``store``.

    No round trip when this process knows the generation and holds the page; else one
    (``get_many`` of page and generation: a single MGET on Redis).
    """
    if not shared_cache.healthy():
        return None  # Redis is away: nobody could tell this process about a change
    key = page_key(request)
    generation = _known.fresh()
    if generation is not None:
        entry = _local_page(key, generation) or cache.get(key)
    else:
        found = cache.get_many([key, GENERATION_KEY])
        generation = generation_of(found.get(GENERATION_KEY))
        if generation is None:
            generation = _start_generation()
        _known.remember(generation)
        entry = _local_page(key, generation) or found.get(key)
    request._page_cache_key = key
    request._page_cache_generation = generation
    if entry is not None and entry[0] == generation:
        encoding = _encoding_for(entry, accepted_encoding(request))
        with_body = _with_encoding(entry, encoding)
        if with_body is not entry:  # compressed once here, then shared by every process
            cache.set(key, with_body, timeout=page_seconds())
        _local.put(key, with_body)
        return _replay(with_body, encoding)
    return None


def _storable(response) -> bool:
    if not getattr(response, "_page_cache_store", False):
        return False
    if response.status_code != 200 or response.streaming or response.cookies:
        return False
    # A page that used the per-request CSP nonce would hand every reader the same nonce.
    policy = response.headers.get("Content-Security-Policy", "")
    return "'nonce-" not in policy


def store(request, response) -> None:
    key = getattr(request, "_page_cache_key", None)
    if key is None or not _storable(response) or not shared_cache.healthy():
        return
    if request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):  # a CSRF token was put into the page
        return
    # The body depends on the encoding asked for: shared caches must keep them apart.
    patch_vary_headers(response, ("Accept-Encoding",))
    # As ResponseHeaders keeps them: {lower-case name: (name, value)}.
    headers = {
        name.lower(): (name, value)
        for name, value in response.items()
        if name.lower() not in _NOT_STORED
    }
    entry = (request._page_cache_generation, response.status_code, headers, {"": response.content})
    encoding = _encoding_for(entry, accepted_encoding(request))
    entry = _with_encoding(entry, encoding)  # only the encoding this reader asked for
    cache.set(key, entry, timeout=page_seconds())
    _local.put(key, entry)
    if encoding:
        response.content = entry[3][encoding]
        response.headers["Content-Encoding"] = encoding
        response.headers["Content-Length"] = str(len(response.content))
    response.headers[HIT_HEADER] = "miss"


class PageCacheMiddleware:
    """Answers cacheable GETs from the cache before the rest of the stack runs; stores misses.

    Only URLs whose view is wrapped in ``@cached_page`` are looked up, so other
    requests (polls, forms, admin) cost no cache round trip.
    """

    def __init__(self, get_response):
        self.get_response = get_response
        code_stamp()  # hashed once at start-up, not in a reader's request

    def __call__(self, request):
        if qualifies(request) and cached_view_match(request) is not None:
            hit = lookup(request)
            if hit is not None:
                return hit
            response = self.get_response(request)
            store(request, response)
            return response
        response = self.get_response(request)
        if "Cache-Control" not in response and _is_per_visitor(request, response):
            # A page with a CSRF token or a new cookie belongs to one visitor, whatever view.
            response.headers["Cache-Control"] = PER_VISITOR_CACHE_CONTROL
        if _is_admin_change(request, response):
            # Admin actions may change rows with QuerySet.update(), which sends no signal.
            # The view's transaction is over here, so one bump is enough.
            _bump()
            content_versions.bump_all()
        return response


def _is_per_visitor(request, response) -> bool:
    return bool(request.META.get("CSRF_COOKIE_NEEDS_UPDATE") or response.cookies)


def _is_admin_change(request, response) -> bool:
    if request.method in ("GET", "HEAD", "OPTIONS") or response.status_code >= 400:
        return False
    return request.path_info.startswith(reverse("admin:index"))


@lru_cache(maxsize=4096)
def _cached_view_match(path: str):
    try:
        match = resolve(path)
    except Resolver404:
        return None
    return match if getattr(match.func, "page_cache", False) else None


def _is_staff(user) -> bool:
    return bool(user.is_authenticated and user.is_staff)


def cached_page(view):
    """Marks a view's page as cacheable for everybody but staff (see the module doc).

    The view may refuse for one response (e.g. a form opened by a query parameter)
    with ``response.page_cacheable = False``; that response is then per-visitor.
    While it renders, ``request.page_cacheable`` tells the base template to leave the
    CSRF token out (site.js sends it from the cookie).
    """

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        request.page_cacheable = True
        user = request.user
        signed_in = user.is_authenticated
        if signed_in and not user.is_staff and qualifies_signed_in(request):
            hit = lookup(request)
            if hit is not None:
                hit.headers["Cache-Control"] = SIGNED_IN_CACHE_CONTROL
                return hit
        response = view(request, *args, **kwargs)
        if not getattr(response, "page_cacheable", True) or response.status_code != 200:
            response.headers["Cache-Control"] = PER_VISITOR_CACHE_CONTROL
        elif _is_staff(user):
            response.headers["Cache-Control"] = STAFF_CACHE_CONTROL
        elif signed_in:
            response.headers["Cache-Control"] = SIGNED_IN_CACHE_CONTROL
        else:
            response.headers["Cache-Control"] = PUBLIC_CACHE_CONTROL
            response._page_cache_store = True
        return response

    wrapper.page_cache = True
    return wrapper


def qualifies_signed_in(request) -> bool:
    """A signed-in reader's GET without pending messages may get the stored page."""
    return request.method == "GET" and "messages" not in request.COOKIES
