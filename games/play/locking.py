"""One job: tell a lock SQLite refused apart from a real database error.

PostgreSQL queues row locks (``select_for_update``) or skips them
(``skip_locked``). SQLite has no row locks: file databases queue writers
(IMMEDIATE transactions and a busy timeout), but a shared-cache database (the
in-memory test database) answers "table is locked" at once. Callers that meet
such a refusal try again or leave the row to whoever holds it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.db import OperationalError, connection


def sqlite_refused(error: OperationalError) -> bool:
    return connection.vendor == "sqlite" and "locked" in str(error)


def none_when_sqlite_refuses[T](apply: Callable[..., T]) -> Callable[..., T | None]:
    """For the deadline loop's work on one row: a row SQLite will not lock now is left
    to whoever holds it (None, as for nothing applied; the next round looks again)."""

    @functools.wraps(apply)
    def guarded(*args, **kwargs) -> T | None:
        try:
            return apply(*args, **kwargs)
        except OperationalError as error:
            if not sqlite_refused(error):
                raise
            return None

    return guarded
