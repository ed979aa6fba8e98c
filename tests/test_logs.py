"""site_config/logs.py: outages write one short line per interval, real errors keep their traceback."""

from __future__ import annotations

import logging

import pytest
import redis
from django.db import OperationalError

from site_config import logs


@pytest.fixture(autouse=True)
def _fresh_throttle():
    logs._throttle.clear()
    yield
    logs._throttle.clear()


def _raise(error):
    try:
        raise error
    except type(error):
        import sys

        return sys.exc_info()


def record(name, msg, *args, exc=None):
    return logging.LogRecord(name, logging.WARNING, __file__, 1, msg, args, exc and _raise(exc))


def test_an_operational_error_loses_its_traceback_and_repeats_once_per_interval(settings):
    settings.OUTAGE_LOG_SECONDS = 60
    quiet = logs.QuietOutages(always=["games.play.streams"])
    first = record(
        "rooms.deadline_loop", "deadline loop: a round failed", exc=OperationalError("x")
    )
    assert quiet.filter(first)
    assert first.exc_info is None
    assert first.getMessage() == "deadline loop: a round failed (OperationalError: x)"
    again = record(
        "rooms.deadline_loop", "deadline loop: a round failed", exc=OperationalError("x")
    )
    assert not quiet.filter(again)


def test_a_line_after_the_interval_says_how_many_were_left_out(settings, monkeypatch):
    settings.OUTAGE_LOG_SECONDS = 60
    now = [1000.0]
    monkeypatch.setattr(logs.time, "monotonic", lambda: now[0])
    quiet = logs.QuietOutages(always=["games.play.streams"])
    lines = []
    for _ in range(5):
        item = record(
            "games.play.streams",
            "live: could not publish on %s",
            "room:x",
            exc=redis.ConnectionError("refused"),
        )
        if quiet.filter(item):
            lines.append(item.getMessage())
        now[0] += 20
    assert lines == [
        "live: could not publish on room:x (ConnectionError: refused)",
        "live: could not publish on room:x (ConnectionError: refused) (+2 similar lines left out)",
    ]


def test_a_programming_error_keeps_its_traceback_every_time():
    quiet = logs.QuietOutages(always=["games.play.streams"])
    for _ in range(3):
        item = record("rooms.deadline_loop", "deadline loop: a round failed", exc=KeyError("x"))
        assert quiet.filter(item)
        assert item.exc_info is not None


def test_outage_log_warns_once_per_interval_and_says_when_the_service_is_back(
    settings, monkeypatch, caplog
):
    settings.OUTAGE_LOG_SECONDS = 60
    now = [0.0]
    monkeypatch.setattr(logs.time, "monotonic", lambda: now[0])
    state = logs.OutageLog(logging.getLogger("kartenregeln.test-outage"), "Redis")
    with caplog.at_level(logging.WARNING, logger="kartenregeln.test-outage"):
        for _ in range(13):  # one failure every 10 s for two minutes
            state.down(redis.ConnectionError("Connection refused"), "pages are served uncached")
            now[0] += 10
        state.up()
        state.up()
    messages = [r.getMessage() for r in caplog.records]
    assert messages == [
        "Redis unavailable (ConnectionError: Connection refused); pages are served uncached",
        "Redis still unavailable after 60 s (ConnectionError: Connection refused; 5 more "
        "failures); pages are served uncached",
        "Redis still unavailable after 120 s (ConnectionError: Connection refused; 5 more "
        "failures); pages are served uncached",
        "Redis available again after 130 s",
    ]
    assert not state.is_down
