"""Moves per second with live viewers, and what a demo costs: the shipped ASGI server.

    .venv/bin/python bench/bench_moves.py [--rooms 60] [--seconds 8] [--games alpaka,the_cat]
                                          [--rates 10,20,40,60,80,120,160,200,300]

1. Server: ``gunicorn -c site_config/gunicorn.conf.py site_config.asgi:application``
   exactly as README.md starts it (the shipped worker count), production settings,
   PostgreSQL and Redis.
2. Rooms: ``--rooms`` running tables of four human players per game; every player
   has the room's stream open (raw HTTP, as an EventSource), so every change is pushed
   to three viewers.
3. Moves: at each rate for ``--seconds``, a move by a player who may act (Alpaka: the
   one on turn; The Cat: anyone, all at once) is POSTed as htmx sends it. Push to
   screen is timed from sending the move to the other players' events of its version
   (the table itself: nothing is fetched; a bare notice would cost a fetch, which is
   then timed too). Server CPU per move comes from /proc. The ramp stops at the first
   rate whose p95 is 100 ms or more, or where fewer than 90 % of the moves were applied.
4. Demo: one reader at a The Cat demo against three bots with the stream open (the
   bots' moves arrive pushed), at the default tempo („gemütlich“, about a move a second
   in all) and at „flink“ (about three), then the reader leaves: server CPU while
   watched and once nobody watches, against the idle server.
5. Unchanged poll: wrk against a room's poll that finds nothing new (204) and against a
   static file: server CPU per request of each (``--poll-seconds`` each).
6. Floor of a move (``--floor-seconds``; bench-only endpoints of ``floor_urls.py``):
   wrk POSTs through every middleware that do nothing, and POSTs that lock a room,
   write a new version, commit and announce it – a move without the rule and without
   drawing: server CPU per request, and the moves per second that bounds.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
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
    forget_redis_keys,
    free_port,
    percentile,
    postgres_available,
    process_tree,
    recreate_postgres,
    setup_django,
    start_gunicorn,
    stop_gunicorn,
    visitor_cookie,
    wrk,
)

PG_NAME = "bench_moves"
REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
SECRET = secrets.token_urlsafe(50)
CSRF = secrets.token_hex(16)
PLAYERS = 4
GAMES = {"alpaka": "alpaka", "the_cat": "the-cat"}  # engine key -> slug
SHIPPED_WORKERS = (os.cpu_count() or 1) * 2 + 1  # site_config/gunicorn.conf.py's default


def ensure_game(key: str) -> None:
    from games.models import Game
    from games.play import definition as registry

    definition = registry.get(key)
    Game.objects.get_or_create(
        slug=definition.slug,
        defaults={
            "title": definition.title,
            "short_description": "Benchmark",
            "players_min": definition.min_players,
            "players_max": definition.max_players,
            "min_age": 8,
            "duration_minutes": 20,
            "is_published": True,
            "demo_engine": key,
        },
    )


def make_rooms(key: str, count: int) -> list[dict]:
    from games.play import definition as registry
    from rooms import lobby, seating

    ensure_game(key)
    definition = registry.get(key)
    rooms = []
    for number in range(count):
        visitors = [f"m-{key}-{number}-{seat}-{secrets.token_hex(3)}" for seat in range(PLAYERS)]
        room = lobby.create_room(definition, visitors[0], "Gast", definition.default_options())
        for seat, visitor in enumerate(visitors[1:], start=1):
            seating.join(definition, room.code, visitor, f"Spieler {seat}")
        lobby.start(definition, room.code, visitors[0])
        rooms.append({"code": room.code, "visitors": visitors})
    return rooms


def form_data(key: str, action: dict) -> dict:
    if action["type"] == "play":
        return {"aktion": f"play:{action['card']}"}
    if action["type"] == "take":
        return {"aktion": f"take:{action['stack']}"}
    if action["type"] == "swap":
        return {"gib": action["give"], "nimm": action["want"]}
    return {"aktion": action["type"]}


def choose_move(key: str, code: str, rng: random.Random):
    """(seat, version, form data) of a move somebody may make now; None: over."""
    from games.play import definition as registry
    from rooms.models import Room

    definition = registry.get(key)
    state, version, status = (
        Room.objects.filter(code=code).values_list("state", "version", "status").get()
    )
    if status != Room.Status.PLAYING:
        return None
    seats = definition.to_act(state)
    if not seats:
        return None
    seat = rng.choice(seats)
    legal = definition.module.legal_actions(state, seat)
    # Moves that keep the game going (a round-ending call only when nothing else is left).
    ongoing = [a for a in legal if a["type"] not in ("quit", "stop", "give_up")]
    return seat, version, form_data(key, rng.choice(ongoing or legal))


# --- Clients -------------------------------------------------------------------------------


class Http:
    """Keep-alive HTTP/1.1 connections for POSTs (cheap on the client's side)."""

    def __init__(self, port: int):
        self.port = port
        self.idle: list = []

    async def request(self, method: str, path: str, body: bytes, headers: dict) -> tuple[int, dict]:
        if self.idle:
            reader, writer = self.idle.pop()
        else:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Length: {len(body)}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        await writer.drain()
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        status = int(head[0].split(" ", 2)[1])
        fields = {}
        for line in head[1:]:
            name, _, value = line.partition(":")
            fields[name.strip().lower()] = value.strip()
        if "content-length" in fields:
            await reader.readexactly(int(fields["content-length"]))
        else:  # chunked
            while True:
                size = int((await reader.readuntil(b"\r\n")).strip() or b"0", 16)
                await reader.readexactly(size + 2)
                if size == 0:
                    break
        if fields.get("connection", "").lower() == "close":
            writer.close()
        else:
            self.idle.append((reader, writer))
        return status, fields


async def ramp(key: str, port: int, rooms: list[dict], pids: list[int], args) -> dict:
    from urllib.parse import urlencode

    from asgiref.sync import sync_to_async

    slug = GAMES[key]
    pending: dict[tuple[str, int], dict] = {}
    latencies: list[float] = []
    fetches = [0]
    http = Http(port)
    cookies = {}

    def on_event(stream, kind, version, arrived):
        move = pending.get((stream.code, version))
        if move is None or stream.seat == move["seat"] or stream.seat in move["heard"]:
            return
        move["heard"].add(stream.seat)
        if kind == "view":
            latencies.append((arrived - move["sent"]) * 1000)
        else:  # a bare notice: the page fetches its table
            fetches[0] += 1
            asyncio.get_running_loop().create_task(fetch(stream, move["sent"]))

    async def fetch(stream, sent):
        path = f"/spiele/{slug}/raum/{stream.code}/status/?v=0"
        headers = {"HX-Request": "true", "Cookie": stream.cookie}
        await http.request("GET", path, b"", headers)
        latencies.append((time.monotonic() - sent) * 1000)

    streams = []
    for room in rooms:
        for seat, visitor in enumerate(room["visitors"]):
            cookies[(room["code"], seat)] = visitor_cookie(visitor, CSRF)
            path = f"/spiele/{slug}/raum/{room['code']}/live/"
            stream = SSEClient(port, path, cookies[(room["code"], seat)], on_event)
            stream.code, stream.seat = room["code"], seat
            streams.append(stream.start())
    await asyncio.wait_for(asyncio.gather(*(s.ready.wait() for s in streams)), 120)
    rng = random.Random(1)
    choose = sync_to_async(choose_move, thread_sensitive=True)
    busy: set[str] = set()
    results = []

    async def move(code):
        try:
            chosen = await choose(key, code, rng)
            if chosen is None:
                return False
            seat, version, data = chosen
            # Only our moves change these tables, one at a time per room: the move's version
            # is known before it is sent (its pushes may arrive before its answer).
            record = {"seat": seat, "sent": time.monotonic(), "heard": set()}
            pending[(code, version + 1)] = record
            body = urlencode({**data, "version": version}).encode()
            headers = {
                "HX-Request": "true",
                "X-CSRFToken": CSRF,
                "Cookie": cookies[(code, seat)],
                "Content-Type": "application/x-www-form-urlencoded",
            }
            status, fields = await http.request(
                "POST", f"/spiele/{slug}/raum/{code}/aktion/", body, headers
            )
            shown = fields.get("x-room-version", "")
            return status == 200 and shown.isdigit() and int(shown) == version + 1
        finally:
            busy.discard(code)

    codes = [room["code"] for room in rooms]
    for rate in args.rates:
        latencies.clear()
        fetches[0] = 0
        tasks = []
        cpu_before, clock = cpu_seconds(pids), time.monotonic()
        sends = int(rate * args.seconds)
        for index in range(sends):
            free = [code for code in codes if code not in busy]
            if free:
                code = rng.choice(free)
                busy.add(code)
                tasks.append(asyncio.create_task(move(code)))
            # Paced by the clock, not by sleeps: late sends catch up.
            await asyncio.sleep(max(0.0, clock + (index + 1) / rate - time.monotonic()))
        outcomes = await asyncio.gather(*tasks, return_exceptions=True)
        applied = sum(1 for outcome in outcomes if outcome is True)
        # Until every push arrived, or none came for a second: a viewer whose stream
        # brought a later version at once never hears the skipped one, and waiting the
        # full 10 s for it would spread the CPU over an idle span (cores too low).
        deadline, heard, quiet_since = time.monotonic() + 10, -1, time.monotonic()
        while time.monotonic() < deadline and len(latencies) < applied * (PLAYERS - 1):
            if len(latencies) != heard:
                heard, quiet_since = len(latencies), time.monotonic()
            elif time.monotonic() - quiet_since >= 1:
                break
            await asyncio.sleep(0.05)
        span = time.monotonic() - clock
        cpu = cpu_seconds(pids) - cpu_before
        p95 = percentile(latencies, 0.95)
        row = {
            "rate": rate,
            "applied": applied,
            "per_second": applied / args.seconds,
            "p50": percentile(latencies, 0.5),
            "p95": p95,
            "cpu_ms_per_move": cpu / max(1, applied) * 1000,
            "cpu_cores": cpu / span,
            "fetches": fetches[0],
            "heard": len(latencies),
        }
        results.append(row)
        print(
            f"  {key:8} {rate:5.0f}/s asked, {row['per_second']:6.1f}/s applied: push to screen "
            f"p50 {row['p50']:6.1f} ms, p95 {p95:7.1f} ms ({row['heard']} pushes, "
            f"{row['fetches']} fetched); server {row['cpu_ms_per_move']:5.1f} ms CPU per move, "
            f"{row['cpu_cores']:.2f} cores",
            flush=True,
        )
        if p95 >= 100 or applied < 0.9 * sends:
            break
    for stream in streams:
        stream.task.cancel()
    held = [r for r in results if r["p95"] < 100 and r["applied"] >= 0.9 * r["rate"] * args.seconds]
    best = max(held, key=lambda r: r["per_second"]) if held else None
    return {"best": best, "rows": results}


def poll_cost(port: int, pids: list[int], static_path: str, seconds: float) -> float:
    """Server CPU per request of an unchanged room poll (204) against a static file, each
    under wrk with 32 connections: a request that changes nothing should cost about what
    a static file costs (rooms.fast_poll answers it in front of Django). The room waits in
    its lobby, so no deadline falls due while wrk polls."""
    import shutil

    from games.play import definition as registry
    from rooms import lobby

    if shutil.which("wrk") is None:
        print("Unchanged poll: wrk not installed (apt-get install wrk); skipped.")
        return float("nan")
    definition = registry.get("the_cat")
    visitor = f"poller-{secrets.token_hex(4)}"
    room = lobby.create_room(definition, visitor, "Gast", definition.default_options())
    cookie = visitor_cookie(visitor, CSRF)
    poll = f"/spiele/{definition.slug}/raum/{room.code}/status/?v={room.version}"
    headers = {"Cookie": cookie, "HX-Request": "true"}
    # The first poll goes through Django: it teaches the process the 204's headers.
    for _ in range(2 * SHIPPED_WORKERS):
        request = urllib.request.Request(f"http://127.0.0.1:{port}{poll}", headers=headers)
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert answer.status == 204, answer.status
    costs = {}
    for label, path, extra in (("static file", static_path, {}), ("unchanged poll", poll, headers)):
        before = cpu_seconds(pids)
        rate, _note = wrk(f"http://127.0.0.1:{port}{path}", seconds, 32, extra)
        costs[label] = (rate, (cpu_seconds(pids) - before) / max(1.0, rate * seconds) * 1e6)
    (static_rate, static_us), (poll_rate, poll_us) = costs["static file"], costs["unchanged poll"]
    print(
        f"Unchanged poll (204): {poll_rate:,.0f} requests/s, {poll_us:.0f} µs server CPU per "
        f"request; static file {static_rate:,.0f} requests/s, {static_us:.0f} µs "
        f"({poll_us / static_us:.2f}× the static file's CPU)"
    )
    return static_us


FLOOR_SCRIPT = """
local paths = {%s}
local i = 0
wrk.method = "POST"
wrk.body = "version=0"
setup = function(thread) thread:set("i", math.random(#paths)) end
request = function()
  i = i + 1
  return wrk.format(nil, paths[(i %% #paths) + 1])
end
"""


def floor_cost(port: int, pids: list[int], seconds: float, static_us: float) -> None:
    """The least a move costs this server, under wrk with 32 connections (``floor_urls``):
    a POST through every middleware that does nothing, and one that also takes the room's
    lock, writes a new version, commits and announces it – a move without the game's rule
    and without drawing. No stream listens to these rooms. What stays of a move's CPU
    above this floor is the engine and the drawing; 2 cores' worth of CPU divided by the
    floor bounds the moves per second of this stack on this machine."""
    import shutil

    if shutil.which("wrk") is None:
        print("Floor of a move: wrk not installed (apt-get install wrk); skipped.")
        return
    key = "alpaka"
    slug = GAMES[key]
    rooms = make_rooms(key, 100)  # fresh tables: no deadline falls due while wrk runs
    visitor = f"floor-{secrets.token_hex(4)}"
    headers = {
        "Cookie": visitor_cookie(visitor, CSRF),
        "X-CSRFToken": CSRF,
        "HX-Request": "true",
        "Content-Type": "application/x-www-form-urlencoded",
    }
    costs = {}
    with tempfile.TemporaryDirectory() as folder:
        for label, paths in (
            ("nothing", ["/bench-floor/nothing/"]),
            ("write", [f"/bench-floor/{slug}/{room['code']}/" for room in rooms]),
        ):
            script = Path(folder) / f"{label}.lua"
            script.write_text(FLOOR_SCRIPT % ", ".join(f'"{p}"' for p in paths))
            before = cpu_seconds(pids)
            rate, note = wrk(
                f"http://127.0.0.1:{port}{paths[0]}", seconds, 32, headers, str(script)
            )
            if "non-2xx" in note:
                raise RuntimeError(f"floor {label}: {note}")
            costs[label] = (rate, (cpu_seconds(pids) - before) / max(1.0, rate * seconds) * 1000)
    (nothing_rate, nothing_ms), (write_rate, write_ms) = costs["nothing"], costs["write"]
    cores = os.cpu_count() or 1
    print(
        f"Floor of a move (POST through every middleware, answered 204): nothing done "
        f"{nothing_rate:,.0f}/s, {nothing_ms:.2f} ms server CPU each "
        f"({nothing_ms * 1000 / static_us:.1f}× the static file's); room locked, version "
        f"written, committed and announced {write_rate:,.0f}/s, {write_ms:.2f} ms CPU each – "
        f"at most {cores * 1000 / write_ms:,.0f} moves/s on {cores} cores before any rule or "
        f"drawing, with nothing else running"
    )


async def idle_cost(pids: list[int], seconds: float) -> float:
    """Server CPU (share of one core) with nobody at any table (the workers' timers, the
    hub), once the streams of a ramp before have closed: the floor under the demo's."""
    await asyncio.sleep(5)
    before, clock = cpu_seconds(pids), time.monotonic()
    await asyncio.sleep(seconds)
    return (cpu_seconds(pids) - before) / (time.monotonic() - clock) * 100


async def demo_cost(
    port: int, pids: list[int], seconds: float, speed: str, idle: float
) -> tuple[float, float]:
    """Server CPU (share of one core) while one reader watches a The Cat demo with three
    bots at ``speed``, and after the reader left."""
    from urllib.parse import urlencode

    http = Http(port)
    visitor = f"demo-reader-{secrets.token_hex(4)}"
    cookie = visitor_cookie(visitor, CSRF)
    headers = {
        "HX-Request": "true",
        "X-CSRFToken": CSRF,
        "Cookie": cookie,
        "Content-Type": "application/x-www-form-urlencoded",
    }
    body = urlencode({"version": 0, "bots": 3, "speed": speed}).encode()
    # Not the guided first game: there the bots wait for the reader's moves.
    off = urlencode({"an": "0"}).encode()
    status, _ = await http.request("POST", "/spiele/the-cat/demo/erklaerungen/", off, headers)
    assert status in (200, 204), status
    status, _ = await http.request("POST", "/spiele/the-cat/demo/start/", body, headers)
    assert status == 200, status
    pushed = [0]
    stream = SSEClient(
        port,
        "/spiele/the-cat/demo/live/?v=0",
        cookie,
        lambda *a: pushed.__setitem__(0, pushed[0] + 1),
    )
    stream.start()
    await asyncio.wait_for(stream.ready.wait(), 30)
    await asyncio.sleep(2)
    before, clock, pushed_before = cpu_seconds(pids), time.monotonic(), pushed[0]
    await asyncio.sleep(seconds)
    span = time.monotonic() - clock
    watched = (cpu_seconds(pids) - before) / span * 100
    moves = pushed[0] - pushed_before
    stream.task.cancel()  # the reader closes the tab
    await asyncio.sleep(2)
    before, clock = cpu_seconds(pids), time.monotonic()
    await asyncio.sleep(seconds)
    left = (cpu_seconds(pids) - before) / (time.monotonic() - clock) * 100
    print(
        f"Demo (The Cat, 3 „{speed}“ bots): {watched:.2f} % of one core while the reader "
        f"watches ({moves} bot moves pushed in {span:.0f} s, "
        f"{(watched - idle) * 10 * span / max(1, moves):.1f} ms CPU per bot move above idle), "
        f"{left:.2f} % after the reader left, {idle:.2f} % before any reader came"
    )
    return watched, left


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--games", default="alpaka,the_cat")
    parser.add_argument("--rates", default="10,20,40,60,80,120,160,200,300")
    parser.add_argument("--workers", type=int, default=SHIPPED_WORKERS)
    parser.add_argument("--demo-seconds", type=float, default=20)
    parser.add_argument("--poll-seconds", type=float, default=5)
    parser.add_argument("--floor-seconds", type=float, default=5)
    args = parser.parse_args()
    args.rates = [float(rate) for rate in args.rates.split(",")]

    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        print(f"Redis not reachable at {REDIS_URL} ({error}): pushes need it; skipped.")
        return 0
    if not postgres_available():
        print("PostgreSQL not reachable: skipped.")
        return 0
    tmp = tempfile.mkdtemp(prefix="bench-moves-")
    prefix = f"bench-moves-{secrets.token_hex(4)}"
    env = {
        "DJANGO_SECRET_KEY": SECRET,
        "REDIS_URL": REDIS_URL,
        "CACHE_KEY_PREFIX": prefix,
        "LIVE_CHANNEL_PREFIX": f"{prefix}:live",
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{PG_NAME}",
        "ACCESS_LOG": "off",
    }
    recreate_postgres(PG_NAME)
    print(
        f"gunicorn with {args.workers} uvicorn workers (the shipped default), PostgreSQL, Redis; "
        f"{os.cpu_count()} cores shared with the clients; {args.rooms} rooms of {PLAYERS} "
        f"players per game, every player's stream open"
    )
    server = None
    try:
        setup_django(env)
        games = [key for key in args.games.split(",") if key]
        rooms = {key: make_rooms(key, args.rooms) for key in games}
        ensure_game("the_cat")
        # Production settings need the collected static files (hashed names in the pages).
        served = {
            **env,
            "PYTHONPATH": f"{ROOT}:{ROOT / 'bench'}",
            "BENCH_STATIC_ROOT": str(Path(tmp) / "static"),
            "BENCH_FLOOR_URLS": "1",
        }
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput"],
            cwd=ROOT,
            env={
                **os.environ,
                **served,
                "DJANGO_SETTINGS_MODULE": "pages_settings",
                "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            },
            check=True,
            stdout=subprocess.DEVNULL,
        )
        port = free_port()
        server = start_gunicorn(
            "site_config.asgi:application",
            port,
            served,
            args.workers,
            str(Path(tmp) / "gunicorn.log"),
            settings="pages_settings",
        )
        deadline = time.time() + 90
        while time.time() < deadline:
            with contextlib.suppress(OSError):
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5)
                break
            time.sleep(0.2)
        pids = process_tree(server.pid)
        summary = {}
        for key in games:
            summary[key] = asyncio.run(ramp(key, port, rooms[key], pids, args))
        if args.demo_seconds > 0:
            idle = asyncio.run(idle_cost(pids, args.demo_seconds))
            from games.play import definition as registry

            # The Cat's default tempo of the bots, and its fastest.
            for speed in (registry.get("the_cat").default_options()["speed"], "flink"):
                asyncio.run(demo_cost(port, pids, args.demo_seconds, speed, idle))
        static = next((Path(tmp) / "static" / "css").glob("site.*.css")).name
        if args.poll_seconds > 0:
            static_us = poll_cost(port, pids, f"/static/css/{static}", args.poll_seconds)
            if args.floor_seconds > 0:
                floor_cost(port, pids, args.floor_seconds, static_us)
        for key, result in summary.items():
            best = result["best"]
            if best:
                print(
                    f"{key}: {best['per_second']:.0f} moves/s with push-to-screen p95 "
                    f"{best['p95']:.0f} ms (< 100 ms), {best['cpu_ms_per_move']:.1f} ms server "
                    f"CPU per move"
                )
            else:
                print(f"{key}: p95 ≥ 100 ms already at the lowest rate")
        return 0
    finally:
        if server is not None:
            stop_gunicorn(server)
        from django.db import connections

        connections.close_all()
        recreate_postgres(PG_NAME, drop_only=True)
        forget_redis_keys(REDIS_URL, prefix)


if __name__ == "__main__":
    sys.exit(main())
