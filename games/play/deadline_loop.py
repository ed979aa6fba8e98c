"""The deadline loop of an ASGI worker process: due deadlines applied when they fall due.

Turn and scoring timeouts and the bots' moves are stored as moments in the
rows (a room's ``deadline`` / ``bot_due``, a demo's ``bot_due``) and applied by
whoever loads the table next – that stays so, nothing depends on this loop.
The loop only makes them happen on time while people watch, so that a push
goes out at the moment: it is started by the first live stream of a process
(one per process and event loop), sleeps until the earliest pending deadline
(read from the database, and moved earlier by the ``due`` notices every writer
publishes through Redis), applies what is due under the row lock and publishes
the new versions.

The loop knows no kind of table: each owner of tables (the demo driver, the
rooms) registers a ``DueSource`` from its ``AppConfig.ready`` that lists its
due tables, applies one, and names its next deadline.

Several processes and servers each run a loop; on PostgreSQL they meet on the
row lock (``select_for_update(skip_locked=True)``) and on SQLite on the
IMMEDIATE transaction, and the due check runs on the locked row, so one
deadline is applied once. The database work runs in one thread of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import OperationalError, connection

from games import clock
from games.play import definition as registry
from games.play.definition import GameDefinition
from games.play.locking import sqlite_refused

logger = logging.getLogger(__name__)

IDLE_SLEEP = 10.0  # the longest sleep: a missed notice delays a push by at most this
MIN_SLEEP = 0.02  # between rounds while rows stay due (e.g. held by a request)


def run_once() -> float | None:
    """Apply every due deadline of every registered kind of table; returns the next due
    moment (epoch s)."""
    try:
        return _apply_due()
    except OperationalError as error:
        # SQLite's shared-cache databases (tests) refuse a read while another connection
        # writes instead of waiting: try again in a moment.
        if not sqlite_refused(error):
            raise
        return time.time() + MIN_SLEEP
    finally:
        # Back to the pool between rounds (the loop sleeps most of the time).
        if not connection.in_atomic_block:
            connection.close()


@dataclass(frozen=True)
class DueSource:
    """One kind of table whose deadlines the loop applies.

    ``due(now)`` lists ``(engine key, table key)`` of tables with a deadline due
    at ``now``; ``apply(definition, table key)`` applies that table's due
    deadlines under its row lock and publishes the change (False: nothing was
    due any more); ``next_due(now)`` is the earliest pending deadline of any
    such table (None: none).
    """

    name: str
    due: Callable[[datetime], list[tuple[str, str]]]
    apply: Callable[[GameDefinition, str], bool]
    next_due: Callable[[datetime], datetime | None]


_SOURCES: dict[str, DueSource] = {}


def register(source: DueSource) -> None:
    """Called once per kind of table from its app's ``AppConfig.ready``."""
    _SOURCES[source.name] = source


def sources() -> list[DueSource]:
    return list(_SOURCES.values())


def _apply_due() -> float | None:
    now = clock.now()
    moments = []
    for source in sources():
        for engine_key, key in source.due(now):
            definition = registry.get(engine_key)
            if definition is not None:
                source.apply(definition, key)
        upcoming = source.next_due(now)
        if upcoming is not None:
            moments.append(upcoming)
    return min(moments).timestamp() if moments else None


class DeadlineLoop:
    """One per process and event loop; ``ensure_started`` is cheap to call on every stream."""

    _loops: dict[int, DeadlineLoop] = {}

    def __init__(self, hub):
        self.hub = hub
        self._wake = asyncio.Event()
        self._planned = float("inf")
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="deadline-loop")
        self._run_once = sync_to_async(run_once, thread_sensitive=False, executor=self._executor)
        self.rounds = 0
        hub.on_due(self.due_at)
        hub.on_close(self.stop)

    @classmethod
    def ensure_started(cls, hub) -> DeadlineLoop | None:
        if not getattr(settings, "LIVE_DEADLINE_LOOP", True):
            return None
        loop = asyncio.get_running_loop()
        current = cls._loops.get(id(loop))
        if current is None or current.hub is not hub:
            current = cls._loops[id(loop)] = cls(hub)
            task = loop.create_task(current.run(), name="deadline-loop")
            current._task = task
        return current

    async def stop(self) -> None:
        task = getattr(self, "_task", None)
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def due_at(self, moment: float) -> None:
        """A writer announced a deadline at ``moment``: wake up in time for it."""
        if moment < self._planned:
            self._wake.set()

    async def run(self) -> None:
        try:
            await self._rounds()
        finally:
            # The thread's database connection goes with the loop.
            self._executor.submit(_close_connection)
            self._executor.shutdown(wait=False)

    async def _rounds(self) -> None:
        failures = 0
        while not self.hub.stopping:
            self._wake.clear()
            try:
                upcoming = await self._run_once()
                failures = 0
            except asyncio.CancelledError:
                raise
            except Exception:
                failures += 1
                logger.exception("deadline loop: a round failed")
                upcoming = time.time() + min(IDLE_SLEEP, 0.5 * 2**failures)
            self.rounds += 1
            now = time.time()
            wait = IDLE_SLEEP if upcoming is None else upcoming - now
            wait = max(MIN_SLEEP, min(IDLE_SLEEP, wait))
            self._planned = now + wait
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), wait)
            self._planned = float("inf")


def _close_connection() -> None:
    from django.db import connection

    connection.close()
