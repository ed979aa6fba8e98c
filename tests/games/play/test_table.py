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
