"""Benchmark for the sleeve calculation and the Sleeve-Finder page (one core, plain script).

    .venv/bin/python bench/bench_sleeves.py [--requests 200]

Prints calculate() time for the largest selection the finder accepts (30 games, 20 copies
each, 3 card sizes per game) against 500 products of 25 brands, and the median / p95 time
and query count of whole finder and game-page requests on a throw-away SQLite database,
each drawn anew (page cache and kept parts invalidated before every request).
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import remove_sqlite, scratch_sqlite  # noqa: E402

SIZES = ["41x63", "44x68", "56x87", "57.5x89", "59x92", "63.5x88", "65x100", "70x120", "80x120"]


def bench_pure(rounds: int) -> None:
    from sleeves.calculation import MAX_COPIES, MAX_GAMES, CardGroup, Offer, Size, calculate

    sizes = [Size.parse(text) for text in SIZES]
    groups = [
        CardGroup(f"Spiel {g}", "Karten", 50 + g, sizes[(g + k) % len(sizes)], copies=MAX_COPIES)
        for g in range(MAX_GAMES)
        for k in range(3)
    ]
    offers = [
        Offer(
            brand=f"Marke {b}",
            name=f"Hülle {n}",
            inner=Size.of(
                sizes[n % len(sizes)].width + Decimal("0.5") * (n % 8),
                sizes[n % len(sizes)].height + Decimal("0.5") * (n % 9),
            ),
            per_pack=50 + 10 * (n % 7),
            price=Decimal("3.99") + n % 5,
        )
        for b in range(25)
        for n in range(20)
    ]
    started = time.perf_counter()
    for _ in range(rounds):
        result = calculate(groups, offers, Decimal("4"))
    elapsed = time.perf_counter() - started
    print(
        f"calculate(): {len(groups)} card groups × {len(offers)} products → "
        f"{len(result.plans)} brand plans, {elapsed / rounds * 1000:.2f} ms per calculation"
    )


def bench_requests(count: int) -> None:
    path = scratch_sqlite()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from games.models import Game
    from site_config.page_cache import bump_generation
    from sleeves.calculation import MAX_COPIES, Size
    from sleeves.models import Brand, CardFormat, CardSize, SleeveProduct

    try:
        call_command("load_content", stdout=io.StringIO())
        sizes = []
        for text in SIZES:
            size = Size.parse(text)
            sizes.append(
                CardSize.objects.get_or_create(width_mm=size.width, height_mm=size.height)[0]
            )
        for b in range(25):
            brand = Brand.objects.create(name=f"Bench-Marke {b}")
            SleeveProduct.objects.bulk_create(
                SleeveProduct(
                    brand=brand,
                    name=f"Hülle {n}",
                    card_size=size,
                    inner_width_mm=size.width_mm + 2,
                    inner_height_mm=size.height_mm + 3,
                    per_pack=100,
                    price=Decimal("4.99"),
                    price_seen_on="2026-11-29",
                )  # fmt: skip
                for n, size in enumerate(sizes * 2)
            )
        slugs = []
        for g in range(26):
            game = Game.objects.create(
                slug=f"bench-{g}", title=f"Bench {g}", short_description="x", players_min=2,
                players_max=4, min_age=8, duration_minutes=20, is_published=True,
            )  # fmt: skip
            CardFormat.objects.bulk_create(
                CardFormat(game=game, label="Karten", count=60, size=sizes[(g + k) % len(sizes)])
                for k in range(3)
            )
            slugs.append(game.slug)
        slugs += ["the-cat", "alpaka", "kaetzchen-angeln", "katz-und-maus"]
        selection = ",".join(f"{slug}*{MAX_COPIES}" for slug in slugs)
        client = Client()
        for label, url, headers in (
            ("finder, 30 games", f"/sleeve-finder/?spiele={selection}&q=bench", {}),
            ("finder htmx partial", f"/sleeve-finder/?spiele={selection}", {"HX-Request": "true"}),
            ("game page with box", "/spiele/katz-und-maus/", {}),
        ):
            client.get(url, headers=headers)  # warm up
            timings = []
            for _ in range(count):
                # Drawn anew each time: not a page-cache hit, no kept part (site_config).
                bump_generation()
                with CaptureQueriesContext(connection) as queries:
                    started = time.perf_counter()
                    response = client.get(url, headers=headers)
                    timings.append(time.perf_counter() - started)
                assert response.status_code == 200, response.status_code
            timings.sort()
            p95 = timings[int(len(timings) * 0.95) - 1]
            print(
                f"{label}: median {statistics.median(timings) * 1000:.1f} ms, "
                f"p95 {p95 * 1000:.1f} ms, {len(queries)} queries, {len(response.content) // 1024} KiB"
            )
    finally:
        remove_sqlite(path)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--requests", type=int, default=100)
    args = parser.parse_args()
    bench_pure(args.rounds)
    bench_requests(args.requests)


if __name__ == "__main__":
    main()
