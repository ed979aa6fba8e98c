"""site_config/shared_cache.py: a Redis outage turns into uncached pages, not errors.

Each test starts a Redis of its own (tests/redis_server.py), stops it and starts it again
on the same port; the shared Redis of the machine is never touched.
"""

from __future__ import annotations

import contextvars
import logging
import time

import pytest
from django.core.cache import caches

from site_config import page_cache, shared_cache
from site_config.ratelimit import Limit, hit
from tests.factories import make_article, make_game
from tests.redis_server import OwnRedis

pytestmark = pytest.mark.django_db


@pytest.fixture
def redis_server():
    server = OwnRedis().start()
    yield server
    server.stop()


@pytest.fixture
def redis_cache(redis_server, settings):
    settings.CACHES = {
        **settings.CACHES,
        "default": {
            "BACKEND": "site_config.shared_cache.ResilientRedisCache",
            "LOCATION": redis_server.url,
            "KEY_PREFIX": "outage-test",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 1.0},
        },
    }
    settings.SHARED_CACHE_RETRY_SECONDS = 0.3
    settings.PAGE_CACHE_GENERATION_SECONDS = 0
    backend = caches["default"]
    assert isinstance(backend, shared_cache.ResilientRedisCache)
    yield backend
    page_cache._known.remember(None)
    page_cache._local.clear()


def outage_lines(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "kartenregeln.outage"]


def test_reads_and_writes_go_on_without_redis_and_come_back_with_it(
    redis_server, redis_cache, caplog, monkeypatch
):
    redis_cache.set("spiel", "the-cat")
    assert redis_cache.get("spiel") == "the-cat" and shared_cache.healthy()

    redis_server.stop()
    with caplog.at_level(logging.WARNING, logger="kartenregeln.outage"):
        started = time.perf_counter()
        assert redis_cache.get("spiel") is None  # a miss, not an error
        redis_cache.set("neu", 1)
        assert redis_cache.get("neu") == 1  # the process's stand-in
        for _ in range(200):
            redis_cache.get("spiel")
        elapsed = time.perf_counter() - started
        assert not shared_cache.healthy()
    assert elapsed < 1.0, f"{elapsed:.2f} s for 200 reads: Redis was asked again each time"
    (line,) = outage_lines(caplog)
    assert line.startswith("Redis (cache) unavailable (ConnectionError")
    assert "pages are drawn without the cache" in line

    recovered = []
    callbacks = [*shared_cache._recovery_callbacks, lambda: recovered.append(True)]
    monkeypatch.setattr(shared_cache, "_recovery_callbacks", callbacks)
    redis_server.start()
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="kartenregeln.outage"):
        deadline = time.monotonic() + 5
        while not shared_cache.healthy():
            assert time.monotonic() < deadline, "Redis back, but the cache never noticed"
            time.sleep(0.05)
    assert [line.split(" after ")[0] for line in outage_lines(caplog)] == [
        "Redis (cache) available again"
    ]
    assert recovered == [True]
    assert redis_cache.get("neu") is None  # the stand-in's entries are gone
    redis_cache.set("spiel", "alpaka")
    assert redis_cache.get("spiel") == "alpaka"


def test_rate_limits_count_per_process_while_redis_is_away(redis_server, redis_cache):
    limit = Limit("outage-test", 3, 60)
    redis_server.stop()
    assert [hit(limit, "198.51.100.7") for _ in range(5)] == [False, False, False, True, True]


def test_pages_are_served_uncached_during_the_outage_and_cached_again_after(
    client, redis_server, redis_cache
):
    game = make_game("sternspiel", title="Sternspiel")
    make_article(game)
    url = game.get_absolute_url()
    assert client.get(url)[page_cache.HIT_HEADER] == "miss"
    assert client.get(url)[page_cache.HIT_HEADER] == "hit"

    redis_server.stop()
    for _ in range(3):
        response = client.get(url)
        assert response.status_code == 200
        assert page_cache.HIT_HEADER not in response  # drawn anew every time
        assert "Sternspiel" in response.content.decode()
    game.title = "Sternspiel (neu)"
    game.save()  # no generation can be bumped now
    assert "Sternspiel (neu)" in client.get(url).content.decode()

    redis_server.start()
    time.sleep(0.4)  # the retry interval
    # The page stored before the outage showed the old title: it is never served again.
    first = client.get(url)
    assert "Sternspiel (neu)" in first.content.decode()
    assert first[page_cache.HIT_HEADER] == "miss"
    assert client.get(url)[page_cache.HIT_HEADER] == "hit"


def test_the_health_check_tells_the_real_state(client, redis_server, redis_cache):
    assert client.get("/healthz").json()["status"] == "ok"
    redis_server.stop()
    body = client.get("/healthz").json()
    assert body["status"] == "degraded"
    assert body["checks"]["cache"]["ok"] is False
    assert body["checks"]["cache"]["error"] == "ConnectionError"
    redis_server.start()
    assert client.get("/healthz").json()["status"] == "ok"


def test_one_redis_client_serves_every_call_and_outlives_an_outage(redis_server, redis_cache):
    """Django makes a new client per call; ours keeps one per pool (building one costs
    about as much as a round trip), and it reconnects after Redis came back."""
    first = redis_cache._cache.get_client(write=True)
    redis_cache.set("spiel", "alpaka")
    assert redis_cache._cache.get_client(write=False) is first
    redis_server.stop()
    assert redis_cache.get("spiel") is None  # served without Redis
    redis_server.start()
    time.sleep(0.4)  # SHARED_CACHE_RETRY_SECONDS
    redis_cache.set("spiel", "the-cat")
    assert redis_cache.get("spiel") == "the-cat"
    assert redis_cache._cache.get_client(write=False) is first


def test_requests_in_fresh_contexts_share_one_connection(redis_server, redis_cache):
    """The ASGI server runs each synchronous request in a fresh copy of the event loop's
    context (a2wsgi), where Django builds a new cache object: they must not each open
    a Redis connection of their own."""

    def one_request():
        cache = caches["default"]
        cache.set("spiel", "katz-und-maus")
        assert cache.get("spiel") == "katz-und-maus"
        return cache, cache._cache.get_client(write=True)

    served = [contextvars.Context().run(one_request) for _ in range(5)]
    assert len({id(cache) for cache, _client in served}) == 5  # Django's own: one per context
    assert len({id(client) for _cache, client in served}) == 1
    pool = served[0][1].connection_pool
    assert len(pool._available_connections) + len(pool._in_use_connections) == 1


def test_published_slugs_are_kept_a_second_per_process_and_dropped_when_a_game_is_saved(
    redis_cache, monkeypatch
):
    """A move or demo request reads the published games from this process's copy (no
    round trip); the process that saves a game sees it at once, others within a second."""
    from games import availability

    availability._known.forget()
    game = make_game("the-cat")
    assert "the-cat" in availability.published_slugs()
    reads = []
    original = redis_cache.get
    monkeypatch.setattr(redis_cache, "get", lambda *a, **k: reads.append(a) or original(*a, **k))
    assert "the-cat" in availability.published_slugs()
    assert not reads  # kept: no round trip

    game.is_published = False
    game.save()  # this process forgets its copy at once
    assert "the-cat" not in availability.published_slugs()

    # Another process's change (here: written straight to the shared cache) is seen once
    # the kept copy is older than TRUSTED_SECONDS.
    redis_cache.set(availability.CACHE_KEY, frozenset({"the-cat"}))
    assert "the-cat" not in availability.published_slugs()
    monkeypatch.setattr(availability, "TRUSTED_SECONDS", 0)
    assert "the-cat" in availability.published_slugs()
