"""site_config/workers.py: the shipped uvicorn worker wakes once a second, not ten times,
and still stops at once when told to."""

from __future__ import annotations

import asyncio
import signal
import time

from uvicorn.config import Config

from site_config import workers


def _ticks(monkeypatch, count: int, **config) -> tuple[workers.CalmServer, list[float]]:
    """Run the server's main loop (ticks shortened to 20 ms) until ``count`` ticks; returns
    the moments of the ticks."""
    monkeypatch.setattr(workers, "TICK_SECONDS", 0.02)
    server = workers.CalmServer(Config(app=None, **config))
    moments: list[float] = []
    tick = server.on_tick

    async def counted(counter):
        moments.append(time.monotonic())
        if len(moments) == count:
            server.should_exit = True
        return await tick(counter)

    monkeypatch.setattr(server, "on_tick", counted)
    asyncio.run(server.main_loop())
    return server, moments


def test_an_idle_server_wakes_once_per_tick_of_a_second(monkeypatch):
    assert workers.TICK_SECONDS == 1.0
    _server, moments = _ticks(monkeypatch, count=6)
    gaps = [later - earlier for earlier, later in zip(moments, moments[1:], strict=False)]
    # Every wake is one of ours: none in between (uvicorn's own loop: every 0.1 s).
    assert len(gaps) == 5 and all(0.018 <= gap < 0.1 for gap in gaps), gaps


def test_every_wake_refreshes_the_date_header_and_the_heartbeat(monkeypatch):
    beats = []

    async def notify():
        beats.append(True)

    # gunicorn's timeout is 30 s; a notice whenever it is due, here at every wake.
    server, _moments = _ticks(monkeypatch, count=3, callback_notify=notify, timeout_notify=0)
    assert any(name == b"date" for name, _value in server.server_state.default_headers)
    assert len(beats) == 3


def test_a_server_told_to_stop_leaves_at_once_not_at_its_next_tick():
    async def scenario():
        server = workers.CalmServer(Config(app=None))
        running = asyncio.get_running_loop().create_task(server.main_loop())
        await asyncio.sleep(0.05)  # asleep until its next tick, a second away
        told = time.monotonic()
        server.handle_exit(signal.SIGTERM, None)  # as the signal handler calls it
        await asyncio.wait_for(running, 5)
        return time.monotonic() - told

    assert asyncio.run(scenario()) < 0.5
