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
from functools import reduce
from operator import or_

from django.db.models import Count, Exists, OuterRef, Q, Subquery, Value

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
    seats = Seat.objects.filter(room=OuterRef("pk"))
    rooms = Room.objects.all()
    if public_code is not None:
        rooms = rooms.filter(public_code=public_code)
    rows = (
        rooms.filter(
            is_public=True,
            status=Room.Status.LOBBY,
            engine__in=list(by_key),
            last_activity__gte=now - LISTED_WHILE_IDLE,
        )
        .annotate(
            taken=Count("seats", filter=Q(seats__left=False)),
            host=Subquery(seats.filter(is_host=True).values("name")[:1]),
            mine=Exists(seats.filter(visitor=visitor, left=False)) if visitor else Value(False),
        )
        # A seat free: each game has its own table size.
        .filter(reduce(or_, (Q(engine=d.key, taken__lt=d.max_players) for d in definitions)))
        .order_by("-public_since", "-pk")
        .values_list(
            "public_code", "engine", "options", "public_since", "version", "taken", "host", "mine"
        )[:LIST_MAX]
    )
    result = []
    for public_code, engine, options, since, version, taken, host, mine in rows:
        definition = by_key[engine]
        result.append(
            OpenRoom(
                public_code=public_code,
                definition=definition,
                host=host or "",
                taken=taken,
                options=definition.option_summary(options or {}),
                waiting=waiting_label(since or now, now),
                mine=bool(mine),
                version=version,
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
