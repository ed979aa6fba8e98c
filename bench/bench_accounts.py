"""Can a stranger tell by the time which addresses have accounts? Sign-up, login and reset
against a real server, registered address vs new one.

    .venv/bin/python bench/bench_accounts.py [--rounds 15]

Starts gunicorn itself (production settings and password hasher, ASGI workers as in
production, 127.0.0.1 on a free port) against a fresh PostgreSQL database (dropped
afterwards), Redis (own key prefix) and a mail sink of its own (a tiny SMTP server in
this process that accepts every mail, so sending costs what a real one costs locally).
Each request comes from its own forwarded address, so neither the mail limits nor the
login lockout answer instead. The cases take turns, round by round; printed are the
median and the lower quartile per case and the difference to the first case of each
group.

Goal (issue 26): the same work for every address; the times differ by less than 20 %.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import itertools
import os
import secrets
import shutil
import socketserver
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from common import free_port, start_gunicorn, stop_gunicorn  # noqa: E402

PYTHON = sys.executable
POSTGRES = "postgres://postgres@127.0.0.1:5432/"
REDIS = "redis://127.0.0.1:6379/0"
PASSWORD = "Spielabend-mit-Lama-42"
WRONG = "Falsches-Passwort-123"
_addresses = itertools.count(1)


class SmtpSink(socketserver.StreamRequestHandler):
    """Just enough SMTP to take a mail and forget it."""

    def handle(self):
        self.wfile.write(b"220 sink\r\n")
        in_data = False
        for raw in self.rfile:
            line = raw.rstrip(b"\r\n")
            if in_data:
                if line == b".":
                    in_data = False
                    self.wfile.write(b"250 ok\r\n")
                continue
            verb = line[:4].upper()
            if verb == b"DATA":
                in_data = True
                self.wfile.write(b"354 go on\r\n")
            elif verb == b"QUIT":
                self.wfile.write(b"221 bye\r\n")
                return
            elif verb == b"EHLO":
                self.wfile.write(b"250 sink\r\n")
            else:
                self.wfile.write(b"250 ok\r\n")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def forwarded() -> str:
    number = next(_addresses)
    return f"198.18.{number // 250}.{number % 250 + 1}"


def post_form(base: str, path: str, data: dict) -> tuple[int, float]:
    """GET the form (CSRF cookie) then POST it, as a browser behind the TLS proxy would;
    returns the POST's status and time."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect())
    # Behind the proxy: HTTPS as the proxy says, the client's address in X-Forwarded-For.
    headers = {"X-Forwarded-For": forwarded(), "X-Forwarded-Proto": "https"}
    with opener.open(urllib.request.Request(base + path, headers=headers), timeout=60) as reply:
        reply.read()
    token = next(c.value for c in jar if c.name == "csrftoken")
    body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": token}).encode()
    https = base.replace("http://", "https://")
    headers = {**headers, "Referer": https + path, "Cookie": f"csrftoken={token}"}
    request = urllib.request.Request(base + path, data=body, headers=headers)
    plain = urllib.request.build_opener(NoRedirect())  # the secure cookie goes by hand
    started = time.perf_counter()
    try:
        with plain.open(request, timeout=60) as reply:
            reply.read()
            status = reply.status
    except urllib.error.HTTPError as error:
        status = error.code
    return status, time.perf_counter() - started


def measure(base: str, cases: dict, rounds: int) -> dict[str, list[float]]:
    samples = {name: [] for name in cases}
    names = list(cases)
    for number in range(rounds):
        shift = number % len(names)
        for name in names[shift:] + names[:shift]:
            path, data, expected = cases[name]()
            status, seconds = post_form(base, path, data)
            assert status == expected, (name, status)
            samples[name].append(seconds)
    return samples


def report(title: str, samples: dict[str, list[float]]) -> None:
    first = next(iter(samples))
    base = statistics.median(samples[first])
    print(f"\n{title}")
    print(f"{'case':32} {'median':>9} {'p25':>9} {'vs first':>9}")
    for name, values in samples.items():
        median = statistics.median(values)
        low = statistics.quantiles(values, n=4)[0]
        difference = (median - base) / base * 100
        print(f"{name:32} {median * 1000:7.0f}ms {low * 1000:7.0f}ms {difference:+8.1f}%")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()

    suffix = secrets.token_hex(4)
    database = f"bench_accounts_{suffix}"
    static_root = tempfile.mkdtemp(prefix="bench-accounts-static-")
    sink = socketserver.ThreadingTCPServer(("127.0.0.1", 0), SmtpSink)
    sink.daemon_threads = True
    threading.Thread(target=sink.serve_forever, daemon=True).start()
    port = free_port()
    env = {
        "PYTHONPATH": f"{ROOT}:{ROOT / 'bench'}",
        "BENCH_STATIC_ROOT": static_root,
        "DATABASE_URL": POSTGRES + database,
        "REDIS_URL": REDIS,
        "CACHE_KEY_PREFIX": f"bench-accounts-{suffix}",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(sink.server_address[1]),
        "ACCESS_LOG": "off",
    }
    manage_env = {
        **os.environ,
        **env,
        "DJANGO_SETTINGS_MODULE": "pages_settings",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(60),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
    }
    import psycopg

    with psycopg.connect(POSTGRES + "postgres", autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{database}"')
    server = None
    try:
        quiet = {"stdout": subprocess.DEVNULL, "check": True, "cwd": ROOT}
        subprocess.run([PYTHON, "manage.py", "migrate", "--noinput"], env=manage_env, **quiet)
        subprocess.run([PYTHON, "manage.py", "collectstatic", "--noinput"], env=manage_env, **quiet)
        create = (
            "from django.contrib.auth import get_user_model as g;U=g();"
            f"U.objects.create_user('bestaetigt@example.org','bestaetigt@example.org','{PASSWORD}');"
            f"U.objects.create_user('wartet@example.org','wartet@example.org','{PASSWORD}',"
            "is_active=False)"
        )
        subprocess.run([PYTHON, "manage.py", "shell", "-c", create], env=manage_env, **quiet)
        server = start_gunicorn(
            "site_config.asgi:application",
            port,
            {**env, "DJANGO_SECRET_KEY": manage_env["DJANGO_SECRET_KEY"]},
            2,
            str(Path(static_root, "server.log")),
            "--env",
            "DJANGO_SETTINGS_MODULE=pages_settings",
        )
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(base + "/healthz", timeout=5):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    print(Path(static_root, "server.log").read_text()[-3000:])
                    return 1
                time.sleep(0.2)

        print(
            "gunicorn with 2 uvicorn workers, production settings and password hasher, "
            f"PostgreSQL + Redis, mail to a local sink; {args.rounds} rounds, cases taking turns"
        )

        def signup(email):
            data = {"email": email, "password1": PASSWORD, "password2": PASSWORD}
            return "/konto/registrieren/", data, 302

        def login(email, password):
            return "/konto/anmelden/", {"username": email, "password": password}, 200

        def reset(email):
            return "/konto/passwort-vergessen/", {"email": email}, 302

        report(
            "Sign-up",
            measure(
                base,
                {
                    "new address": lambda: signup(f"neu-{secrets.token_hex(6)}@example.org"),
                    "registered address": lambda: signup("bestaetigt@example.org"),
                    "unconfirmed sign-up": lambda: signup("wartet@example.org"),
                },
                args.rounds,
            ),
        )
        report(
            "Login that fails",
            measure(
                base,
                {
                    "unknown address": lambda: login("niemand@example.org", WRONG),
                    "registered, wrong password": lambda: login("bestaetigt@example.org", WRONG),
                    "unconfirmed, wrong password": lambda: login("wartet@example.org", WRONG),
                    "unconfirmed, right password": lambda: login("wartet@example.org", PASSWORD),
                },
                args.rounds,
            ),
        )
        report(
            "Password reset",
            measure(
                base,
                {
                    "unknown address": lambda: reset("niemand@example.org"),
                    "registered address": lambda: reset("bestaetigt@example.org"),
                    "unconfirmed sign-up": lambda: reset("wartet@example.org"),
                },
                args.rounds,
            ),
        )
    finally:
        if server is not None:
            stop_gunicorn(server)
        sink.shutdown()
        shutil.rmtree(static_root, ignore_errors=True)
        with psycopg.connect(POSTGRES + "postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        import redis

        client = redis.Redis.from_url(REDIS)
        for key in client.scan_iter(match=f"*bench-accounts-{suffix}*", count=500):
            client.delete(key)
    return 0


if __name__ == "__main__":
    sys.exit(main())
