"""The shipped servers: cached pages vs the static file, a miss's server time, page weight
and memory per worker.

    .venv/bin/python bench/bench_pages.py [--seconds 4] [--rounds 3] [--connections 32]
                                          [--misses 60] [--crawls 3]
                                          [--sections throughput,hits,weight,memory,misses]

Starts every production server as README.md gives it (``common.SHIPPED_SERVERS``:
``gunicorn -c site_config/gunicorn.conf.py site_config.asgi:application`` and the same
with ``site_config.wsgi:application``), each with the shipped worker class, worker count
and recycling, production settings, on free ports of 127.0.0.1, side by side, against a
fresh PostgreSQL database (127.0.0.1:5432, dropped afterwards) and Redis (127.0.0.1:6379,
own key prefix), with the shipped content. Sections, each a function (add your own):

1. ``throughput``: wrk (Debian's ``wrk``, 32 connections, a browser's Accept-Encoding,
   bounded in time) against a static file and the cached pages of every server, the URLs
   and servers taking turns for a few rounds (a busy machine hits all alike); mean
   requests/s and the ratio to the static file served by the sync workers (whitenoise:
   the ceiling of this stack). Goal (issue 21): every cached page ≥ 0.9× on every server.
2. ``single_hits``: one request at a time, the server time of a hit (access log).
3. ``weight``: bytes of each game page's first load as a browser fetches it (HTML, the
   CSS, JS, sprite, favicon and eager images it links, the per-visitor fragments it
   loads at once and what they link), compressed as sent and raw. Goal: ≤ 60 KB.
4. ``memory``: every page crawled (sitemap, every step of every worked example as page
   and htmx figure, the fragments), each worker's RSS. Goal: ≤ 150 MB per worker.
5. ``single_misses``: each server restarted with the generation read on every request:
   the server time of a miss (median; the page generation bumped before each request, as
   after an editor's change to another game: rendered, but workers and the rendered
   parts of the unchanged content warm), of a redraw (the content versions of games,
   sleeves and votes bumped too) and the cold time (first request after the start).
   Goal: a miss ≤ 8 ms median.

Every server is stopped at the end, also on errors.
"""

from __future__ import annotations

import argparse
import contextlib
import http.cookiejar
import json
import os
import re
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the cache keys' names (site_config)

from bench.common import (  # noqa: E402
    SHIPPED_SERVERS,
    free_port,
    shipped_command,
    worker_pids,
    wrk,
)

PYTHON = sys.executable
PAGES = [
    "/spiele/the-cat/",
    "/spiele/kaetzchen-angeln/",
    "/",
    "/sleeve-finder/?spiele=the-cat,alpaka",
]
GAME_PAGES = [
    "/spiele/the-cat/",
    "/spiele/alpaka/",
    "/spiele/kaetzchen-angeln/",
    "/spiele/katz-und-maus/",
]
POSTGRES = "postgres://postgres@127.0.0.1:5432/"
REDIS = "redis://127.0.0.1:6379/0"
# What Chromium sends: pages and static files go out compressed where they may.
BROWSER_ENCODING = "gzip, deflate, br, zstd"
BROWSER_HEADERS = {"Accept-Encoding": BROWSER_ENCODING}
RATIO_GOAL, MISS_GOAL_MS, WEIGHT_GOAL_KB, RSS_GOAL_MB = 0.9, 8.0, 60, 150
SECTIONS = ("throughput", "hits", "weight", "memory", "misses")


@dataclass(eq=False)
class Server:
    name: str
    app: str
    port: int
    log_path: Path
    process: subprocess.Popen | None = None
    extra_env: dict = field(default_factory=dict)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


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


def start(server: Server, env: dict, probe_path: str) -> None:
    """The README's command, nothing added: the shipped config decides the workers."""
    log = server.log_path.open("a")  # Django's access log: one JSON line per request
    server.process = subprocess.Popen(
        shipped_command(server.app),
        cwd=ROOT,
        env={**env, **server.extra_env, "GUNICORN_BIND": f"127.0.0.1:{server.port}"},
        stdout=log,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    log.close()
    try:
        wait_for(server.base + probe_path)
    except RuntimeError:
        stop(server)
        raise


def stop(server: Server) -> None:
    process = server.process
    if process is None or process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def get(url: str, headers: dict | None = None, opener=None) -> tuple[int, object, bytes]:
    """Status, headers (case-insensitive: uvicorn sends lower-case names) and body."""
    request = urllib.request.Request(url, headers=headers or {})
    with (opener.open if opener else urllib.request.urlopen)(request, timeout=10) as response:
        return response.status, response.headers, response.read()


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
        _status, headers, _body = get(base + path, {"Accept-Encoding": BROWSER_ENCODING})
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


# --- Sections -----------------------------------------------------------------------------


def throughput(servers: list[Server], static_path: str, args) -> None:
    sync = next(s for s in servers if "wsgi" in s.app)
    targets = [(sync, static_path)] + [
        (server, path) for server in servers for path in ([static_path] if server is not sync else []) + PAGES
    ]  # fmt: skip
    for server, path in targets:  # rendered once, then every worker learns it (front.py)
        get(server.base + path, BROWSER_HEADERS)
        with contextlib.suppress(RuntimeError):
            wrk(server.base + path, 2, args.connections, BROWSER_HEADERS)
    rates = {target: [] for target in targets}
    notes = {}
    for _round in range(args.rounds):
        for target in targets:
            server, path = target
            rate, notes[target] = wrk(
                server.base + path, args.seconds, args.connections, BROWSER_HEADERS
            )
            rates[target].append(rate)
    ceiling = statistics.mean(rates[(sync, static_path)])
    print(
        f"wrk {args.connections} connections, Accept-Encoding of a browser, {args.rounds} rounds "
        f"of {args.seconds} s per URL, URLs and servers taking turns"
    )
    print(f"{'server':24} {'URL':40} {'requests/s':>11} {'vs static':>10}  last round")
    worst = {}
    for target in targets:
        server, path = target
        rate = statistics.mean(rates[target])
        ratio = rate / ceiling
        if path != static_path:
            worst[server.name] = min(worst.get(server.name, ratio), ratio)
        print(f"{server.name:24} {path[:40]:40} {rate:11,.0f} {ratio:9.2f}×  {notes[target]}")
    print("vs static: to the static file served by the sync workers (whitenoise), this run")
    for name, ratio in worst.items():
        verdict = "ok" if ratio >= RATIO_GOAL else "BELOW GOAL"
        print(f"  worst cached page, {name}: {ratio:.2f}× (goal ≥ {RATIO_GOAL}×: {verdict})")


def single_hits(server: Server, env, count: int) -> None:
    print(f"\nHits one at a time ({server.name}, {count} each): median ms, server (client)")
    for path in PAGES:
        timings, ids = timed_requests(server.base, path, count, env, miss=False)
        time.sleep(0.3)  # the workers' last log lines
        print(
            f"  {path:45} {median_or_dash(server_times(server.log_path, ids)):>7}"
            f" ({statistics.median(timings):6.2f})"
        )


_ASSET = re.compile(
    r'<link[^>]+rel="(?:stylesheet|icon)"[^>]*href="([^"]+)"'
    r'|<script[^>]+src="([^"]+)"'
    r'|<use href="(/static/[^"#]+)#'
    r'|<img(?![^>]*loading="lazy")[^>]+src="([^"]+)"'
)
# Fragments a page loads at once, and those it loads when they come into view (the demo).
_FRAGMENT = re.compile(r'hx-get="([^"]+)" hx-trigger="load"')
_IN_VIEW = re.compile(r'hx-get="([^"]+)" hx-trigger="intersect once"')
_CSS_URL = re.compile(r'url\("?([^")]+)"?\)')


def _assets(html: str) -> list[str]:
    return [next(group for group in match.groups() if group) for match in _ASSET.finditer(html)]


def first_load(base: str, path: str) -> tuple[dict, dict]:
    """Bytes per kind (html, css, js, svg/img, fragments) of a page's first load:
    (compressed as sent to a browser, raw). Each asset once, as a browser caches it.
    ``in view``: what the page loads later, once the reader scrolled to it (not in the
    first load; its assets the first load did not have count there too)."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    sent, raw, seen = {}, {}, set()

    def fetch(url: str, kind: str, headers: dict | None = None) -> bytes:
        headers = headers or {}
        _s, _h, body = get(base + url, {**headers, "Accept-Encoding": BROWSER_ENCODING}, opener)
        sent[kind] = sent.get(kind, 0) + len(body)
        _s, _h, plain = get(base + url, headers, opener)
        raw[kind] = raw.get(kind, 0) + len(plain)
        return plain

    def fetch_assets(html: str) -> None:
        for url in _assets(html):
            url = url.replace("&amp;", "&")
            if url in seen or not url.startswith("/"):
                continue
            seen.add(url)
            suffix = url.rsplit(".", 1)[-1].split("?")[0]
            kind = {"css": "css", "js": "js"}.get(suffix, "images")
            body = fetch(url, kind)
            if kind == "css":  # background images and fonts the sheet names
                for name in _CSS_URL.findall(body.decode()):
                    if not name.startswith("data:"):
                        resolved = url.rsplit("/", 1)[0] + "/" + name
                        if resolved not in seen:
                            seen.add(resolved)
                            fetch(resolved, "images")

    page = fetch(path, "html").decode()
    fetch_assets(page)
    for url in _FRAGMENT.findall(page):
        fragment = fetch(url.replace("&amp;", "&"), "fragments", {"HX-Request": "true"})
        fetch_assets(fragment.decode())
    first_sent, first_raw = dict(sent), dict(raw)
    for url in _IN_VIEW.findall(page):
        fragment = fetch(url.replace("&amp;", "&"), "in view", {"HX-Request": "true"})
        fetch_assets(fragment.decode())
    later = (
        sum(sent.values()) - sum(first_sent.values()),
        sum(raw.values()) - sum(first_raw.values()),
    )
    return {**first_sent, "in view": later[0]}, {**first_raw, "in view": later[1]}


def weight(server: Server) -> None:
    print(f"\nFirst load of a game page ({server.name}): KB compressed as sent (raw)")
    kinds = ("html", "css", "js", "images", "fragments")
    print(
        f"  {'page':28}"
        + "".join(f"{kind:>15}" for kind in kinds)
        + f"{'total':>16}{'in view':>16}"
    )
    for path in GAME_PAGES:
        sent, raw = first_load(server.base, path)
        cells = "".join(
            f"{sent.get(kind, 0) / 1024:6.1f} ({raw.get(kind, 0) / 1024:5.1f})" for kind in kinds
        )
        total = sum(sent.get(kind, 0) for kind in kinds) / 1024
        total_raw = sum(raw.get(kind, 0) for kind in kinds) / 1024
        later = f"{sent['in view'] / 1024:6.1f} ({raw['in view'] / 1024:5.1f})"
        verdict = "ok" if total <= WEIGHT_GOAL_KB else "OVER GOAL"
        print(f"  {path:28}{cells} {total:6.1f} ({total_raw:5.1f}) {later}  {verdict}")
    print(
        f"  goal ≤ {WEIGHT_GOAL_KB} KB compressed (html: the page as sent; fragments: per visitor;"
        " in view: the demo, loaded once the reader scrolled to it, not in the total)"
    )


def crawl_urls(base: str) -> list[str]:
    """Every page: the sitemap's, every step of every worked example (page and htmx
    figure), the per-visitor fragments of the game pages."""
    _s, _h, sitemap = get(base + "/sitemap.xml")
    urls = [
        re.sub(r"^https?://[^/]+", "", loc) for loc in re.findall(r"<loc>([^<]+)</loc>", sitemap.decode())
    ]  # fmt: skip
    more = []
    for url in urls:
        if not url.startswith("/spiele/"):
            continue
        _s, _h, body = get(base + url)
        html = body.decode()
        more += [u.replace("&amp;", "&") for u in _FRAGMENT.findall(html)]
        for number in sorted({int(n) for n in re.findall(r"/beispiel/(\d+)/", html)}):
            step_url = f"{url}beispiel/{number}/"
            _s, _h, step = get(base + step_url + "?schritt=1")
            count = int(re.search(r"Schritt 1 von (\d+)", step.decode()).group(1))
            more += [f"{step_url}?schritt={n}" for n in range(1, count + 1)]
    return urls + more


def memory(servers: list[Server], rounds: int) -> None:
    urls = crawl_urls(servers[0].base)
    print(f"\nMemory after a crawl of {len(urls)} URLs, {rounds} times (page, htmx), per server")
    for server in servers:
        for _ in range(rounds):  # the workers take turns: each sees most pages
            for url in urls:
                for headers in ({"Accept-Encoding": BROWSER_ENCODING}, {"HX-Request": "true"}):
                    with contextlib.suppress(urllib.error.HTTPError):
                        get(server.base + url, headers)
        rss = []
        for pid in worker_pids(server.process.pid):
            with contextlib.suppress(OSError):
                status = Path(f"/proc/{pid}/status").read_text()
                rss.append(int(re.search(r"VmRSS:\s+(\d+)", status).group(1)) / 1024)
        verdict = "ok" if rss and max(rss) <= RSS_GOAL_MB else "OVER GOAL"
        print(
            f"  {server.name:24} {len(rss)} workers, RSS MB: "
            + ", ".join(f"{value:.0f}" for value in sorted(rss))
            + f" (max {max(rss):.0f}; goal ≤ {RSS_GOAL_MB}: {verdict})"
        )


def single_misses(server: Server, env, static_path: str, count: int) -> None:
    server.extra_env = {"BENCH_GENERATION_SECONDS": "0"}
    server.log_path.write_text("")
    start(server, env, static_path)
    try:
        # Cold: the first request of each page right after a start (as after a deploy:
        # new code stamp, so no page and no rendered part of the old code is used).
        cold = {path: timed_requests(server.base, path, 1, env, miss=True)[1] for path in PAGES}
        # Then every worker draws each page's parts once.
        for path in PAGES:
            timed_requests(server.base, path, 16, env, miss=True)
        print(f"\nOne request at a time ({server.name}), {count} each: median ms, server (client)")
        print(f"  {'URL':45} {'miss':>17} {'redrawn':>8} {'cold':>8}")
        for path in PAGES:
            misses, miss_ids = timed_requests(server.base, path, count, env, miss=True)
            _redrawn, redrawn_ids = timed_requests(
                server.base, path, count // 2, env, miss=True, redraw=True
            )
            time.sleep(0.5)  # the workers' last log lines
            miss_server = server_times(server.log_path, miss_ids)
            verdict = (
                "ok" if miss_server and statistics.median(miss_server) <= MISS_GOAL_MS else "OVER"
            )
            print(
                f"  {path:45} {median_or_dash(miss_server):>7} ({statistics.median(misses):6.2f})"
                f" {median_or_dash(server_times(server.log_path, redrawn_ids)):>8}"
                f" {median_or_dash(server_times(server.log_path, cold[path])):>8}  {verdict}"
            )
    finally:
        stop(server)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=4, help="wrk duration per URL and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--misses", type=int, default=60)
    parser.add_argument("--crawls", type=int, default=3, help="crawl rounds before the RSS")
    parser.add_argument("--sections", default=",".join(SECTIONS), help="comma-separated")
    args = parser.parse_args()
    sections = set(args.sections.split(","))
    if shutil.which("wrk") is None:
        print("wrk fehlt: sudo apt-get install -y wrk")
        return 1

    suffix = secrets.token_hex(4)
    database = f"bench_pages_{suffix}"
    scratch = Path(tempfile.mkdtemp(prefix="bench-pages-"))
    static_root = scratch / "static"
    env = {
        **os.environ,
        "PYTHONPATH": f"{ROOT}:{ROOT / 'bench'}",
        "DJANGO_SETTINGS_MODULE": "pages_settings",
        "BENCH_STATIC_ROOT": str(static_root),
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(60),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DATABASE_URL": POSTGRES + database,
        "REDIS_URL": REDIS,
        "CACHE_KEY_PREFIX": f"bench-pages-{suffix}",
    }
    for name in ("GUNICORN_WORKERS", "GUNICORN_WORKER_CLASS", "GUNICORN_BIND", "WSGI_THREADS"):
        env.pop(name, None)  # the shipped defaults, not the caller's
    servers = [
        Server(name, app, free_port(), scratch / f"access-{index}.log")
        for index, (name, app) in enumerate(SHIPPED_SERVERS.items())
    ]
    postgres(f'CREATE DATABASE "{database}"')
    try:
        quiet = {"stdout": subprocess.DEVNULL}
        run([PYTHON, "manage.py", "migrate", "--noinput"], env, **quiet)
        run([PYTHON, "manage.py", "load_content"], env, **quiet)
        run([PYTHON, "manage.py", "collectstatic", "--noinput"], env, **quiet)
        manifest = json.loads(Path(static_root, "staticfiles.json").read_text())
        static_path = "/static/" + manifest["paths"]["css/site.css"]
        for server in servers:
            start(server, env, static_path)
        workers = {server.name: len(worker_pids(server.process.pid)) for server in servers}
        print(
            "Production servers as README.md starts them (site_config/gunicorn.conf.py: "
            "worker class, count, no recycling); production settings, PostgreSQL + Redis;\n"
            + "; ".join(f"{name}: {count} workers" for name, count in workers.items())
            + f"; {os.cpu_count()} cores shared with wrk"
        )
        if "throughput" in sections:
            throughput(servers, static_path, args)
        if "hits" in sections:
            for server in servers:
                single_hits(server, env, args.misses)
        if "weight" in sections:
            weight(servers[0])
        if "memory" in sections:
            memory(servers, args.crawls)
        for server in servers:
            stop(server)
        if "misses" not in sections:
            return 0
        for server in servers:
            single_misses(server, env, static_path, args.misses)
        print(
            "miss: not in the page cache (as after an edit the page does not show), workers "
            "and rendered parts warm;\nredrawn: as after an edit of a game, a sleeve and a vote "
            "at once; cold: first request after the start"
        )
    finally:
        for server in servers:
            stop(server)
        shutil.rmtree(scratch, ignore_errors=True)
        forget_cache(env)
        postgres(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
    return 0


if __name__ == "__main__":
    sys.exit(main())
