"""Who sits at a room's table: display names, joining by invitation or from
„Mitspieler finden“, the host's bots, and leaving (the host passes on; the last
human closes the room).

Joining is keyed by the visitor and a bot by the form's one-time token, so a
repeated request takes no second seat.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

from games.play.definition import GameDefinition
from rooms import locked
from rooms.locked import RoomError
from rooms.models import Room, Seat

NAME_MAX = 24
# Words the table uses itself: a player called „Du“ would make others read „Du ist am Zug“.
RESERVED_NAMES = frozenset(
    {"du", "dich", "dir", "ich", "wir", "ihr", "sie", "alle", "niemand", "jemand", "bot",
     "gastgeber", "spieler", "zuschauer"}
)  # fmt: skip
NOT_PUBLIC = "Dieser Raum ist nicht (mehr) öffentlich. Mitspielen kann nur, wer eingeladen wurde."


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


def join(engine: GameDefinition, code: str, visitor: str, name) -> locked.Result:
    return locked.run(engine, code, _joining(visitor, name), visitor)


def join_public(engine: GameDefinition, public_code: str, visitor: str, name) -> locked.Result:
    """Join from „Mitspieler finden“: the room is named by its public code, never by its
    invite code, and must still be public; seats, names and status as for ``join``."""
    code = (
        Room.objects.filter(public_code=str(public_code or ""), engine=engine.key, is_public=True)
        .values_list("code", flat=True)
        .first()
    )
    if code is None:
        return locked.Result(None, message=NOT_PUBLIC)
    joining = _joining(visitor, name)

    def work(ctx: locked.Locked):
        # The host may have made the room private since the lookup.
        if not ctx.room.is_public or ctx.room.public_code != public_code:
            raise RoomError(NOT_PUBLIC)
        return joining(ctx)

    return locked.run(engine, code, work, visitor)


def _joining(visitor: str, name) -> Callable[[locked.Locked], str | None]:
    def work(ctx: locked.Locked):
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
        require_free_seat(ctx)
        if _name_taken(ctx, clean):
            raise RoomError(
                f"Den Namen „{clean}“ gibt es in diesem Raum schon. Bitte wähle einen anderen."
            )
        ctx.add_seat(name=clean, visitor=visitor)
        ctx.bump()
        return None

    return work


def require_free_seat(ctx: locked.Locked) -> None:
    limit = ctx.engine.max_players
    if len(ctx.active()) >= limit:
        raise RoomError(f"Der Raum ist voll – alle {limit} Plätze sind besetzt.")


def _name_taken(ctx: locked.Locked, name: str) -> bool:
    wanted = name.casefold()
    return any(s.name.casefold() == wanted for s in ctx.active())


def add_bot(engine: GameDefinition, code: str, visitor: str, token: str = "") -> locked.Result:
    """Add a bot. ``token`` comes with the form: a repeated request adds no second bot."""
    token = str(token or "")[:32]

    def work(ctx: locked.Locked):
        locked.host(ctx, visitor)
        locked.in_lobby(ctx)
        if token and any(s.token == token for s in ctx.seats):
            return None
        require_free_seat(ctx)
        taken = {s.name.casefold() for s in ctx.active()}
        name = next(
            (n for n in engine.bot_names if n.casefold() not in taken),
            f"Bot {len(ctx.seats) + 1}",
        )
        ctx.add_seat(name=name, is_bot=True, token=token)
        ctx.bump()
        return None

    return locked.run(engine, code, work, visitor)


def remove_bot(engine: GameDefinition, code: str, visitor: str, seat_id) -> locked.Result:
    """Take a bot off the table; ``seat_id`` is the seat's id (never reused)."""

    def work(ctx: locked.Locked):
        locked.host(ctx, visitor)
        locked.in_lobby(ctx)
        seat = next((s for s in ctx.seats if str(s.pk) == str(seat_id)), None)
        if seat is None:
            raise RoomError("Diesen Platz gibt es nicht (mehr).")
        if not seat.is_bot:
            raise RoomError("Nur Bots kann der Gastgeber vom Tisch nehmen.")
        seat.delete()
        ctx.seats.remove(seat)
        ctx.bump()
        return None

    return locked.run(engine, code, work, visitor)


def leave(engine: GameDefinition, code: str, visitor: str) -> locked.Result:
    """„Raum verlassen“: out of the lobby, or out of the running game for good.

    The host passes to the next human; the room closes when no human is left.
    """

    def work(ctx: locked.Locked):
        seat = ctx.seat_for(visitor)
        if seat is None:
            raise RoomError(locked.NOT_SEATED)
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
                room.state, room.record = table.state, table.record
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
        locked.finish_if_over(ctx)
        return "Du hast den Raum verlassen."

    return locked.run(engine, code, work, visitor)


def _next_human(ctx: locked.Locked, number: int) -> Seat:
    humans = sorted(ctx.humans(), key=lambda s: s.number)
    return next((s for s in humans if s.number > number), humans[0])
