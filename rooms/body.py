"""What one viewer sees of a room: the context of the room body (lobby, table, join
form) for a seat, or for a spectator – the same for a page, a poll and a push.

``context`` needs no request: a push is rendered by whoever changed the table (a
player's request or the deadline loop) for every viewer who watches. ``view_key``
names the viewer in the push channels: a seat by its id, which stays the same
when seats are numbered anew for the next game, or ``WATCHING`` for everyone
without a seat at the table.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.template.loader import render_to_string
from django.urls import get_script_prefix, get_urlconf, reverse

from games import clock
from games.play import live, replays
from games.play.definition import GameDefinition
from rooms import watching
from rooms.models import Room, Seat

BODY = "rooms/room.html#body"
WATCHING = "watch"


def view_key(seat: Seat | None) -> str:
    return f"seat-{seat.pk}" if seat is not None and not seat.left else WATCHING


def seconds_left(moment: datetime | None, now: datetime) -> int | None:
    if moment is None:
        return None
    return max(0, math.ceil((moment - now).total_seconds()))


ROOM_URLS = {  # key in the body's context -> URL name (rooms/urls.py)
    name: name
    for name in (
        "room",
        "poll",
        "join",
        "options",
        "add_bot",
        "remove_bot",
        "start",
        "act",
        "leave",
        "rematch",
        "lobby",
        "visibility",
    )
}
WATCH_URLS = {"room": "watch", "poll": "watch_poll", "live": "watch_live"}
_CODE = "__code__"  # stands for the room's code in the kept URLs (never part of a slug we make)


@functools.cache
def _url_shapes(urlconf, prefix: str, slug: str, code_kwarg: str, names: tuple) -> dict:
    """A game's room URLs with a stand-in for the code, reversed once per process (a room
    body names fifteen URLs; reversing each costs about 50 µs on every render)."""
    return {
        key: reverse(f"rooms:{name}", kwargs={"slug": slug, code_kwarg: _CODE})
        for key, name in names
    }


def _urls(slug: str, code_kwarg: str, names: tuple, code: str) -> dict:
    shapes = _url_shapes(get_urlconf(), get_script_prefix(), slug, code_kwarg, names)
    return {key: shape.replace(_CODE, code) for key, shape in shapes.items()}


def urls(engine: GameDefinition, code: str) -> dict:
    return _urls(engine.slug, "code", tuple(ROOM_URLS.items()), code)


def _replay_url(room: Room) -> str:
    """The finished game's replay (its players may open it; rooms.locked keeps it)."""
    replay = replays.replay_id(room.record) if room.status == Room.Status.FINISHED else None
    return reverse("games:replay", kwargs={"replay_id": replay}) if replay else ""


def watch_urls(engine: GameDefinition, watch_code: str) -> dict:
    return _urls(engine.slug, "watch_code", tuple(WATCH_URLS.items()), watch_code)


@dataclass(frozen=True)
class RoomParts:
    """What every viewer's body of one room at one version shares: drawn once when a
    change is pushed to several viewers."""

    urls: dict
    watch_urls: dict
    watchers: int
    replay_url: str


def room_parts(engine: GameDefinition, room: Room) -> RoomParts:
    return RoomParts(
        urls=urls(engine, room.code),
        watch_urls=watch_urls(engine, room.watch_code) if room.watch_code else {},
        watchers=watching.count(room) if room.status != Room.Status.LOBBY else 0,
        replay_url=_replay_url(room),
    )


def shared_parts(engine: GameDefinition, room: Room) -> Callable[[], RoomParts]:
    """``room_parts``, drawn at the first call and then shared by every viewer's body."""
    return functools.cache(functools.partial(room_parts, engine, room))


def context(
    engine: GameDefinition,
    room: Room,
    seats: list[Seat],
    me: Seat | None,
    *,
    origin: str,
    message: str = "",
    since: int | None = None,
    pushed: bool = False,
    spectator: bool = False,
    parts: RoomParts | None = None,
) -> dict:
    """The room body for the visitor at seat ``me`` (None: a spectator).

    ``origin`` (scheme and host) makes the invite link absolute; ``pushed``: the
    body goes to a page whose stream is open; ``spectator``: the watch link's page;
    ``parts``: the room's shared parts, if already drawn for another viewer.
    Whoever has no seat at a running table gets the one spectators' body (it is
    pushed to all of them alike): the watch code's URLs, never the invite code.
    """
    parts = parts or room_parts(engine, room)
    playing_seat = me if me is not None and not me.left else None
    active = [s for s in seats if not s.left]
    host = next((s for s in seats if s.is_host), None)
    is_host = playing_seat is not None and playing_seat.is_host
    spectator = bool(room.watch_code) and (
        spectator or (playing_seat is None and room.status != Room.Status.LOBBY)
    )
    room_urls = parts.watch_urls if spectator else parts.urls

    table = None
    if room.state is not None:
        seat_number = playing_seat.number if playing_seat else None
        table = engine.present(
            engine.view(room.state, seat_number),
            bots={s.number for s in seats if s.is_bot},
            hosts={s.number for s in seats if s.is_host},
            remaining=seconds_left(room.deadline, clock.now()),
            log=room.log,
            since=since,
        )

    count = len(active)
    if count < engine.min_players:
        start_reason = (
            f"Zum Starten braucht es mindestens {engine.min_players} Spieler – "
            "teile den Link oder nimm einen Bot dazu."
        )
    else:
        start_reason = ""
    news = [message] if message else []
    if table is not None and since is not None:
        news += table.news
        if table.news and table.attention:
            news.append(table.status)
    return {
        "engine": engine,
        "room": room,
        "status": room.status,
        "me": playing_seat,
        "me_left": me is not None and me.left,
        "is_host": is_host,
        "host": host,
        "seats": [
            {
                "id": s.pk,
                "number": s.number,
                "name": s.name,
                "is_me": s is playing_seat,
                "is_host": s.is_host,
                "is_bot": s.is_bot,
            }
            for s in active
        ],
        "player_count": count,
        "free_seats": engine.max_players - count,
        "min_players": engine.min_players,
        "max_players": engine.max_players,
        "can_start": is_host and not start_reason,
        "start_reason": start_reason,
        # Worked out only where drawn (the lobby): a template calls what it is given.
        "options": functools.partial(engine.option_choices, room.options),
        "option_summary": functools.partial(engine.option_summary, room.options),
        "invite_url": "" if spectator else origin + room_urls["room"],
        "spectator": spectator,
        # The host passes the watch link on (the only way into a private room's game).
        "watch_url": origin + parts.watch_urls["room"] if is_host and room.watch_code else "",
        "watchers": parts.watchers,
        "replay_url": parts.replay_url,
        "table": table,
        "table_template": engine.table_template,
        "urls": room_urls,
        "version": room.version,
        "message": message,
        "live": " ".join(news),
        "target_id": "room-body",
        "viewer": view_key(me),
        "pushed": pushed,
    }


def pushed_views(
    engine: GameDefinition,
    room: Room,
    seats: list[Seat],
    *,
    since: int,
    skip: Seat | None,
    parts: Callable[[], RoomParts] | None = None,
) -> live.Views:
    """A running table as every viewer but ``skip`` (who gets the answer to their own
    request) sees it, to be rendered for those who watch (``live.publish``). ``parts``:
    gives the room's shared parts (drawn with the first view somebody watches)."""
    if room.status == Room.Status.LOBBY:
        return {}  # who sits where still changes: pages fetch the lobby themselves
    shared = parts or shared_parts(engine, room)

    def render(me: Seat | None):
        def draw() -> str:
            body = context(
                engine,
                room,
                seats,
                me,
                origin=live.PUSH_ORIGIN,
                since=since,
                pushed=True,
                parts=shared(),
            )
            return render_to_string(BODY, body)

        return draw

    views = {
        view_key(seat): render(seat)
        for seat in seats
        if not seat.is_bot and not seat.left and seat != skip
    }
    views[WATCHING] = render(None)
    return views
