"""Whether a game's demo and rooms may answer: only for games the reader may see.

The set of published slugs is cached (one cache read instead of a query on every
flip and poll) and dropped whenever a game is saved or deleted. With a shared cache
(Redis) each process also keeps what it read for ``TRUSTED_SECONDS``, as it keeps the
page cache's generation: a move or a demo request needs no round trip for it, and a
game published or withdrawn reaches every other process within that second (the
process that saved it at once).
"""

from __future__ import annotations

from django.core.cache import cache
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from games.models import Game
from site_config import shared_cache

CACHE_KEY = "games:published-slugs"
TRUSTED_SECONDS = 1.0
_known = shared_cache.Remembered(lambda: TRUSTED_SECONDS)


def published_slugs() -> frozenset[str]:
    if not shared_cache.healthy():  # Redis away: other processes' changes would go unseen
        return _from_database()
    slugs = _known.fresh()
    if slugs is None:
        slugs = cache.get(CACHE_KEY)
        if slugs is None:
            slugs = _from_database()
            cache.set(CACHE_KEY, slugs, timeout=300)
        _known.remember(slugs)
    return slugs


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
    _known.forget()
    cache.delete(CACHE_KEY)
