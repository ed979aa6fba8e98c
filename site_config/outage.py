"""The database is away: a German 503 („Kurze Wartung …“) instead of a server error.

``DatabaseOutageMiddleware`` sits right after the page cache, so cached pages are still
served from Redis without it. A view that cannot reach PostgreSQL (connection refused,
the pool's wait of ``DATABASE_POOL_TIMEOUT`` over, a connection dropped) raises an
``OperationalError`` or ``InterfaceError``; the middleware answers 503 with
``Retry-After`` and writes one warning line per ``OUTAGE_LOG_SECONDS`` instead of a
traceback per request. A live stream whose database read fails ends quietly (the
browser polls). The first new connection afterwards logs that the database is back.
"""

from __future__ import annotations

import contextlib
import logging

from django.db import InterfaceError, OperationalError
from django.db.backends.signals import connection_created
from django.utils.deprecation import MiddlewareMixin

from site_config.logs import OutageLog

logger = logging.getLogger("kartenregeln.outage")
database = OutageLog(logger, "PostgreSQL (database)")

UNREACHABLE = (OperationalError, InterfaceError)
RETRY_AFTER_SECONDS = 30
CONSEQUENCE = "dynamic pages answer 503, cached pages are still served"


def _back(sender, connection, **kwargs) -> None:
    database.up()


def _steady_reconnects() -> None:
    """psycopg's pool tries a lost database again with exponential backoff (1, 2, 4 … s for
    up to five minutes), and only one attempt at a time: after a longer outage the next try
    could be a minute away while every request waits DATABASE_POOL_TIMEOUT in vain. One try
    a second instead: the pool has a connection again within a second of PostgreSQL's
    return, before a waiting request gives up."""
    try:
        from psycopg_pool.base import AttemptWithBackoff
    except ImportError:  # SQLite-only installs
        return
    AttemptWithBackoff.DELAY_BACKOFF = 1.0


_steady_reconnects()


connection_created.connect(_back, dispatch_uid="site_config.outage.database_back")


class DatabaseOutageMiddleware(MiddlewareMixin):
    def process_exception(self, request, exception):
        if not isinstance(exception, UNREACHABLE):
            return None
        database.down(exception, CONSEQUENCE)
        from site_config.views import maintenance_page

        return maintenance_page(request, RETRY_AFTER_SECONDS)

    def process_response(self, request, response):
        if response.status_code == 503 and response.has_header("Retry-After"):
            # "Come back later" on purpose (this page, a live stream without Redis): the
            # access log has the line; Django's error log would repeat it for every request.
            response._has_been_logged = True
        if response.streaming and response.is_async:
            response.streaming_content = _quiet_end(response.streaming_content)
        return response


async def _quiet_end(content):
    """A stream (Server-Sent Events) that loses the database ends without a traceback; the
    page falls back to polling, which answers 503 until the database is back."""
    async with contextlib.aclosing(aiter(content)) as chunks:
        try:
            async for chunk in chunks:
                yield chunk
        except UNREACHABLE as error:
            database.down(error, CONSEQUENCE)
