"""Holding many live streams, and a race for one room: gunicorn with uvicorn workers, Redis.

    .venv/bin/python bench/bench_live.py [--clients 1000] [--rooms 250] [--idle 20] [--sqlite]

1. Setup: a scratch PostgreSQL database (``--sqlite``: a SQLite file), a channel
   prefix of its own in Redis, and ``--rooms`` Alpaka rooms with ``clients /
   rooms`` human players each, dealt through ``rooms.lobby``.
2. Server: ``gunicorn -c site_config/gunicorn.conf.py site_config.asgi:application``
   (uvicorn workers, production settings) on a free port of 127.0.0.1.
3. Clients, one asyncio process: every player opens its room's stream (raw
   HTTP/1.1, as an EventSource does). With everybody connected and nothing
   happening, the server's CPU time is read from /proc for ``--idle`` seconds.
   (Moves per second with live viewers: ``bench_moves.py``.)
4. Race: 50 clients with a stream each on one room: 49 try to join at once
   (5 seats free), then for 20 rounds the move of the player on turn is sent
   from 50 connections at once. Counted: changes applied vs versions, 5xx,
   and whether every stream ends at the final version (lost updates).

Everything started here is stopped here; every phase is bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import (  # noqa: E402
    SSEClient,
    cpu_seconds,
    ensure_alpaka_game,
    forget_redis_keys,
    free_port,
    postgres_available,
    process_tree,
    recreate_postgres,
    rss_mb,
    setup_django,
    start_gunicorn,
    stop_gunicorn,
    visitor_cookie,
)

PG_NAME = "bench_live"
REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
SECRET = secrets.token_urlsafe(50)
CSRF = secrets.token_hex(16)  # an unmasked CSRF secret (32 characters) as cookie and header
RACE_CLIENTS = 50
RACE_ROUNDS = 20


# --- Setup ---------------------------------------------------------------------------------


def make_rooms(count: int, players: int) -> list[dict]:
    """Running Alpaka games of ``players`` humans each."""
    from games.play import definition as engines
    from rooms import lobby, seating

    ensure_alpaka_game()
    engine = engines.get("alpaka")
    rooms = []
    for number in range(count):
        visitors = [f"live-{number}-{seat}-{secrets.token_hex(4)}" for seat in range(players)]
        room = lobby.create_room(engine, visitors[0], f"Gast {number}", {"target": "40"})
        for seat, visitor in enumerate(visitors[1:], start=1):
            seating.join(engine, room.code, visitor, f"Spieler {seat}")
        lobby.start(engine, room.code, visitors[0])
        rooms.append({"code": room.code, "visitors": visitors})
    return rooms


# --- The server ------------------------------------------------------------------------------


def start_server(port: int, env: dict, workers: int, log_path: str) -> subprocess.Popen:
    env = {**env, "DJANGO_SECRET_KEY": SECRET, "ACCESS_LOG": "off"}
    process = start_gunicorn("site_config.asgi:application", port, env, workers, log_path)
    deadline = time.time() + 90
    answered = 0
    while time.time() < deadline:
        try:
            # Several answers in a row: every worker has booted (connections spread over them).
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/robots.txt", timeout=5):
                answered += 1
            if answered >= 4 * workers:
                return process
        except OSError:
            if process.poll() is not None:
                raise RuntimeError(f"gunicorn did not start, see {log_path}") from None
            time.sleep(0.2)
    raise RuntimeError("gunicorn did not answer in time")


def stop_server(process: subprocess.Popen) -> float:
    """SIGTERM (streams end at once, games.play.streams); returns how long the stop took."""
    started = time.monotonic()
    stop_gunicorn(process)
    return time.monotonic() - started


# --- Clients -------------------------------------------------------------------------------------


def choose_move(code: str):
    """(visitor seat, expected version, form value) of the player on turn, read from the DB."""
    from games.engines import alpaka
    from games.play import definition as engines
    from rooms.models import Room

    room = Room.objects.get(code=code)
    if room.status != Room.Status.PLAYING:
        return None
    engine = engines.get("alpaka")
    seat = engine.to_act(room.state)[0]
    legal = alpaka.legal_actions(room.state, seat)
    action = next((a for a in legal if a["type"] in ("play", "draw")), legal[0])
    value = f"play:{action['card']}" if action["type"] == "play" else action["type"]
    return seat, room.version, value


async def idle_phase(args, port, rooms, server_pids):
    """Every player's stream open, nothing happening: what holding them costs."""
    clients = []
    started = time.monotonic()
    for room in rooms:
        for visitor in room["visitors"]:
            path = f"/spiele/alpaka/raum/{room['code']}/live/"
            clients.append(SSEClient(port, path, visitor_cookie(visitor, CSRF)).start())
            if len(clients) % 100 == 0:
                await asyncio.sleep(0.05)  # a ramp, not one burst of a thousand handshakes
    await asyncio.wait_for(asyncio.gather(*(c.ready.wait() for c in clients)), 120)
    connect_seconds = time.monotonic() - started
    refused = [c.status for c in clients if c.status != 200]
    print(
        f"Connected: {len(clients) - len(refused)} streams in {len(rooms)} rooms "
        f"in {connect_seconds:.1f} s (refused: {len(refused)})"
    )
    await asyncio.sleep(2)
    pids = process_tree(server_pids)
    before, clock = cpu_seconds(pids), time.monotonic()
    await asyncio.sleep(args.idle)
    idle_cpu = cpu_seconds(pids) - before
    idle_span = time.monotonic() - clock
    share = idle_cpu / idle_span * 100
    print(
        f"Idle with {len(clients)} connected: server CPU {share:.2f} % of one core over "
        f"{idle_span:.0f} s ({idle_cpu / idle_span / max(1, len(clients)) * 1e6:.1f} µs/s per "
        f"client), RSS {rss_mb(pids):.0f} MB in {len(pids)} processes"
    )
    for client in clients:
        client.task.cancel()
    return {"idle_cpu_percent": share}


async def race_phase(port, server):
    """50 clients, one room: a join rush, then the same move from 50 connections at once."""
    import httpx
    from asgiref.sync import sync_to_async

    from games.play import definition as engines
    from rooms import lobby
    from rooms.models import Room

    engine = engines.get("alpaka")
    visitors = [f"race-{n}-{secrets.token_hex(4)}" for n in range(RACE_CLIENTS)]
    room = await sync_to_async(lobby.create_room)(engine, visitors[0], "Hanna", {})
    code = room.code
    cookies = [visitor_cookie(v, CSRF) for v in visitors]
    streams = [
        SSEClient(port, f"/spiele/alpaka/raum/{code}/live/", cookie).start() for cookie in cookies
    ]
    await asyncio.wait_for(asyncio.gather(*(s.ready.wait() for s in streams)), 60)
    http = httpx.AsyncClient(
        base_url=f"http://127.0.0.1:{port}",
        limits=httpx.Limits(max_connections=RACE_CLIENTS * 2, keepalive_expiry=1.0),
        timeout=30,
    )
    statuses: list[int] = []
    applied = 0

    async def post(index, suffix, data):
        nonlocal applied
        try:
            reply = await http.post(
                f"/spiele/alpaka/raum/{code}/{suffix}",
                data=data,
                headers={"HX-Request": "true", "X-CSRFToken": CSRF, "Cookie": cookies[index]},
            )
        except httpx.HTTPError:
            statuses.append(0)  # no answer at all
            return
        statuses.append(reply.status_code)
        if reply.status_code == 200 and 'class="notice room-note"' not in reply.text:
            applied += 1

    start_version = (await sync_to_async(Room.objects.get)(code=code)).version
    await asyncio.gather(
        *(post(i, "beitreten/", {"name": f"Spieler {i}"}) for i in range(1, RACE_CLIENTS))
    )
    joined = applied
    await post(0, "starten/", {})
    rounds = 0
    for _ in range(RACE_ROUNDS):
        chosen = await sync_to_async(choose_move)(code)
        if chosen is None:
            break
        seat, version, value = chosen
        room_now = await sync_to_async(Room.objects.get)(code=code)
        on_turn = await sync_to_async(
            lambda: room_now.seats.get(number=seat).visitor  # noqa: B023 - awaited at once
        )()
        mover = visitors.index(on_turn)
        data = {"aktion": value, "version": version}
        # Half the connections are the player on turn (a double-click storm), half the others.
        senders = [mover if i % 2 else i for i in range(RACE_CLIENTS)]
        await asyncio.gather(*(post(i, "aktion/", data) for i in senders))
        rounds += 1
    final = (await sync_to_async(Room.objects.get)(code=code)).version
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and any(s.latest < final for s in streams):
        await asyncio.sleep(0.1)
    behind = sum(s.latest < final for s in streams)
    errors = sum(status >= 500 for status in statuses)
    unanswered = statuses.count(0)
    print(
        f"Race, {RACE_CLIENTS} clients on one room: {joined} of {RACE_CLIENTS - 1} joined at once "
        f"(room for {engine.max_players - 1}); {rounds} rounds of the same move sent "
        f"{RACE_CLIENTS}× at once"
    )
    print(
        f"  applied changes {applied}, versions {final - start_version}"
        f" → lost updates {final - start_version - applied}; 5xx {errors} of {len(statuses)}"
        f" (no answer: {unanswered}); "
        f"streams behind the final version {behind} of {len(streams)}"
    )
    await http.aclose()
    # A deploy: SIGTERM with every stream open. The streams end at once (games.play.streams), so
    # the workers exit without waiting for gunicorn's kill.
    stopped = await asyncio.to_thread(stop_server, server)
    ended = sum(stream.task.done() for stream in streams)
    print(
        f"Stop (SIGTERM) with {len(streams)} streams open: {stopped:.1f} s, {ended} streams ended"
    )
    return {
        "lost": final - start_version - applied,
        "5xx": errors + unanswered,
        "behind": behind,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--rooms", type=int, default=250)
    parser.add_argument("--idle", type=float, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--sqlite", action="store_true")
    args = parser.parse_args()

    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        print(f"Redis not reachable at {REDIS_URL} ({error}): live updates need it; skipped.")
        return 0
    use_postgres = not args.sqlite and postgres_available()
    tmp = tempfile.mkdtemp(prefix="bench-live-")
    prefix = f"bench-live-{secrets.token_hex(4)}"
    env = {
        "DJANGO_SECRET_KEY": SECRET,  # the visitor cookies signed here must be valid there
        "SQLITE_PATH": str(Path(tmp) / "db.sqlite3"),
        "REDIS_URL": REDIS_URL,
        "CACHE_KEY_PREFIX": prefix,
        "LIVE_CHANNEL_PREFIX": f"{prefix}:live",
    }
    if use_postgres:
        recreate_postgres(PG_NAME)
        env["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{PG_NAME}"
    print(
        f"Database: {'PostgreSQL' if use_postgres else 'SQLite'}; gunicorn with {args.workers} "
        f"uvicorn workers; {os.cpu_count()} cores shared with the clients"
    )
    server = None
    try:
        setup_django(env)
        players = max(2, min(6, args.clients // args.rooms))
        started = time.monotonic()
        rooms = make_rooms(args.rooms, players)
        print(
            f"Setup: {len(rooms)} rooms of {players} players in {time.monotonic() - started:.0f} s"
        )
        port = free_port()
        server = start_server(port, env, args.workers, str(Path(tmp) / "gunicorn.log"))
        asyncio.run(idle_phase(args, port, rooms, server.pid))
        race = asyncio.run(race_phase(port, server))
        server = None
        return 1 if race["lost"] or race["5xx"] or race["behind"] else 0
    finally:
        if server is not None:
            stop_server(server)
        from django.db import connections

        connections.close_all()
        if use_postgres:
            recreate_postgres(PG_NAME, drop_only=True)
        forget_redis_keys(REDIS_URL, prefix)


if __name__ == "__main__":
    sys.exit(main())
