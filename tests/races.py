"""Many requests at the same moment, each on its own database connection (PostgreSQL).

``race(calls)`` runs the calls in threads released together by a barrier and returns
their results (an exception counts as a result). ``pool_for(n)`` gives the test's
process a connection pool as large as the race for its duration: in production each
thread of a worker has a pooled connection of its own (WSGI_THREADS ≤ DATABASE_POOL_SIZE),
while thirty threads in one test process would otherwise queue for the eight of the
default pool and might outwait its short timeout. The larger pool is closed afterwards,
so no idle connections are left on the shared PostgreSQL server.
"""

from __future__ import annotations

import contextlib
import threading

from django.db import connection


def race(calls: list) -> list:
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            results[index] = call()
        except Exception as error:  # the caller asserts there are none
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return results


@contextlib.contextmanager
def pool_for(threads: int):
    options = connection.settings_dict.get("OPTIONS", {}).get("pool")
    if not isinstance(options, dict):
        yield
        return
    before = dict(options)
    connection.close()
    connection.close_pool()
    options["max_size"] = threads + 2
    try:
        yield
    finally:
        connection.close()
        connection.close_pool()
        options.clear()
        options.update(before)
