"""Log hygiene: one short line for refused requests, and outages that do not flood the log.

``ShortSecurityLine`` turns Django's security warnings (a bad Host header, too many
form fields, a body over the limit) into one line without a traceback: they are
the client's doing, not a fault of the site, and every scanner sends them.

``QuietOutages`` sits on the handler of loggers that report backing services
(Redis, PostgreSQL): a record caused by an unreachable service loses its
traceback and is written at most once per ``OUTAGE_LOG_SECONDS`` (default 60)
per message; the next line says how many were left out. Records about anything
else pass unchanged.

``OutageLog`` is the same rule for the site's own outage notices (the cache and
the database middleware): a warning when a service goes away, at most one per
interval while it stays away, and one when it is back.
"""

from __future__ import annotations

import logging
import sys
import threading
import time

from django.conf import settings

MESSAGE_MAX = 300


def outage_interval() -> float:
    return float(getattr(settings, "OUTAGE_LOG_SECONDS", 60))


class StderrHandler(logging.StreamHandler):
    """A StreamHandler on whatever ``sys.stderr`` is when a line is written (see StdoutHandler)."""

    def __init__(self):
        super().__init__(sys.stderr)

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, value):
        pass


def one_line(text: str, limit: int = MESSAGE_MAX) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ShortSecurityLine(logging.Filter):
    """``django.security.*``: one line, no traceback; the bad Host is named, shortened."""

    def filter(self, record: logging.LogRecord) -> bool:
        kind = record.name.rpartition(".")[2]
        request = getattr(record, "request", None)
        if kind == "DisallowedHost" and request is not None:
            host = request.META.get("HTTP_HOST") or request.META.get("SERVER_NAME", "")
            record.msg, record.args = "bad Host header refused: %r", (host[:100],)
        else:
            record.msg, record.args = "%s refused: %s", (kind, one_line(record.getMessage()))
        record.exc_info = record.exc_text = record.stack_info = None
        return True


def operational_error_types() -> tuple[type[BaseException], ...]:
    """Errors that mean "a backing service is unreachable", not "the code is wrong"."""
    import redis
    from django.db import InterfaceError, OperationalError

    kinds: list[type[BaseException]] = [
        redis.ConnectionError,
        redis.TimeoutError,
        OperationalError,
        InterfaceError,
        ConnectionError,
    ]
    try:
        import psycopg
        import psycopg_pool

        kinds += [psycopg.OperationalError, psycopg.InterfaceError, psycopg_pool.PoolTimeout]
    except ImportError:  # SQLite-only installs
        pass
    return tuple(kinds)


class _Throttle:
    """At most one record per key and interval; counts what it held back."""

    def __init__(self):
        self._lock = threading.Lock()
        self._last: dict[tuple, float] = {}
        self._held: dict[tuple, int] = {}

    def allow(self, key: tuple, interval: float) -> tuple[bool, int]:
        now = time.monotonic()
        with self._lock:
            last = self._last.get(key)
            if last is not None and now - last < interval:
                self._held[key] = self._held.get(key, 0) + 1
                return False, 0
            self._last[key] = now
            return True, self._held.pop(key, 0)

    def clear(self) -> None:
        with self._lock:
            self._last.clear()
            self._held.clear()


_throttle = _Throttle()


class QuietOutages(logging.Filter):
    """Outage noise of third-party and background loggers: no traceback, one line per interval.

    ``always``: logger names whose every record concerns a backing service (the
    live push's Redis connection, psycopg's pool); other loggers' records count
    only when their exception is an operational one.
    """

    def __init__(self, always=()):
        super().__init__()
        self.always = tuple(always)

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        operational = isinstance(error, operational_error_types())
        if not operational and not record.name.startswith(self.always):
            return True
        if error is not None and operational:
            first = one_line(str(error).splitlines()[0] if str(error) else "", 160)
            record.msg = f"{record.getMessage()} ({type(error).__name__}: {first})"
            record.args = None
            record.exc_info = record.exc_text = None
        allowed, held = _throttle.allow((record.name, str(record.msg)), outage_interval())
        if allowed and held:
            record.msg = f"{record.getMessage()} (+{held} similar lines left out)"
            record.args = None
        return allowed


class OutageLog:
    """A service's state for the log: down (warning, then at most one per interval), back."""

    def __init__(self, logger: logging.Logger, service: str):
        self.logger = logger
        self.service = service
        self._lock = threading.Lock()
        self.down_since: float | None = None
        self._logged_at = 0.0
        self._held = 0

    def down(self, error: BaseException, consequence: str) -> None:
        now = time.monotonic()
        with self._lock:
            first = self.down_since is None
            if first:
                self.down_since = now
            elif now - self._logged_at < outage_interval():
                self._held += 1
                return
            self._logged_at, held, self._held = now, self._held, 0
            since = now - self.down_since
        detail = one_line(str(error).splitlines()[0] if str(error) else "", 160)
        if first:
            self.logger.warning(
                "%s unavailable (%s: %s); %s",
                self.service,
                type(error).__name__,
                detail,
                consequence,
            )
        else:
            self.logger.warning(
                "%s still unavailable after %.0f s (%s: %s; %d more failures); %s",
                self.service,
                since,
                type(error).__name__,
                detail,
                held,
                consequence,
            )

    def up(self) -> None:
        if self.down_since is None:  # the usual case, on every new database connection
            return
        with self._lock:
            if self.down_since is None:
                return
            since, self.down_since, self._held = self.down_since, None, 0
        self.logger.warning(
            "%s available again after %.0f s", self.service, time.monotonic() - since
        )

    @property
    def is_down(self) -> bool:
        return self.down_since is not None
