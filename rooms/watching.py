"""Spectators: watching a room by its watch code, who is watching, and the public games.

A spectator is a viewer with seat None: every page, poll and stream answer is drawn
from ``view(state, None)`` through the same code as a player's (``rooms.views``,
``rooms.live_views``), so whatever changes live push for players changes it for
spectators too. The watch code only reads: it never lets anyone join, and the
invite code never reaches a spectator.

Who watches is counted in the cache (Redis in production, shared by every process):
per room a small dict of spectator → last seen, refreshed by the spectator's page,
polls and the fetches that follow pushed notices. Players see the count with their
next table change; a spectator counts for ``SEEN_FOR`` after their last request.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from datetime import timedelta

from django.core.cache import cache

from games import clock
from games.play.definition import GameDefinition
from rooms.models import Room, Seat

SEEN_FOR = 120  # seconds a spectator counts after their last request
TOUCH_EVERY = 15  # a spectator's requests refresh the cache at most this often
LISTED_WHILE_IDLE = timedelta(minutes=30)
LIST_MAX = 20


def _key(engine_key: str, code: str) -> str:
    return f"rooms:watchers:{engine_key}:{code}"


def _spectator(visitor: str) -> str:
    # The cache needs no visitor id, only something that tells spectators apart.
    return hashlib.blake2s(visitor.encode(), digest_size=6).hexdigest()


def touch(engine_key: str, code: str, visitor: str) -> None:
    """``visitor`` watches the room ``code`` now (a lost update between processes heals
    itself with the spectator's next request)."""
    now = time.time()
    key = _key(engine_key, code)
    seen = cache.get(key) or {}
    me = _spectator(visitor)
    if now - seen.get(me, 0) < TOUCH_EVERY:
        return
    seen = {who: when for who, when in seen.items() if now - when < SEEN_FOR}
    seen[me] = now
    cache.set(key, seen, SEEN_FOR * 2)


def count(room: Room) -> int:
    now = time.time()
    seen = cache.get(_key(room.engine, room.code)) or {}
    return sum(1 for when in seen.values() if now - when < SEEN_FOR)


def room_for(engine: GameDefinition, watch_code: str) -> Room | None:
    return Room.objects.filter(watch_code=watch_code, engine=engine.key).first()


def code_of(engine: GameDefinition, watch_code: str) -> str | None:
    """The invite code behind a watch code (server side only: it is the room's key)."""
    return (
        Room.objects.filter(watch_code=watch_code, engine=engine.key)
        .values_list("code", flat=True)
        .first()
    )


@dataclass(frozen=True)
class RunningGame:
    """A public room whose game runs, as the „Zuschauen“ list shows it."""

    watch_code: str
    definition: GameDefinition
    players: list[str]
    round_text: str

    @property
    def slug(self) -> str:
        return self.definition.slug

    @property
    def title(self) -> str:
        return self.definition.title


def running_games(definitions: list[GameDefinition], now=None) -> list[RunningGame]:
    """Public rooms of these games in play, most recently active first (two queries)."""
    if not definitions:
        return []
    now = now or clock.now()
    by_key = {d.key: d for d in definitions}
    rooms = list(
        Room.objects.filter(
            is_public=True,
            status=Room.Status.PLAYING,
            engine__in=list(by_key),
            last_activity__gte=now - LISTED_WHILE_IDLE,
            watch_code__isnull=False,
        )
        .order_by("-last_activity")
        .values("id", "engine", "watch_code", "games_played")[:LIST_MAX]
    )
    names: dict[int, list[str]] = {}
    for room_id, name in (
        Seat.objects.filter(room_id__in=[r["id"] for r in rooms], left=False)
        .order_by("room_id", "number")
        .values_list("room_id", "name")
    ):
        names.setdefault(room_id, []).append(name)
    return [
        RunningGame(
            watch_code=row["watch_code"],
            definition=by_key[row["engine"]],
            players=names.get(row["id"], []),
            round_text=f"{row['games_played']}. Partie im Raum",
        )
        for row in rooms
    ]
