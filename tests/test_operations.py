"""Operations: `/healthz` (database and cache) and the JSON access log."""

from __future__ import annotations

import json
import re

import pytest
from django.db.utils import OperationalError
from django.test import Client

from site_config import access_log, health

pytestmark = pytest.mark.django_db


# --- /healthz ------------------------------------------------------------------------------


def test_healthz_reports_database_and_cache_ok(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Cache-Control"] == "no-store"
    body = json.loads(response.content)
    assert body["status"] == "ok"
    assert body["checks"]["database"]["ok"] is True
    assert body["checks"]["cache"]["ok"] is True


def test_healthz_sets_no_cookie_and_ignores_the_host_header():
    # A load balancer probes by IP with whatever Host it likes; no session, no CSRF cookie.
    client = Client(HTTP_HOST="10.0.0.7:8000")
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.cookies == {}
    assert "Set-Cookie" not in response
    assert "Vary" not in response or "Cookie" not in response["Vary"]


def test_healthz_is_not_redirected_to_https(settings, client):
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/healthz").status_code == 200
    assert client.get("/").status_code == 301  # everything else is


def test_healthz_answers_head_without_a_body(client):
    response = client.head("/healthz")
    assert response.status_code == 200
    assert response.content == b""


def test_healthz_refuses_other_methods(client):
    response = client.post("/healthz")
    assert response.status_code == 405
    assert response["Allow"] == "GET, HEAD"


def test_healthz_is_never_rate_limited(client):
    assert all(client.get("/healthz").status_code == 200 for _ in range(150))


def test_healthz_says_503_when_the_database_is_down(client, monkeypatch):
    def broken(*args, **kwargs):
        raise OperationalError("connection refused by password=geheim")

    monkeypatch.setattr("django.db.backends.utils.CursorWrapper.execute", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response["Cache-Control"] == "no-store"
    body = json.loads(response.content)
    assert body["status"] == "error"
    assert body["checks"]["database"] == {
        "ok": False,
        "error": "OperationalError",
        "ms": body["checks"]["database"]["ms"],
    }
    assert body["checks"]["cache"]["ok"] is True
    assert "geheim" not in response.content.decode()  # no connection details leak


def test_healthz_says_degraded_when_the_cache_cannot_be_written(client, monkeypatch):
    # The site still serves (uncached): 200, so a balancer keeps the server; the body says it.
    def broken(*args, **kwargs):
        raise ConnectionError("Redis is gone")

    monkeypatch.setattr(health.cache, "set", broken)
    response = client.get("/healthz")
    assert response.status_code == 200
    body = json.loads(response.content)
    assert body["status"] == "degraded"
    assert body["checks"]["cache"]["ok"] is False
    assert body["checks"]["cache"]["error"] == "ConnectionError"
    assert body["checks"]["database"]["ok"] is True


def test_healthz_says_degraded_when_the_cache_loses_what_was_written(client, monkeypatch):
    # A cache that accepts writes but answers every read with a miss (e.g. a full, evicting one).
    monkeypatch.setattr(health.cache, "get", lambda *args, **kwargs: None)
    response = client.get("/healthz")
    assert response.status_code == 200
    body = json.loads(response.content)
    assert body["status"] == "degraded"
    assert body["checks"]["cache"]["error"] == "RuntimeError"


def test_healthz_leaves_no_key_in_the_cache(client, monkeypatch):
    from django.core.cache import cache

    written = []
    original_set = cache.set

    def recording_set(key, *args, **kwargs):
        written.append(key)
        return original_set(key, *args, **kwargs)

    monkeypatch.setattr(health.cache, "set", recording_set)
    assert client.get("/healthz").status_code == 200
    (key,) = written
    assert cache.get(key) is None


# --- Access log ------------------------------------------------------------------------------


@pytest.fixture
def log_lines(settings, capsys):
    """Switches the access log on; returns a function giving the JSON lines written so far."""
    settings.ACCESS_LOG = True

    def read():
        captured = capsys.readouterr()
        return [json.loads(line) for line in captured.out.splitlines() if line.startswith("{")]

    return read


def test_a_request_writes_one_parsable_json_line(client, log_lines):
    response = client.get("/robots.txt?utm_source=secret-campaign")
    lines = log_lines()
    assert len(lines) == 1
    line = lines[0]
    assert set(line) == {
        "time",
        "method",
        "path",
        "status",
        "duration_ms",
        "bytes",
        "request_id",
        "view",
        "client",
    }
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", line["time"])
    assert line["method"] == "GET"
    assert line["path"] == "/robots.txt"  # the query string is never logged
    assert line["status"] == 200
    assert line["bytes"] == len(response.content)
    assert line["duration_ms"] >= 0
    assert line["view"] == "robots"
    assert line["request_id"] == response["X-Request-ID"]


def test_the_client_address_is_only_a_pseudonym(client, log_lines, settings):
    client.get("/robots.txt", REMOTE_ADDR="203.0.113.9")
    client.get("/robots.txt", REMOTE_ADDR="203.0.113.9")
    client.get("/robots.txt", REMOTE_ADDR="198.51.100.4")
    first, again, other = (line["client"] for line in log_lines())
    assert first == again != other
    assert re.fullmatch(r"[0-9a-f]{16}", first)
    settings.ACCESS_LOG_CLIENT = "off"
    client.get("/robots.txt", REMOTE_ADDR="203.0.113.9")
    (line,) = log_lines()
    assert line["client"] is None


def test_no_address_in_clear_anywhere_in_the_line(client, log_lines):
    client.get("/robots.txt", REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR="192.0.2.55")
    raw = json.dumps(log_lines())
    assert "203.0.113.9" not in raw and "192.0.2.55" not in raw


def test_a_sane_proxy_request_id_is_kept_and_a_forged_one_replaced(client, log_lines):
    nginx_id = "0123456789abcdef0123456789abcdef"
    assert client.get("/robots.txt", HTTP_X_REQUEST_ID=nginx_id)["X-Request-ID"] == nginx_id
    forged = client.get("/robots.txt", HTTP_X_REQUEST_ID='x"\n{"status":200}')
    assert re.fullmatch(r"[0-9a-f]{32}", forged["X-Request-ID"])
    first, second = log_lines()
    assert first["request_id"] == nginx_id
    assert second["request_id"] == forged["X-Request-ID"]


def test_room_invite_codes_never_reach_the_log(log_lines, caplog):
    from tests.factories import make_game

    make_game("alpaka", title="Alpaka", demo_engine="alpaka", players_max=6)
    host = Client()
    response = host.post(
        "/spiele/alpaka/raum/neu/", {"name": "Anna", "variant": "klassisch", "target": "40"}
    )
    code = re.search(r"/raum/([\w-]+)/$", response["Location"]).group(1)
    host.get(f"/spiele/alpaka/raum/{code}/")
    host.get(f"/spiele/alpaka/raum/{code}/status/?v=0")
    host.get(f"/spiele/alpaka/raum/{code}/gibt-es-nicht/")  # no URL pattern matches
    lines = log_lines()
    assert code not in json.dumps(lines)
    assert code not in caplog.text  # nor Django's own "Not Found" warning
    assert [line["path"] for line in lines] == [
        "/spiele/alpaka/raum/neu/",
        "/spiele/alpaka/raum/<code>/",
        "/spiele/alpaka/raum/<code>/status/",
        "/spiele/alpaka/raum/<?>/gibt-es-nicht/",
    ]
    assert [line["status"] for line in lines][-1] == 404


def test_feedback_status_tokens_are_masked():
    from django.urls import resolve

    class Request:
        path = "/meldung/Abcdefgh12345678xyz/"
        resolver_match = resolve(path)

    assert access_log.logged_path(Request()) == "/meldung/<token>/"


def test_successful_health_probes_stay_out_of_the_log_failed_ones_do_not(
    client, log_lines, monkeypatch
):
    client.get("/healthz")
    assert log_lines() == []
    monkeypatch.setattr(health.cache, "get", lambda *args, **kwargs: None)
    client.get("/healthz")  # degraded: 200, but logged
    (line,) = log_lines()
    assert (line["path"], line["status"]) == ("/healthz", 200)
    monkeypatch.setitem(health.CHECKS, "database", lambda: 1 / 0)
    client.get("/healthz")
    (line,) = log_lines()
    assert (line["path"], line["status"]) == ("/healthz", 503)


def test_access_log_can_be_switched_off(client, log_lines, settings):
    settings.ACCESS_LOG = False
    response = client.get("/robots.txt")
    assert log_lines() == []
    assert "X-Request-ID" in response  # the id still travels for the proxy's log


def test_path_masking_leaves_ordinary_slugs_alone():
    class Request:
        path = "/spiele/kaetzchen-angeln/demo/"
        resolver_match = None

    assert access_log.logged_path(Request()) == "/spiele/kaetzchen-angeln/demo/"


def test_the_client_pseudonym_changes_every_day(rf):
    request = rf.get("/", REMOTE_ADDR="203.0.113.9")
    monday = access_log.client_pseudonym(request, "2026-11-30")
    assert monday == access_log.client_pseudonym(request, "2026-11-30")
    assert monday != access_log.client_pseudonym(request, "2026-12-01")
