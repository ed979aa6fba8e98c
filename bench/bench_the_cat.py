"""The Cat engine benchmark: bot-only rounds.

Run: ``.venv/bin/python bench/bench_the_cat.py [rounds]``. Every row plays
``rounds`` first rounds (seeds 0…) with bots only, driving the clock the way the
site does (``advance(state, next_due(state))`` until the round ends). It prints
rounds per second of wall time, the average round length in seconds of game time
per bot speed and table size (median: the goal is a two-player round against a
„gemütlich“ bot of 1–3 minutes), and how often the caller was right (plain bots and
„Schummelkatze“). A second table seats a newcomer stand-in against one bot: seat 0
plays the bots' strategy at a person's first-game pace (``NEWCOMER_SECONDS`` per
step), sent through ``try_apply`` like a click.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engines.the_cat import (  # noqa: E402
    SPEEDS,
    advance,
    bot_choice,
    bot_view,
    new_game,
    next_due,
    try_apply,
)
from games.engines.the_cat.rules import best_count  # noqa: E402

NEWCOMER_SECONDS = 4.0  # mean seconds per step of a person in a first game


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


def play_against(seed: int, speed: str) -> dict:
    """One first round: a newcomer stand-in at seat 0 against one bot at ``speed``."""
    options = {"bots": {"1": speed}, "round_seconds": 900}
    state = new_game(seed, 2, options, now=0.0)
    pace = random.Random(f"newcomer:{seed}")
    plan, since, best = None, 0, 0
    mine = NEWCOMER_SECONDS * (0.5 + pace.random())
    while True:
        due = next_due(state)
        if due is not None and due < mine:
            state, events = advance(state, due)
        else:
            # What a person keeps in mind: the plan and how long nothing got better.
            view = {**bot_view(state, 0), "plan": plan, "since_gain": since}
            action, reason = bot_choice(view, pace)
            plan = reason.get("plan", plan)
            if action is None:
                state, events = advance(state, mine)
            else:
                state, events, _ = try_apply(state, 0, action, now=mine)
            mine += NEWCOMER_SECONDS * (0.5 + pace.random())
            progress = sum(best_count(stack) for stack in state["stacks"][0])
            since, best = (0, progress) if progress > best else (since + 1, best)
        for event in events:
            if event["type"] == "round_end":
                return event


def newcomer_row(speed: str, rounds: int) -> None:
    ends = [play_against(seed, speed) for seed in range(rounds)]
    lengths = [end["at"] for end in ends]
    bot_calls = sum(end["caller"] == 1 for end in ends)
    print(
        f"{'Neuling vs ' + speed:<22} {2:>2} {statistics.median(lengths):>8.1f} "
        f"{max(lengths):>7.1f} {bot_calls:>4}/{rounds}"
    )


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
    print(f"\nA newcomer (one step every ~{NEWCOMER_SECONDS:.0f} s) against one bot, first rounds")
    print(f"{'table':<22} {'pl':>2} {'median s':>8} {'max s':>7} bot called")
    for speed in SPEEDS:
        newcomer_row(speed, rounds)


if __name__ == "__main__":
    main()
