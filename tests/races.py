"""Many requests at the same moment, each on its own database connection (PostgreSQL).

``race(calls)`` runs the calls in threads released together by a barrier and returns
their results (an exception counts as a result). ``pool_for(n)`` gives the test's process
a larger connection pool (at most 16, the PostgreSQL server is shared) with a long wait
for its duration: in production a worker has no more threads than pooled connections
(WSGI_THREADS ≤ DATABASE_POOL_SIZE) and further requests queue in front of the threads,
while here thirty threads in one process queue at the pool, whose 1.5 s wait is meant for
a database that is away, not for a race. The pool is closed afterwards, so no idle
connections are left behind.
"""

from __future__ import annotations

import contextlib
import threading

from django.db import connection

MAX_CONNECTIONS = 16


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
    options["max_size"] = min(threads + 2, MAX_CONNECTIONS)
    options["timeout"] = 60
    try:
        yield
    finally:
        connection.close()
        connection.close_pool()
        options.clear()
        options.update(before)
