"""Backing services fail in production: a real app server (ASGI workers, production code
paths) while its Redis stops and starts again, and while PostgreSQL refuses connections.

Redis: the test starts its own redis-server on a free port and kills it (the machine's
shared Redis is never touched). PostgreSQL (``make test-db`` only): the session's own
database refuses new connections (``ALTER DATABASE … ALLOW_CONNECTIONS false``) and its
backends are terminated – the server itself keeps running for everyone else.
"""

from __future__ import annotations

import os
import time
import urllib.parse

import pytest

from tests.redis_server import OwnRedis
from tests.servers.conftest import AppServer, Visitor
from tests.servers.rooms import RoomPlayer

pytestmark = pytest.mark.servers

CACHED = ["/", "/spiele/the-cat/", "/spiele/kaetzchen-angeln/", "/sleeve-finder/?spiele=the-cat"]
DYNAMIC = ["/spielegruppen/", "/spiele/the-cat/demo/"]
# Whatever a request may take while a service is away (the 503's promise is 2 s).
OUTAGE_ANSWER_SECONDS = 2.0
LONG_OUTAGE_SECONDS = 12


def timed(visitor: Visitor, path: str):
    started = time.perf_counter()
    reply = visitor.get(path)
    return reply, time.perf_counter() - started


def lines_with(server: AppServer, text: str) -> list[str]:
    return [line for line in server.log_text().splitlines() if text in line]


@pytest.fixture
def own_redis():
    server = OwnRedis().start()
    yield server
    server.stop()


def test_without_redis_pages_are_served_uncached_and_rooms_poll(
    backends, own_redis, tmp_path, servers
):
    env = {
        **backends.env,
        "REDIS_URL": own_redis.url,
        "LIVE_REDIS_URL": own_redis.url,
        "SHARED_CACHE_RETRY_SECONDS": "1",
        "OUTAGE_LOG_SECONDS": "60",
    }
    server = AppServer("redis-outage", env, tmp_path).start()
    statuses: list[int] = []
    try:
        reader = Visitor(server)
        for path in CACHED:
            reader.get(path)
            reply = reader.get(path)
            assert (reply.status, reply.headers["X-Page-Cache"]) == (200, "hit"), path
        anna = RoomPlayer("Anna", server)
        anna.create()
        assert anna.listen() is not None  # the room's stream works while Redis runs

        own_redis.stop()
        stopped = time.monotonic()
        slowest, late_rounds = 0.0, 0
        while late_rounds < 2:
            # The process's own copy may answer until its generation is a second old
            # (PAGE_CACHE_GENERATION_SECONDS); after that every page is drawn anew.
            late = time.monotonic() - stopped > 1.5
            for path in CACHED + DYNAMIC:
                reply, seconds = timed(reader, path)
                statuses.append(reply.status)
                slowest = max(slowest, seconds)
                assert reply.status == 200, (path, reply.text[:500])
                if late:
                    assert reply.headers.get("X-Page-Cache") is None, path
            late_rounds += late
        assert slowest < OUTAGE_ANSWER_SECONDS, slowest
        print(f"pages without Redis: slowest answer {slowest:.2f} s")
        health = reader.get("/healthz")
        assert health.status == 200 and '"status": "degraded"' in health.text
        # The room goes on by polling: its stream says 503, its poll answers.
        stream = reader.request("GET", anna.url("live/"))
        assert stream.status == 503
        assert anna.poll() is not None
        anna.refresh()
        statuses.append(200)
        lines = lines_with(server, "Redis (cache) unavailable")
        assert len(lines) == 1, server.log_tail(40)

        own_redis.start()
        deadline = time.monotonic() + 10
        while True:
            reply = reader.get(CACHED[1])
            statuses.append(reply.status)
            if reply.headers.get("X-Page-Cache") == "hit":
                break
            assert time.monotonic() < deadline, "pages never came from the cache again"
            time.sleep(0.2)
        for path in CACHED + DYNAMIC:
            statuses.append(reader.get(path).status)
        assert lines_with(server, "Redis (cache) available again")
        assert set(statuses) == {200}, statuses
        assert "Traceback" not in server.log_text(), server.log_tail(80)
    finally:
        server.stop()


# --- PostgreSQL ---------------------------------------------------------------------------------


def _admin(backends):
    import psycopg

    name = urllib.parse.urlsplit(backends.env["DATABASE_URL"]).path.lstrip("/")
    return psycopg.connect(os.environ["DATABASE_URL"], autocommit=True), name


def refuse_connections(backends, refuse: bool) -> None:
    admin, name = _admin(backends)
    with admin:
        admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS {"false" if refuse else "true"}')
        if refuse:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = %s AND pid <> pg_backend_pid()",
                [name],
            )


@pytest.mark.postgresql
def test_without_postgresql_cached_pages_are_served_and_the_rest_says_kurze_wartung(
    backends, servers
):
    assert backends.database == "postgresql"
    (server,) = servers(1)
    reader = Visitor(server)
    for path in CACHED:
        reader.get(path)
    for path in DYNAMIC:
        assert reader.get(path).status == 200

    refuse_connections(backends, True)
    refused_at = time.monotonic()
    try:
        for path in CACHED:
            reply, seconds = timed(reader, path)
            assert (reply.status, reply.headers["X-Page-Cache"]) == (200, "hit"), path
        timings = []
        for _ in range(2):
            for path in DYNAMIC:
                reply, seconds = timed(reader, path)
                timings.append(seconds)
                assert reply.status == 503, (path, reply.text[:500])
                assert reply.headers["Retry-After"] == "30"
                assert "Kurze Wartung" in reply.text and '<html lang="de">' in reply.text
                assert 'href="/impressum/"' in reply.text
        assert max(timings) < OUTAGE_ANSWER_SECONDS, timings
        print(f"503 during the outage: {min(timings):.2f}–{max(timings):.2f} s")
        assert reader.get("/healthz").status == 503
        # A longer outage: the pool's attempts to reconnect must not fall asleep meanwhile
        # (psycopg backs off exponentially; after 10 s the next try would be 8 s away).
        while time.monotonic() - refused_at < LONG_OUTAGE_SECONDS:
            assert reader.get(DYNAMIC[0]).status == 503
        assert len(lines_with(server, "PostgreSQL (database) unavailable")) == 1
    finally:
        refuse_connections(backends, False)

    # Back: no request fails, not even the first ones on the pool's old connections.
    statuses = [reader.get("/spielegruppen/").status for _ in range(12)]
    statuses += [reader.get(path).status for path in DYNAMIC]
    assert statuses == [200] * len(statuses)
    assert lines_with(server, "PostgreSQL (database) available again")
