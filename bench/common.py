"""Helpers the benchmarks share: free ports, percentiles, scratch PostgreSQL databases,
Django set up against them, and gunicorn started, measured and stopped."""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

POSTGRES_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"

# The production servers exactly as README.md („Produktion starten“) starts them: the shipped
# site_config/gunicorn.conf.py decides worker class, worker count and recycling, so a
# benchmark passes none of them (tests/test_operations.py checks the README names these).
SHIPPED_CONFIG = "site_config/gunicorn.conf.py"
SHIPPED_SERVERS = {
    "uvicorn workers (ASGI)": "site_config.asgi:application",
    "sync workers (WSGI)": "site_config.wsgi:application",
}


def shipped_command(app: str) -> list[str]:
    """The README's command for ``app`` (a value of SHIPPED_SERVERS)."""
    return [str(Path(sys.executable).parent / "gunicorn"), "-c", SHIPPED_CONFIG, app]


def worker_pids(master: int) -> list[int]:
    """gunicorn's workers: the master's children."""
    return process_tree(master)[1:]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wrk(
    url: str,
    seconds: float,
    connections: int,
    headers: dict | None = None,
    script: str | None = None,
) -> tuple[float, str]:
    """(requests per second, note with the median and any non-2xx count) of a wrk run;
    ``script``: a wrk Lua script's path (its requests replace plain GETs of ``url``)."""
    extra = [arg for name, value in (headers or {}).items() for arg in ("-H", f"{name}: {value}")]
    if script:
        extra += ["-s", script]
    out = subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{seconds:.0f}s", "--latency", *extra, url],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    if not rate:
        raise RuntimeError(f"wrk got no answer from {url}:\n{out}")
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    median = re.search(r"^\s+50%\s+(\S+)", out, re.M)
    note = f"p50 {median.group(1) if median else '?'}"
    if errors:
        note += f", {errors.group(1)} non-2xx!"
    return rate, note


def percentile(values, share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def postgres_available() -> bool:
    try:
        import psycopg

        with psycopg.connect(POSTGRES_ADMIN_URL, connect_timeout=3):
            return True
    except Exception:
        return False


def recreate_postgres(name: str, drop_only: bool = False) -> None:
    """A scratch database of this name, empty (or only dropped, after the run)."""
    import psycopg

    with psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        if not drop_only:
            conn.execute(f"CREATE DATABASE {name}")


def setup_django(env: dict) -> None:
    """Django in this process with the test settings on the database `env` names, migrated."""
    os.environ["DJANGO_SETTINGS_MODULE"] = "site_config.settings.test"
    os.environ.pop("DATABASE_URL", None)
    os.environ.update(env)
    import django

    warnings.filterwarnings("ignore", message="No directory at")
    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def scratch_sqlite() -> str:
    """Django in this process on a migrated SQLite file of its own; returns its path
    (``remove_sqlite`` deletes it afterwards)."""
    import tempfile

    handle, path = tempfile.mkstemp(suffix=".sqlite3")
    os.close(handle)
    setup_django({"SQLITE_PATH": path})
    return path


def remove_sqlite(path: str) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(path + suffix).unlink(missing_ok=True)


def forget_redis_keys(url: str, prefix: str) -> None:
    """Remove what a benchmark wrote under its own key prefix (Redis may be gone by now)."""
    import redis

    with contextlib.suppress(redis.RedisError):
        client = redis.Redis.from_url(url)
        for key in client.scan_iter(match=f"{prefix}*", count=500):
            client.delete(key)


def start_gunicorn(
    app: str,
    port: int,
    env: dict,
    workers: int,
    log_path: str,
    *extra_args: str,
    settings: str = "site_config.settings.prod",
) -> subprocess.Popen:
    """gunicorn with the production settings on 127.0.0.1:``port``, in a session of its own
    (``stop_gunicorn`` ends master and workers). Without a DATABASE_URL in ``env`` it uses
    the SQLite default. The caller waits until it answers as it needs."""
    full_env = {
        **os.environ,
        **env,
        "DJANGO_SETTINGS_MODULE": settings,
        "DJANGO_SECRET_KEY": env.get("DJANGO_SECRET_KEY") or secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_WORKERS": str(workers),
    }
    if "DATABASE_URL" not in env:
        full_env.pop("DATABASE_URL", None)
    log = open(log_path, "w")  # noqa: SIM115 - closed with the process
    return subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "site_config/gunicorn.conf.py", *extra_args, app],
        cwd=ROOT, env=full_env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip


def stop_gunicorn(process: subprocess.Popen, seconds: float = 30) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(seconds)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def process_tree(pid: int) -> list[int]:
    """``pid`` and its children (gunicorn's master and workers), from /proc."""
    found = [pid]
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid:
                    found.append(int(entry.name))
    return found


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of these processes, from /proc."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime + stime
    return total / ticks


def rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total / 1024


def ensure_alpaka_game() -> None:
    """The published Alpaka game row that rooms need (a scratch database has none)."""
    from games.models import Game

    Game.objects.get_or_create(
        slug="alpaka",
        defaults={
            "title": "Alpaka",
            "short_description": "Benchmark",
            "players_min": 2,
            "players_max": 6,
            "min_age": 8,
            "duration_minutes": 20,
            "is_published": True,
            "demo_engine": "alpaka",
        },
    )


# --- Live clients ------------------------------------------------------------------------------


def visitor_cookie(visitor: str, csrf: str) -> str:
    """The Cookie header of a browser that is ``visitor`` (signed as the site signs it; the
    server must run with the same DJANGO_SECRET_KEY) with an unmasked CSRF secret."""
    from django.http import HttpResponse

    from games.visitors import COOKIE_NAME, COOKIE_SALT

    response = HttpResponse()
    response.set_signed_cookie(COOKIE_NAME, visitor, salt=COOKIE_SALT)
    return f"{COOKIE_NAME}={response.cookies[COOKIE_NAME].value}; csrftoken={csrf}"


class SSEClient:
    """One browser's EventSource: a raw HTTP/1.1 GET read as chunks of SSE events (cheap on
    the client's side). ``on_event(client, kind, version, arrived)`` hears ``view`` and
    ``changed`` events; ``ready`` is set by the first event."""

    def __init__(self, port: int, path: str, cookie: str, on_event=None):
        import asyncio

        self.port, self.path, self.cookie = port, path, cookie
        self.on_event = on_event or (lambda *args: None)
        self.ready = asyncio.Event()
        self.status = None
        self.latest = -1
        self.task = None

    async def run(self):
        import asyncio

        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        writer.write(
            f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
            f"Cookie: {self.cookie}\r\n\r\n".encode()
        )
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        self.status = int(head.split(b" ", 2)[1])
        if self.status != 200:
            self.ready.set()
            writer.close()
            return
        buffer = ""
        try:
            while True:
                size = int((await reader.readuntil(b"\r\n")).strip() or b"0", 16)
                if size == 0:
                    return
                buffer += (await reader.readexactly(size + 2))[:-2].decode()
                while "\n\n" in buffer:
                    block, buffer = buffer.split("\n\n", 1)
                    self._block(block)
        finally:
            writer.close()

    def _block(self, block: str):
        import time

        kind = version = None
        for line in block.splitlines():
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("id: "):
                version = int(line[4:])
        if kind == "ready":
            self.latest = version if version is not None else self.latest
            self.ready.set()
        elif kind in ("view", "changed") and version is not None:
            self.latest = max(self.latest, version)
            self.on_event(self, kind, version, time.monotonic())

    def start(self):
        import asyncio

        self.task = asyncio.create_task(self.run())
        return self
