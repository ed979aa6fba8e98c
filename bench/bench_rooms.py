"""Online rooms: what a live-update poll costs, and how many polls gunicorn serves.

    .venv/bin/python bench/bench_rooms.py [--seconds 8] [--clients 100] [--postgres]

1. In-process (Django test client, fresh SQLite file): an unchanged poll is
   counted – database queries and template renders – and timed; a changed
   poll (the table re-rendered) is timed for comparison. Target: ≤ 2 queries,
   no template.
2. Load: gunicorn with 4 sync workers on a free port of 127.0.0.1 serves the
   same database (SQLite in WAL mode, or with ``--postgres`` a scratch
   PostgreSQL database). 100 simulated clients in 25 rooms – four processes
   of threads using ``http.client`` – poll as fast as they can for a bounded
   time (the server's capacity), then once per second as real browsers do
   (the latency people feel). Everything started here is stopped here.
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import (  # noqa: E402
    cpu_seconds,
    ensure_alpaka_game,
    free_port,
    percentile,
    process_tree,
    recreate_postgres,
    setup_django,
    start_gunicorn,
    stop_gunicorn,
)

ROOMS = 25
PLAYERS_PER_ROOM = 4
WORKERS = 4
PG_NAME = "bench_rooms"


def database_env(args, db_path: str) -> dict:
    env = {"SQLITE_PATH": db_path}
    if args.postgres:
        env["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{PG_NAME}"
    return env


def make_rooms() -> list[tuple[str, int]]:
    """25 running games of four humans each; returns (code, version) per room."""
    from games.play import definition as engines
    from rooms import lobby, seating
    from rooms.models import Room

    ensure_alpaka_game()
    engine = engines.get("alpaka")
    rooms = []
    for number in range(ROOMS):
        host = f"bench-{number}-0"
        room = lobby.create_room(engine, host, f"Gast {number}", {"target": "40"})
        for seat in range(1, PLAYERS_PER_ROOM):
            seating.join(engine, room.code, f"bench-{number}-{seat}", f"Spieler {seat}")
        lobby.start(engine, room.code, host)
        rooms.append((room.code, Room.objects.get(pk=room.pk).version))
    return rooms


def in_process(rooms: list[tuple[str, int]], repeats: int) -> None:
    from django.db import connection
    from django.test import Client
    from django.test.signals import template_rendered
    from django.test.utils import CaptureQueriesContext, setup_test_environment

    from games.play import definition as engines
    from rooms import playing

    setup_test_environment()  # template_rendered fires only in the test environment
    rendered = []
    template_rendered.connect(lambda sender, template, **kw: rendered.append(template.name))
    client = Client()
    code, version = rooms[0]
    url = f"/spiele/alpaka/raum/{code}/status/?v={version}"
    client.get(url)  # warm up
    rendered.clear()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 204, response.status_code
    print("Unchanged poll (in-process, Django test client):")
    print(
        f"  status {response.status_code}, {len(queries)} database quer{'y' if len(queries) == 1 else 'ies'}, "
        f"{len(rendered)} templates rendered (target: ≤ 2 queries, no template)"
    )
    timings = []
    for _ in range(repeats):
        start = time.perf_counter()
        client.get(url)
        timings.append(time.perf_counter() - start)
    print(
        f"  server time: median {statistics.median(timings) * 1000:.2f} ms, "
        f"p95 {percentile(timings, 0.95) * 1000:.2f} ms over {repeats} polls"
    )

    # A changed poll: one action, then the table is rendered for another seat.
    engine = engines.get("alpaka")
    from rooms.models import Room

    room = Room.objects.get(code=code)
    turn = room.state["turn"]
    playing.act(engine, code, f"bench-0-{turn}", room.version, {"aktion": "draw"})
    changed = []
    for _ in range(max(50, repeats // 20)):
        start = time.perf_counter()
        response = client.get(f"/spiele/alpaka/raum/{code}/status/?v={version}")
        changed.append(time.perf_counter() - start)
    assert response.status_code == 200, response.status_code
    print(f"Changed poll (table re-rendered): median {statistics.median(changed) * 1000:.2f} ms")


def start_server(port: int, env: dict, log_path: str) -> subprocess.Popen:
    process = start_gunicorn(
        "site_config.wsgi", port, env, WORKERS, log_path, "--access-logfile", "/dev/null"
    )
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return process
        except OSError:
            if process.poll() is not None:
                raise RuntimeError(f"gunicorn did not start, see {log_path}") from None
            time.sleep(0.2)
    raise RuntimeError("gunicorn did not open its port in time")


def poll_once(port: int, path: str) -> tuple[int, float]:
    """One poll as a browser sends it (sync workers close the connection after each answer)."""
    start = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers={"HX-Request": "true"})
        response = conn.getresponse()
        response.read()
        return response.status, time.perf_counter() - start
    finally:
        conn.close()


def client_process(port, paths, seconds, interval, queue) -> None:
    """One process of client threads; each thread is one browser polling its room."""
    stop_at = time.perf_counter() + seconds
    lock = threading.Lock()
    statuses: dict[int, int] = {}
    latencies: list[float] = []
    errors = [0]

    def run(path, offset):
        next_at = time.perf_counter() + offset
        while True:
            now = time.perf_counter()
            if now >= stop_at:
                return
            if interval and now < next_at:
                time.sleep(min(next_at - now, stop_at - now))
                continue
            next_at += interval
            try:
                status, latency = poll_once(port, path)
            except OSError:
                with lock:
                    errors[0] += 1
                continue
            with lock:
                statuses[status] = statuses.get(status, 0) + 1
                latencies.append(latency)

    threads = [
        threading.Thread(target=run, args=(path, interval * i / max(1, len(paths))))
        for i, path in enumerate(paths)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    queue.put((statuses, latencies, errors[0]))


def load(port: int, rooms, clients: int, seconds: float, interval: float) -> dict:
    paths = [
        f"/spiele/alpaka/raum/{code}/status/?v={version}"
        for code, version in rooms
        for _ in range(PLAYERS_PER_ROOM)
    ][:clients]
    processes_count = 4
    queue = multiprocessing.Queue()
    chunks = [paths[i::processes_count] for i in range(processes_count)]
    processes = [
        multiprocessing.Process(target=client_process, args=(port, chunk, seconds, interval, queue))
        for chunk in chunks
    ]
    started = time.perf_counter()
    for process in processes:
        process.start()
    results = [queue.get() for _ in processes]
    for process in processes:
        process.join()
    elapsed = time.perf_counter() - started
    statuses: dict[int, int] = {}
    latencies: list[float] = []
    errors = 0
    for part_statuses, part_latencies, part_errors in results:
        for status, count in part_statuses.items():
            statuses[status] = statuses.get(status, 0) + count
        latencies += part_latencies
        errors += part_errors
    return {
        "polls": len(latencies),
        "per_second": len(latencies) / min(elapsed, seconds + 0.5),
        "statuses": statuses,
        "errors": errors,
        "p50": percentile(latencies, 0.5) * 1000 if latencies else 0,
        "p95": percentile(latencies, 0.95) * 1000 if latencies else 0,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=2000)
    parser.add_argument("--postgres", action="store_true", help="use a scratch PostgreSQL database")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        if args.postgres:
            recreate_postgres(PG_NAME)
        env = database_env(args, str(Path(tmp) / "rooms.sqlite3"))
        try:
            setup_django(env)
            rooms = make_rooms()
            print(
                f"Database: {'PostgreSQL' if args.postgres else 'SQLite (WAL)'}; "
                f"{ROOMS} rooms × {PLAYERS_PER_ROOM} players, gunicorn with {WORKERS} sync workers, "
                f"{os.cpu_count()} CPU cores shared by server and clients"
            )
            in_process(rooms, args.repeats)
            from django.db import connections

            from rooms.models import Room

            # The in-process part moved room 0 on; every client polls its room's current version.
            rooms = [(code, Room.objects.get(code=code).version) for code, _ in rooms]
            connections.close_all()
            port = free_port()
            server = start_server(port, env, str(Path(tmp) / "gunicorn.log"))
            try:
                poll_once(port, f"/spiele/alpaka/raum/{rooms[0][0]}/status/?v={rooms[0][1]}")
                cpu_before = cpu_seconds(process_tree(server.pid))
                flat_out = load(port, rooms, args.clients, args.seconds, interval=0)
                server_cpu = cpu_seconds(process_tree(server.pid)) - cpu_before
                paced = load(port, rooms, args.clients, min(args.seconds, 6), interval=1.0)
            finally:
                stop_gunicorn(server, 20)
        finally:
            if args.postgres:
                from django.db import connections

                connections.close_all()
                recreate_postgres(PG_NAME, drop_only=True)

    print(f"Load, {args.clients} clients polling as fast as they can for {args.seconds:g} s:")
    print(
        f"  {flat_out['per_second']:.0f} polls/s, {flat_out['polls']} polls, statuses {flat_out['statuses']}, "
        f"errors {flat_out['errors']}, latency p50 {flat_out['p50']:.1f} ms, p95 {flat_out['p95']:.1f} ms"
    )
    print(f"Load, {args.clients} clients polling once per second (as browsers do):")
    print(
        f"  {paced['per_second']:.0f} polls/s, statuses {paced['statuses']}, errors {paced['errors']}, "
        f"latency p50 {paced['p50']:.1f} ms, p95 {paced['p95']:.1f} ms"
    )
    per_poll = server_cpu / max(1, flat_out["polls"]) * 1000
    print(
        f"  gunicorn used {server_cpu:.1f} s CPU: {per_poll:.2f} ms per poll, i.e. about "
        f"{1000 / per_poll:.0f} polls/s per core it gets (the load generator shares the cores)"
    )
    print(
        f"  ⇒ this machine answers about {flat_out['per_second']:.0f} players polling every second."
    )
    return 0 if flat_out["errors"] == 0 and set(flat_out["statuses"]) == {204} else 1


if __name__ == "__main__":
    sys.exit(main())
