"""Real app servers for the operations tests.

``backends`` prepares one database (a fresh PostgreSQL database when DATABASE_URL
is set, else a SQLite file) with migrations and the shipped content, and a key
prefix in the shared Redis. ``servers`` starts gunicorn processes on free ports
of 127.0.0.1 against them and always stops them again. ``Visitor`` is a browser
without a browser: its own cookie jar (visitor id, CSRF token), speaking plain
HTTP through the standard library to whichever server it is pointed at.
"""

from __future__ import annotations

import contextlib
import http.client
import importlib.util
import json
import os
import queue
import re
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from http.cookiejar import CookieJar
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Generous: two servers booting on a busy 2-core CI machine. Only a hang hits it.
STARTUP_SECONDS = 90
REQUEST_SECONDS = 30


# The production setup (ASGI workers, for the live streams) when this checkout has it.
ASGI = (ROOT / "site_config" / "asgi.py").exists() and bool(
    importlib.util.find_spec("uvicorn_worker")
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _redis_url() -> str:
    return os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


def _run(args: list[str], env: dict) -> None:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, f"manage.py {args[0]} failed:\n{done.stdout}\n{done.stderr}"


@dataclass
class Backends:
    env: dict  # what every app server of this test session gets
    database: str  # "postgresql" or "sqlite"


@pytest.fixture(scope="session")
def backends(tmp_path_factory):
    import redis

    redis_url = _redis_url()
    try:
        redis.Redis.from_url(redis_url, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        # In CI a skip counts as a failure (tests/conftest.py): Redis runs there.
        pytest.skip(f"Redis unreachable at {redis_url}: {error}")

    tag = f"servers_{secrets.token_hex(4)}"
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "SQLITE_PATH", "DJANGO_ALLOW_ASYNC_UNSAFE"}
        and not key.startswith("PYTEST")
    }
    env.update(
        DJANGO_SETTINGS_MODULE="site_config.settings.test",
        REDIS_URL=redis_url,
        # Own keys and channels in the shared Redis: nothing of another run is seen.
        CACHE_KEY_PREFIX=f"kartenregeln-{tag}",
        LIVE_CHANNEL_PREFIX=f"kartenregeln-{tag}:live",
        ACCESS_LOG="json",
        PYTHONUNBUFFERED="1",
    )

    admin_url = os.environ.get("DATABASE_URL")
    if admin_url:
        import psycopg

        parts = urllib.parse.urlsplit(admin_url)
        env["DATABASE_URL"] = urllib.parse.urlunsplit(parts._replace(path=f"/{tag}"))
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{tag}"')
        database = "postgresql"
    else:
        env["SQLITE_PATH"] = str(tmp_path_factory.mktemp("servers") / "shared.sqlite3")
        database = "sqlite"
    try:
        _run(["migrate", "--noinput"], env)
        _run(["load_content"], env)
        yield Backends(env=env, database=database)
    finally:
        if admin_url:
            with psycopg.connect(admin_url, autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{tag}" WITH (FORCE)')
        with contextlib.suppress(redis.RedisError):
            client = redis.Redis.from_url(redis_url, socket_connect_timeout=2)
            for key in client.scan_iter(match=f"*{tag}*", count=500):
                client.delete(key)


def _children(pid: int) -> set[int]:
    """Process ids whose parent is ``pid`` (from /proc: no psutil needed)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # "pid (comm) state ppid ...": comm may contain spaces, so split after the ")".
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid:
            found.add(int(entry.name))
    return found


class AppServer:
    """One gunicorn master with its workers, in its own process group."""

    def __init__(self, name: str, env: dict, log_dir: Path, workers: int = 1):
        self.name = name
        self.env = env
        self.workers = workers
        self.log_path = log_dir / f"{name}.log"
        self.port: int | None = None
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        worker_class, app = (
            ("site_config.workers.CalmUvicornWorker", "site_config.asgi:application")
            if ASGI
            else ("sync", "site_config.wsgi:application")
        )
        return [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            "site_config/gunicorn.conf.py",
            "--bind",
            f"127.0.0.1:{self.port}",
            "--workers",
            str(self.workers),
            "--worker-class",
            worker_class,
            app,
        ]

    def start(self, port: int | None = None, healthy: bool = True) -> AppServer:
        self.port = port or free_port()
        log = self.log_path.open("a")
        log.write(f"--- start on port {self.port}\n")
        log.flush()
        self.process = subprocess.Popen(
            self.command(),
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own group: killpg reaches master and workers
        )
        log.close()
        self.wait_healthy(200 if healthy else 503)
        return self

    def health(self) -> int | None:
        try:
            with urllib.request.urlopen(f"{self.url}/healthz", timeout=5) as reply:
                return reply.status
        except urllib.error.HTTPError as error:
            return error.code
        except (OSError, http.client.HTTPException):
            return None

    def wait_healthy(self, status: int = 200) -> None:
        """Until /healthz answers ``status`` (503: up, but a backend is broken)."""
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited:\n{self.log_tail()}")
            if self.health() == status:
                return
            time.sleep(0.1)
        raise RuntimeError(f"{self.name} never became healthy:\n{self.log_tail()}")

    def worker_pids(self) -> set[int]:
        return _children(self.process.pid)

    def kill_worker(self) -> int:
        """SIGKILL one worker (no cleanup, no goodbye); wait for the master's replacement."""
        old = self.worker_pids()
        assert old, "no worker to kill"
        victim = min(old)
        os.kill(victim, signal.SIGKILL)
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            current = self.worker_pids()
            if victim not in current and len(current) >= self.workers:
                self.wait_healthy()
                return victim
            time.sleep(0.05)
        raise RuntimeError(f"{self.name}: no worker replaced pid {victim}:\n{self.log_tail()}")

    def kill(self) -> None:
        """SIGKILL master and workers at once, like a crashed machine or an OOM kill."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.kill()

    def log_text(self) -> str:
        return self.log_path.read_text() if self.log_path.exists() else ""

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])

    def access_log(self) -> list[dict]:
        return [
            json.loads(line) for line in self.log_text().splitlines() if line.startswith('{"time"')
        ]


@pytest.fixture
def servers(backends, tmp_path):
    """``servers(2)`` → two started AppServers on the shared backends; all stopped afterwards."""
    started: list[AppServer] = []

    def start(count: int = 1, workers: int = 1) -> list[AppServer]:
        made = []
        for _ in range(count):
            server = AppServer(f"server-{len(started) + 1}", backends.env, tmp_path, workers)
            started.append(server)
            made.append(server.start())
        return made

    try:
        yield start
    finally:
        for server in started:
            server.stop()
    for server in started:
        # A worker that died of an error (not of our SIGKILL) would show a traceback.
        assert "Traceback" not in server.log_text(), server.log_tail(80)


# --- A visitor with its own cookies ------------------------------------------------------------


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # the 302 itself is the answer we want to see


@dataclass
class Reply:
    status: int
    headers: http.client.HTTPMessage  # case-insensitive, like the HTTP headers themselves
    text: str


class Visitor:
    """One browser's cookies, pointed at one app server (``server`` may change)."""

    def __init__(self, server: AppServer):
        self.server = server
        self.jar = CookieJar()
        self._opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect()
        )

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.jar if c.name == name), None)

    def request(self, method: str, path: str, data: dict | None = None, htmx=False) -> Reply:
        headers = {"HX-Request": "true"} if htmx else {}
        body = None
        if method == "POST":
            headers["X-CSRFToken"] = self.cookie("csrftoken") or ""
            body = urllib.parse.urlencode(data or {}).encode()
        request = urllib.request.Request(
            self.server.url + path, data=body, method=method, headers=headers
        )
        try:
            with self._opener.open(request, timeout=REQUEST_SECONDS) as reply:
                return Reply(reply.status, reply.headers, reply.read().decode())
        except urllib.error.HTTPError as error:
            with error:
                return Reply(error.code, error.headers, error.read().decode())

    def get(self, path: str, htmx=False) -> Reply:
        return self.request("GET", path, htmx=htmx)

    def post(self, path: str, data: dict | None = None, htmx=True) -> Reply:
        return self.request("POST", path, data, htmx=htmx)


class EventStream:
    """A Server-Sent Events connection read by a background thread, as a browser's EventSource.

    Events arrive as dicts (``event``, ``id``, ``data``) in a queue; comments
    (heartbeats) are skipped. ``ended`` is set when the server closed the stream or
    the connection broke (a killed worker).
    """

    def __init__(self, visitor: Visitor, path: str, last_event_id: str | None = None):
        request = urllib.request.Request(visitor.server.url + path)
        visitor.jar.add_cookie_header(request)
        headers = {"Accept": "text/event-stream", **request.unredirected_hdrs}
        if last_event_id is not None:
            headers["Last-Event-ID"] = last_event_id
        self.connection = http.client.HTTPConnection(
            "127.0.0.1", visitor.server.port, timeout=REQUEST_SECONDS
        )
        self.connection.request("GET", path, headers=headers)
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self.events: queue.Queue = queue.Queue()
        self.ended = threading.Event()
        self.last_id: str | None = last_event_id
        if self.status == 200:
            threading.Thread(target=self._read, daemon=True).start()
        else:
            self.ended.set()

    def _read(self) -> None:
        event: dict = {}
        try:
            while True:
                raw = self.response.readline()
                if not raw:
                    break
                line = raw.decode().rstrip("\r\n")
                if not line:
                    if "data" in event or "event" in event:
                        self.events.put(event)
                    event = {}
                elif line.startswith(":"):
                    continue  # a heartbeat
                else:
                    field, _, value = line.partition(":")
                    value = value.removeprefix(" ")
                    if field == "data" and "data" in event:
                        value = event["data"] + "\n" + value  # EventSource joins data lines
                    event[field] = value
                    if field == "id":
                        self.last_id = event["id"]
        except (OSError, http.client.HTTPException, ValueError, AttributeError):
            pass  # the worker died under the connection, or we hung up
        finally:
            self.ended.set()

    def next(self, timeout: float = REQUEST_SECONDS) -> dict:
        """The next event; waits (a hang guard, not a speed check)."""
        try:
            return self.events.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no event within {timeout} s") from None

    def wait_for_version(self, version: int) -> dict:
        """Events up to the one of ``version`` (or newer): the table pushed as a ``view``
        (drawn for this viewer) or a ``changed`` notice."""
        while True:
            event = self.next()
            kind, number = event.get("event"), event.get("id", "")
            if kind in ("changed", "view") and number.isdigit() and int(number) >= version:
                return event

    def close(self) -> None:
        """Hang up as a closed tab does; the reader thread sees the end and stops."""
        with contextlib.suppress(OSError, AttributeError):
            self.connection.sock.shutdown(socket.SHUT_RDWR)
        self.ended.wait(REQUEST_SECONDS)
        self.connection.close()


def attribute(html: str, element_id: str, name: str) -> str:
    """An attribute of the element with ``id="element_id"`` (the first tag carrying that id)."""
    tag = re.search(rf'<[^>]*\bid="{re.escape(element_id)}"[^>]*>', html, re.S)
    assert tag, f"no element #{element_id} in:\n{html[:2000]}"
    value = re.search(rf'\b{name}="([^"]*)"', tag.group(0))
    assert value, f"#{element_id} has no {name}"
    return value.group(1)
