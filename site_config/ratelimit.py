"""Fixed-window rate limits in Django's cache, and the client address they count by.

The cache is locmem by default; with several processes REDIS_URL must be set so
all of them see the same counters. Keys are HMAC digests: raw IP addresses never
sit in the cache.
"""

from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.utils.crypto import salted_hmac

HOUR = 60 * 60
DAY = 24 * HOUR


@dataclass(frozen=True)
class Limit:
    name: str
    count: int
    seconds: int


def client_ip(request) -> str:
    """The reader's address.

    Behind a reverse proxy REMOTE_ADDR is the proxy. Only when it is one of
    settings.TRUSTED_PROXIES do we read X-Forwarded-For, taking the right-most
    entry that is not a trusted proxy (entries further left are client-supplied
    and could be forged).
    """
    remote = request.META.get("REMOTE_ADDR", "")
    trusted = set(getattr(settings, "TRUSTED_PROXIES", ()))
    if remote in trusted:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        for address in reversed([part.strip() for part in forwarded.split(",")]):
            if address and address not in trusted:
                return address
    return remote or "unbekannt"


def _key(limit: Limit, *parts) -> str:
    digest = salted_hmac(
        "ratelimit", "|".join(str(p) for p in parts), algorithm="sha256"
    ).hexdigest()[:32]
    return f"ratelimit:{limit.name}:{digest}"


def hit(limit: Limit, *parts) -> bool:
    """Count one event; True when this event is over the limit."""
    key = _key(limit, *parts)
    cache.add(key, 0, timeout=limit.seconds)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=limit.seconds)
        count = 1
    return count > limit.count
