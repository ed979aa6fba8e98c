"""The rooms' part of the deadline loop (``games.play.deadline_loop``): which of the
watched running rooms have a deadline due, applying one room's due deadlines, and
the next one.

``DUE_SOURCE`` is registered with the loop by ``rooms.apps``.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Q

from games import clock
from games.play import deadline_loop, scheduler
from games.play.definition import GameDefinition
from games.play.locking import none_when_sqlite_refuses
from rooms import locked
from rooms.models import Room
from site_config import row_sql

# Compiled once per connection (site_config.row_sql): the loop runs it for every due move.
ROOM_IF_FREE = row_sql.Compiled(
    lambda code, engine: (
        Room.objects.select_for_update(skip_locked=True)
        .filter(code=code, engine=engine)
        .order_by()[:1]
    ),
    "\x00code",
    "\x00engine",
)


def _playing(now: datetime, keys: deadline_loop.Keys):
    """Running rooms among ``keys`` ((engine key, code) pairs) with a human active lately."""
    wanted = Q()
    for engine_key, code in keys:
        wanted |= Q(engine=engine_key, code=code)
    return Room.objects.filter(
        wanted, status=Room.Status.PLAYING, last_activity__gte=now - locked.IDLE_AFTER
    ).order_by()


def pending(now: datetime, keys: deadline_loop.Keys) -> deadline_loop.Pending:
    """The next deadline of each watched running room that has one (one query)."""
    rooms = _playing(now, keys).filter(Q(deadline__isnull=False) | Q(bot_due__isnull=False))
    return [
        (engine_key, code, scheduler.Timers(deadline, bot_due).next_due())
        for engine_key, code, deadline, bot_due in rooms.values_list(
            "engine", "code", "deadline", "bot_due"
        )
    ]


@none_when_sqlite_refuses
def apply_due(engine: GameDefinition, code: str) -> deadline_loop.Applied | None:
    """The deadline loop: apply a room's overdue deadlines now and tell its browsers.

    PostgreSQL: ``select_for_update(skip_locked=True)`` – a room another process
    holds (a player's request or another server's loop) is skipped; whoever
    holds it applies the same deadlines itself, and the overdue check below runs
    on the row as committed by then, so no deadline is applied twice. SQLite
    has no row locks: the transaction is IMMEDIATE (settings), so a second loop
    waits for the first and then finds nothing overdue; a busy database is
    skipped until the next round. Returns the room's next deadline (None: nothing
    was applied).
    """
    with transaction.atomic():
        room = ROOM_IF_FREE.first(code, engine.key)
        now = clock.now()
        if room is None or room.status != Room.Status.PLAYING or locked.idle(room, now):
            return None
        ctx = locked.Locked(engine, room, locked.seats_of(room), now)
        shown = room.version
        locked.advance(ctx)
        if not ctx.changed:
            return None
        row_sql.save(room)
        locked.announce(room, engine, since=shown, seats=ctx.seats)
        return deadline_loop.Applied(locked.next_due(room))


DUE_SOURCE = deadline_loop.DueSource(locked.CHANNEL_KIND, pending=pending, apply=apply_due)
