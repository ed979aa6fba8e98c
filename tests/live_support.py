"""Shared by the live-update tests (``games.play`` and ``rooms``): a real Redis with a
channel prefix per test, an SSE client through Django's ASGI handler, a running
Alpaka room and racing threads.

The fixtures (``live_redis``, ``alpaka_row``, ``seeded``, ``frozen``) are in
``tests/conftest.py``. Every test gets a channel prefix of its own, so nothing
of another test (or of another run on the same Redis) is ever received. The async parts run in
``asyncio.run`` inside ordinary tests; the database is used with real commits
(``transaction=True``) because the stream reads versions from other threads.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading

from django.core.asgi import get_asgi_application
from django.db import connection

from games.engines import alpaka
from games.play import definition as engines
from games.play import streams
from games.visitors import COOKIE_NAME
from rooms import lobby, playing, seating
from rooms.models import Room
from tests.conftest import LIVE_REDIS_URL
from tests.factories import visitor_cookie

REDIS_URL = LIVE_REDIS_URL
ENGINE = engines.get("alpaka")
OPTIONS = {"variant": "klassisch", "target": "40"}
WAIT = 20  # seconds before a test gives up waiting for an event (only a hang reaches it)


def running_room(*, bot: bool = False) -> Room:
    """Anna (host) and Ben – or a bot – at a running Alpaka table."""
    room = lobby.create_room(ENGINE, "visitor-anna", "Anna", OPTIONS)
    if bot:
        seating.add_bot(ENGINE, room.code, "visitor-anna", "token-1")
    else:
        seating.join(ENGINE, room.code, "visitor-ben", "Ben")
    lobby.start(ENGINE, room.code, "visitor-anna")
    return Room.objects.get(pk=room.pk)


def watch_code_of(code: str) -> str:
    """The code spectators watch the room by (rooms.watching)."""
    return Room.objects.values_list("watch_code", flat=True).get(code=code)


def play_one_move(code: str) -> int:
    """The player on turn plays a legal move; returns the new version."""
    room = Room.objects.get(code=code)
    seat = ENGINE.to_act(room.state)[0]
    visitor = room.seats.get(number=seat).visitor
    legal = alpaka.legal_actions(room.state, seat)
    action = next((a for a in legal if a["type"] in ("play", "draw")), legal[0])
    value = f"play:{action['card']}" if action["type"] == "play" else action["type"]
    result = playing.act(ENGINE, code, visitor, room.version, {"aktion": value})
    assert result.applied, result.message
    return result.room.version


class Stream:
    """A streaming GET through Django's ASGI handler, as uvicorn drives it."""

    def __init__(self, path: str, query: str = "", headers: dict | None = None):
        self.application = get_asgi_application()
        self.inbox: asyncio.Queue = asyncio.Queue()
        self.start: dict | None = None
        self.buffer = ""
        self.arrived = asyncio.Event()
        self.done = False
        raw = [(b"host", b"testserver")]
        raw += [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
        self.scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "root_path": "",
            "query_string": query.encode(),
            "headers": raw,
            "client": ("127.0.0.1", 50000),
            "server": ("testserver", 80),
        }

    async def __aenter__(self):
        self.task = asyncio.create_task(self.application(self.scope, self._receive, self._send))
        await self.inbox.put({"type": "http.request", "body": b"", "more_body": False})
        return self

    async def __aexit__(self, *exc):
        await self.disconnect()

    async def _receive(self):
        return await self.inbox.get()

    async def _send(self, message):
        if message["type"] == "http.response.start":
            self.start = message
        elif message["type"] == "http.response.body":
            self.buffer += message.get("body", b"").decode()
            if not message.get("more_body"):
                self.done = True
        self.arrived.set()

    def headers(self) -> dict:
        return {k.decode().lower(): v.decode() for k, v in self.start["headers"]}

    async def next_block(self) -> str:
        """The next SSE block (an event, a comment or the retry line)."""
        while "\n\n" not in self.buffer:
            if self.done:
                raise EOFError("the stream ended")
            self.arrived.clear()
            await asyncio.wait_for(self.arrived.wait(), WAIT)
        block, self.buffer = self.buffer.split("\n\n", 1)
        return block

    async def next_event(self) -> dict:
        """The next event as {"id", "event", "data"} (comments and retry skipped); the
        lines of a multi-line ``data`` are joined with newlines, as EventSource does."""
        while True:
            block = await self.next_block()
            fields: dict = {}
            data = []
            for line in block.splitlines():
                name, sep, value = line.partition(": ")
                if not sep and line.startswith("data:"):
                    name, value = "data", line[5:]
                elif not sep:
                    continue
                if name == "data":
                    data.append(value)
                else:
                    fields[name] = value
            if data:
                fields["data"] = "\n".join(data)
            if "event" in fields:
                return fields

    async def events_until(self, version: int) -> list[dict]:
        """The events up to the first that names ``version`` or a later one (its id)."""
        events = []
        while True:
            events.append(await self.next_event())
            if int(events[-1].get("id", 0)) >= version:
                return events

    async def disconnect(self):
        await self.inbox.put({"type": "http.disconnect"})
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(self.task, WAIT)


def visitor_headers(visitor: str) -> dict:
    """The request headers of a browser that is ``visitor`` (for ``Stream``)."""
    return {"Cookie": f"{COOKIE_NAME}={visitor_cookie(visitor)}"}


def hub() -> streams.Hub:
    return streams.Hub.current()


def race(call, times: int = 2) -> None:
    """``call`` in ``times`` threads at once, each on its own database connection."""
    barrier = threading.Barrier(times)
    errors: list = []

    def run():
        try:
            barrier.wait()
            call()
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(times)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
