"""The locked unit of work that every change to a room runs in.

``run`` locks the room row (``select_for_update`` on PostgreSQL; SQLite's
transactions are IMMEDIATE, see settings), first applies the deadlines that
fell due meanwhile, runs the requested work on a ``Locked`` room, saves it and
tells the room's browsers the new version after the commit. A refused request
raises nothing to the caller – it gets a ``Result`` with a German message and
the room as it is. The guards the lobby, seat and table flows share (host
only, seated only, version expected) live here too.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db import OperationalError, transaction

from games import clock
from games.play import live, replays, scheduler
from games.play.definition import GameDefinition
from games.play.locking import sqlite_refused
from games.play.table import LOG_MAX, Table
from rooms import body
from rooms.models import Room, Seat
from site_config import row_sql

IDLE_AFTER = timedelta(hours=24)
LOCK_RETRIES = 60

MISSING = (
    "Diesen Raum gibt es nicht (mehr). Räume ohne Aktivität werden nach 24 Stunden geschlossen."
)
STALE = (
    "Zu spät – am Tisch hat sich inzwischen etwas geändert. Du siehst jetzt den aktuellen Stand."
)
STALE_LOBBY = "Inzwischen hat sich im Raum etwas geändert. Prüfe den aktuellen Stand und versuche es noch einmal."
NOT_SEATED = "Du sitzt nicht an diesem Tisch – nur Mitspieler können das."
HOST_ONLY = "Das kann nur der Gastgeber."


class RoomError(Exception):
    """A refused request; ``str(error)`` is the German message. Nothing changed."""


class Stale(RoomError):
    """The client's version is out of date; it gets the room as it is now."""


@dataclass
class Result:
    room: Room | None
    seats: list[Seat] = field(default_factory=list)
    applied: bool = False
    message: str = ""  # German note for the requester (a refusal or a stale request)
    stale: bool = False
    # What every viewer's body of the saved room shares, drawn once for the pushes and the
    # requester's answer alike (one read of the watcher count, not two).
    parts: Callable[[], body.RoomParts] | None = None


@dataclass
class Locked:
    """A room locked for this transaction, with its seats and the time of the request."""

    engine: GameDefinition
    room: Room
    seats: list[Seat]
    now: datetime
    changed: bool = False

    def seat_for(self, visitor: str) -> Seat | None:
        if not visitor:
            return None
        return next((s for s in self.seats if s.visitor == visitor and not s.is_bot), None)

    def active(self) -> list[Seat]:
        return [s for s in self.seats if not s.left]

    def humans(self) -> list[Seat]:
        return [s for s in self.seats if not s.left and not s.is_bot]

    def bots(self) -> set[int]:
        return {s.number for s in self.seats if s.is_bot}

    def add_seat(self, **fields) -> Seat:
        """A new seat at the next free number (numbers of seats that left are never reused)."""
        number = max((s.number for s in self.seats), default=-1) + 1
        seat = Seat.objects.create(room=self.room, number=number, joined_at=self.now, **fields)
        self.seats.append(seat)
        return seat

    def bump(self, events=(), human: bool = True) -> None:
        """One more version: the change every client will pick up with its next poll."""
        room = self.room
        room.version += 1
        if events:
            room.log = (room.log + [{"v": room.version, "event": e} for e in events])[-LOG_MAX:]
        if human:
            room.last_activity = self.now
        self.changed = True

    def timers(self) -> scheduler.Timers:
        return scheduler.Timers(self.room.deadline, self.room.bot_due)

    def set_timers(self, timers: scheduler.Timers) -> None:
        self.room.deadline, self.room.bot_due = timers.deadline, timers.bot_due

    def table(self) -> Table:
        """The running game as a ``Table``; ``store`` writes it back."""
        room = self.room
        return Table(
            self.engine,
            room.state,
            room.version,
            log=room.log,
            timers=self.timers(),
            bots=self.bots(),
            key=room.code,
            record=room.record,
        )

    def store(self, table: Table, human: bool = True) -> None:
        room = self.room
        if table.version != room.version:
            self.changed = True
            if human:
                room.last_activity = self.now
        room.state, room.version, room.log = table.state, table.version, table.log
        room.record = table.record
        self.set_timers(table.timers)

    def snapshot(self) -> dict:
        room = self.room
        return {
            name: getattr(room, name)
            for name in (
                "status",
                "state",
                "version",
                "deadline",
                "bot_due",
                "log",
                "record",
                "options",
                "last_activity",
                "games_played",
            )
        }

    def restore(self, snapshot: dict) -> None:
        for name, value in snapshot.items():
            setattr(self.room, name, value)


# The statements of every move, compiled once per connection (site_config.row_sql).
ROOM_LOCKED = row_sql.Compiled(
    lambda code, engine: (
        Room.objects.select_for_update().filter(code=code, engine=engine).order_by()[:1]
    ),
    "\x00code",
    "\x00engine",
)
_SEATS = row_sql.Compiled(lambda room_id: Seat.objects.filter(room_id=room_id), -10_001)


def seats_of(room: Room) -> list[Seat]:
    """``list(room.seats.all())``: in seat order, each seat knowing its room."""
    seats = _SEATS(room.pk)
    for seat in seats:
        Seat.room.field.set_cached_value(seat, room)
    return seats


def idle(room: Room, now: datetime) -> bool:
    return room.last_activity < now - IDLE_AFTER


def advance(ctx: Locked) -> None:
    """Apply every deadline that fell due (turn and scoring timeouts, bot moves)."""
    if ctx.room.status != Room.Status.PLAYING or not ctx.timers().overdue(ctx.now):
        return
    table = ctx.table()
    table.advance(ctx.now)
    ctx.store(table, human=False)
    finish_if_over(ctx)


def finish_if_over(ctx: Locked) -> None:
    if ctx.room.status == Room.Status.PLAYING and ctx.engine.outcome(ctx.room.state) is not None:
        ctx.room.status = Room.Status.FINISHED
        ctx.set_timers(scheduler.Timers())
        keep_replay(ctx)


def keep_replay(ctx: Locked) -> None:
    """The finished game becomes a replay its players (and the host's choice) may open."""
    table = ctx.table()
    host = next((s.visitor for s in ctx.seats if s.is_host and not s.is_bot), "")
    players = [s.visitor for s in ctx.seats if not s.is_bot]
    if replays.keep(ctx.engine, table, source="room", players=players, host=host):
        ctx.room.record = table.record


def run(
    engine: GameDefinition,
    code: str,
    work: Callable[[Locked], str | None],
    visitor: str = "",
    *,
    writes_before_refusing: bool = True,
) -> Result:
    """``_run_locked``, retried when SQLite refuses the lock outright. ``visitor``: who
    asked (their own answer shows the change; the others get it pushed).
    ``writes_before_refusing=False``: ``work`` refuses (raises ``RoomError``) only
    before it writes any row, so it runs without the savepoint that would undo such
    writes (a move: ~0.4 ms CPU and two round trips less).

    File-based SQLite queues writers itself (IMMEDIATE transactions and a busy
    timeout); a shared-cache database (the in-memory test database) answers
    "table is locked" at once instead, so the transaction is simply tried again.
    """
    for attempt in range(LOCK_RETRIES):
        try:
            return _run_locked(engine, code, work, visitor, writes_before_refusing)
        except OperationalError as error:
            if not sqlite_refused(error) or attempt == LOCK_RETRIES - 1:
                raise
            time.sleep(0.005 * (attempt + 1))
    raise AssertionError("unreachable")


def _run_locked(
    engine: GameDefinition,
    code: str,
    work: Callable[[Locked], str | None],
    visitor: str,
    writes_before_refusing: bool,
) -> Result:
    """Lock the room, apply due deadlines, run ``work`` and save.

    ``work`` returns an optional German note. It raises ``RoomError`` to refuse
    (its changes are undone; the deadlines applied before stay applied) or
    ``Stale`` when the client's version is out of date.
    """
    with transaction.atomic():
        room = ROOM_LOCKED.first(code, engine.key)
        now = clock.now()
        if room is None:
            return Result(None, message=MISSING)
        if idle(room, now):
            room.delete()
            announce_gone(engine, code)
            return Result(None, message=MISSING)
        ctx = Locked(engine, room, seats_of(room), now)
        shown = room.version
        advance(ctx)
        advanced, ctx.changed = ctx.changed, False
        snapshot = ctx.snapshot()
        result = Result(room)
        try:
            if writes_before_refusing:
                # A savepoint: seat writes of a refused request roll back.
                with transaction.atomic():
                    note = work(ctx)
            else:
                note = work(ctx)
        except RoomError as error:
            ctx.restore(snapshot)
            ctx.changed = False
            result.message, result.stale = str(error), isinstance(error, Stale)
            # The rolled-back seat writes may linger in ctx.seats: read them again.
            ctx.seats = seats_of(room)
        else:
            result.applied = ctx.changed
            result.message = note or ""
        if room.pk is None:  # the work closed the room (the last human left)
            announce_gone(engine, code)
            result.room = None
            return result
        # Every seat write of the work goes through ctx.seats: they are the rows as saved.
        result.seats = sorted(ctx.seats, key=lambda seat: seat.number)
        result.parts = body.shared_parts(engine, room)
        if ctx.changed or advanced:
            row_sql.save(room)
            skip = ctx.seat_for(visitor) if ctx.changed else None
            announce(room, engine, since=shown, skip=skip, seats=result.seats, parts=result.parts)
        return result


# --- Live updates: notices after commit --------------------------------------------------


CHANNEL_KIND = "room"


def room_channel(engine_key: str, code: str) -> str:
    return live.table_channel(CHANNEL_KIND, engine_key, code)


def next_due(room: Room) -> datetime | None:
    if room.status != Room.Status.PLAYING:
        return None
    return scheduler.Timers(room.deadline, room.bot_due).next_due()


def announce(
    room: Room,
    engine: GameDefinition | None = None,
    *,
    since: int | None = None,
    skip: Seat | None = None,
    seats: list[Seat] | None = None,
    parts: Callable[[], body.RoomParts] | None = None,
) -> None:
    """Every browser in the room learns the new version (and each deadline loop the next due).

    With ``engine``, once the change is committed, the table is drawn for every seat
    and spectator whose stream is open (not for ``skip``, who asked and gets the
    answer) and pushed to them: what happened since version ``since``. ``seats``: the
    room's seats as committed, if the caller has them (else they are read then);
    ``parts``: the room's shared parts, if the caller shares them with its answer.
    """
    channel = room_channel(room.engine, room.code)
    version, due = room.version, next_due(room)
    if engine is None or not live.enabled():
        live.publish_on_commit(channel, version, due)
        return

    def publish() -> None:
        seated = seats if seats is not None else seats_of(room)
        views = body.pushed_views(engine, room, seated, since=since, skip=skip, parts=parts)
        live.publish(channel, version, due, views)

    transaction.on_commit(publish)


def announce_gone(engine: GameDefinition, code: str) -> None:
    live.publish_on_commit(room_channel(engine.key, code), live.GONE)


# --- Guards --------------------------------------------------------------------------------


def expect(ctx: Locked, expected: int | None, message: str = STALE) -> None:
    if expected is None or expected != ctx.room.version:
        raise Stale(message)


def seated(ctx: Locked, visitor: str) -> Seat:
    seat = ctx.seat_for(visitor)
    if seat is None or seat.left:
        raise RoomError(NOT_SEATED)
    return seat


def host(ctx: Locked, visitor: str) -> Seat:
    seat = seated(ctx, visitor)
    if not seat.is_host:
        raise RoomError(HOST_ONLY)
    return seat


def in_lobby(ctx: Locked) -> None:
    if ctx.room.status != Room.Status.LOBBY:
        raise RoomError("Das geht nur in der Lobby, bevor die Partie beginnt.")
