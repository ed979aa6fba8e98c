"""Room flows: create, join, lobby settings, bots, start, act, leave, rematch.

Every change runs in one transaction that locks the room row
(``select_for_update`` on PostgreSQL; SQLite's transactions are IMMEDIATE,
see settings) and first applies the deadlines that fell due meanwhile
(``scheduler.advance``). Game moves, „Neue Partie“ and „Zurück in die
Lobby“ name the room version they expect: a stale or repeated request
changes nothing. Lobby requests are safe to repeat by their nature (joining
is keyed by the visitor, settings by value, a bot by the form's one-time
token, a removal by the seat id, the start by the status), so a player who
just joined never makes the host's click fail. A refused request raises
nothing to the caller – it gets a ``Result`` with a German message and the
room as it is.
"""

from __future__ import annotations

import math
import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db import OperationalError, connection, transaction
from django.db.models import Min, Q

from games import clock
from games.engines.base import IllegalAction
from games.play.definition import TURNS, GameDefinition
from rooms import live, scheduler
from rooms.models import Room, Seat
from rooms.table import LOG_MAX, Table

NAME_MAX = 24
# Words the table uses itself: a player called „Du“ would make others read „Du ist am Zug“.
RESERVED_NAMES = frozenset(
    {"du", "dich", "dir", "ich", "wir", "ihr", "sie", "alle", "niemand", "jemand", "bot",
     "gastgeber", "spieler", "zuschauer"}
)  # fmt: skip
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


@dataclass
class Result:
    room: Room | None
    seats: list[Seat] = field(default_factory=list)
    applied: bool = False
    message: str = ""  # German note for the requester (a refusal or a stale request)
    stale: bool = False


def new_code() -> str:
    """An invite code: 96 random bits, URL-safe (16 characters)."""
    return secrets.token_urlsafe(12)


def new_seed() -> int:
    """The seed of a new game; tests replace this to get known deals."""
    return secrets.randbits(62)


def clean_name(raw) -> str:
    """A display name: whitespace trimmed and collapsed, 1–24 characters, no control characters."""
    name = " ".join(str(raw or "").split())
    if not name:
        raise RoomError("Bitte gib einen Namen ein (1 bis 24 Zeichen).")
    if len(name) > NAME_MAX:
        raise RoomError(f"Der Name ist zu lang: höchstens {NAME_MAX} Zeichen, du hast {len(name)}.")
    if any(unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn") for char in name):
        raise RoomError("Der Name enthält unzulässige Zeichen.")
    if name.casefold().strip(".!?") in RESERVED_NAMES:
        raise RoomError(
            f"„{name}“ verwenden wir am Tisch selbst (etwa „Du bist am Zug“). "
            "Bitte wähle einen anderen Namen."
        )
    return name


def seconds_left(moment: datetime | None, now: datetime) -> int | None:
    if moment is None:
        return None
    return max(0, math.ceil((moment - now).total_seconds()))


# --- The locked unit of work -----------------------------------------------------


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
        )

    def store(self, table: Table, human: bool = True) -> None:
        room = self.room
        if table.version != room.version:
            self.changed = True
            if human:
                room.last_activity = self.now
        room.state, room.version, room.log = table.state, table.version, table.log
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
                "options",
                "last_activity",
                "games_played",
            )
        }

    def restore(self, snapshot: dict) -> None:
        for name, value in snapshot.items():
            setattr(self.room, name, value)


def _idle(room: Room, now: datetime) -> bool:
    return room.last_activity < now - IDLE_AFTER


def _advance(ctx: Locked) -> None:
    """Apply every deadline that fell due (turn and scoring timeouts, bot moves)."""
    if ctx.room.status != Room.Status.PLAYING or not ctx.timers().overdue(ctx.now):
        return
    table = ctx.table()
    table.advance(ctx.now)
    ctx.store(table, human=False)
    _finish_if_over(ctx)


def _finish_if_over(ctx: Locked) -> None:
    if ctx.room.status == Room.Status.PLAYING and ctx.engine.outcome(ctx.room.state) is not None:
        ctx.room.status = Room.Status.FINISHED
        ctx.set_timers(scheduler.Timers())


def _run(engine: GameDefinition, code: str, work: Callable[[Locked], str | None]) -> Result:
    """``_run_locked``, retried when SQLite refuses the lock outright.

    File-based SQLite queues writers itself (IMMEDIATE transactions and a busy
    timeout); a shared-cache database (the in-memory test database) answers
    "table is locked" at once instead, so the transaction is simply tried again.
    """
    for attempt in range(LOCK_RETRIES):
        try:
            return _run_locked(engine, code, work)
        except OperationalError as error:
            if connection.vendor != "sqlite" or "locked" not in str(error):
                raise
            if attempt == LOCK_RETRIES - 1:
                raise
            time.sleep(0.005 * (attempt + 1))
    raise AssertionError("unreachable")


def _run_locked(engine: GameDefinition, code: str, work: Callable[[Locked], str | None]) -> Result:
    """Lock the room, apply due deadlines, run ``work`` and save.

    ``work`` returns an optional German note. It raises ``RoomError`` to refuse
    (its changes are undone; the deadlines applied before stay applied) or
    ``_Stale`` when the client's version is out of date.
    """
    with transaction.atomic():
        room = Room.objects.select_for_update().filter(code=code, engine=engine.key).first()
        now = clock.now()
        if room is None:
            return Result(None, message=MISSING)
        if _idle(room, now):
            room.delete()
            _announce_gone(engine, code)
            return Result(None, message=MISSING)
        ctx = Locked(engine, room, list(room.seats.all()), now)
        _advance(ctx)
        advanced, ctx.changed = ctx.changed, False
        snapshot = ctx.snapshot()
        result = Result(room)
        try:
            with transaction.atomic():  # a savepoint: seat writes of a refused request roll back
                note = work(ctx)
        except RoomError as error:
            ctx.restore(snapshot)
            ctx.changed = False
            result.message, result.stale = str(error), isinstance(error, _Stale)
        else:
            result.applied = ctx.changed
            result.message = note or ""
        if room.pk is None:  # the work closed the room (the last human left)
            _announce_gone(engine, code)
            result.room = None
            return result
        if ctx.changed or advanced:
            room.save()
            _announce(room)
        result.seats = list(room.seats.all())
        return result


class _Stale(RoomError):
    pass


# --- Live updates: notices after commit, and the deadline loop's work ------------------------


def _next_due(room: Room) -> datetime | None:
    if room.status != Room.Status.PLAYING:
        return None
    return scheduler.Timers(room.deadline, room.bot_due).next_due()


def _announce(room: Room) -> None:
    """Every browser in the room learns the new version (and each deadline loop the next due)."""
    live.publish_on_commit(live.room_channel(room.engine, room.code), room.version, _next_due(room))


def _announce_gone(engine: GameDefinition, code: str) -> None:
    live.publish_on_commit(live.room_channel(engine.key, code), live.GONE)


def _playing_due(now: datetime):
    return Room.objects.filter(
        status=Room.Status.PLAYING, last_activity__gte=now - IDLE_AFTER
    ).order_by()


def due_rooms(now: datetime, limit: int = 200) -> list[tuple[str, str]]:
    """``(engine key, code)`` of running rooms with a deadline due at ``now``."""
    rooms = _playing_due(now).filter(Q(deadline__lte=now) | Q(bot_due__lte=now))
    return list(rooms.values_list("engine", "code")[:limit])


def next_due(now: datetime) -> datetime | None:
    """The earliest deadline of any running room (None: nothing pending)."""
    found = _playing_due(now).aggregate(deadline=Min("deadline"), bot_due=Min("bot_due"))
    return scheduler.Timers(found["deadline"], found["bot_due"]).next_due()


def apply_due(engine: GameDefinition, code: str) -> bool:
    """The deadline loop: apply a room's overdue deadlines now and tell its browsers.

    PostgreSQL: ``select_for_update(skip_locked=True)`` – a room another process
    holds (a player's request or another server's loop) is skipped; whoever
    holds it applies the same deadlines itself, and the overdue check below runs
    on the row as committed by then, so no deadline is applied twice. SQLite
    has no row locks: the transaction is IMMEDIATE (settings), so a second loop
    waits for the first and then finds nothing overdue; a busy database is
    skipped until the next round. Returns whether anything was applied.
    """
    try:
        with transaction.atomic():
            room = (
                Room.objects.select_for_update(skip_locked=True)
                .filter(code=code, engine=engine.key)
                .first()
            )
            now = clock.now()
            if room is None or room.status != Room.Status.PLAYING or _idle(room, now):
                return False
            ctx = Locked(engine, room, list(room.seats.all()), now)
            _advance(ctx)
            if not ctx.changed:
                return False
            room.save()
            _announce(room)
            return True
    except OperationalError as error:
        if connection.vendor != "sqlite" or "locked" not in str(error):
            raise
        return False


def _expect(ctx: Locked, expected: int | None, message: str = STALE) -> None:
    if expected is None or expected != ctx.room.version:
        raise _Stale(message)


def _seated(ctx: Locked, visitor: str) -> Seat:
    seat = ctx.seat_for(visitor)
    if seat is None or seat.left:
        raise RoomError(NOT_SEATED)
    return seat


def _host(ctx: Locked, visitor: str) -> Seat:
    seat = _seated(ctx, visitor)
    if not seat.is_host:
        raise RoomError(HOST_ONLY)
    return seat


def _in_lobby(ctx: Locked) -> None:
    if ctx.room.status != Room.Status.LOBBY:
        raise RoomError("Das geht nur in der Lobby, bevor die Partie beginnt.")


# --- Reading -------------------------------------------------------------------------


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
    if version != client_version or last_activity < now - IDLE_AFTER:
        return False
    return not scheduler.Timers(deadline, bot_due).overdue(now)


def load(engine: GameDefinition, code: str) -> Result:
    """The room and its seats as of now; overdue deadlines are applied (and saved) first."""
    room = Room.objects.filter(code=code, engine=engine.key).first()
    now = clock.now()
    if room is None:
        return Result(None, message=MISSING)
    if _idle(room, now) or (
        room.status == Room.Status.PLAYING
        and scheduler.Timers(room.deadline, room.bot_due).overdue(now)
    ):
        return _run(engine, code, lambda ctx: None)
    return Result(room, list(room.seats.all()))


# --- Lobby -------------------------------------------------------------------------------


def cleanup(now: datetime | None = None) -> int:
    """Remove rooms without human activity for 24 hours; returns how many."""
    now = now or clock.now()
    deleted, per_model = Room.objects.filter(last_activity__lt=now - IDLE_AFTER).delete()
    return per_model.get(Room._meta.label, 0)


def create_room(engine: GameDefinition, visitor: str, name, data) -> Room:
    """A new room in the lobby with the visitor as host. Raises ``RoomError``."""
    name = clean_name(name)
    try:
        options = engine.clean_options(data)
    except ValueError as error:
        raise RoomError(str(error)) from None
    now = clock.now()
    cleanup(now)  # housekeeping: creating a room is the natural moment
    with transaction.atomic():
        room = Room.objects.create(
            code=new_code(),
            engine=engine.key,
            options=options,
            status=Room.Status.LOBBY,
            version=1,
            created_at=now,
            last_activity=now,
        )
        Seat.objects.create(
            room=room, number=0, name=name, visitor=visitor, is_host=True, joined_at=now
        )
    return room


def _require_free_seat(ctx: Locked) -> None:
    limit = ctx.engine.max_players
    if len(ctx.active()) >= limit:
        raise RoomError(f"Der Raum ist voll – alle {limit} Plätze sind besetzt.")


def _name_taken(ctx: Locked, name: str) -> bool:
    wanted = name.casefold()
    return any(s.name.casefold() == wanted for s in ctx.active())


def join(engine: GameDefinition, code: str, visitor: str, name) -> Result:
    return _run(engine, code, _joining(visitor, name))


NOT_PUBLIC = "Dieser Raum ist nicht (mehr) öffentlich. Mitspielen kann nur, wer eingeladen wurde."


def join_public(engine: GameDefinition, public_code: str, visitor: str, name) -> Result:
    """Join from „Mitspieler finden“: the room is named by its public code, never by its
    invite code, and must still be public; seats, names and status as for ``join``."""
    code = (
        Room.objects.filter(public_code=str(public_code or ""), engine=engine.key, is_public=True)
        .values_list("code", flat=True)
        .first()
    )
    if code is None:
        return Result(None, message=NOT_PUBLIC)
    joining = _joining(visitor, name)

    def work(ctx: Locked):
        # The host may have made the room private since the lookup.
        if not ctx.room.is_public or ctx.room.public_code != public_code:
            raise RoomError(NOT_PUBLIC)
        return joining(ctx)

    return _run(engine, code, work)


def new_public_code() -> str:
    """The room's name in public lists: 48 random bits, unrelated to the invite code."""
    return secrets.token_urlsafe(6)


def set_public(
    engine: GameDefinition, code: str, visitor: str, public: bool, expected: int | None
) -> Result:
    """The host lists the room under „Mitspieler finden“ (or takes it off again).

    Names the version the host saw: who joined meanwhile may change the host's mind.
    """

    def work(ctx: Locked):
        _host(ctx, visitor)
        _in_lobby(ctx)
        _expect(ctx, expected, STALE_LOBBY)
        room = ctx.room
        if room.is_public == public:
            return None
        room.is_public = public
        # A new code each time: a list still open somewhere cannot join a room made private.
        room.public_code = new_public_code() if public else None
        room.public_since = ctx.now if public else None
        ctx.bump()
        if public:
            return "Der Raum ist jetzt öffentlich: Er steht unter „Mitspieler finden“."
        return "Der Raum ist jetzt privat: Nur wer den Link hat, kann beitreten."

    return _run(engine, code, work)


def _joining(visitor: str, name) -> Callable[[Locked], str | None]:
    def work(ctx: Locked):
        seat = ctx.seat_for(visitor)
        if seat is not None and not seat.left:
            return "Du sitzt schon an diesem Tisch."
        if ctx.room.status == Room.Status.PLAYING:
            raise RoomError(
                "Die Partie läuft bereits – neue Mitspieler können erst bei der nächsten Partie "
                "dazukommen. Bis dahin kannst du zuschauen."
            )
        if ctx.room.status == Room.Status.FINISHED:
            raise RoomError(
                "Diese Partie ist schon vorbei. Sobald der Gastgeber zurück in die Lobby geht, "
                "kannst du beitreten."
            )
        clean = clean_name(name)
        _require_free_seat(ctx)
        if _name_taken(ctx, clean):
            raise RoomError(
                f"Den Namen „{clean}“ gibt es in diesem Raum schon. Bitte wähle einen anderen."
            )
        ctx.add_seat(name=clean, visitor=visitor)
        ctx.bump()
        return None

    return work


def update_options(engine: GameDefinition, code: str, visitor: str, data) -> Result:
    def work(ctx: Locked):
        _host(ctx, visitor)
        _in_lobby(ctx)
        try:
            options = engine.clean_options(data, current=ctx.room.options)
        except ValueError as error:
            raise RoomError(str(error)) from None
        if options != ctx.room.options:
            ctx.room.options = options
            ctx.bump()
            return "Einstellungen übernommen."
        return None

    return _run(engine, code, work)


def add_bot(engine: GameDefinition, code: str, visitor: str, token: str = "") -> Result:
    """Add a bot. ``token`` comes with the form: a repeated request adds no second bot."""
    token = str(token or "")[:32]

    def work(ctx: Locked):
        _host(ctx, visitor)
        _in_lobby(ctx)
        if token and any(s.token == token for s in ctx.seats):
            return None
        _require_free_seat(ctx)
        taken = {s.name.casefold() for s in ctx.active()}
        name = next(
            (n for n in engine.bot_names if n.casefold() not in taken),
            f"Bot {len(ctx.seats) + 1}",
        )
        ctx.add_seat(name=name, is_bot=True, token=token)
        ctx.bump()
        return None

    return _run(engine, code, work)


def remove_bot(engine: GameDefinition, code: str, visitor: str, seat_id) -> Result:
    """Take a bot off the table; ``seat_id`` is the seat's id (never reused)."""

    def work(ctx: Locked):
        _host(ctx, visitor)
        _in_lobby(ctx)
        seat = next((s for s in ctx.seats if str(s.pk) == str(seat_id)), None)
        if seat is None:
            raise RoomError("Diesen Platz gibt es nicht (mehr).")
        if not seat.is_bot:
            raise RoomError("Nur Bots kann der Gastgeber vom Tisch nehmen.")
        seat.delete()
        ctx.seats.remove(seat)
        ctx.bump()
        return None

    return _run(engine, code, work)


def _renumber(ctx: Locked) -> list[Seat]:
    """Drop seats that left and number the rest 0, 1, 2 … in seating order."""
    for seat in [s for s in ctx.seats if s.left]:
        seat.delete()
    ctx.seats = sorted((s for s in ctx.seats if not s.left), key=lambda s: s.number)
    for index, seat in enumerate(ctx.seats):  # ascending, so numbers never collide
        if seat.number != index:
            seat.number = index
            seat.save(update_fields=["number"])
    return ctx.seats


def _deal_new_game(ctx: Locked) -> None:
    room = ctx.room
    seats = _renumber(ctx)
    table = ctx.table()
    try:
        table.deal(new_seed(), [s.name for s in seats], room.options, ctx.now)
    except ValueError as refused:  # the engine refuses these settings for this many players
        raise RoomError(str(refused)) from None
    room.status = Room.Status.PLAYING
    room.games_played += 1
    ctx.store(table)


def start(engine: GameDefinition, code: str, visitor: str) -> Result:
    """Deal the first game. Repeating it changes nothing: the game already runs."""

    def work(ctx: Locked):
        _host(ctx, visitor)
        if ctx.room.status == Room.Status.PLAYING:
            raise _Stale("Die Partie läuft bereits.")
        _in_lobby(ctx)
        count = len(ctx.active())
        if count < engine.min_players:
            raise RoomError(
                f"Zum Starten braucht es mindestens {engine.min_players} Spieler – "
                "lade jemanden ein oder nimm einen Bot dazu."
            )
        if count > engine.max_players:
            raise RoomError(f"Es dürfen höchstens {engine.max_players} Spieler mitmachen.")
        _deal_new_game(ctx)
        return None

    return _run(engine, code, work)


# --- Playing -----------------------------------------------------------------------------


def act(engine: GameDefinition, code: str, visitor: str, expected: int | None, data) -> Result:
    def work(ctx: Locked):
        seat = _seated(ctx, visitor)
        room = ctx.room
        if room.status == Room.Status.LOBBY:
            raise RoomError("Die Partie hat noch nicht begonnen.")
        if room.status == Room.Status.FINISHED:
            raise _Stale("Die Partie ist vorbei.")
        table = ctx.table()
        # Simultaneous games: the engine checks each action itself. A side event
        # since the client's version (a partner's hint) leaves its move current.
        if engine.mode == TURNS and not table.shows_current(expected):
            raise _Stale(STALE)
        action = engine.parse_action(data)
        if action is None:
            raise RoomError("Unbekannte Aktion.")
        try:
            table.act(seat.number, action, ctx.now)
        except IllegalAction as error:
            raise RoomError(str(error)) from None
        ctx.store(table)
        _finish_if_over(ctx)
        return None

    return _run(engine, code, work)


def leave(engine: GameDefinition, code: str, visitor: str) -> Result:
    """„Raum verlassen“: out of the lobby, or out of the running game for good.

    The host passes to the next human; the room closes when no human is left.
    """

    def work(ctx: Locked):
        seat = ctx.seat_for(visitor)
        if seat is None:
            raise RoomError(NOT_SEATED)
        if seat.left:
            raise RoomError("Du hast den Raum schon verlassen.")
        room = ctx.room
        events = []
        if room.status == Room.Status.LOBBY:
            seat.delete()
            ctx.seats.remove(seat)
        else:
            seat.left = True
            seat.save(update_fields=["left"])
            if room.status == Room.Status.PLAYING:
                table = ctx.table()
                events = table.remove(seat.number, ctx.now)
                room.state = table.state
                ctx.set_timers(table.timers)
        if not ctx.humans():
            room.delete()
            return "Du hast den Raum verlassen. Weil niemand mehr da war, ist er jetzt geschlossen."
        if seat.is_host:
            if seat.pk is not None:  # still seated (as left) during or after a game
                seat.is_host = False
                seat.save(update_fields=["is_host"])
            successor = _next_human(ctx, seat.number)
            successor.is_host = True
            successor.save(update_fields=["is_host"])
            events.append(
                {
                    "type": "host",
                    "seat": successor.number,
                    "text": f"{successor.name} ist jetzt Gastgeber.",
                }
            )
        ctx.bump(events if room.state is not None else ())
        _finish_if_over(ctx)
        return "Du hast den Raum verlassen."

    return _run(engine, code, work)


def _next_human(ctx: Locked, number: int) -> Seat:
    humans = sorted(ctx.humans(), key=lambda s: s.number)
    return next((s for s in humans if s.number > number), humans[0])


def rematch(engine: GameDefinition, code: str, visitor: str, expected: int | None) -> Result:
    """„Neue Partie“: same room, same people (who did not leave), same settings."""

    def work(ctx: Locked):
        _seated(ctx, visitor)
        if ctx.room.status != Room.Status.FINISHED:
            raise _Stale(
                "Die Partie läuft noch." if ctx.room.status == Room.Status.PLAYING else STALE_LOBBY
            )
        _expect(ctx, expected, STALE_LOBBY)
        if len(ctx.active()) < engine.min_players:
            _back_to_lobby(ctx)
            return "Für eine neue Partie fehlen Mitspieler – lade jemanden ein oder nimm einen Bot dazu."
        _deal_new_game(ctx)
        return None

    return _run(engine, code, work)


def to_lobby(engine: GameDefinition, code: str, visitor: str, expected: int | None) -> Result:
    """The host takes the room back to the lobby to change settings or invite more people."""

    def work(ctx: Locked):
        _host(ctx, visitor)
        if ctx.room.status == Room.Status.LOBBY:
            raise _Stale(STALE_LOBBY)
        if ctx.room.status != Room.Status.FINISHED:
            raise RoomError("Zurück in die Lobby geht es erst, wenn die Partie vorbei ist.")
        _expect(ctx, expected, STALE_LOBBY)
        _back_to_lobby(ctx)
        return None

    return _run(engine, code, work)


def _back_to_lobby(ctx: Locked) -> None:
    _renumber(ctx)
    room = ctx.room
    room.status = Room.Status.LOBBY
    room.state = None
    room.log = []
    if room.is_public:  # waiting again: listed as a fresh room
        room.public_since = ctx.now
    ctx.set_timers(scheduler.Timers())
    ctx.bump()
