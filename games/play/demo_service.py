"""Load, change and save one visitor's in-page demo game – for any engine.

Every state-changing demo request goes through ``perform``: it locks the
visitor's ``DemoGame`` row (``select_for_update`` on PostgreSQL; SQLite's
transactions are IMMEDIATE, see settings), checks the version the client
expects, runs the demo's action and saves. A stale or repeated request (a
double click, a second tab) changes nothing, and the caller simply renders
the current state.

Nothing here knows a particular game: the demo passes ``create`` (a fresh
state and profile for a first-time visitor) and ``action`` (a function that
changes ``row.state`` / ``row.profile`` and may raise the engine's
``IllegalAction``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction

from games.engines.base import IllegalAction
from games.models import DemoGame
from games.visitors import is_new_visitor, visitor_id
from site_config import row_sql

# () -> (state, profile) or (state, profile, {other DemoGame fields})
Create = Callable[[], tuple]
Action = Callable[[DemoGame], Any]  # changes the row in place, returns what the view needs


TOO_MANY_NEW = (
    "Von deinem Anschluss wurden gerade sehr viele neue Demo-Partien begonnen. "
    "Bitte versuch es später noch einmal."
)
# Demo rows nobody touched for this long are removed by `manage.py cleanup_demos`.
IDLE_DAYS = 30

STORED = ["state", "version", "profile", "settings", "bot_due", "clock_offset", "log", "record"]
# Every demo request locks and writes its row: compiled once per connection (site_config.row_sql).
ROW_LOCKED = row_sql.Compiled(
    lambda visitor, engine: (
        DemoGame.objects.select_for_update().filter(visitor=visitor, engine=engine).order_by()[:1]
    ),
    "\x00visitor",
    "\x00engine",
)


@dataclass
class Outcome:
    row: DemoGame
    applied: bool = False
    stale: bool = False  # the client's version did not match; nothing was done
    error: str = ""  # the engine refused the action (German message)
    result: Any = None  # whatever ``action`` returned


def current(visitor: str, engine: str) -> DemoGame | None:
    """The visitor's row for ``engine`` without locking (page renders)."""
    return DemoGame.objects.filter(visitor=visitor, engine=engine).first()


def stored_version(visitor: str, engine: str) -> int:
    """The version of the visitor's row in one small query (0: no row yet)."""
    version = (
        DemoGame.objects.filter(visitor=visitor, engine=engine)
        .values_list("version", flat=True)
        .first()
    )
    return 0 if version is None else version


def saved_row(request, engine: str) -> DemoGame | None:
    """The requesting visitor's saved row; a visitor who just got an id has none (no query)."""
    visitor = visitor_id(request)
    return None if is_new_visitor(request) else current(visitor, engine)


def unsaved(visitor: str, engine: str, create: Create) -> DemoGame:
    """A row as it would be created, for rendering before the first action.

    Nothing is stored: crawlers and one-time readers leave no rows behind.
    """
    state, profile, *more = create()
    fields = more[0] if more else {}
    return DemoGame(
        visitor=visitor, engine=engine, state=state, profile=profile, version=0, **fields
    )


def perform(
    visitor: str,
    engine: str,
    action: Action,
    *,
    create: Create,
    expected_version: int | None,
    bump_version: bool = True,
    may_create: Callable[[], bool] | None = None,
) -> Outcome:
    """Apply ``action`` to the visitor's row in one locked transaction.

    ``expected_version=None`` skips the version check (preferences that do
    not touch the game); ``bump_version=False`` keeps the version, so that
    requests already on their way stay valid. ``may_create()`` is asked before
    a new row is stored (a limit per address); False refuses the request.
    """
    args = (visitor, engine, action, create, expected_version, bump_version, may_create)
    try:
        return _perform(*args)
    except IntegrityError:
        # Two first requests of a new visitor raced to insert the row; the
        # other one won, so the row exists now and is locked normally.
        return _perform(*args)


def _perform(
    visitor, engine, action, create, expected_version, bump_version, may_create
) -> Outcome:
    with transaction.atomic():
        row = ROW_LOCKED.first(visitor, engine)
        if row is None:
            row = unsaved(visitor, engine, create)
            if may_create is not None and not may_create():
                return Outcome(row=row, error=TOO_MANY_NEW)
        if expected_version is not None and expected_version != row.version:
            return Outcome(row=row, stale=True)
        try:
            result = action(row)
        except IllegalAction as error:
            # The action may have half-changed the row in memory: reload the stored truth.
            if row.pk is not None:
                row.refresh_from_db(fields=STORED)
            else:
                row = unsaved(visitor, engine, create)
            return Outcome(row=row, error=str(error))
        if bump_version:
            row.version += 1
        if row.pk is None:
            row.save(force_insert=True)
        else:
            row_sql.save(row, [*STORED, "updated_at"])
        return Outcome(row=row, applied=True, result=result)


def cleanup(now=None) -> int:
    """Remove demo rows untouched for ``IDLE_DAYS`` days; returns how many."""
    from datetime import timedelta

    from games import clock

    now = now or clock.now()
    deleted, _ = DemoGame.objects.filter(updated_at__lt=now - timedelta(days=IDLE_DAYS)).delete()
    return deleted
