"""„Mitspieler finden“: the open public rooms, read in one indexed query.

A room is listed while it is public, waits in the lobby with a seat free, and a
human did something there within the last hour (a host who closed the tab long
ago leaves no trap for strangers). Rows carry the public code only – the
invite code never leaves this module.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache

from django.db import connection

from games import availability, clock
from games.play import definition as registry
from games.play.definition import GameDefinition
from rooms.models import Room, Seat

LISTED_WHILE_IDLE = timedelta(hours=1)
LIST_MAX = 20  # per list; a busy evening still fits one screen of the site-wide page


@dataclass(frozen=True)
class OpenRoom:
    public_code: str
    definition: GameDefinition
    host: str
    taken: int
    options: list[tuple[str, str]]  # (label, value) of the host's settings
    waiting: str  # „seit 2 Min.“
    mine: bool  # the requesting visitor sits at this table (may open it by its link)
    version: int

    @property
    def max_players(self) -> int:
        return self.definition.max_players

    @property
    def free(self) -> int:
        return self.max_players - self.taken

    @property
    def pips(self) -> list[bool]:
        """One mark per seat, taken seats first (drawn as filled dots)."""
        return [True] * self.taken + [False] * self.free

    @property
    def slug(self) -> str:
        return self.definition.slug

    @property
    def title(self) -> str:
        return self.definition.title


def room_definitions(request=None, slug: str | None = None) -> list[GameDefinition]:
    """Games with rooms whose pages the reader may open (one game when ``slug`` is given)."""
    definitions = [d for d in registry.all_definitions() if d.rooms]
    if slug is not None:
        definitions = [d for d in definitions if d.slug == slug]
    published = availability.published_slugs()
    return [
        d
        for d in definitions
        if d.slug in published or (request is not None and availability.is_open(request, d.slug))
    ]


def waiting_label(since: datetime, now: datetime) -> str:
    minutes = max(0, int((now - since).total_seconds() // 60))
    if minutes < 1:
        return "seit gerade eben"
    if minutes < 60:
        return f"seit {minutes} Min."
    hours = minutes // 60
    return f"seit {hours} Std."


@lru_cache(maxsize=64)
def _open_rooms_sql(sizes: tuple[tuple[str, int], ...], by_code: bool) -> str:
    """The list's one query, written once per set of games.

    Hand-written because the list is polled every ten seconds by every open game
    page: composing the same ORM query each time cost several times its run
    time. Correlated subqueries, not a join with GROUP BY, so each room costs an
    index lookup on its seats; the rooms come from the partial index
    ``room_public_lobby`` (is_public and status are its condition).
    """
    quote = connection.ops.quote_name
    room, seat, left = quote(Room._meta.db_table), quote(Seat._meta.db_table), quote("left")
    taken = f"(SELECT COUNT(*) FROM {seat} s WHERE s.room_id = r.id AND s.{left} = %s)"
    size = "CASE r.engine " + " ".join("WHEN %s THEN %s" for _ in sizes) + " END"
    engines = ", ".join("%s" for _ in sizes)
    return (
        f"SELECT r.id, r.public_code, r.engine, r.options, r.public_since, r.version, "
        f"{taken} AS taken, "
        f"(SELECT s.name FROM {seat} s WHERE s.room_id = r.id AND s.is_host = %s "
        f"ORDER BY s.number LIMIT 1) AS host, "
        f"EXISTS(SELECT 1 FROM {seat} s WHERE s.room_id = r.id AND s.visitor = %s "
        f"AND s.{left} = %s) AS mine "
        f"FROM {room} r "
        f"WHERE r.is_public = %s AND r.status = %s AND r.engine IN ({engines}) "
        f"AND r.last_activity >= %s AND {taken} < {size}"
        + (" AND r.public_code = %s" if by_code else "")
        + " ORDER BY r.public_since DESC, r.id DESC LIMIT %s"
    )


def open_rooms(
    definitions: list[GameDefinition],
    visitor: str | None = None,
    now: datetime | None = None,
    public_code: str | None = None,
) -> list[OpenRoom]:
    """Public lobby rooms with a free seat of these games, newest first – one query.

    ``public_code``: only that room (empty when it is not open).
    """
    if not definitions:
        return []
    now = now or clock.now()
    by_key = {d.key: d for d in definitions}
    sizes = tuple(sorted((d.key, d.max_players) for d in definitions))
    params: list = [False, True, visitor or "", False, True, Room.Status.LOBBY.value]
    params += [key for key, _ in sizes]
    params += [connection.ops.adapt_datetimefield_value(now - LISTED_WHILE_IDLE), False]
    params += [value for pair in sizes for value in pair]
    if public_code is not None:
        params.append(public_code)
    params.append(LIST_MAX)
    rows = Room.objects.raw(_open_rooms_sql(sizes, public_code is not None), params)
    result = []
    for row in rows:
        definition = by_key[row.engine]
        result.append(
            OpenRoom(
                public_code=row.public_code,
                definition=definition,
                host=row.host or "",
                taken=row.taken,
                options=definition.option_summary(row.options or {}),
                waiting=waiting_label(row.public_since or now, now),
                mine=bool(visitor) and bool(row.mine),
                version=row.version,
            )
        )
    return result


def fingerprint(rooms: list[OpenRoom]) -> str:
    """The list's version: equal exactly when the rendered list would be equal."""
    digest = hashlib.blake2s(digest_size=8)
    for room in rooms:
        parts = (room.public_code, room.version, room.taken, room.host, room.waiting, room.mine)
        digest.update(repr(parts).encode())
    return digest.hexdigest()
