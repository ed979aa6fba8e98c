"""The Cat engine benchmark: bot-only rounds.

Run: ``.venv/bin/python bench/bench_the_cat.py [rounds]``. Every row plays
``rounds`` first rounds (seeds 0…) with bots only, driving the clock the way the
site does (``advance(state, next_due(state))`` until the round ends). It prints
rounds per second of wall time, the average round length in seconds of game time
per bot speed, and how often the caller was right (plain bots and „Schummelkatze“).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engines.the_cat import SPEEDS, advance, new_game, next_due  # noqa: E402


def play_round(seed: int, players: int, speed: str, cheaters: int = 0) -> dict:
    """One bot-only first round; returns its ``round_end`` event and the step count."""
    bots = {str(seat): speed for seat in range(players)}
    options = {"bots": bots, "cheater": list(range(cheaters)), "round_seconds": 900}
    state = new_game(seed, players, options, now=0.0)
    steps = 0
    while True:
        due = next_due(state)
        state, events = advance(state, due)
        steps += 1
        for event in events:
            if event["type"] == "round_end":
                return {**event, "steps": steps}


def row(label: str, players: int, speed: str, rounds: int, cheaters: int = 0) -> dict:
    start = time.perf_counter()
    ends = [play_round(seed, players, speed, cheaters) for seed in range(rounds)]
    elapsed = time.perf_counter() - start
    lengths = [end["at"] for end in ends]
    called = [end for end in ends if end["caller"] is not None]
    right = sum(end["caller_right"] for end in called)
    cheat_calls = [end for end in called if end["caller"] < cheaters]
    cheat_right = sum(end["caller_right"] for end in cheat_calls)
    timeouts = sum(end["reason"] == "time" for end in ends)
    steps = sum(end["steps"] for end in ends)
    print(
        f"{label:<22} {players:>2} {rounds / elapsed:>9.1f} {elapsed / steps * 1e6:>9.0f} "
        f"{statistics.mean(lengths):>8.1f} {statistics.median(lengths):>8.1f} "
        f"{max(lengths):>7.1f} {timeouts:>5} {right:>4}/{len(called):<4}"
        + (f" cheater {cheat_right}/{len(cheat_calls)}" if cheaters else "")
    )
    return {"elapsed": elapsed, "rounds": rounds}


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    print(f"The Cat, {rounds} bot-only first rounds per row (round timer 900 s)")
    print(
        f"{'bots':<22} {'pl':>2} {'rounds/s':>9} {'µs/step':>9} {'mean s':>8} "
        f"{'median s':>8} {'max s':>7} {'time':>5} right calls"
    )
    total_rounds, total_time = 0, 0.0
    for speed in SPEEDS:
        for players in (2, 3, 4):
            result = row(speed, players, speed, rounds)
            total_rounds += result["rounds"]
            total_time += result["elapsed"]
    for players in (2, 3, 4):
        result = row("normal + Schummelkatze", players, "normal", rounds, cheaters=1)
        total_rounds += result["rounds"]
        total_time += result["elapsed"]
    print(f"overall: {total_rounds / total_time:.1f} rounds/s")


if __name__ == "__main__":
    main()
