"""`/healthz`: is this app server able to serve? Checks the database and the cache.

200 "ok" when both work; 200 "degraded" when only the cache (Redis) fails – the site
still serves, uncached; 503 "error" when the database fails.

Answered by a middleware at the very top of the stack, before host validation,
the HTTPS redirect, sessions and CSRF: a load balancer or container probe asks
by IP over plain HTTP, must not get a redirect or a cookie, and must never be
rate limited. The body is JSON.
"""

from __future__ import annotations

import json
import secrets
import time

from django.core.cache import cache, caches
from django.db import connection
from django.http import HttpResponse

PATH = "/healthz"
# Long enough for a slow write+read, short enough that a crashed check leaves no litter.
PROBE_TIMEOUT = 10


def check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        if cursor.fetchone() != (1,):
            raise RuntimeError("SELECT 1 returned something else")


def check_cache() -> None:
    """A write and a read of a short-lived key (a dead Redis fails here, not only on reads).
    On Redis the test goes past the stand-in that keeps the site serving (shared_cache)."""
    backend = caches["default"]
    if hasattr(backend, "probe"):
        backend.probe()
        return
    token = secrets.token_hex(8)
    key = f"healthz:{token}"
    cache.set(key, token, timeout=PROBE_TIMEOUT)
    try:
        if cache.get(key) != token:
            raise RuntimeError("the value written was not read back")
    finally:
        cache.delete(key)


CHECKS = {"database": check_database, "cache": check_cache}


# Without these the server cannot serve (503: take it out of the pool); without the
# others it serves degraded (200, "degraded": every server shares the same Redis, and a
# balancer that dropped them all would turn a slower site into no site).
REQUIRED = {"database"}


def run_checks() -> tuple[str, dict]:
    """("ok" | "degraded" | "error", the result of each check)."""
    results = {}
    for name, check in CHECKS.items():
        started = time.perf_counter()
        try:
            check()
        except Exception as error:  # noqa: BLE001 – any failure means "not healthy"
            # Only the class name: the probe is public, connection strings are not.
            results[name] = {"ok": False, "error": type(error).__name__}
        else:
            results[name] = {"ok": True}
        results[name]["ms"] = round((time.perf_counter() - started) * 1000, 1)
    failed = {name for name, result in results.items() if not result["ok"]}
    status = "error" if failed & REQUIRED else "degraded" if failed else "ok"
    return status, results


def health_response(method: str) -> HttpResponse:
    if method not in ("GET", "HEAD"):
        response = HttpResponse(status=405, headers={"Allow": "GET, HEAD"})
    else:
        status, checks = run_checks()
        body = {"status": status, "checks": checks}
        response = HttpResponse(
            json.dumps(body) + "\n" if method == "GET" else b"",
            status=503 if status == "error" else 200,
            content_type="application/json",
        )
        response.degraded = status != "ok"  # the access log keeps such probes
    response["Cache-Control"] = "no-store"
    return response


class HealthCheckMiddleware:
    """Answers `/healthz` itself; every other request passes through untouched."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path_info == PATH:
            return health_response(request.method)
        return self.get_response(request)
