"""Live updates with a real Redis: notices, the SSE view, resume, and the deadline loop.

Every test gets a channel prefix of its own, so nothing of another test (or of
another run on the same Redis) is ever received. The async parts run in
``asyncio.run`` inside ordinary tests; the database is used with real commits
(``transaction=True``) because the stream reads versions from other threads.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import threading
from datetime import timedelta

import pytest
import redis
from asgiref.sync import sync_to_async
from django.core.asgi import get_asgi_application
from django.db import connection, transaction
from django.test import AsyncClient

from games import clock as game_clock
from games.engines import alpaka
from games.play import definition as engines
from rooms import deadline_loop, live, scheduler, services
from rooms.models import Room

pytestmark = pytest.mark.django_db(transaction=True)

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
ENGINE = engines.get("alpaka")
OPTIONS = {"variant": "klassisch", "target": "40"}
WAIT = 20  # seconds before a test gives up waiting for an event (only a hang reaches it)


@pytest.fixture
def live_redis(settings):
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        if os.environ.get("CI"):
            pytest.fail(f"Redis is not reachable at {REDIS_URL}: {error}")
        pytest.skip(f"Redis is not reachable at {REDIS_URL}: {error}")
    settings.LIVE_REDIS_URL = REDIS_URL
    settings.LIVE_CHANNEL_PREFIX = f"test-live-{secrets.token_hex(6)}"
    settings.LIVE_DEADLINE_LOOP = False
    settings.LIVE_HEARTBEAT_SECONDS = 15
    return settings


@pytest.fixture
def alpaka_row(db):
    from tests.factories import make_game

    return make_game("alpaka", title="Alpaka", demo_engine="alpaka", players_max=6)


def _room(seed_value: int = 4242, *, bot: bool = False) -> Room:
    """Anna (host) and Ben – or a bot – at a running Alpaka table."""
    room = services.create_room(ENGINE, "visitor-anna", "Anna", OPTIONS)
    if bot:
        services.add_bot(ENGINE, room.code, "visitor-anna", "token-1")
    else:
        services.join(ENGINE, room.code, "visitor-ben", "Ben")
    services.start(ENGINE, room.code, "visitor-anna")
    return Room.objects.get(pk=room.pk)


@pytest.fixture
def seeded(monkeypatch):
    monkeypatch.setattr("rooms.services.new_seed", lambda: 4242)


def _play_one_move(code: str) -> int:
    """The player on turn plays a legal move; returns the new version."""
    room = Room.objects.get(code=code)
    seat = ENGINE.to_act(room.state)[0]
    visitor = room.seats.get(number=seat).visitor
    legal = alpaka.legal_actions(room.state, seat)
    action = next((a for a in legal if a["type"] in ("play", "draw")), legal[0])
    value = f"play:{action['card']}" if action["type"] == "play" else action["type"]
    result = services.act(ENGINE, code, visitor, room.version, {"aktion": value})
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
        """The next event as {"id", "event", "data"} (comments and retry skipped)."""
        while True:
            block = await self.next_block()
            fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
            if "event" in fields:
                return fields

    async def disconnect(self):
        await self.inbox.put({"type": "http.disconnect"})
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(self.task, WAIT)


def _hub() -> live.Hub:
    return live.Hub.current()


# --- Publish and subscribe ----------------------------------------------------------------


def test_a_notice_reaches_every_subscriber_of_its_channel_and_no_other(live_redis):
    async def scenario():
        # Two hubs: two connections to Redis, as two worker processes have.
        first = live.Hub(REDIS_URL, live_redis.LIVE_CHANNEL_PREFIX).start()
        second = live.Hub(REDIS_URL, live_redis.LIVE_CHANNEL_PREFIX).start()
        try:
            a = await first.subscribe("room:alpaka:one")
            b = await second.subscribe("room:alpaka:one")
            other = await first.subscribe("room:alpaka:two")
            await sync_to_async(live.publish)("room:alpaka:one", 7)
            await sync_to_async(live.publish)("room:alpaka:two", 3)
            assert await a.wait(WAIT) and a.latest == 7
            assert await b.wait(WAIT) and b.latest == 7
            # Redis keeps the order of one publisher: had "one" reached it, latest would be 7.
            assert await other.wait(WAIT) and other.latest == 3
            first.unsubscribe(a)
            assert first.listener_count() == 1
        finally:
            await first.close()
            await second.close()

    asyncio.run(scenario())


def test_notices_are_published_only_after_the_commit(live_redis):
    client = redis.Redis.from_url(REDIS_URL, decode_responses=True)
    pubsub = client.pubsub()
    pubsub.subscribe(live.full_channel("room:alpaka:x"))
    assert pubsub.get_message(timeout=WAIT)["type"] == "subscribe"

    with contextlib.suppress(RuntimeError), transaction.atomic():
        live.publish_on_commit("room:alpaka:x", 1)
        raise RuntimeError("rolled back")
    with transaction.atomic():
        live.publish_on_commit("room:alpaka:x", 2)

    message = pubsub.get_message(ignore_subscribe_messages=True, timeout=WAIT)
    assert message["data"] == "2"
    pubsub.close()


def test_a_lost_redis_connection_ends_the_streams_and_the_hub_comes_back(live_redis):
    async def scenario():
        hub = live.Hub(REDIS_URL, live_redis.LIVE_CHANNEL_PREFIX).start()
        try:
            sub = await hub.subscribe("room:alpaka:one")
            killer = redis.Redis.from_url(REDIS_URL, decode_responses=True)
            name = f"{live_redis.LIVE_CHANNEL_PREFIX}:hub"
            ours = [c["id"] for c in killer.client_list() if c.get("name") == name]
            assert ours, "the hub's connection carries its name"
            for client_id in ours:
                killer.client_kill_filter(_id=client_id)
            assert await sub.wait(WAIT) and sub.closed  # its stream ends; the browser reconnects
            hub.unsubscribe(sub)
            again = await hub.subscribe("room:alpaka:one", timeout=WAIT)
            await sync_to_async(live.publish)("room:alpaka:one", 5)
            assert await again.wait(WAIT) and again.latest == 5
        finally:
            await hub.close()

    asyncio.run(scenario())


# --- The SSE view ----------------------------------------------------------------------------


def test_the_stream_sends_a_notice_after_a_move_and_closes_on_disconnect(
    live_redis, alpaka_row, seeded
):
    room = _room()
    path = f"/spiele/alpaka/raum/{room.code}/live/"

    async def scenario():
        async with Stream(path, f"v={room.version}") as stream:
            first = await stream.next_event()
            assert stream.start["status"] == 200
            headers = stream.headers()
            assert headers["content-type"] == "text/event-stream"
            assert headers["cache-control"] == "no-store"
            assert headers["x-accel-buffering"] == "no"
            assert first == {"id": str(room.version), "event": "ready", "data": str(room.version)}

            version = await live.in_thread(_play_one_move)(room.code)
            notice = await stream.next_event()
            assert notice == {"id": str(version), "event": "changed", "data": str(version)}
            assert _hub().listener_count() == 1
        # The client went away: the stream ended and left the channel.
        assert stream.task.done()
        assert _hub().listener_count() == 0
        await _hub().close()

    asyncio.run(scenario())


def test_the_notice_carries_nothing_but_the_version(live_redis, alpaka_row, seeded):
    """Whoever listens to a room hears only numbers: no cards, no names, no events."""
    room = _room()
    client = redis.Redis.from_url(REDIS_URL, decode_responses=True)
    pubsub = client.pubsub()
    pubsub.psubscribe(live.full_channel("*"))
    assert pubsub.get_message(timeout=WAIT)["type"] == "psubscribe"
    version = _play_one_move(room.code)
    messages = []
    while (message := pubsub.get_message(ignore_subscribe_messages=True, timeout=2)) is not None:
        messages.append(message)
    assert messages, "a move publishes a notice"
    room_notices = [m["data"] for m in messages if m["channel"].endswith(room.code)]
    assert room_notices == [str(version)]
    due = [m["data"] for m in messages if m["channel"].endswith(":due")]
    assert all(float(moment) > 0 for moment in due)
    pubsub.close()


def test_a_reconnect_with_last_event_id_gets_what_it_missed_at_once(live_redis, alpaka_row, seeded):
    room = _room()
    seen = room.version
    _play_one_move(room.code)
    newest = _play_one_move(room.code)

    async def scenario():
        client = AsyncClient()
        response = await client.get(
            f"/spiele/alpaka/raum/{room.code}/live/", headers={"Last-Event-ID": str(seen)}
        )
        assert response.status_code == 200
        assert response["Cache-Control"] == "no-store"
        content = response.streaming_content
        text = ""
        while "event: changed" not in text:
            text += (await asyncio.wait_for(anext(content), WAIT)).decode()
        # The ready event repeats the id the browser had; the notice names the newest version.
        assert f"id: {seen}\nevent: ready\ndata: {newest}\n\n" in text
        assert text.endswith(f"id: {newest}\nevent: changed\ndata: {newest}\n\n")
        await content.aclose()
        await _hub().close()

    asyncio.run(scenario())


def test_an_up_to_date_reconnect_waits_and_sends_heartbeats(live_redis, alpaka_row, seeded):
    live_redis.LIVE_HEARTBEAT_SECONDS = 0.05
    room = _room()

    async def scenario():
        headers = {"Last-Event-ID": str(room.version)}
        async with Stream(f"/spiele/alpaka/raum/{room.code}/live/", headers=headers) as stream:
            assert (await stream.next_event())["event"] == "ready"
            assert await stream.next_block() == ": ping"  # nothing new: only a comment
        await _hub().close()

    asyncio.run(scenario())


def test_a_closed_room_says_gone_and_ends_the_stream(live_redis, alpaka_row, seeded):
    room = services.create_room(ENGINE, "visitor-anna", "Anna", OPTIONS)

    async def scenario():
        async with Stream(f"/spiele/alpaka/raum/{room.code}/live/", "v=1") as stream:
            assert (await stream.next_event())["event"] == "ready"
            await live.in_thread(services.leave)(ENGINE, room.code, "visitor-anna")
            assert await stream.next_event() == {"event": "changed", "data": "gone"}
            assert await stream.next_event() == {"event": "gone", "data": "gone"}
            await asyncio.wait_for(stream.task, WAIT)
            assert stream.done
        await _hub().close()

    asyncio.run(scenario())


def test_without_redis_the_stream_answers_204_and_the_page_polls(settings, alpaka_row, seeded):
    settings.LIVE_REDIS_URL = ""
    room = _room()

    async def scenario():
        response = await AsyncClient().get(f"/spiele/alpaka/raum/{room.code}/live/")
        assert response.status_code == 204
        assert response["Cache-Control"] == "no-store"

    asyncio.run(scenario())


def test_the_room_page_connects_only_when_served_by_asgi(live_redis, alpaka_row, seeded, client):
    room = _room()
    url = f"/spiele/alpaka/raum/{room.code}/"
    wsgi_page = client.get(url).content.decode()
    assert "sse-connect" not in wsgi_page  # runserver / sync workers: the page polls

    async def scenario():
        return (await AsyncClient().get(url)).content.decode()

    asgi_page = asyncio.run(scenario())
    assert f'sse-connect="/spiele/alpaka/raum/{room.code}/live/?v={room.version}"' in asgi_page
    assert 'hx-trigger="every 1000ms, live-stale"' in asgi_page
    assert "htmx-ext-sse-2.2.4.min.js" in asgi_page


# --- Deadlines: applied once, pushed when they fire -------------------------------------------


def _race(call, times: int = 2) -> None:
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


@pytest.fixture
def frozen(monkeypatch):
    """A clock that only moves when the test says so."""
    moment = {"now": None}
    game_clock.set_clock(lambda: moment["now"])
    yield moment
    game_clock.set_clock(None)


def test_two_deadline_loops_never_apply_one_deadline_twice(alpaka_row, seeded, frozen):
    """Two loops (two servers) wake for the same timeouts: each is applied exactly once."""
    from django.utils import timezone

    frozen["now"] = timezone.now().replace(microsecond=0)
    room = _room()
    bots: set[int] = set()
    for round_number in range(6):
        room.refresh_from_db()
        timers = scheduler.Timers(room.deadline, room.bot_due)
        assert timers.deadline is not None, "a human decision is pending"
        frozen["now"] = timers.deadline + timedelta(seconds=1)
        # What a single loop makes of it, computed aside.
        expected_state, _timers, steps = scheduler.advance(
            ENGINE, room.state, bots, timers, frozen["now"], key=lambda i: f"{room.code}:{i}"
        )
        assert len(steps) == 1
        before = room.version
        if round_number % 2:
            # Whole loop rounds, as two servers' loops run them.
            _race(deadline_loop.run_once)
        else:
            applied: list[bool] = []
            _race(
                lambda out=applied, code=room.code: out.append(services.apply_due(ENGINE, code)),
                times=3,
            )
            assert applied.count(True) == 1
        room.refresh_from_db()
        assert room.version == before + 1
        assert room.state == expected_state
        if room.status != Room.Status.PLAYING:
            break


def test_racing_loops_apply_a_bot_move_once(alpaka_row, seeded, frozen):
    from django.utils import timezone

    frozen["now"] = timezone.now().replace(microsecond=0)
    room = _room(bot=True)
    applied = []
    for _ in range(6):
        room.refresh_from_db()
        if room.status != Room.Status.PLAYING:
            break
        timers = scheduler.Timers(room.deadline, room.bot_due)
        if timers.bot_due is None:  # Anna's turn: she plays, the bot is next
            _play_one_move(room.code)
            continue
        frozen["now"] = timers.bot_due
        before = room.version

        def apply():
            applied.append(services.apply_due(ENGINE, room.code))

        _race(apply, times=3)
        room.refresh_from_db()
        assert room.version == before + 1
        assert applied.count(True) == 1
        applied.clear()


def test_the_deadline_loop_pushes_a_bot_move_when_it_falls_due(live_redis, alpaka_row, seeded):
    """Nobody loads the page: the loop in the worker makes the bot's move and pushes it."""
    live_redis.LIVE_DEADLINE_LOOP = True
    room = _room(bot=True)
    if room.bot_due is None:  # Anna begins: after her move the bot is due
        _play_one_move(room.code)
        room.refresh_from_db()
    assert room.bot_due is not None
    shown = room.version

    async def scenario():
        async with Stream(f"/spiele/alpaka/raum/{room.code}/live/", f"v={shown}") as stream:
            assert (await stream.next_event())["event"] == "ready"
            notice = await stream.next_event()
            assert notice["event"] == "changed" and int(notice["data"]) > shown
        await _hub().close()

    asyncio.run(scenario())
    room.refresh_from_db()
    assert room.version > shown
    assert any(entry["v"] > shown for entry in room.log)  # the bot's move is in the log


def test_the_loop_makes_a_demos_due_bot_move_and_pushes_it_to_the_reader(
    live_redis, alpaka_row, frozen, seeded
):
    """The reader's page only listens: the bots' move is made by the loop and announced."""
    from django.utils import timezone

    from games import demo_service
    from games.models import DemoGame
    from games.play import driver

    frozen["now"] = timezone.now().replace(microsecond=0)
    definition = engines.get("alpaka")
    visitor = "reader-live"
    create = driver.creator(definition)

    def perform(action):
        return demo_service.perform(
            visitor, "alpaka", action, create=create, expected_version=None, bump_version=False
        )

    perform(driver.start_action(definition, {"bots": "1", "variant": "klassisch", "target": "40"}))
    row = DemoGame.objects.get(visitor=visitor)
    while row.bot_due is None:  # the reader begins: a move, then the bot is due
        legal = alpaka.legal_actions(row.state, driver.YOU)
        action = next((a for a in legal if a["type"] in ("play", "draw")), legal[0])
        value = f"play:{action['card']}" if action["type"] == "play" else action["type"]
        perform(driver.act_action(definition, {"aktion": value}))
        row.refresh_from_db()

    client = redis.Redis.from_url(REDIS_URL, decode_responses=True)
    pubsub = client.pubsub()
    pubsub.subscribe(live.full_channel(live.demo_channel("alpaka", visitor)))
    assert pubsub.get_message(timeout=WAIT)["type"] == "subscribe"

    frozen["now"] = row.bot_due
    before = row.version
    _race(deadline_loop.run_once)  # two loops, one move
    row.refresh_from_db()
    assert row.version == before + 1
    message = pubsub.get_message(ignore_subscribe_messages=True, timeout=WAIT)
    assert message["data"] == str(row.version)
    pubsub.close()
