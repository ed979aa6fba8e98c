"""games.play.table: which versions a move may name and still be current."""

from __future__ import annotations

from games.play import definition as registry
from games.play.table import Table


def _table(version: int, log: list) -> Table:
    return Table(registry.get("katz_und_maus"), state={}, version=version, log=log)


def test_only_side_events_since_keep_a_version_current():
    hint = {"type": "hint", "seat": 1, "to": 3, "rank": "7", "pile": 1}
    play = {"type": "play", "seat": 0}
    assert _table(5, []).shows_current(5)
    assert not _table(5, []).shows_current(None)
    assert not _table(5, []).shows_current(6)
    assert _table(7, [{"v": 6, "event": hint}, {"v": 7, "event": hint}]).shows_current(5)
    assert not _table(7, [{"v": 6, "event": hint}, {"v": 7, "event": play}]).shows_current(5)
    # A version without any logged event (or one older than the kept log) is a change.
    assert not _table(7, [{"v": 7, "event": hint}]).shows_current(5)
    # A game without side events keeps the strict check.
    alpaka = Table(registry.get("alpaka"), state={}, version=6, log=[{"v": 6, "event": hint}])
    assert not alpaka.shows_current(5)


def test_a_bot_due_that_rounds_down_to_the_microsecond_is_one_step_not_a_loop():
    """A simultaneous engine keeps its due moment as a float; the table's timers keep it
    to the microsecond. A moment that rounds down lies just before the engine's own: a
    clock standing exactly on the stored moment must still make the bot's step, once."""
    from datetime import UTC, datetime

    the_cat = registry.get("the_cat")
    table = Table(the_cat, state=None, version=0, bots={1}, key="rounding", timed=False)
    start = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
    table.deal(["Du", "Bot"], the_cat.default_options(), start)
    engine_due = the_cat.module.next_due(table.state)
    # Move the bot's step to a moment 0.4 µs past a whole microsecond.
    shifted = float(int(engine_due) + 30) + 0.0000004
    table.state["bot_due"] = [None if due is None else shifted for due in table.state["bot_due"]]
    table.replan(start)
    stored = table.timers.bot_due
    assert stored.timestamp() < shifted  # the stored moment rounded down

    steps = table.advance(stored)

    assert steps == 1
    assert table.timers.bot_due is None or table.timers.bot_due > stored
    assert table.record["log"][-1]["now"] >= shifted  # replayed at the moment it was made
