"""The shared cache (Redis) that survives Redis going away.

``ResilientRedisCache`` is Django's RedisCache with one difference: when Redis does not
answer (refused, timed out, read-only replica), the call is answered by a cache in the
process's own memory instead, exactly as a site without ``REDIS_URL`` runs. Each
process then asks Redis again at most every ``SHARED_CACHE_RETRY_SECONDS`` (default 2),
so a dead Redis costs no time per request. The log gets one warning when Redis goes,
at most one per ``OUTAGE_LOG_SECONDS`` while it stays away, and one when it is back.

What must be the same in every process is not taken from the process's stand-in
(``healthy()`` says whether to use the shared cache): the page cache and the kept parts
of pages are skipped, so every page is drawn anew from the database; rate limits and
single-use tokens count per process meanwhile. When Redis answers again, the
callbacks registered with ``on_recovery`` run (the page cache drops every page stored
before, since content may have changed while nobody could bump its generation).

``probe()`` is the health check's own test: a write and a read on Redis itself.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

import redis
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient

from site_config.logs import OutageLog

logger = logging.getLogger("kartenregeln.outage")

# Redis is away (or read-only after a failover); anything else is a bug and is raised.
UNREACHABLE = (redis.ConnectionError, redis.TimeoutError, redis.exceptions.ReadOnlyError, OSError)
CONSEQUENCE = "pages are drawn without the cache, rate limits count per process"

_recovery_callbacks: list[Callable[[], None]] = []


def on_recovery(callback: Callable[[], None]) -> Callable[[], None]:
    """Run ``callback`` whenever this process finds Redis back after an outage."""
    if callback not in _recovery_callbacks:
        _recovery_callbacks.append(callback)
    return callback


def retry_seconds() -> float:
    return float(getattr(settings, "SHARED_CACHE_RETRY_SECONDS", 2))


class _Outage:
    """One Redis as this process sees it. Django makes a cache object per thread; they all
    share this state (one warning per process, not per thread) and the stand-in's memory."""

    def __init__(self, location: str):
        self.log = OutageLog(logger, "Redis (cache)")
        self.retry_at = 0.0
        self.lock = threading.Lock()
        self.standin = LocMemCache(f"shared-cache-standin:{location}", {"OPTIONS": {}})


_outages: dict[str, _Outage] = {}
_outages_lock = threading.Lock()


def _outage_of(location: str) -> _Outage:
    with _outages_lock:
        if location not in _outages:
            _outages[location] = _Outage(location)
        return _outages[location]


class _KeptClientRedisCacheClient(RedisCacheClient):
    """Django's client makes a new ``redis.Redis`` for every cache call; building one
    (its table of reply parsers) costs about as much as the round trip itself. A
    client is safe to share between threads (each command takes a pooled
    connection), so one is kept per connection pool."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            pool = self._get_connection_pool(write)
            client = self._clients[index] = self._client(connection_pool=pool)
        return client


_shared_clients: dict[tuple, _KeptClientRedisCacheClient] = {}
_shared_clients_lock = threading.Lock()


class ResilientRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = _KeptClientRedisCacheClient
        self._outage = _outage_of(str(server))
        self._standin = self._outage.standin
        self._client_key = (tuple(self._servers), repr(sorted(self._options.items())))

    @property
    def _cache(self) -> _KeptClientRedisCacheClient:
        """One client (and its connection pools) per process and server, not per cache
        object: Django's cache objects live per context, and the ASGI server runs each
        synchronous request in a fresh copy of the event loop's context (a2wsgi), so a
        client per object opened a new Redis connection for every request."""
        client = _shared_clients.get(self._client_key)
        if client is None:
            with _shared_clients_lock:
                client = _shared_clients.setdefault(
                    self._client_key, self._class(self._servers, **self._options)
                )
        return client

    @property
    def outage(self) -> OutageLog:
        return self._outage.log

    # --- State ---------------------------------------------------------------------------

    def _should_try(self) -> bool:
        return not self.outage.is_down or time.monotonic() >= self._outage.retry_at

    def _failed(self, error: BaseException) -> None:
        self._outage.retry_at = time.monotonic() + retry_seconds()
        self.outage.down(error, CONSEQUENCE)

    def _answered(self) -> None:
        if not self.outage.is_down:
            return
        with self._outage.lock:
            if not self.outage.is_down:
                return
            self.outage.up()
        self._standin.clear()
        for callback in list(_recovery_callbacks):
            try:
                callback()
            except Exception:  # a callback must not turn a recovery into an error page
                logger.warning("cache recovery callback %r failed", callback, exc_info=True)

    def healthy(self) -> bool:
        """Redis answers (asking it again if the retry is due): shared entries may be used."""
        if not self.outage.is_down:
            return True
        if time.monotonic() < self._outage.retry_at:
            return False
        try:
            self._cache.get_client(write=False).ping()
        except UNREACHABLE as error:
            self._failed(error)
            return False
        self._answered()
        return True

    def probe(self) -> None:
        """A write and a read on Redis itself; raises when Redis cannot do them."""
        token = f"{time.time_ns()}"
        key = f"healthz:{token}"
        try:
            super().set(key, token, timeout=10)
            try:
                if super().get(key) != token:
                    raise RuntimeError("the value written was not read back")
            finally:
                super().delete(key)
        except UNREACHABLE as error:
            self._failed(error)
            raise
        self._answered()


def _shielded(name: str):
    shared = getattr(RedisCache, name)

    def method(self, *args, **kwargs):
        if self._should_try():
            try:
                result = shared(self, *args, **kwargs)
            except UNREACHABLE as error:
                self._failed(error)
            else:
                self._answered()
                return result
        return getattr(self._standin, name)(*args, **kwargs)

    method.__name__ = name
    method.__doc__ = shared.__doc__
    return method


for _name in (
    "add",
    "get",
    "set",
    "touch",
    "delete",
    "get_many",
    "has_key",
    "incr",
    "set_many",
    "delete_many",
    "clear",
):
    setattr(ResilientRedisCache, _name, _shielded(_name))


def healthy(alias: str = "default") -> bool:
    """Whether entries of the shared cache may be used (always, for a non-Redis cache)."""
    backend = caches[alias]
    return backend.healthy() if isinstance(backend, ResilientRedisCache) else True


def process_local() -> bool:
    """Whether the default cache lives in this process (tests, development): a value read
    from it is as quick to read again as a kept copy. From the settings, not
    caches["default"]: on an event loop (site_config.front) that would build a cache
    object per request."""
    return settings.CACHES["default"]["BACKEND"] == LocMemCache.__module__ + ".LocMemCache"


class Remembered:
    """A value of the shared cache as this process last read it, trusted for
    ``seconds()`` (read at each use, so a setting or a test may change it): with Redis a
    request needs no round trip for it, and other processes' changes arrive within that
    time. With the process-local cache nothing is kept."""

    def __init__(self, seconds: Callable[[], float]):
        self.seconds = seconds
        self.value = None
        self.read_at = 0.0

    def remember(self, value) -> None:
        self.value, self.read_at = value, time.monotonic()

    def forget(self) -> None:
        self.remember(None)

    def fresh(self):
        """The kept value, or None when it is too old (or nothing is kept)."""
        if time.monotonic() - self.read_at >= self.seconds() or process_local():
            return None
        return self.value
