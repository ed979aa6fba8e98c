"""Version numbers of groups of content, for rendered parts that read more than one row.

A part of a page that shows rows of several games (similar games) or the whole sleeve
catalogue (a game's sleeve box) cannot be keyed by one row's timestamp. It is keyed by
the version of the group of tables it reads instead (``templatetags/page_parts``). The
page cache's site-wide generation goes up on every content change; these go up only
when a table of their group changes, so a vote or an article edit leaves a sleeve box
warm, and an edit to the sleeve catalogue leaves similar games warm.

Bumped by the same signals as the generation (``site_config.page_cache_signals``) and,
like it, once more after the transaction commits. Versions live in the default cache
(Redis in production, so every process sees the same numbers); a lost version starts
again from the clock, so it never repeats a number a stored part was keyed with.
"""

from __future__ import annotations

import time

from django.core.cache import cache
from django.db import transaction

from site_config import shared_cache
from site_config.lru import SizedLRU

VERSION_KEY = "pagecache:version:{}"

# Group -> models (app label, or "app.model") whose rows its parts show.
GROUPS: dict[str, set[str]] = {
    # Similar games, engine statistics: every game's row, mechanics, picks, statistics.
    "games": {"games", "exercises.exercise"},
    # A game's sleeve box: card formats, sizes, products, offers, settings; editions and
    # their publishers name the variants.
    "sleeves": {"sleeves", "games.edition", "games.publisher"},
    # Averages and counts of the stars (the catalogue's cards).
    "votes": {"feedback.vote"},
    # Published articles: the catalogue search also finds a game by its glossary's words.
    "articles": {"rules.rulesarticle"},
}


def groups_of(model) -> list[str]:
    label = model._meta.label_lower
    app = model._meta.app_label
    return [group for group, members in GROUPS.items() if label in members or app in members]


def _start(key: str) -> int:
    cache.add(key, time.time_ns(), timeout=None)
    value = cache.get(key)
    return value if isinstance(value, int) else 0


def _bump(groups) -> None:
    for group in groups:
        key = VERSION_KEY.format(group)
        try:
            cache.incr(key)
        except ValueError:  # missing: parts keyed by the lost number are unreachable
            _start(key)


def bump_for(model) -> None:
    """A row of ``model`` changed: the groups that show it get new versions."""
    groups = groups_of(model)
    if groups:
        _bump(groups)
        transaction.on_commit(lambda: _bump(groups))


def bump_all() -> None:
    """For changes that send no signal (QuerySet.update() in admin actions)."""
    _bump(GROUPS)


def versions(*groups: str) -> str:
    """The current versions of ``groups`` as one key part (one round trip on Redis)."""
    keys = [VERSION_KEY.format(group) for group in groups]
    found = cache.get_many(keys)
    values = []
    for key in keys:
        value = found.get(key)
        values.append(value if isinstance(value, int) else _start(key))
    return ".".join(str(value) for value in values)


def kept_size(value) -> int:
    """A kept value's share of the budget: a part's characters, a small value 100."""
    return len(value) if isinstance(value, str) else 100


# Rendered parts and values keyed by versions, kept by this process as they are: unlike a
# LocMemCache nothing is pickled (unpickling a 240 KB part with umlauts costs 0.3 ms on
# every page miss). Keys name the versions of what they show, so nothing kept is ever
# stale, only unreachable. About 32 MB per process (2 bytes per character with umlauts).
_kept = SizedLRU(16 * 1024 * 1024, size=kept_size, max_entries=5000)


def kept(key: str, compute):
    """``compute()``, kept under ``key``, which must name the versions of what it reads.
    While Redis is away versions cannot move, so nothing is kept or reused then."""
    if not shared_cache.healthy():
        return compute()
    value = _kept.get(key)
    if value is None:
        value = compute()
        _kept.put(key, value)
    return value


def forget_kept() -> None:
    """Tests: start without kept parts."""
    _kept.clear()
