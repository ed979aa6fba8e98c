"""Before the game: opening a room, the host's settings, listing it publicly, the start.

Lobby requests are safe to repeat by their nature (settings by value,
visibility by the version the host saw, the start by the status), so a player
who just joined never makes the host's click fail. Seats – joining, bots,
leaving – are ``rooms.seating``.
"""

from __future__ import annotations

import secrets

from django.db import transaction

from games import clock
from games.play.definition import GameDefinition
from rooms import locked, playing
from rooms.cleanup import cleanup
from rooms.locked import RoomError
from rooms.models import Room, Seat
from rooms.seating import clean_name


def new_code() -> str:
    """An invite code: 96 random bits, URL-safe (16 characters)."""
    return secrets.token_urlsafe(12)


def new_public_code() -> str:
    """The room's name in public lists: 48 random bits, unrelated to the invite code."""
    return secrets.token_urlsafe(6)


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
            watch_code=new_code(),
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


def set_public(
    engine: GameDefinition, code: str, visitor: str, public: bool, expected: int | None
) -> locked.Result:
    """The host lists the room under „Mitspieler finden“ (or takes it off again).

    Names the version the host saw: who joined meanwhile may change the host's mind.
    """

    def work(ctx: locked.Locked):
        locked.host(ctx, visitor)
        locked.in_lobby(ctx)
        locked.expect(ctx, expected, locked.STALE_LOBBY)
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

    return locked.run(engine, code, work, visitor)


def update_options(engine: GameDefinition, code: str, visitor: str, data) -> locked.Result:
    def work(ctx: locked.Locked):
        locked.host(ctx, visitor)
        locked.in_lobby(ctx)
        try:
            options = engine.clean_options(data, current=ctx.room.options)
        except ValueError as error:
            raise RoomError(str(error)) from None
        if options != ctx.room.options:
            ctx.room.options = options
            ctx.bump()
            return "Einstellungen übernommen."
        return None

    return locked.run(engine, code, work, visitor)


def start(engine: GameDefinition, code: str, visitor: str) -> locked.Result:
    """Deal the first game. Repeating it changes nothing: the game already runs."""

    def work(ctx: locked.Locked):
        locked.host(ctx, visitor)
        if ctx.room.status == Room.Status.PLAYING:
            raise locked.Stale("Die Partie läuft bereits.")
        locked.in_lobby(ctx)
        count = len(ctx.active())
        if count < engine.min_players:
            raise RoomError(
                f"Zum Starten braucht es mindestens {engine.min_players} Spieler – "
                "lade jemanden ein oder nimm einen Bot dazu."
            )
        if count > engine.max_players:
            raise RoomError(f"Es dürfen höchstens {engine.max_players} Spieler mitmachen.")
        playing.deal_new_game(ctx)
        return None

    return locked.run(engine, code, work, visitor)
