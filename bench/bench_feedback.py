"""Benchmark for reader feedback on a throw-away SQLite database (one core, plain script).

    .venv/bin/python bench/bench_feedback.py [--requests 200]

Prints median / p95 time and query count of: the game page and the catalogue with 2,000
votes per game (averages are subqueries, so more votes must not add queries), a vote,
a report sent through the whole spam check, and the private status page.
"""

from __future__ import annotations

import argparse
import io
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import remove_sqlite, scratch_sqlite  # noqa: E402


def measure(label, count, request):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    request()  # warm up
    timings = []
    for _ in range(count):
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            response = request()
            timings.append(time.perf_counter() - started)
        assert response.status_code in (200, 302), (label, response.status_code)
    timings.sort()
    p95 = timings[max(0, int(len(timings) * 0.95) - 1)]
    print(
        f"{label}: median {statistics.median(timings) * 1000:.1f} ms, "
        f"p95 {p95 * 1000:.1f} ms, {len(queries)} queries"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=100)
    args = parser.parse_args()

    path = scratch_sqlite()
    from django.conf import settings
    from django.core.cache import cache
    from django.core.management import call_command
    from django.test import Client

    from feedback.models import ErrorReport, Vote
    from games.models import Game

    settings.FEEDBACK_MIN_FILL_SECONDS = 0
    try:
        call_command("load_content", stdout=io.StringIO())
        for game in Game.objects.all():
            Vote.objects.bulk_create(
                Vote(game=game, visitor=f"bench-{n}", stars=n % 5 + 1) for n in range(2000)
            )
        client = Client()
        measure("game page, 2,000 votes", args.requests, lambda: client.get("/spiele/the-cat/"))
        measure("catalogue, 4 × 2,000 votes", args.requests, lambda: client.get("/"))

        voter = Client()

        def vote():
            cache.clear()  # measure the vote, not the rate limit
            response = voter.post(
                "/spiele/the-cat/bewerten/", {"sterne": "4"}, headers={"HX-Request": "true"}
            )
            assert "Danke!" in response.content.decode()
            return response

        measure("vote (htmx, change)", args.requests, vote)

        reporter = Client()
        form = reporter.get("/spiele/the-cat/fehler-melden/", headers={"HX-Request": "true"})
        timestamp = re.search(r'name="t" value="([^"]+)"', form.content.decode()).group(1)

        def send_report():
            cache.clear()  # measure the check, not the rate limit
            return reporter.post(
                "/spiele/the-cat/fehler-melden/",
                {"section_kind": "ziel", "message": "Auf S. 2 steht es anders.", "t": timestamp},
                headers={"HX-Request": "true"},
            )

        measure("report (htmx, spam check + insert)", args.requests, send_report)
        assert not ErrorReport.objects.filter(is_spam=True).exists()
        token = ErrorReport.objects.first().token
        measure("status page", args.requests, lambda: client.get(f"/meldung/{token}/"))
    finally:
        remove_sqlite(path)


if __name__ == "__main__":
    main()
