"""Cached pages vs a static file through the same gunicorn, and the server time of a miss.

    .venv/bin/python bench/bench_pages.py [--seconds 8] [--connections 32] [--misses 60]

Starts gunicorn itself (production settings, 4 sync workers, 127.0.0.1 on a free port)
against a fresh PostgreSQL database (127.0.0.1:5432, dropped afterwards) and Redis
(127.0.0.1:6379, own key prefix), loads the shipped content, then runs wrk (Debian's
`wrk`, 32 connections, bounded in time) against a static file, two rule pages, the
catalogue and the Sleeve-Finder, taking turns for a few rounds, and prints the mean
requests/s and the ratio to the static file. Then, one request at a time, the server time
of a cache miss (median; the page generation bumped before every request, as after an
editor's change to another game or an eviction: the page is rendered, but the workers
and the rendered parts of the unchanged content are warm), of a hit, of a redraw (the
content versions of games, sleeves and votes bumped as well), and the cold
time (the first request of each page right after the server started, as after a
deploy). The server is stopped at the end, also on errors.

Goals (issue 12): a cached rule page ≥ 0.9× the static file; a miss ≤ 8 ms median.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the cache keys' names (site_config)
PYTHON = sys.executable
PAGES = [
    "/spiele/the-cat/",
    "/spiele/kaetzchen-angeln/",
    "/",
    "/sleeve-finder/?spiele=the-cat,alpaka",
]
POSTGRES = "postgres://postgres@127.0.0.1:5432/"
REDIS = "redis://127.0.0.1:6379/0"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def run(args, env, **kwargs):
    return subprocess.run(args, cwd=ROOT, env=env, check=True, **kwargs)


def postgres(sql: str) -> None:
    import psycopg

    with psycopg.connect(POSTGRES + "postgres", autocommit=True) as connection:
        connection.execute(sql)


def wait_for(url: str, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"gunicorn did not answer {url}")


def start_server(env, probe_url: str, log=subprocess.DEVNULL) -> subprocess.Popen:
    server = subprocess.Popen(
        [
            str(Path(PYTHON).parent / "gunicorn"),
            "-c",
            "site_config/gunicorn.conf.py",
            "site_config.wsgi:application",
            "--access-logfile",
            "/dev/null",
            # No recycling mid-run: all four workers restarting at once stalls whichever
            # URL is being measured for seconds (production keeps max_requests).
            "--max-requests",
            "0",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,  # Django's access log: one JSON line per request, with duration_ms
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(probe_url)
    except RuntimeError:
        stop_server(server)
        raise
    return server


def stop_server(server: subprocess.Popen) -> None:
    if server.poll() is None:
        server.terminate()
        server.wait(timeout=30)


def get(url: str) -> tuple[int, dict]:
    with urllib.request.urlopen(url, timeout=10) as response:
        response.read()
        return response.status, dict(response.headers)


def wrk(url: str, seconds: int, connections: int) -> tuple[float, str]:
    out = subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    median = re.search(r"^\s+50%\s+(\S+)", out, re.M)
    note = f"p50 {median.group(1) if median else '?'}"
    if errors:
        note += f", {errors.group(1)} non-2xx!"
    return rate, note


def _cache_key(env, key: str) -> str:
    """A key as Django's RedisCache stores it (prefix, version 1)."""
    return f"{env['CACHE_KEY_PREFIX']}:1:{key}"


def bump_generation(env) -> None:
    """As an editor's save does (site_config.page_cache), from outside the server."""
    import redis

    from site_config.page_cache import GENERATION_KEY

    redis.Redis.from_url(env["REDIS_URL"]).incr(_cache_key(env, GENERATION_KEY))


def bump_versions(env) -> None:
    """As a change in every content group at once (site_config.content_versions): every
    part keyed by a group's version is drawn again."""
    import redis

    from site_config.content_versions import GROUPS, VERSION_KEY

    client = redis.Redis.from_url(env["REDIS_URL"])
    for group in GROUPS:
        client.incr(_cache_key(env, VERSION_KEY.format(group)))


def forget_cache(env) -> None:
    """The benchmark's keys out of Redis (the generation never expires by itself)."""
    import redis

    client = redis.Redis.from_url(env["REDIS_URL"])
    keys = list(client.scan_iter(f"{env['CACHE_KEY_PREFIX']}:*"))
    if keys:
        client.delete(*keys)


def timed_requests(
    base: str, path: str, count: int, env, miss: bool, redraw: bool = False
) -> tuple[list, list]:
    """Client-side times (ms) and the request ids, to find the server's own times."""
    timings, ids = [], []
    for _ in range(count):
        if redraw:
            bump_versions(env)
        if miss:
            bump_generation(env)
        started = time.perf_counter()
        _status, headers = get(base + path)
        timings.append((time.perf_counter() - started) * 1000)
        ids.append(headers.get("X-Request-ID"))
        expected = "miss" if miss else "hit"
        if headers.get("X-Page-Cache") != expected:
            raise RuntimeError(f"{path}: expected a {expected}, got {headers.get('X-Page-Cache')}")
    return timings, ids


def server_times(log_path: Path, ids: list) -> list[float]:
    """duration_ms of these requests from the access log (site_config/access_log.py)."""
    wanted, found = set(ids), []
    for line in log_path.read_text().splitlines():
        if line.startswith("{") and '"request_id"' in line:
            entry = json.loads(line)
            if entry.get("request_id") in wanted:
                found.append(entry["duration_ms"])
    return found


def median_or_dash(values: list[float]) -> str:
    return f"{statistics.median(values):.2f}" if values else "–"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=4, help="wrk duration per URL and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--misses", type=int, default=60)
    parser.add_argument("--port", type=int, default=0, help="default: a free port")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        print("wrk fehlt: sudo apt-get install -y wrk")
        return 1

    suffix = secrets.token_hex(4)
    database = f"bench_pages_{suffix}"
    static_root = tempfile.mkdtemp(prefix="bench-pages-static-")
    port = args.port or free_port()
    env = {
        **os.environ,
        "PYTHONPATH": f"{ROOT}:{ROOT / 'bench'}",
        "DJANGO_SETTINGS_MODULE": "pages_settings",
        "BENCH_STATIC_ROOT": static_root,
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(60),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DATABASE_URL": POSTGRES + database,
        "REDIS_URL": REDIS,
        "CACHE_KEY_PREFIX": f"bench-pages-{suffix}",
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_WORKERS": "4",
        "GUNICORN_WORKER_CLASS": "sync",
    }
    postgres(f'CREATE DATABASE "{database}"')
    server = None
    try:
        quiet = {"stdout": subprocess.DEVNULL}
        run([PYTHON, "manage.py", "migrate", "--noinput"], env, **quiet)
        run([PYTHON, "manage.py", "load_content"], env, **quiet)
        run([PYTHON, "manage.py", "collectstatic", "--noinput"], env, **quiet)
        manifest = json.loads(Path(static_root, "staticfiles.json").read_text())
        static_path = "/static/" + manifest["paths"]["css/site.css"]
        base = f"http://127.0.0.1:{port}"
        server = start_server(env, base + static_path)
        for path in PAGES:
            get(base + path)  # fill the cache

        print(
            f"gunicorn 4 sync workers, production settings, PostgreSQL + Redis; "
            f"wrk {args.connections} connections, {args.rounds} rounds of "
            f"{args.seconds} s per URL, the URLs taking turns (a busy machine hits all alike)"
        )
        urls = [static_path, *PAGES]
        rates = {url: [] for url in urls}
        notes = {}
        for _round in range(args.rounds):
            for url in urls:
                rate, notes[url] = wrk(base + url, args.seconds, args.connections)
                rates[url].append(rate)
        static_rate = statistics.mean(rates[static_path])
        print(f"{'URL':45} {'requests/s':>11} {'vs static':>10}  last round")
        for url in urls:
            rate = statistics.mean(rates[url])
            print(f"{url[:45]:45} {rate:11,.0f} {rate / static_rate:9.2f}×  {notes[url]}")

        stop_server(server)
        # Misses: the generation is bumped before every request, so the workers must read
        # it on every request (the production default trusts it for a second).
        log_path = Path(static_root, "access.log")
        with log_path.open("w") as log:
            server = start_server({**env, "BENCH_GENERATION_SECONDS": "0"}, base + static_path, log)
            # Cold: the first request of each page right after a start (as after a deploy:
            # new code stamp, so no page and no rendered part of the old code is used).
            cold = {}
            for path in PAGES:
                _timings, cold_ids = timed_requests(base, path, 1, env, miss=True)
                cold[path] = cold_ids
            # Then every worker draws each page's parts once; a miss below is a page not in
            # the page cache (generation bumped, as after an editor's change to another game
            # or an eviction) with warm processes and warm parts.
            for path in PAGES:
                timed_requests(base, path, 16, env, miss=True)
            print(f"\nOne request at a time, {args.misses} each: median ms, server (client)")
            print(f"{'URL':45} {'miss':>17} {'hit':>17} {'redrawn':>8} {'cold':>8}")
            for path in PAGES:
                misses, miss_ids = timed_requests(base, path, args.misses, env, miss=True)
                hits, hit_ids = timed_requests(base, path, args.misses, env, miss=False)
                _redrawn, redrawn_ids = timed_requests(
                    base, path, args.misses // 2, env, miss=True, redraw=True
                )
                time.sleep(0.5)  # the workers' last log lines
                miss_server = server_times(log_path, miss_ids)
                hit_server = server_times(log_path, hit_ids)
                redrawn_server = server_times(log_path, redrawn_ids)
                cold_server = server_times(log_path, cold[path])
                print(
                    f"{path:45} {median_or_dash(miss_server):>7} ({statistics.median(misses):6.2f})"
                    f" {median_or_dash(hit_server):>7} ({statistics.median(hits):6.2f})"
                    f" {median_or_dash(redrawn_server):>8} {median_or_dash(cold_server):>8}"
                )
            print(
                "miss: not in the page cache (as after an edit the page does not show), "
                "workers and rendered parts warm;\nredrawn: as after an edit of a game, a "
                "sleeve and a vote at once (the parts keyed by them drawn again, the article's "
                "sections and the engine's examples kept by their own content);\n"
                "cold: first request after the start"
            )
    finally:
        if server is not None:
            stop_server(server)
        shutil.rmtree(static_root, ignore_errors=True)
        forget_cache(env)
        postgres(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
    return 0


if __name__ == "__main__":
    sys.exit(main())
