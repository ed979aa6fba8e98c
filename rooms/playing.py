"""At a room's table: moves, „Neue Partie“ with the same people, and back to the lobby.

Moves, the rematch and the way back to the lobby name the room version they
expect: a stale or repeated request changes nothing. Turn-based games check
the whole table's version; in simultaneous games the engine checks each move
against the table itself.
"""

from __future__ import annotations

import secrets

from games.engines.base import IllegalAction
from games.play import scheduler
from games.play.definition import TURNS, GameDefinition
from rooms import locked
from rooms.locked import RoomError
from rooms.models import Room, Seat


def act(
    engine: GameDefinition, code: str, visitor: str, expected: int | None, data
) -> locked.Result:
    def work(ctx: locked.Locked):
        seat = locked.seated(ctx, visitor)
        room = ctx.room
        if room.status == Room.Status.LOBBY:
            raise RoomError("Die Partie hat noch nicht begonnen.")
        if room.status == Room.Status.FINISHED:
            raise locked.Stale("Die Partie ist vorbei.")
        table = ctx.table()
        # Simultaneous games: the engine checks each action itself. A side event
        # since the client's version (a partner's hint) leaves its move current.
        if engine.mode == TURNS and not table.shows_current(expected):
            raise locked.Stale(locked.STALE)
        action = engine.parse_action(data)
        if action is None:
            raise RoomError("Unbekannte Aktion.")
        try:
            table.act(seat.number, action, ctx.now)
        except IllegalAction as error:
            raise RoomError(str(error)) from None
        ctx.store(table)
        locked.finish_if_over(ctx)  # the only write (a finished game's replay), after every check
        return None

    return locked.run(engine, code, work, visitor, writes_before_refusing=False)


def rematch(engine: GameDefinition, code: str, visitor: str, expected: int | None) -> locked.Result:
    """„Neue Partie“: same room, same people (who did not leave), same settings."""

    def work(ctx: locked.Locked):
        locked.seated(ctx, visitor)
        if ctx.room.status != Room.Status.FINISHED:
            raise locked.Stale(
                "Die Partie läuft noch."
                if ctx.room.status == Room.Status.PLAYING
                else locked.STALE_LOBBY
            )
        locked.expect(ctx, expected, locked.STALE_LOBBY)
        if len(ctx.active()) < engine.min_players:
            _back_to_lobby(ctx)
            return "Für eine neue Partie fehlen Mitspieler – lade jemanden ein oder nimm einen Bot dazu."
        deal_new_game(ctx)
        return None

    return locked.run(engine, code, work, visitor)


def to_lobby(
    engine: GameDefinition, code: str, visitor: str, expected: int | None
) -> locked.Result:
    """The host takes the room back to the lobby to change settings or invite more people."""

    def work(ctx: locked.Locked):
        locked.host(ctx, visitor)
        if ctx.room.status == Room.Status.LOBBY:
            raise locked.Stale(locked.STALE_LOBBY)
        if ctx.room.status != Room.Status.FINISHED:
            raise RoomError("Zurück in die Lobby geht es erst, wenn die Partie vorbei ist.")
        locked.expect(ctx, expected, locked.STALE_LOBBY)
        _back_to_lobby(ctx)
        return None

    return locked.run(engine, code, work, visitor)


def _renumber(ctx: locked.Locked) -> list[Seat]:
    """Drop seats that left and number the rest 0, 1, 2 … in seating order."""
    for seat in [s for s in ctx.seats if s.left]:
        seat.delete()
    ctx.seats = sorted((s for s in ctx.seats if not s.left), key=lambda s: s.number)
    for index, seat in enumerate(ctx.seats):  # ascending, so numbers never collide
        if seat.number != index:
            seat.number = index
            seat.save(update_fields=["number"])
    return ctx.seats


def deal_new_game(ctx: locked.Locked) -> None:
    """A new game for the seats still at the table (the lobby's start and the rematch)."""
    room = ctx.room
    seats = _renumber(ctx)
    table = ctx.table()
    try:
        table.deal([s.name for s in seats], room.options, ctx.now)
    except ValueError as refused:  # the engine refuses these settings for this many players
        raise RoomError(str(refused)) from None
    room.status = Room.Status.PLAYING
    if not room.watch_code:  # rooms opened before spectators had a code of their own
        room.watch_code = secrets.token_urlsafe(12)
    room.games_played += 1
    ctx.store(table)


def _back_to_lobby(ctx: locked.Locked) -> None:
    _renumber(ctx)
    room = ctx.room
    room.status = Room.Status.LOBBY
    room.state = None
    room.record = None
    room.log = []
    if room.is_public:  # waiting again: listed as a fresh room
        room.public_since = ctx.now
    ctx.set_timers(scheduler.Timers())
    ctx.bump()
