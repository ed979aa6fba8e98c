"""Replays: drawing any step of a 1,000-step game, and what the record costs a move.

    .venv/bin/python bench/bench_replays.py [--requests 60]

For each game with replays, bots play long games on a ``Table`` (the rooms' and
demos' code) until one has at least 1,000 steps; it is kept as a replay on a
throw-away SQLite database. Printed per game:

- first view: the first step drawn in a process for a replay nobody viewed yet
  (all keyframes computed and stored);
- new step (median / max, CPU time of this process and wall time): a random step
  nobody drew yet, server-side – the row, nearest keyframe, engine steps, spectator
  view, presenter, the game's table template and the stage around it; the target
  is under 20 ms. CPU time is what the step costs; wall time adds waiting for a
  core on a busy machine (the load average is printed);
- kept step, HTTP: a step drawn before (boards are kept: a replay never changes)
  through the whole htmx request;
- record: JSON-encoding the growing record once more per move (the only cost a move
  pays for it: the row is written anyway), at 1,000 steps.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import remove_sqlite, scratch_sqlite  # noqa: E402

TARGET_STEPS = 1000
LONG_GAME_OPTIONS = {
    "alpaka": {"target": 80},
    "katz_und_maus": {"match": "500"},
    "the_cat": {"speed": "flink"},
}


def long_game(definition, seed: int, tries: int = 12):
    """A bot game of at least ``TARGET_STEPS`` steps (most players, longest settings),
    or the longest of ``tries`` games when the game never lasts that long."""
    from games.play.table import Table

    players = definition.max_players
    longest = None
    for _ in range(tries):
        table = Table(definition, None, 0, bots=set(range(players)), key=f"bench{seed}")
        now = datetime(2026, 3, 1, 18, tzinfo=UTC)
        options = {**definition.default_options(), **LONG_GAME_OPTIONS.get(definition.key, {})}
        names = [f"Bot {n}" for n in range(players)]
        table.deal(names, options, now)
        for _ in range(100000):
            if table.over:
                break
            now += timedelta(seconds=1)
            table.advance(now)
        if longest is None or len(table.record["log"]) > len(longest.record["log"]):
            longest = table
        if len(table.record["log"]) >= TARGET_STEPS:
            break
        seed += 1
    return longest


HTMX = {"HX-Request": "true"}


def ms(values) -> str:
    """Median and maximum in milliseconds."""
    return f"{statistics.median(values) * 1000:.1f} / {max(values) * 1000:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=60)
    args = parser.parse_args()

    path = scratch_sqlite()
    from django.core.cache import cache
    from django.template.loader import render_to_string
    from django.test import Client, RequestFactory

    from games.models import Replay
    from games.play import definition as registry
    from games.play import replay_views, replays

    try:
        client = Client()
        factory = RequestFactory()
        rng = random.Random(1)
        print(f"{'game':<14} {'steps':>6} {'first view':>11} {'new step, CPU':>18} "
              f"{'new step, wall':>18} {'kept step, HTTP':>18} {'record/move':>12}")  # fmt: skip
        for definition in registry.all_definitions():
            if not definition.replays or definition.key not in LONG_GAME_OPTIONS:
                continue
            table = long_game(definition, 1)
            kept = replays.keep(definition, table, source="demo")
            replays._frames.clear()
            replay = Replay.objects.get(pk=kept.pk)
            started = time.perf_counter()
            replays.position(replay, definition, replay.steps // 2)
            first = time.perf_counter() - started

            drawn_wall, drawn_cpu = [], []
            for _ in range(args.requests):
                step = rng.randint(0, replay.steps)
                replays._boards.clear()
                cache.clear()
                request = factory.get(f"{replay.get_absolute_url()}?zug={step}")
                wall, cpu = time.perf_counter(), time.process_time()
                replay_row = Replay.objects.defer("keyframes", "final_state").get(pk=replay.pk)
                context = replay_views.stage_context(
                    request, replay_row, definition, step, all_hands=False
                )
                render_to_string("play/replay.html#stage", context, request=request)
                drawn_wall.append(time.perf_counter() - wall)
                drawn_cpu.append(time.process_time() - cpu)

            http = []
            for _ in range(args.requests):
                step = rng.randint(0, replay.steps)
                client.get(f"{replay.get_absolute_url()}?zug={step}", headers=HTMX)
                started = time.perf_counter()
                response = client.get(f"{replay.get_absolute_url()}?zug={step}", headers=HTMX)
                http.append(time.perf_counter() - started)
                assert response.status_code == 200

            encode = []
            for _ in range(20):
                started = time.perf_counter()
                json.dumps(replay.record)
                encode.append(time.perf_counter() - started)
            size = len(json.dumps(replay.record)) / 1024
            print(
                f"{definition.key:<14} {replay.steps:>6} {first * 1000:>8.1f} ms "
                f"{ms(drawn_cpu):>18} {ms(drawn_wall):>18} {ms(http):>18} "
                f"{statistics.median(encode) * 1000:>6.2f} ms ({size:.0f} KB)"
            )
        print(f"load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    finally:
        remove_sqlite(path)


if __name__ == "__main__":
    main()
