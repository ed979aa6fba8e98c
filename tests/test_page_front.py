"""Cached pages answered in front of Django's handler (site_config/front.py, used by
site_config/wsgi.py and site_config/asgi.py): the same status, headers, body and access
log line as the Django path; cookies that matter (and so staff) go through Django; a
content change is never answered from an old copy."""

from __future__ import annotations

import json

import pytest
from django.test import Client, RequestFactory

from site_config import front, page_cache
from site_config import shared_cache as shared_cache_module
from tests.asgi_support import asgi_getter
from tests.factories import make_article, make_game

pytestmark = pytest.mark.django_db

BROWSER = "gzip, deflate, br, zstd"
# Per response by nature: the request id (and the server's Date).
PER_REQUEST = {"x-request-id", "date"}


@pytest.fixture(autouse=True)
def shared_cache(monkeypatch, settings):
    """The test cache behaves like Redis: a process trusts the generation for a second."""
    monkeypatch.setattr(shared_cache_module, "process_local", lambda: False)
    settings.PAGE_CACHE_GENERATION_SECONDS = 60
    page_cache._local.clear()
    page_cache._known.remember(None)
    page_cache._known.read_at = 0.0
    front.forget()
    yield
    page_cache._local.clear()
    front.forget()


@pytest.fixture
def game():
    game = make_game("vorne", title="Vorne")
    make_article(game)
    return game


@pytest.fixture
def log_lines(settings, capsys):
    settings.ACCESS_LOG = True

    def read():
        out = capsys.readouterr().out
        return [json.loads(line) for line in out.splitlines() if line.startswith("{")]

    return read


@pytest.fixture
def wsgi(monkeypatch):
    """site_config.wsgi.application, counting the requests that reached Django.

    As Django's test client does, requests here keep the test's database connection:
    the handler would close it at the start and end of a request (inside the test's
    transaction, PostgreSQL's pooled connection cannot be opened again)."""
    from django.core import signals
    from django.db import close_old_connections

    from site_config import wsgi as module

    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield from _counted_wsgi(monkeypatch, module)
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


def _counted_wsgi(monkeypatch, module):
    calls = []
    real = module.django_application

    def counted(environ, start_response):
        calls.append(environ["PATH_INFO"])
        return real(environ, start_response)

    monkeypatch.setattr(module, "django_application", counted)

    def get(url, **headers):
        environ = RequestFactory().get(url, headers=headers).environ
        started = {}

        def start_response(status, response_headers, exc_info=None):
            started["status"] = status
            started["headers"] = response_headers

        before = len(calls)
        response = module.application(environ, start_response)
        body = b"".join(response)
        response.close()  # as the server does: writes the access log line
        headers = {name.lower(): value for name, value in started["headers"]}
        return started["status"], headers, body, len(calls) > before

    yield get


def _comparable(headers: dict) -> dict:
    return {name: value for name, value in headers.items() if name not in PER_REQUEST}


@pytest.mark.parametrize("encoding", ["", "gzip"])
def test_a_hit_in_front_sends_what_the_django_path_sends(game, wsgi, log_lines, encoding):
    url = game.get_absolute_url()
    headers = {"Accept-Encoding": encoding} if encoding else {}
    wsgi(url, **headers)  # miss: rendered and stored (and front learns the headers)
    front.forget()  # so that the next hit goes through Django
    status, django_headers, django_body, through_django = wsgi(url, **headers)
    assert through_django and django_headers["x-page-cache"] == "hit"
    status_front, front_headers, front_body, again_django = wsgi(url, **headers)
    assert not again_django  # answered in front of Django's handler
    assert status_front == status == "200 OK"
    assert _comparable(front_headers) == _comparable(django_headers)
    assert front_headers["x-request-id"] != django_headers["x-request-id"]
    assert front_body == django_body
    assert front_headers.get("content-encoding", "") == encoding
    # The security headers the outer middlewares add are there.
    for name in ("x-content-type-options", "referrer-policy", "cross-origin-opener-policy"):
        assert name in front_headers
    # The same access log line, but for time, duration and request id.
    lines = log_lines()[-2:]
    assert [line["request_id"] for line in lines] == [
        django_headers["x-request-id"],
        front_headers["x-request-id"],
    ]
    varying = {"time", "duration_ms", "request_id"}
    assert [{k: v for k, v in line.items() if k not in varying} for line in lines] == [
        {
            "method": "GET",
            "path": url,
            "status": 200,
            "bytes": len(front_body),
            "view": "games:detail",
            "client": lines[0]["client"],
        }
    ] * 2


def test_cookies_that_matter_go_through_django(game, wsgi):
    url = game.get_absolute_url()
    for _ in range(3):
        wsgi(url)
    assert not wsgi(url)[3]  # a plain reader: in front
    # The visitor and CSRF cookies do not change the page.
    assert not wsgi(url, Cookie="besucher=x; csrftoken=" + "y" * 32)[3]
    # A session (a signed-in reader, staff with drafts) or pending messages do.
    for cookie in ("sessionid=abc", "messages=abc"):
        _status, headers, _body, through_django = wsgi(url, Cookie=cookie)
        assert through_django, cookie
        assert headers.get("x-page-cache") != "hit" or cookie == "sessionid=abc"


def test_staff_never_get_a_copy_in_front(game, wsgi, editor_client):
    url = game.get_absolute_url()
    for _ in range(3):
        wsgi(url)
    session = editor_client.cookies["sessionid"].value
    _status, headers, body, through_django = wsgi(url, Cookie=f"sessionid={session}")
    assert through_django
    assert headers["cache-control"] == page_cache.STAFF_CACHE_CONTROL
    assert "x-page-cache" not in headers


def test_only_gets_of_cached_views_are_looked_at(game, wsgi):
    assert front.answer(RequestFactory().head(game.get_absolute_url()).environ) == (None, None)
    assert front.answer(RequestFactory().get("/konto/anmelden/").environ) == (None, None)
    assert front.answer(RequestFactory().get("/static/css/site.css").environ) == (None, None)
    _response, key = front.answer(RequestFactory().get(game.get_absolute_url()).environ)
    assert key  # not learned yet: Django answers and teaches front the headers


def test_a_content_change_is_never_answered_from_the_old_copy(game, wsgi):
    url = game.get_absolute_url()
    for _ in range(3):
        wsgi(url)
    assert not wsgi(url)[3]
    game.title = "Vorne neu"
    game.save()  # bumps the generation (site_config.page_cache_signals)
    _status, headers, body, through_django = wsgi(url)
    assert through_django and headers["x-page-cache"] == "miss"
    assert "Vorne neu" in body.decode()
    _status, headers, body, through_django = wsgi(url)  # the new copy, in front again
    assert not through_django and "Vorne neu" in body.decode()


def test_a_stale_generation_goes_through_django(game, wsgi, settings):
    url = game.get_absolute_url()
    for _ in range(3):
        wsgi(url)
    page_cache._known.read_at -= 120  # not read for two minutes: ask the shared cache
    assert wsgi(url)[3]
    assert not wsgi(url)[3]


def test_a_miss_teaches_front_and_the_next_request_is_answered_there(game, wsgi):
    url = game.get_absolute_url()
    _status, headers, _body, through_django = wsgi(url)
    assert through_django and headers["x-page-cache"] == "miss"
    assert not wsgi(url)[3]
    # Another encoding is compressed once, by Django; then it is answered in front too.
    assert wsgi(url, **{"Accept-Encoding": "gzip"})[3]
    assert not wsgi(url, **{"Accept-Encoding": "gzip"})[3]


def test_the_asgi_application_answers_hits_on_the_event_loop(game, monkeypatch):
    url = game.get_absolute_url()
    Client().get(url, headers={"Accept-Encoding": "gzip"})  # stored (miss)
    asgi_get = asgi_getter(monkeypatch)

    def get():
        return asgi_get(url, headers=[(b"accept-encoding", b"gzip")])

    status, django_headers, django_body, through_django = get()
    assert through_django and django_headers["x-page-cache"] == "hit"
    status_front, front_headers, front_body, again = get()
    assert not again
    assert status_front == status == 200
    assert _comparable(front_headers) == _comparable(django_headers)
    assert front_body == django_body and front_headers["content-encoding"] == "gzip"
