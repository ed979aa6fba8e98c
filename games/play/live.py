"""Telling a table's open pages that it changed: "version N" notices through Redis pub/sub.

Whoever changes a table (a request in any process, or the deadline loop) publishes
a small notice on the table's channel after the commit: the new version, nothing
else, so a broadcast never carries hidden information. Each browser answers a
notice by fetching its own view (the poll URL with its version), exactly as a
poll would. The streams that carry the notices to browsers are
``games.play.streams``; without ``LIVE_REDIS_URL`` nothing is published and
pages keep polling.

The owner of a table names its channel (rooms by room code, the demo by visitor);
this module only publishes and says whether a page gets a stream at all.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import threading
from collections.abc import Callable, Iterable
from datetime import datetime

import redis
from django.conf import settings

logger = logging.getLogger(__name__)

GONE = -1  # the version notice of a table that no longer exists (room closed)
# Every hub subscribes this first: its confirmation tells that the connection works.
CONTROL_CHANNEL = "hub"


def enabled() -> bool:
    return bool(getattr(settings, "LIVE_REDIS_URL", ""))


# Set by site_config/asgi.py: this process answers the streams (its pages may link them,
# although the pages themselves run through Django's WSGI handler there).
serves_streams = False


def streams_for(request) -> bool:
    """Whether a page rendered for ``request`` gets a stream (else it polls): Redis is
    configured and this server is an ASGI one (``runserver`` and sync workers are not)."""
    return enabled() and request is not None and (serves_streams or hasattr(request, "scope"))


def poll_ms(default: int) -> int:
    """The poll interval of a page with a live stream (``LIVE_POLL_MS``, else the game's)."""
    value = getattr(settings, "LIVE_POLL_MS", None)
    return int(value) if value else default


def channel_prefix() -> str:
    return getattr(settings, "LIVE_CHANNEL_PREFIX", "kartenregeln:live")


def full_channel(name: str) -> str:
    return f"{channel_prefix()}:{name}"


def table_channel(kind: str, engine_key: str, key: str) -> str:
    """The channel of one table: ``kind`` names its owner ("room", "demo"), ``key`` the
    table among that owner's tables of the game (room code, visitor id)."""
    return f"{kind}:{engine_key}:{key}"


def parse_table_channel(name: str) -> tuple[str, str, str] | None:
    """``(kind, engine key, key)`` of a table channel; None for any other channel (a
    viewer's channel included)."""
    parts = name.split(":", 2)
    if len(parts) != 3 or not all(parts) or VIEWER_MARK in parts[2]:
        return None
    return parts[0], parts[1], parts[2]


VIEWER_MARK = "/"  # never in a room code, a visitor id or an engine key


def viewer_channel(channel: str, viewer: str) -> str:
    """The channel that carries one viewer's rendered table (``viewer``: the owner's name
    for who looks, e.g. a seat's id or "watch" for spectators)."""
    return f"{channel}{VIEWER_MARK}{viewer}"


# Rendered for a push, a page's own address is unknown (the writer may be the deadline
# loop); the stream puts the address its browser used in place of this.
PUSH_ORIGIN = "https://push-origin.invalid"


def view_message(version: int, html: str) -> str:
    return f"{version}\n{html}"


def parse_view(data: str) -> tuple[int, str] | None:
    version, newline, html = data.partition("\n")
    if not newline:
        return None
    try:
        return int(version), html
    except ValueError:
        return None


def notice(version: int, due: datetime | None = None) -> str:
    """The text published on a table's channel: its version and, if any, the moment
    of its next deadline (for the deadline loops of the processes that watch it)."""
    return f"{version}|{due.timestamp():.3f}" if due is not None else str(version)


def parse_notice(data: str) -> tuple[int, float | None] | None:
    version, _, due = data.partition("|")
    try:
        return int(version), (float(due) if due else None)
    except ValueError:
        return None


_clients: dict[str, redis.Redis] = {}
_clients_lock = threading.Lock()


def _sync_client() -> redis.Redis:
    url = settings.LIVE_REDIS_URL
    with _clients_lock:
        client = _clients.get(url)
        if client is None:
            client = _clients[url] = redis.Redis.from_url(
                url, socket_timeout=2, socket_connect_timeout=2, health_check_interval=30
            )
        return client


Views = dict[str, Callable[[], str]]  # viewer -> renders the table as that viewer sees it

# The table's version as its writers left it, kept beside the channel for
# ``rooms.fast_poll`` (an unchanged poll answered without Django). Set only when newer,
# so a late writer never moves it back; expires soon, so a lost write costs a stale 204
# for at most these seconds while Redis misbehaves. Kept only for the kinds of table
# whose polls are answered in front (``answered_in_front``): nobody reads a demo's.
VERSION_SECONDS = 20
_SET_IF_NEWER = """
local current = redis.call('GET', KEYS[1])
if current then
  local known = tonumber(string.match(current, '^(-?%d+)'))
  if known and known > tonumber(ARGV[1]) then return 0 end
end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
return 1
"""
# Sent by its digest: redis-py's registered scripts make a pipeline ask Redis whether it
# knows them first, one round trip more on every publish.
_SET_IF_NEWER_SHA = hashlib.sha1(_SET_IF_NEWER.encode()).hexdigest()
_kept_kinds: set[str] = set()


def answered_in_front(kind: str) -> None:
    """The polls of this kind of table are answered in front of Django: its writers keep
    the version under ``version_key`` (called by the owner's ``AppConfig.ready``)."""
    _kept_kinds.add(kind)


def keeps_version(channel: str) -> bool:
    parsed = parse_table_channel(channel)
    return parsed is not None and parsed[0] in _kept_kinds


def version_key(channel: str) -> str:
    """The Redis key (not a channel) that holds ``notice(version, due)`` of a table."""
    return f"{full_channel(channel)}:version"


def _version_args(channel: str, version: int, due: datetime | None) -> tuple:
    seconds = int(getattr(settings, "LIVE_VERSION_SECONDS", VERSION_SECONDS))
    return version_key(channel), version, notice(version, due), seconds


def _keep_version(pipe, channel: str, version: int, due: datetime | None) -> None:
    """Queue on ``pipe`` the version key's update (``_check_kept`` reads the results)."""
    if version == GONE:
        pipe.delete(version_key(channel))
    else:
        pipe.evalsha(_SET_IF_NEWER_SHA, 1, *_version_args(channel, version, due))


def _check_kept(client, results: list, channel: str, version: int, due) -> None:
    """A script Redis does not know (it restarted) is sent whole once, which loads it
    again; any other error of the pipeline is raised."""
    for result in results:
        if isinstance(result, redis.exceptions.NoScriptError):
            client.eval(_SET_IF_NEWER, 1, *_version_args(channel, version, due))
        elif isinstance(result, Exception):
            raise result


def remember(channel: str, version: int, due: datetime | None = None) -> None:
    """Keep a table's version as read from the database (a poll that found nothing new),
    so that the next polls are answered in front; never older than a writer's."""
    if not enabled():
        return
    try:
        client = _sync_client()
        pipe = client.pipeline(transaction=False)
        _keep_version(pipe, channel, version, due)
        _check_kept(client, pipe.execute(raise_on_error=False), channel, version, due)
    except redis.RedisError:
        logger.warning("live: could not keep the version of %s", channel, exc_info=True)


def publish(
    channel: str, version: int, due: datetime | None = None, views: Views | None = None
) -> None:
    """Tell every listener of ``channel`` that the table is now at ``version``.

    ``due``: the table's next deadline, so that the deadline loops of the
    processes whose streams watch the table wake up in time for it.
    ``views``: who may look at the table, each with a function that renders the
    table as that viewer sees it; it is called only for viewers whose channel
    somebody listens to right now, and the view is published on that channel
    before the notice, so a stream has it when the notice arrives and the
    browser fetches nothing. The version is also kept under ``version_key`` where
    polls are answered in front (``answered_in_front``). A failure is
    logged, never raised: the change itself is saved, and browsers whose stream
    broke poll again.
    """
    if not enabled():
        return
    try:
        client = _sync_client()
        pipe = client.pipeline(transaction=False)
        for viewer in _listened(client, channel, views or {}):
            try:
                html = views[viewer]()
            except Exception:
                # The change is saved; this viewer's page fetches its table on the notice.
                logger.exception("live: could not draw the view of %s on %s", viewer, channel)
                continue
            pipe.publish(full_channel(viewer_channel(channel, viewer)), view_message(version, html))
        pipe.publish(full_channel(channel), notice(version, due))
        if keeps_version(channel):
            _keep_version(pipe, channel, version, due)
        _check_kept(client, pipe.execute(raise_on_error=False), channel, version, due)
    except redis.RedisError:
        logger.warning("live: could not publish on %s", channel, exc_info=True)


_here = threading.local()


@contextlib.contextmanager
def listened_here(channels: Iterable[str]):
    """Within: ``channels`` (short names) have a stream in this very process – the deadline
    loop's watched tables and viewers – so a publish draws their viewers' tables without
    first asking Redis whether anybody listens. A stream that closed meanwhile costs one
    drawing for nobody."""
    _here.channels = frozenset(channels)
    try:
        yield
    finally:
        _here.channels = frozenset()


def _listened(client: redis.Redis, channel: str, viewers) -> list[str]:
    """Those of ``viewers`` with an open stream in some process (one round trip, none for
    viewers whose stream is known to be in this process)."""
    here = getattr(_here, "channels", frozenset())
    known, others = [], []
    for viewer in viewers:
        (known if viewer_channel(channel, viewer) in here else others).append(viewer)
    if not others:
        return known
    names = [full_channel(viewer_channel(channel, viewer)) for viewer in others]
    counts = client.pubsub_numsub(*names)
    return known + [viewer for viewer, (_name, count) in zip(others, counts, strict=True) if count]


def publish_on_commit(
    channel: str, version: int, due: datetime | None = None, views: Views | None = None
) -> None:
    """``publish`` once the surrounding transaction has committed (at once outside one)."""
    if not enabled():
        return
    from django.db import transaction

    transaction.on_commit(lambda: publish(channel, version, due, views))
