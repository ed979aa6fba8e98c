"""Finished games kept as replays, and any step of one drawn with the game's own table.

A table's ``record`` (``games.play.table.Table.record``) grows with every applied
step inside the row write the move makes anyway (no extra query). When a game ends,
its owner calls ``keep`` once: one ``Replay`` row. Showing step ``n`` replays the
record from the nearest stored state (``KEYFRAME_EVERY`` steps apart, computed on
the first view and stored) and draws the spectator's view (``view(state, None)``) with
the game's presenter and table template – only what was public at that moment. This
module names no game: everything game-specific comes from the ``GameDefinition``.
"""

from __future__ import annotations

import bisect
import time
from dataclasses import dataclass
from datetime import timedelta

from django.core.cache import cache
from django.db.models import Q
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from games import clock
from games.models import Replay
from games.play import definition as registry
from games.play.definition import GameDefinition
from site_config.lru import SizedLRU

KEPT_DAYS = 90  # `manage.py cleanup_replays` removes older replays nobody saved
KEYFRAME_EVERY = 16  # at most this many engine steps to reach any step …
KEYFRAME_SECONDS = 0.001  # … and about this much engine time (a real-time game's steps
# run its bots up to the step's moment: a keyframe every few steps there)


def keep(
    definition: GameDefinition,
    table,
    *,
    source: str,
    players: list[str] = (),
    host: str = "",
    public: bool = False,
) -> Replay | None:
    """Store the finished game of ``table`` (once: the record remembers the replay's id).

    Returns the new replay, or None when the table has no record or was kept already.
    """
    record = table.record
    if record is None or record.get("replay") or not definition.replays:
        return None
    replay = Replay.objects.create(
        engine=definition.key,
        source=source,
        record={key: value for key, value in record.items() if key != "replay"},
        final_state=table.state,
        steps=len(record["log"]),
        bots=sorted(table.bots),
        players=sorted({visitor for visitor in players if visitor}),
        host=host,
        public=public,
    )
    table.record = {**record, "replay": replay.pk}
    return replay


def replay_id(record: dict | None) -> str | None:
    """The id of the replay a finished table was kept as (None: not kept)."""
    return (record or {}).get("replay")


def may_view(replay: Replay, visitors: set[str], user=None) -> bool:
    """Demo replays and public ones: anyone with the link; else the room's players."""
    if replay.public or replay.source == Replay.Source.DEMO:
        return True
    if visitors & set(replay.players):
        return True
    return bool(
        user is not None and user.is_authenticated and replay.saved_by.filter(pk=user.pk).exists()
    )


def may_publish(replay: Replay, visitors: set[str]) -> bool:
    return replay.source == Replay.Source.ROOM and bool(replay.host) and replay.host in visitors


def cleanup(now=None) -> int:
    """Remove replays older than ``KEPT_DAYS`` that no account saved; returns how many."""
    now = now or clock.now()
    old = Replay.objects.filter(created_at__lt=now - timedelta(days=KEPT_DAYS))
    _, by_model = old.filter(saved_by__isnull=True).delete()
    return by_model.get(Replay._meta.label, 0)


# --- Stepping ------------------------------------------------------------------------------


def first_state(definition: GameDefinition, record: dict) -> dict:
    return definition.deal_engine(
        record["seed"], record["players"], record["options"], now=record.get("start")
    )


def replay_record(definition: GameDefinition, record: dict, until: int | None = None) -> dict:
    """The state after the first ``until`` steps (all when None)."""
    state = first_state(definition, record)
    for entry in record["log"][:until]:
        state, _ = definition.replay_entry(state, entry)
    return state


def compute_keyframes(definition: GameDefinition, record: dict) -> list[list]:
    """``[step, state]`` pairs from step 0 on: a new one after ``KEYFRAME_EVERY`` steps or
    ``KEYFRAME_SECONDS`` of engine time, whichever comes first."""
    state = first_state(definition, record)
    frames = [[0, state]]
    spent, since = 0.0, 0
    for index, entry in enumerate(record["log"], start=1):
        started = time.perf_counter()
        state, _ = definition.replay_entry(state, entry)
        spent += time.perf_counter() - started
        since += 1
        if since >= KEYFRAME_EVERY or spent >= KEYFRAME_SECONDS:
            frames.append([index, state])
            spent, since = 0.0, 0
    return frames


def _size(frames) -> int:
    return len(frames)


# Keyframes of the replays this process showed lately, by replay id (a JSON parse less).
_frames = SizedLRU(max_size=4000, size=_size, max_entries=64)


def keyframes(replay: Replay, definition: GameDefinition) -> list[list]:
    frames = _frames.get(replay.pk)
    if frames is None:
        frames = Replay.objects.filter(pk=replay.pk).values_list("keyframes", flat=True).first()
        if not frames:
            frames = compute_keyframes(definition, replay.record)
            Replay.objects.filter(pk=replay.pk).update(keyframes=frames)
        _frames.put(replay.pk, frames)
    return frames


@dataclass
class Position:
    state: dict
    events: list[dict]  # what the step's entry did (the opening events at step 0)
    step: int


def position(replay: Replay, definition: GameDefinition, step: int) -> Position:
    """The state after ``step`` steps, from the nearest keyframe before it."""
    step = max(0, min(step, replay.steps))
    frames = keyframes(replay, definition)
    index = bisect.bisect_right([frame[0] for frame in frames], step) - 1
    base, state = frames[index]
    events = definition.opening_events(state) if step == 0 else []
    for entry in replay.record["log"][base:step]:
        state, events = definition.replay_entry(state, entry)
    return Position(state, events, step)


# --- Drawing -------------------------------------------------------------------------------


def names(record: dict) -> list[str]:
    players = record["players"]
    given = list((record.get("options") or {}).get("names") or [])
    return given + [f"Platz {seat + 1}" for seat in range(len(given), players)]


def step_label(record: dict, index: int) -> str:
    """„Anna“, „Zeit abgelaufen“ …: who or what made step ``index`` (1-based)."""
    entry = record["log"][index - 1]
    op = entry.get("op", "apply")
    seat_names = names(record)
    if op == "apply":
        return seat_names[entry["seat"]]
    if op == "remove_player":
        return f"{seat_names[entry['seat']]} verlässt den Tisch"
    if op == "advance":
        return "Die Bots greifen zu"
    return "Zeit abgelaufen"


def table(definition: GameDefinition, replay: Replay, at: Position, seat: int | None = None):
    """The table as ``seat`` saw it (None: what everyone saw) after the position's step."""
    return definition.present(
        definition.view(at.state, seat),
        bots=set(replay.bots),
        hosts=set(),
        remaining=None,
        log=[{"v": at.step, "event": event} for event in at.events],
        since=at.step - 1 if at.step else None,
    )


@dataclass(frozen=True)
class Board:
    html: str  # the game's table template, drawn without a request (no CSRF token)
    news: list[str]  # what the step did, worded for everyone at the table


# A replay never changes: each drawn board is kept, in this process and in the shared cache.
_boards = SizedLRU(max_size=16 * 1024 * 1024, size=lambda board: len(board.html), max_entries=4096)
BOARD_CACHE_SECONDS = 24 * 60 * 60


def board(definition: GameDefinition, replay: Replay, step: int, seat: int | None = None) -> Board:
    """Step ``step`` drawn with the game's own table as ``seat`` saw it (None: everyone)."""
    key = f"replay-board:{replay.pk}:{step}:{'all' if seat is None else seat}"
    found = _boards.get(key)
    if found is None:
        cached = cache.get(key)
        found = Board(mark_safe(cached[0]), cached[1]) if cached else None  # noqa: S308
    if found is None:
        at = position(replay, definition, step)
        drawn = table(definition, replay, at, seat)
        html = render_to_string(
            definition.table_template,
            {"table": drawn, "urls": {}, "version": step, "target_id": _target(seat)},
        )
        found = Board(mark_safe(html), list(drawn.news))  # noqa: S308 (rendered, escaped)
        cache.set(key, (str(html), found.news), BOARD_CACHE_SECONDS)
    _boards.put(key, found)
    return found


def _target(seat: int | None) -> str:
    return "replay-board" if seat is None else f"replay-seat-{seat}"


def definition_of(replay: Replay) -> GameDefinition | None:
    definition = registry.get(replay.engine)
    return definition if definition is not None and definition.replays else None


def my_area(request) -> dict:
    """„Meine Partien“ in „Mein Bereich“: the replays the account saved, newest first."""
    saved = request.user.saved_replays.order_by("-created_at")[:100]
    items = []
    for replay in saved:
        definition = definition_of(replay)
        if definition is not None:
            items.append(
                {
                    "replay": replay,
                    "url": replay.get_absolute_url(),
                    "title": definition.title,
                    "names": ", ".join(names(replay.record)),
                }
            )
    return {"replays": items, "kept_days": KEPT_DAYS}


def personal_data(user, link) -> list[dict]:
    """„Meine Daten“: the replays an account saved or played in (by its visitor ids)."""
    from accounts.services import visitor_ids

    saved = set(user.saved_replays.values_list("pk", flat=True))
    rows = Replay.objects.filter(Q(pk__in=saved) | _played_by(visitor_ids(user))).order_by(
        "created_at"
    )
    return [
        {
            "spiel": _title(replay.engine),
            "gespielt_am": replay.created_at.isoformat(timespec="seconds"),
            "herkunft": replay.get_source_display(),
            "namen_am_tisch": names(replay.record),
            "oeffentlich": replay.public,
            "gemerkt": replay.pk in saved,
            "link": link(replay.get_absolute_url()),
        }
        for replay in rows
    ]


def forget_players(ids: list[str]) -> int:
    """An erased account's visitor ids leave every replay it played in (they were the key
    to private room replays); the game and the names at the table stay for the others.
    Returns how many replays changed."""
    gone = set(ids)
    changed = 0
    for replay in Replay.objects.filter(_played_by(ids)).only("pk", "players", "host"):
        players = [visitor for visitor in replay.players if visitor not in gone]
        host = "" if replay.host in gone else replay.host
        if players != replay.players or host != replay.host:
            Replay.objects.filter(pk=replay.pk).update(players=players, host=host)
            changed += 1
    return changed


def _played_by(ids) -> Q:
    played = Q(pk__in=[])
    for visitor in ids:
        # Visitor ids are long random strings: a text match finds exactly their lists.
        played |= (
            Q(players__contains=[visitor]) if _json_contains() else Q(players__icontains=visitor)
        )
    return played


def _title(engine: str) -> str:
    definition = registry.get(engine)
    return definition.title if definition is not None else engine


def _json_contains() -> bool:
    """JSON containment queries: PostgreSQL has them, SQLite's JSON1 in Django does not."""
    from django.db import connection

    return connection.features.supports_json_field_contains
