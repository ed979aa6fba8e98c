"""Whether a game's demo and rooms may answer: only for games the reader may see.

The set of published slugs is cached (one cache read instead of a query on every
flip and poll) and dropped whenever a game is saved or deleted. With a shared cache
(Redis) each process also keeps what it read for ``TRUSTED_SECONDS``, as it keeps the
page cache's generation: a move or a demo request needs no round trip for it, and a
game published or withdrawn reaches every other process within that second (the
process that saved it at once).
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import cache
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from games.models import Game
from site_config import shared_cache

CACHE_KEY = "games:published-slugs"
TRUSTED_SECONDS = 1.0
_known: tuple[frozenset[str], float] | None = None  # (slugs, monotonic time read)


def published_slugs() -> frozenset[str]:
    global _known
    if not shared_cache.healthy():  # Redis away: other processes' changes would go unseen
        return _from_database()
    shared = _shared_cache()
    if shared and _known is not None and time.monotonic() - _known[1] < TRUSTED_SECONDS:
        return _known[0]
    slugs = cache.get(CACHE_KEY)
    if slugs is None:
        slugs = _from_database()
        cache.set(CACHE_KEY, slugs, timeout=300)
    if shared:
        _known = (slugs, time.monotonic())
    return slugs


def _shared_cache() -> bool:
    # A process-local cache (tests, development) is as quick to read as a kept copy.
    return not settings.CACHES["default"]["BACKEND"].endswith(".LocMemCache")


def _from_database() -> frozenset[str]:
    return frozenset(Game.objects.published().values_list("slug", flat=True))


def is_open(request, slug: str) -> bool:
    """Published, or staff previewing a draft (as on the game page)."""
    if slug in published_slugs():
        return True
    user = getattr(request, "user", None)
    return bool(user and user.is_authenticated and user.is_staff) and (
        Game.objects.filter(slug=slug).exists()
    )


@receiver([post_save, post_delete], sender=Game)
@shared_cache.on_recovery
def _forget_slugs(**kwargs) -> None:
    global _known
    _known = None
    cache.delete(CACHE_KEY)
