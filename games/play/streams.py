"""The live streams of one worker process: Server-Sent Events fed by one Redis subscription.

Every ASGI worker process holds one Redis connection (``Hub``) that subscribes
to the channels its own streams listen to and hands the notices
(``games.play.live``) to them; the fan-out between processes and machines is
Redis's. A stream's event id is the table version: a browser that reconnects
(deploy, worker restart, network) names the last one it saw in
``Last-Event-ID`` and gets a notice at once if the table moved on meanwhile.
The first stream of a process also starts its deadline loop
(``games.play.deadline_loop``), so due moves are pushed on time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import signal
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable

import redis
import redis.asyncio as aioredis
from asgiref.sync import sync_to_async
from django.conf import settings

from games.play import live
from games.play.deadline_loop import DeadlineLoop
from games.play.live import (
    CONTROL_CHANNEL,
    GONE,
    PUSH_ORIGIN,
    channel_prefix,
    enabled,
    parse_notice,
    parse_view,
)

logger = logging.getLogger(__name__)


class Unavailable(Exception):
    """Redis cannot be reached: the page polls instead."""


class Subscription:
    """One stream's interest in one table: the newest version published (coalesced), and,
    on the viewer's own channel, the newest view of the table rendered for it."""

    def __init__(self, channel: str, viewer_channel: str | None = None):
        self.channel = channel
        self.viewer_channel = viewer_channel
        self.latest: int | None = None
        self.view: tuple[int, str] | None = None  # (version, html) not sent yet
        self.recheck = False  # the hub reconnected: notices may have been missed
        self.closed = False  # the hub lost Redis or the process shuts down
        self._wake = asyncio.Event()

    @property
    def channels(self) -> tuple[str, ...]:
        return (
            (self.channel,) if self.viewer_channel is None else (self.channel, self.viewer_channel)
        )

    def notify(self, version: int) -> None:
        self.latest = version if self.latest is None else max(self.latest, version)
        if version == GONE:
            self.latest = GONE
        self._wake.set()

    def offer_view(self, version: int, html: str) -> None:
        """A newer view replaces one not sent yet: only the newest table matters."""
        if self.view is None or version > self.view[0]:
            self.view = (version, html)
        self._wake.set()

    def poke(self, *, recheck: bool = False, close: bool = False) -> None:
        self.recheck = self.recheck or recheck
        self.closed = self.closed or close
        self._wake.set()

    async def wait(self, timeout: float) -> bool:
        """True when something arrived, False after ``timeout`` seconds of silence."""
        try:
            await asyncio.wait_for(self._wake.wait(), timeout)
        except TimeoutError:
            return False
        self._wake.clear()
        return True


class Hub:
    """This process's Redis subscriber: one connection, channels subscribed while streams listen."""

    def __init__(self, url: str, prefix: str):
        self.url = url
        self.prefix = prefix
        self._listeners: dict[str, set[Subscription]] = {}
        self._confirm: dict[str, list[asyncio.Future]] = {}
        self._due_callbacks: list[Callable[[float], None]] = []
        self._watch_callbacks: list[Callable[[], None]] = []
        self._stop_callbacks: list[Callable[[], Awaitable[None]]] = []
        self._pubsub = None
        self._client = None
        self._connected = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.stopping = False

    # The hub of the running loop (tests run several loops one after another).
    _hubs: dict[tuple[int, str, str], Hub] = {}

    @classmethod
    def current(cls) -> Hub:
        loop = asyncio.get_running_loop()
        key = (id(loop), settings.LIVE_REDIS_URL, channel_prefix())
        hub = cls._hubs.get(key)
        if hub is None or hub._loop is not loop:
            hub = cls._hubs[key] = Hub(settings.LIVE_REDIS_URL, channel_prefix()).start()
            _watch_shutdown(hub)
        return hub

    def start(self) -> Hub:
        self._loop = asyncio.get_running_loop()
        self._task = self._loop.create_task(self._run(), name="live-hub")
        return self

    async def close(self) -> None:
        """Stop and disconnect (tests; a worker simply exits)."""
        self.stop()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for callback in self._stop_callbacks:
            await callback()

    def full(self, name: str) -> str:
        return f"{self.prefix}:{name}"

    def on_due(self, callback: Callable[[float], None]) -> None:
        """``callback(moment)`` whenever a watched table announces its next deadline."""
        self._due_callbacks.append(callback)

    def on_watch(self, callback: Callable[[], None]) -> None:
        """``callback()`` whenever a table gets its first stream in this process."""
        self._watch_callbacks.append(callback)

    def watched(self) -> list[str]:
        """The channels of the tables (and viewers) this process's streams listen to."""
        return list(self._listeners)

    def on_close(self, callback: Callable[[], Awaitable[None]]) -> None:
        self._stop_callbacks.append(callback)

    async def subscribe(
        self, channel: str, timeout: float = 5.0, viewer_channel: str | None = None
    ) -> Subscription:
        """A subscription to a table's channel (and its viewer's), active in Redis when this
        returns; raises ``Unavailable``."""
        if self.stopping:
            raise Unavailable("shutting down")
        try:
            await asyncio.wait_for(self._connected.wait(), timeout)
        except TimeoutError:
            raise Unavailable("no connection to Redis") from None
        sub = Subscription(channel, viewer_channel)
        try:
            for name in sub.channels:
                await self._listen(name, sub, timeout)
        except Unavailable:
            self.unsubscribe(sub)
            raise
        return sub

    async def _listen(self, channel: str, sub: Subscription, timeout: float) -> None:
        listeners = self._listeners.setdefault(channel, set())
        listeners.add(sub)
        if len(listeners) == 1:
            if channel == sub.channel:
                for callback in self._watch_callbacks:
                    callback()
            future = asyncio.get_running_loop().create_future()
            self._confirm.setdefault(self.full(channel), []).append(future)
            try:
                await self._pubsub.subscribe(self.full(channel))
                await asyncio.wait_for(future, timeout)
            except (TimeoutError, Unavailable, redis.RedisError, OSError, AttributeError):
                raise Unavailable("subscribe failed") from None
        else:
            # Another stream subscribed it; wait until Redis has confirmed that one.
            pending = self._confirm.get(self.full(channel), [])
            if pending:
                try:
                    await asyncio.wait_for(asyncio.shield(pending[0]), timeout)
                except (TimeoutError, Unavailable):
                    raise Unavailable("subscribe failed") from None

    def unsubscribe(self, sub: Subscription) -> None:
        for channel in sub.channels:
            listeners = self._listeners.get(channel)
            if listeners is None or sub not in listeners:
                continue
            listeners.discard(sub)
            if not listeners:
                del self._listeners[channel]
                if self._pubsub is not None and self._connected.is_set():
                    task = asyncio.get_running_loop().create_task(
                        self._pubsub.unsubscribe(self.full(channel))
                    )
                    task.add_done_callback(_ignore_result)

    def listener_count(self) -> int:
        """Open streams (a stream listening to its table and its viewer's channel is one)."""
        return len({id(sub) for listeners in self._listeners.values() for sub in listeners})

    def stop(self) -> None:
        """The process shuts down: end every stream, so browsers reconnect elsewhere."""
        self.stopping = True
        for listeners in list(self._listeners.values()):
            for sub in list(listeners):
                sub.poke(close=True)

    async def _run(self) -> None:
        delay = 0.2
        first = True
        while not self.stopping:
            try:
                self._client = aioredis.Redis.from_url(
                    self.url,
                    decode_responses=True,
                    socket_connect_timeout=3,
                    client_name=f"{self.prefix}:hub",
                )
                self._pubsub = self._client.pubsub()
                channels = [self.full(CONTROL_CHANNEL), *(self.full(c) for c in self._listeners)]
                await self._pubsub.subscribe(*channels)
                await self._read(first)
            except asyncio.CancelledError:
                raise
            except (redis.RedisError, OSError) as error:
                logger.warning("live: Redis subscription lost (%s); reconnecting", error)
            finally:
                self._connected.clear()
                await self._close_connection()
            first = False
            # Streams end, browsers reconnect (or poll meanwhile) and resume by version.
            for listeners in list(self._listeners.values()):
                for sub in list(listeners):
                    sub.poke(close=True)
            await asyncio.sleep(delay + random.random() * delay)
            delay = min(delay * 2, 5.0)

    async def _read(self, first: bool) -> None:
        ping_every = 15.0
        last_traffic = time.monotonic()
        pinged = False
        while not self.stopping:
            message = await self._pubsub.get_message(timeout=ping_every)
            now = time.monotonic()
            if message is None:
                if pinged and now - last_traffic > 2 * ping_every:
                    raise redis.ConnectionError("no answer to PING")
                await self._pubsub.ping()
                pinged = True
                continue
            last_traffic, pinged = now, False
            kind = message["type"]
            if kind == "subscribe":
                if message["channel"] == self.full(CONTROL_CHANNEL):
                    self._connected.set()
                    if not first:
                        self._recheck_all()
                for future in self._confirm.pop(message["channel"], []):
                    if not future.done():
                        future.set_result(True)
            elif kind == "message":
                self._dispatch(message["channel"], message["data"])

    def _recheck_all(self) -> None:
        for listeners in self._listeners.values():
            for sub in listeners:
                sub.poke(recheck=True)

    def _dispatch(self, channel: str, data: str) -> None:
        name = channel[len(self.prefix) + 1 :]
        view = parse_view(data)
        if view is not None:
            for sub in self._listeners.get(name, ()):
                if sub.viewer_channel == name:
                    sub.offer_view(*view)
            return
        parsed = parse_notice(data)
        if parsed is None:
            return
        version, due = parsed
        for sub in self._listeners.get(name, ()):
            if sub.channel == name:
                sub.notify(version)
        if due is not None:
            for callback in self._due_callbacks:
                callback(due)

    async def _close_connection(self) -> None:
        pubsub, client = self._pubsub, self._client
        self._pubsub = self._client = None
        with contextlib.suppress(Exception):
            if pubsub is not None:
                await pubsub.aclose()
        with contextlib.suppress(Exception):
            if client is not None:
                await client.aclose()
        for futures in self._confirm.values():
            for future in futures:
                if not future.done():
                    future.set_exception(Unavailable("connection lost"))
                    future.exception()  # retrieved: no "never retrieved" warning
        self._confirm.clear()


def _ignore_result(task: asyncio.Task) -> None:
    if not task.cancelled():
        task.exception()


def _watch_shutdown(hub: Hub) -> None:
    """End the streams when the worker is told to stop (SIGTERM: deploy, reload).

    uvicorn waits for open responses before a worker exits; a stream never ends
    by itself, so without this a reload would wait for gunicorn's kill.
    """
    if threading.current_thread() is not threading.main_thread():
        return
    previous = signal.getsignal(signal.SIGTERM)
    if getattr(previous, "_live_hub", False) or not callable(previous):
        return
    loop = hub._loop

    def handler(signum, frame):
        loop.call_soon_threadsafe(hub.stop)
        previous(signum, frame)

    handler._live_hub = True
    with contextlib.suppress(ValueError):  # not the interpreter's main thread after all
        signal.signal(signal.SIGTERM, handler)


# --- The stream --------------------------------------------------------------------------------


def _event(version: int, name: str = "changed") -> str:
    if version == GONE:
        return f"event: {name}\ndata: gone\n\n"
    return f"id: {version}\nevent: {name}\ndata: {version}\n\n"


def parse_version(raw) -> int | None:
    try:
        value = int(str(raw).strip())
    except (TypeError, ValueError):
        return None
    return value if value >= 0 else None


def _view_event(version: int, html: str) -> str:
    lines = html.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    data = "".join(f"data: {line}\n" for line in lines)
    return f"id: {version}\nevent: view\n{data}\n"


async def stream(
    sub: Subscription,
    hub: Hub,
    known: int | None,
    read_version: Callable[[], Awaitable[int | None]],
    *,
    heartbeat: float,
    lifetime: float,
    viewer: str = "",
    origin: str = "",
) -> AsyncIterator[str]:
    """The SSE body for one browser: what changed after version ``known``.

    A change arrives as the table itself, rendered for this stream's ``viewer``
    (event ``view``, its data the table's HTML) when the writer rendered it, or
    else as a notice (event ``changed``, its data the version): the page then
    fetches its table as a poll would. ``read_version()`` returns the table's
    stored version (None: gone). The first event, ``ready``, is sent at once
    and names the viewer: a page treats its stream as working only after
    receiving it (a proxy that buffers never delivers it, and the page keeps
    polling), and reconnects when it is now somebody else (it joined the
    table). Comments every ``heartbeat`` seconds keep proxies from closing an
    idle connection. After ``lifetime`` seconds the stream ends and the browser
    reconnects with its last event id – nothing is lost. ``origin`` replaces
    ``PUSH_ORIGIN`` in views (links that must name the page's own address).
    """
    try:
        current = await read_version()
        yield f"retry: {random.randint(1000, 3000)}\n\n"
        if current is None:
            yield _event(GONE)
            yield _event(GONE, "gone")
            return
        sent = current if known is None else known
        who = f" {viewer}" if viewer else ""
        yield f"id: {sent}\nevent: ready\ndata: {current}{who}\n\n"
        if current != sent:
            sent = current
            yield _event(current)
        deadline = time.monotonic() + lifetime
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or sub.closed:
                return
            if not await sub.wait(min(heartbeat, left)):
                yield ": ping\n\n"
                continue
            if sub.closed:
                return
            view, sub.view = sub.view, None
            if view is not None and view[0] > sent:
                sent = view[0]
                yield _view_event(view[0], view[1].replace(PUSH_ORIGIN, origin))
            latest = sub.latest
            if sub.recheck:
                sub.recheck = False
                latest = await read_version()
                latest = GONE if latest is None else latest
            if latest is None:
                continue
            if latest == GONE:
                yield _event(GONE)
                yield _event(GONE, "gone")
                return
            if latest > sent:
                sent = latest
                yield _event(latest)
    finally:
        hub.unsubscribe(sub)


def in_thread(function: Callable) -> Callable[..., Awaitable]:
    """``function`` (sync, may query) in the shared thread pool, never one thread per
    open stream; its database connection goes back at once (to the pool on
    PostgreSQL), so an idle pool thread never holds one."""

    def run(*args, **kwargs):
        from django.db import connection

        try:
            return function(*args, **kwargs)
        finally:
            if not connection.in_atomic_block:
                connection.close()

    return sync_to_async(run, thread_sensitive=False)


async def respond(
    request,
    channel: str,
    read_version: Callable[[], int | None],
    viewer: str = "",
):
    """The SSE answer for ``channel``; ``read_version`` (sync) reads the stored version.
    ``viewer``: who looks (the table owner's name for this browser's seat), whose
    rendered views the stream forwards; empty: notices only.

    Without Redis: 204, which tells the browser's EventSource not to reconnect
    (the page polls). Redis unreachable: 503, the page polls until a later
    reconnect works.
    """
    from django.http import HttpResponse, StreamingHttpResponse

    if not enabled():
        response = HttpResponse(status=204)
    else:
        hub = Hub.current()
        DeadlineLoop.ensure_started(hub)
        known = parse_version(request.headers.get("Last-Event-ID"))
        if known is None:
            known = parse_version(request.GET.get("v"))
        try:
            sub = await hub.subscribe(
                channel, viewer_channel=live.viewer_channel(channel, viewer) if viewer else None
            )
        except Unavailable:
            response = HttpResponse(status=503, headers={"Retry-After": "5"})
        else:
            body = stream(
                sub,
                hub,
                known,
                in_thread(read_version),
                heartbeat=getattr(settings, "LIVE_HEARTBEAT_SECONDS", 15),
                lifetime=getattr(settings, "LIVE_STREAM_SECONDS", 600)
                * (0.9 + 0.2 * random.random()),
                viewer=viewer,
                origin=f"{request.scheme}://{request.get_host()}",
            )
            response = StreamingHttpResponse(body, content_type="text/event-stream")
            # nginx and similar proxies must pass each event on at once.
            response["X-Accel-Buffering"] = "no"
    response["Cache-Control"] = "no-store"
    return response
