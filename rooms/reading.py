"""Reading a room as of now: the cheap "anything new?" check of a poll, and the room
with its seats for a page, with the deadlines that fell due meanwhile applied first."""

from __future__ import annotations

from datetime import datetime

from games import clock
from games.play import live, scheduler
from games.play.definition import GameDefinition
from rooms import locked
from rooms.models import Room
from site_config import row_sql


def poll_info(engine: GameDefinition, code: str):
    """``(version, deadline, bot_due, last_activity)`` of a room in one query, or None."""
    return (
        Room.objects.filter(code=code, engine=engine.key)
        .values_list("version", "deadline", "bot_due", "last_activity")
        .first()
    )


def unchanged(info, client_version: int, now: datetime) -> bool:
    """Whether a poll can be answered with "nothing new" (no deadline fell due either)."""
    version, deadline, bot_due, last_activity = info
    if version != client_version or last_activity < now - locked.IDLE_AFTER:
        return False
    return not scheduler.Timers(deadline, bot_due).overdue(now)


def remember(engine: GameDefinition, code: str, info) -> None:
    """Keep the version a poll found unchanged for the polls answered in front
    (``rooms.fast_poll``), with the room's next deadline. Only where such a front runs
    (the ASGI server, which also serves the streams): a sync worker would write a key
    per poll that nobody reads."""
    if not live.serves_streams:
        return
    version, deadline, bot_due, _last_activity = info
    due = scheduler.Timers(deadline, bot_due).next_due()
    live.remember(locked.room_channel(engine.key, code), version, due)


# A room page and a poll that finds a change read the room and its seats: compiled once per
# connection, as the move's statements (site_config.row_sql).
_ROOM = row_sql.Compiled(
    lambda code, engine: Room.objects.filter(code=code, engine=engine).order_by()[:1],
    "\x00code",
    "\x00engine",
)


def load(engine: GameDefinition, code: str) -> locked.Result:
    """The room and its seats as of now; overdue deadlines are applied (and saved) first."""
    room = _ROOM.first(code, engine.key)
    now = clock.now()
    if room is None:
        return locked.Result(None, message=locked.MISSING)
    if locked.idle(room, now) or (
        room.status == Room.Status.PLAYING
        and scheduler.Timers(room.deadline, room.bot_due).overdue(now)
    ):
        return locked.run(engine, code, lambda ctx: None)
    return locked.Result(room, locked.seats_of(room))
