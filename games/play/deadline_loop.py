"""The deadline loop of an ASGI worker process: due deadlines applied when they fall due.

Turn and scoring timeouts and the bots' moves are stored as moments in the
rows (a room's ``deadline`` / ``bot_due``, a demo's ``bot_due``) and applied by
whoever loads the table next – that stays so, nothing depends on this loop.
The loop only makes them happen on time while people watch, so that a push
goes out at the moment: it is started by the first live stream of a process
(one per process and event loop) and looks only at the tables this process's
streams listen to. It sleeps until the earliest of their deadlines (read from
the database, and moved earlier by the notices their writers publish), applies
what is due under the row lock and publishes the new versions. With no stream
open it does nothing at all: a table nobody watches costs no work.

The loop knows no kind of table: each owner of tables (the demo driver, the
rooms) registers a ``DueSource`` from its ``AppConfig.ready`` that names the next
deadline of each watched table (one query) and applies one table's due
deadlines, returning that table's next one. The loop keeps what it learnt as a
plan and asks ``pending`` again only when something happened the plan does not
know of (a new table, a deadline announced that it does not name, an application
that found nothing due) and at least every ``IDLE_SLEEP`` – so a bot move costs
the work of the move alone, and a change the loop made itself wakes no extra round.

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
from datetime import datetime, timedelta

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import OperationalError, connection

from games import clock
from games.play import definition as registry
from games.play import live
from games.play.definition import GameDefinition
from games.play.locking import sqlite_refused
from site_config.frame_room import roomy

logger = logging.getLogger(__name__)

IDLE_SLEEP = 10.0  # the longest sleep while watching: a missed notice delays a push by at most this
MIN_SLEEP = 0.02  # between rounds while rows stay due (e.g. held by a request)
# The database connection stays with the loop while the next round is this close (bots
# moving every second): handing it back and checking it out again cost a round trip each
# round. A longer sleep, or a round that failed, gives it back to the pool.
KEEP_CONNECTION_SECONDS = 3.0
# Timers may fire a millisecond early; a round that woke before its deadline found nothing
# due and had to come back 20 ms later.
LATE_MARGIN = 0.002
NOTICE_PRECISION = 0.001  # a notice names its deadline in milliseconds (live.notice)


def run_round(watched: list[str], plan: Plan | None) -> tuple[float | None, Plan | None]:
    """One round of the loop: apply every due deadline of the tables on the ``watched``
    channels.

    ``plan``: the watched tables' deadlines as the rounds before left them. Given, the
    round applies what the plan names as due without asking the database which
    deadlines are due (a query per kind of table less on every bot move); the row lock
    and the due check on the locked row stay, so a wrong plan costs a look, never a
    deadline applied early or twice. None: the deadlines are read. Returns the next
    due moment among them (epoch seconds; None: nothing pending) and the plan for the
    next round (None: read them again, something did not go as planned).
    """
    if not watched:
        return None, None
    upcoming = None
    try:
        with live.listened_here(watched):
            upcoming, plan = _apply_due(watched, plan)
        return upcoming, plan
    except OperationalError as error:
        # SQLite's shared-cache databases (tests) refuse a read while another connection
        # writes instead of waiting: try again in a moment.
        if not sqlite_refused(error):
            raise
        return time.time() + MIN_SLEEP, None
    finally:
        soon = upcoming is not None and upcoming - time.time() <= KEEP_CONNECTION_SECONDS
        if not soon and not connection.in_atomic_block:
            connection.close()


Keys = list[tuple[str, str]]  # (engine key, table key) of watched tables


Pending = list[tuple[str, str, datetime]]  # (engine key, table key, its next deadline)


Plan = dict[tuple[str, str, str], datetime]  # (kind, engine key, table key): next deadline


@dataclass(frozen=True)
class Applied:
    """A table's due deadlines were applied; ``next_due``: its next one (None: none)."""

    next_due: datetime | None


@dataclass(frozen=True)
class DueSource:
    """One kind of table whose deadlines the loop applies.

    ``kind`` is the first part of the tables' channels (``live.table_channel``).
    ``pending(now, keys)`` names the next deadline of each of the watched ``keys``
    that has one; ``apply(definition, table key)`` applies that table's due
    deadlines under its row lock and publishes the change, returning ``Applied``
    (None: nothing was due any more, or another writer holds the table).
    """

    kind: str
    pending: Callable[[datetime, Keys], Pending]
    apply: Callable[[GameDefinition, str], Applied | None]


_SOURCES: dict[str, DueSource] = {}


def register(source: DueSource) -> None:
    """Called once per kind of table from its app's ``AppConfig.ready``."""
    _SOURCES[source.kind] = source


def sources() -> list[DueSource]:
    return list(_SOURCES.values())


def _watched_by_kind(watched: list[str]) -> dict[str, Keys]:
    found: dict[str, Keys] = {}
    for channel in watched:
        parsed = live.parse_table_channel(channel)
        if parsed is not None:
            kind, engine_key, key = parsed
            found.setdefault(kind, []).append((engine_key, key))
    return found


def _apply_due(watched: list[str], plan: Plan | None) -> tuple[float | None, Plan | None]:
    now = clock.now()
    by_kind = _watched_by_kind(watched)
    if plan is None:
        plan = {}
        for source in sources():
            keys = by_kind.get(source.kind)
            for engine_key, key, moment in source.pending(now, keys) if keys else ():
                plan[(source.kind, engine_key, key)] = moment
    else:  # only what is still watched
        still = {(kind, *table) for kind, tables in by_kind.items() for table in tables}
        plan = {table: moment for table, moment in plan.items() if table in still}
    as_planned = True
    for table, moment in list(plan.items()):
        kind, engine_key, key = table
        definition = registry.get(engine_key)
        if definition is None or kind not in _SOURCES:  # a game no longer registered
            del plan[table]
            continue
        if moment > now:
            continue
        applied = _SOURCES[kind].apply(definition, key)
        if applied is None:
            # Another writer holds it or was first (or the plan was wrong): its committed
            # deadline is read again in a moment.
            plan[table] = now + timedelta(seconds=MIN_SLEEP)
            as_planned = False
        elif applied.next_due is None:
            del plan[table]
        else:
            plan[table] = applied.next_due
    upcoming = min(plan.values()).timestamp() if plan else None
    return upcoming, plan if as_planned else None


class DeadlineLoop:
    """One per process and event loop; ``ensure_started`` is cheap to call on every stream."""

    _loops: dict[int, DeadlineLoop] = {}

    def __init__(self, hub):
        self.hub = hub
        self._wake = asyncio.Event()
        self._planned = float("inf")
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="deadline-loop")
        # A round draws the pushed tables: in a fresh chunk of the frame stack (frame_room).
        self._run_round = sync_to_async(
            roomy(run_round), thread_sensitive=False, executor=self._executor
        )
        self.rounds = 0
        self._running = False
        self._heard: list[float] = []  # deadlines announced during a round
        # The watched tables' deadlines as the last round left them (run_round), read
        # from the database again after anything the plan does not know of – a new
        # table, a deadline heard that it does not name – and at least every IDLE_SLEEP.
        self._plan: Plan | None = None
        self._plan_read = float("-inf")  # time.monotonic() of the last reading
        self._plan_stale = False
        hub.on_due(self.due_at)
        hub.on_watch(self._watch)
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
        """A writer announced a deadline at ``moment``: wake up in time for it. One heard
        during a round (often the round's own change) joins that round's plan instead
        of starting another round at once. A deadline the plan does not name has the
        next round read them all."""
        if self._running:
            self._heard.append(moment)
            return
        if not self._knows(moment):
            self._plan_stale = True
        if moment + LATE_MARGIN < self._planned - NOTICE_PRECISION:
            self._wake.set()

    def _knows(self, moment: float) -> bool:
        return self._plan is not None and any(
            abs(planned.timestamp() - moment) <= NOTICE_PRECISION for planned in self._plan.values()
        )

    def _watch(self) -> None:
        """A new table to look after."""
        self._plan_stale = True
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
            watched = self.hub.watched()
            self._running, self._heard = True, []
            plan = self._plan
            if self._plan_stale or time.monotonic() - self._plan_read >= IDLE_SLEEP:
                plan = None
            self._plan_stale = False
            if plan is None:
                self._plan_read = time.monotonic()
            try:
                upcoming, self._plan = await self._run_round(watched, plan)
                failures = 0
            except asyncio.CancelledError:
                raise
            except Exception:
                failures += 1
                logger.exception("deadline loop: a round failed")
                upcoming, self._plan = time.time() + min(IDLE_SLEEP, 0.5 * 2**failures), None
            finally:
                self._running = False
            self.rounds += 1
            if self._heard:
                if not all(self._knows(moment) for moment in self._heard):
                    self._plan_stale = True
                earliest = min(self._heard)
                upcoming = earliest if upcoming is None else min(upcoming, earliest)
            now = time.time()
            if not watched:
                wait = None  # nothing to look after: sleep until a stream opens
            else:
                wait = IDLE_SLEEP if upcoming is None else upcoming - now + LATE_MARGIN
                wait = max(MIN_SLEEP, min(IDLE_SLEEP, wait))
            self._planned = float("inf") if wait is None else now + wait
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), wait)
            self._planned = float("inf")


def _close_connection() -> None:
    from django.db import connection

    connection.close()
