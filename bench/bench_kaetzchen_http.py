"""Server time of the Kätzchen-Angeln demo's htmx requests (one core, SQLite, plain script).

    .venv/bin/python bench/bench_kaetzchen_http.py [--flips 2000] [--search 3000]

Drives the views through Django's test client against a fresh SQLite file, so
the numbers include middleware, the locked transaction with the DB save and
the template render – everything but the network. Targets: one flip median
< 5 ms with ≤ 3 queries; „Zum Ergebnis“ on a long game < 20 ms.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import percentile  # noqa: E402

GAME = {"slug": "kaetzchen-angeln"}
ACTIONS = ("demo_act", "demo_bot", "demo_new")  # the shared demo driver's URLs


def setup_django(db_path: str) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "site_config.settings.test"
    os.environ["SQLITE_PATH"] = db_path
    os.environ.pop("DATABASE_URL", None)
    import django

    # whitenoise looks for collected static files, which a benchmark does not need.
    warnings.filterwarnings("ignore", message="No directory at")
    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    # The published game the demo belongs to (its report lines are not the benchmark's).
    call_command("load_content", verbosity=0, stdout=io.StringIO())


def bench_flips(count: int) -> None:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from games.models import DemoGame

    client = Client()
    flip, cat, new = (reverse(f"games:{name}", kwargs=GAME) for name in ACTIONS)
    # As htmx sends them: urlencoded (the test client's default would be multipart).
    htmx = {"HTTP_HX_REQUEST": "true", "content_type": "application/x-www-form-urlencoded"}
    version = 0
    client.post(flip, urlencode({"version": version}), **htmx)  # creates the row and the cookie
    version += 1
    timings, statements, work = [], [], []
    games = 1
    while len(timings) < count:
        row = DemoGame.objects.get()
        if row.state["result"] is not None:
            client.post(new, urlencode({"version": version}), **htmx)
            version += 1
            games += 1
            continue
        url = flip if row.state["turn"] == 0 else cat
        payload = urlencode({"version": version, "zurueck": "/"})
        if len(statements) < 200:  # count queries on a sample; time the rest without the logging
            with CaptureQueriesContext(connection) as queries:
                response = client.post(url, payload, **htmx)
            sql = [q["sql"].split()[0].upper() for q in queries.captured_queries]
            statements.append(len(sql))
            control = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE")
            work.append(len([s for s in sql if s not in control]))
        else:
            started = time.perf_counter()
            response = client.post(url, payload, **htmx)
            timings.append(time.perf_counter() - started)
        assert response.status_code == 200
        version += 1
    ms = [t * 1000 for t in timings]
    print(f"flip (htmx POST, locked transaction, save, render): {count} timed, {games} games")
    print(
        f"  median {statistics.median(ms):.2f} ms, p95 {percentile(ms, 0.95):.2f} ms, max {max(ms):.2f} ms"
    )
    print(
        f"  queries per flip: {max(work)} (SELECT + UPDATE), "
        f"{max(statements)} statements with BEGIN IMMEDIATE/COMMIT"
    )


def bench_finish(search: int) -> None:
    from django.test import Client
    from django.urls import reverse

    from games.engines import kaetzchen as engine
    from games.models import DemoGame

    longest_seed, longest = 0, 0
    for seed in range(search):
        moves = engine.play_out(*engine.deal(seed))["moves"]
        if moves > longest:
            longest_seed, longest = seed, moves
    DemoGame.objects.all().delete()
    client = Client()
    htmx = {"HTTP_HX_REQUEST": "true", "content_type": "application/x-www-form-urlencoded"}
    finish = reverse("games:demo_extra", kwargs={**GAME, "name": "ergebnis"})
    client.post(reverse("games:demo_act", kwargs=GAME), urlencode({"version": 0}), **htmx)
    timings = []
    for _ in range(20):
        row = DemoGame.objects.get()
        row.state = engine.new_game(longest_seed)
        row.save()
        started = time.perf_counter()
        response = client.post(finish, urlencode({"version": row.version}), **htmx)
        timings.append(time.perf_counter() - started)
        assert response.status_code == 200
        assert DemoGame.objects.get().state["moves"] == longest
    median = statistics.median(timings) * 1000
    print(f"Zum Ergebnis: longest of {search} seeds is seed {longest_seed} with {longest} flips")
    print(f"  median {median:.2f} ms, max {max(timings) * 1000:.2f} ms (whole request)")
    print(f"  about {median / longest * 5000:.2f} ms scaled to a 5000-flip game (target < 20 ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flips", type=int, default=2000)
    parser.add_argument("--search", type=int, default=3000, help="seeds searched for a long game")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        setup_django(str(Path(directory) / "bench.sqlite3"))
        print(f"Python {sys.version.split()[0]}, SQLite file in a temporary directory")
        bench_flips(args.flips)
        bench_finish(args.search)


if __name__ == "__main__":
    main()
