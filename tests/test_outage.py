"""site_config/outage.py: without the database a German 503 („Kurze Wartung“) with
Retry-After, one log line per interval, no traceback; cached pages are still served.

The real outage (PostgreSQL refusing connections under a real app server) is in
tests/servers/test_outages.py; here the database driver is made to fail.
"""

from __future__ import annotations

import asyncio
import logging

import pytest
from django.db import OperationalError

from site_config import outage, page_cache
from tests.factories import make_article, make_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def fresh_outage(monkeypatch):
    monkeypatch.setattr(
        outage, "database", outage.OutageLog(outage.logger, "PostgreSQL (database)")
    )


@pytest.fixture
def database_gone(monkeypatch, fresh_outage):
    def refuse(*args, **kwargs):
        raise OperationalError('connection to server at "10.0.0.5", port 5432 failed')

    def go():
        monkeypatch.setattr("django.db.backends.utils.CursorWrapper.execute", refuse)

    return go


def test_dynamic_pages_say_kurze_wartung_with_retry_after(client, database_gone, caplog):
    database_gone()
    with caplog.at_level(logging.WARNING):
        responses = [client.get(url) for url in ("/spielegruppen/", "/spielegruppen/neu/") * 3]
    for response in responses:
        assert response.status_code == 503
        assert response["Retry-After"] == "30"
        assert response["Cache-Control"] == "no-store"
        html = response.content.decode()
        assert "Kurze Wartung" in html and '<html lang="de">' in html
        assert "data-error-message" in html  # htmx shows the message in place
        assert 'href="/datenschutz/"' in html
        assert "10.0.0.5" not in html
    lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(lines) == 1, lines
    assert lines[0].startswith("PostgreSQL (database) unavailable (OperationalError")
    assert not any(r.exc_info for r in caplog.records)


def test_htmx_requests_get_the_same_message(client, database_gone):
    database_gone()
    response = client.post("/spielegruppen/neu/", {"name": "x"}, headers={"HX-Request": "true"})
    assert response.status_code == 503
    assert "Ein Teil unserer Technik antwortet gerade nicht" in response.content.decode()


def test_cached_pages_are_still_served(client, database_gone):
    game = make_game("sternspiel", title="Sternspiel")
    make_article(game)
    url = game.get_absolute_url()
    client.get(url)
    database_gone()
    response = client.get(url)
    assert (response.status_code, response[page_cache.HIT_HEADER]) == (200, "hit")


def test_other_database_errors_stay_server_errors(client, monkeypatch):
    from django.db import ProgrammingError

    def broken(*args, **kwargs):
        raise ProgrammingError("relation does not exist")

    monkeypatch.setattr("django.db.backends.utils.CursorWrapper.execute", broken)
    client.raise_request_exception = False
    assert client.get("/spielegruppen/").status_code == 500


def test_a_stream_that_loses_the_database_ends_quietly(fresh_outage, caplog):
    async def stream():
        yield "retry: 1000\n\n"
        raise OperationalError("server closed the connection unexpectedly")

    async def read():
        return [chunk async for chunk in outage._quiet_end(stream())]

    with caplog.at_level(logging.WARNING):
        assert asyncio.run(read()) == ["retry: 1000\n\n"]
    assert [r.getMessage().split(" (Op")[0] for r in caplog.records] == [
        "PostgreSQL (database) unavailable"
    ]
