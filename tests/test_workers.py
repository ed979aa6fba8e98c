"""site_config/workers.py: the shipped uvicorn worker wakes once a second, not ten times."""

from __future__ import annotations

import asyncio

from uvicorn.config import Config

from site_config import workers


def _run_main_loop(monkeypatch, ticks: int, **config) -> tuple[list[float], list[list]]:
    server = workers.CalmServer(Config(app=None, **config))
    sleeps: list[float] = []
    headers: list[list] = []

    async def sleep(seconds):
        sleeps.append(seconds)
        headers.append(list(server.server_state.default_headers))
        if len(sleeps) == ticks:
            server.should_exit = True

    monkeypatch.setattr(workers.asyncio, "sleep", sleep)
    asyncio.run(server.main_loop())
    return sleeps, headers


def test_an_idle_server_wakes_once_a_second(monkeypatch):
    sleeps, _headers = _run_main_loop(monkeypatch, ticks=5)
    assert sleeps == [workers.TICK_SECONDS] * 5
    assert workers.TICK_SECONDS == 1.0


def test_every_wake_refreshes_the_date_header_and_the_heartbeat(monkeypatch):
    beats = []

    async def notify():
        beats.append(True)

    # gunicorn's timeout is 30 s; a notice whenever it is due, here at every wake.
    _sleeps, headers = _run_main_loop(
        monkeypatch, ticks=3, callback_notify=notify, timeout_notify=0
    )
    assert all(any(name == b"date" for name, _value in sent) for sent in headers)
    assert len(beats) == 4  # the first check before sleeping, then one per wake


def test_a_server_told_to_stop_leaves_at_the_next_wake(monkeypatch):
    server = workers.CalmServer(Config(app=None))
    server.should_exit = True
    monkeypatch.setattr(workers.asyncio, "sleep", None)  # never reached
    asyncio.run(server.main_loop())
