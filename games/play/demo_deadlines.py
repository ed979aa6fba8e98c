"""The demos' part of the deadline loop (``games.play.deadline_loop``): which of the
watched demos have a bot move due, making it, and the next one.

A bot move made here is pushed to the reader's page drawn as the reader sees it, so
the page fetches nothing. ``DUE_SOURCE`` is registered with the loop by ``games.apps``.
"""

from __future__ import annotations

from django.db import transaction
from django.template.loader import render_to_string

from games.play import board, deadline_loop, driver
from games.play import definition as registry
from games.play.definition import GameDefinition
from games.play.locking import none_when_sqlite_refuses
from site_config import row_sql


def _pushing(definition) -> bool:
    return definition.demo is not None and driver.pushes(definition)


def _watched_rows(keys: deadline_loop.Keys):
    """The demo rows among ``keys`` ((engine key, visitor) pairs) whose bots move on
    their own clock."""
    from django.db.models import Q

    from games.models import DemoGame

    pushing = {d.key for d in registry.all_definitions() if _pushing(d)}
    wanted = Q()
    for engine_key, visitor in keys:
        if engine_key in pushing:
            wanted |= Q(engine=engine_key, visitor=visitor)
    if not wanted:
        return DemoGame.objects.none()
    return DemoGame.objects.filter(wanted).order_by()


def pending(now, keys: deadline_loop.Keys) -> deadline_loop.Pending:
    """The next bot move of each watched demo that has one (one query)."""
    rows = _watched_rows(keys).filter(bot_due__isnull=False)
    return list(rows.values_list("engine", "visitor", "bot_due"))


def _row_if_free(visitor, engine):
    from games.models import DemoGame

    return (
        DemoGame.objects.select_for_update(skip_locked=True)
        .filter(visitor=visitor, engine=engine)
        .order_by()[:1]
    )


# Every bot move of a watched demo locks and writes its row: compiled once per connection.
ROW_IF_FREE = row_sql.Compiled(_row_if_free, "\x00visitor", "\x00engine")


@none_when_sqlite_refuses
def apply_due(definition: GameDefinition, visitor: str) -> deadline_loop.Applied | None:
    """The deadline loop: the reader's due bot moves are made now and pushed.

    The row is locked like every demo request (``select_for_update``, here with
    ``skip_locked`` on PostgreSQL: a row a request or another loop holds is
    left to it; on SQLite the IMMEDIATE transaction queues) and the due check
    runs on the locked row, so a move is never made twice. Returns the demo's
    next bot move (None: nothing was made).
    """
    with transaction.atomic():
        row = ROW_IF_FREE.first(visitor, definition.key)
        if row is None or not driver.due(definition, row):
            return None
        shown = row.version
        if not driver.catch_up(definition, row):
            return None
        row_sql.save(row, ["state", "version", "log", "bot_due", "clock_offset", "record"])
        driver.announce(definition, row, {driver.READER_VIEW: _drawn(definition, row, shown)})
        return deadline_loop.Applied(row.bot_due)


def _drawn(definition: GameDefinition, row, since: int):
    """The reader's table after the bots' move, as the page's poll would answer it."""

    def draw() -> str:
        demo = board.draw(definition, row, back=board.demo_page(definition), since=since)
        template = f"{definition.demo.template}#{definition.demo.partial}"
        return render_to_string(template, {"demo": demo, "pushed": True, "partial": True})

    return draw


DUE_SOURCE = deadline_loop.DueSource(driver.CHANNEL_KIND, pending=pending, apply=apply_due)
