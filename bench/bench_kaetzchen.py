"""Benchmark for the Kätzchen-Angeln engine (one core, plain script).

    .venv/bin/python bench/bench_kaetzchen.py [--games 20000] [--simulate 20000]

Prints play_out() games/s on random deals, finish() time on the longest game
found, apply() flips/s, and the simulate() figures for the article.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engines import kaetzchen as k  # noqa: E402


def random_deals(count: int, seed: int) -> list[tuple[list[str], list[str]]]:
    rng = random.Random(seed)
    deals = []
    for _ in range(count):
        deck = list(k.CARDS)
        rng.shuffle(deck)
        deals.append((deck[0::2], deck[1::2]))
    return deals


def bench_play_out(count: int) -> None:
    deals = random_deals(count, seed=1)
    started = time.perf_counter()
    moves = 0
    for index, (you, cat) in enumerate(deals):
        moves += k.play_out(you, cat, starter="cat" if index % 2 else "you")["moves"]
    elapsed = time.perf_counter() - started
    print(f"play_out: {count} games in {elapsed:.2f} s")
    print(f"  {count / elapsed:,.0f} games/s, {moves / elapsed / 1e6:.2f} M flips/s")
    print(f"  {moves / count:.0f} flips per game on average")


def bench_finish(search: int) -> None:
    # Real games rarely last past 4000 flips, so take the longest of many seeds.
    longest_seed, longest = 0, 0
    for seed in range(search):
        you, cat = k.deal(seed)
        moves = k.play_out(you, cat)["moves"]
        if moves > longest:
            longest_seed, longest = seed, moves
    state = k.new_game(longest_seed)
    timings = []
    for _ in range(20):
        started = time.perf_counter()
        _, summary = k.finish(state)
        timings.append(time.perf_counter() - started)
    assert summary["moves"] == longest
    print(f"finish: longest of {search} seeds is seed {longest_seed}, {longest} flips")
    print(f"  median {statistics.median(timings) * 1000:.2f} ms, max {max(timings) * 1000:.2f} ms")

    # No random deal seen so far reaches the limit, so scale to 5000 flips.
    per_5000 = statistics.median(timings) / longest * 5000
    print(f"  about {per_5000 * 1000:.2f} ms for a 5000-flip game (target < 20 ms)")


def bench_apply(flips: int) -> None:
    state = k.new_game(7)
    started = time.perf_counter()
    done = 0
    while done < flips:
        if state["result"] is not None:
            state = k.new_game(done)
        state, _ = k.apply(state, state["turn"], {"type": "flip"})
        done += 1
    elapsed = time.perf_counter() - started
    print(f"apply: {flips / elapsed:,.0f} flips/s ({elapsed / flips * 1e6:.1f} µs per flip)")


def bench_simulate(count: int) -> None:
    started = time.perf_counter()
    figures = k.simulate(count, seed=0)
    elapsed = time.perf_counter() - started
    print(f"simulate({count}, seed=0, starter alternating): {elapsed:.2f} s")
    for key in (
        "median_moves",
        "mean_moves",
        "p90_moves",
        "min_moves",
        "max_moves",
        "share_over_500",
        "share_over_1000",
        "share_limit",
        "starter_win_rate",
        "draw_rate",
    ):
        value = figures[key]
        print(f"  {key:17s} {value:.4f}" if isinstance(value, float) else f"  {key:17s} {value}")
    print("  histogram (flips: games)")
    for bin_ in figures["histogram"]:
        share = bin_["count"] / count
        print(
            f"    {bin_['from']:>5}–{bin_['to']:<5} {bin_['count']:>6}  {'#' * round(share * 200)}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000, help="deals for play_out")
    parser.add_argument("--simulate", type=int, default=20000, help="deals for simulate")
    parser.add_argument("--search", type=int, default=5000, help="seeds searched for finish")
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}")
    bench_play_out(args.games)
    bench_finish(args.search)
    bench_apply(50000)
    bench_simulate(args.simulate)


if __name__ == "__main__":
    main()
