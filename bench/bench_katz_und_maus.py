"""Katz und Maus benchmark: bot strength, bot games per second, balance table.

Run: ``.venv/bin/python bench/bench_katz_und_maus.py [games] [sim_games]``
(defaults 1000 and 300). Every decision goes through the site's path:
``view`` → ``bot_action`` → ``apply``.

1. Bot vs the random-legal baseline (``random_action``) and vs a simple greedy
   player (any fitting card, stock first, then a random discard): two-player
   games, seats alternating.
2. Bot games per second (all seats bots) by player count.
3. The balance table from ``simulate`` (the article's figures): how games end
   per player count with the article's stock sizes, plus the alternatives.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engines.katz_und_maus import (  # noqa: E402
    DEFAULT_STOCK,
    bot_action,
    random_action,
    simulate,
)
from games.engines.katz_und_maus.simulation import play_one  # noqa: E402


def greedy_action(view: dict, rng: random.Random) -> dict:
    """Plays whatever fits (stock first), else discards a random hand card."""
    legal = view["legal_actions"]
    plays = [a for a in legal if a["type"] == "play"]
    stock = [a for a in plays if a["source"] == "stock"]
    if stock or plays:
        return dict(rng.choice(stock or plays))
    return dict(rng.choice(legal))


def duel(games: int, rival) -> tuple[float, float, float]:
    wins = losses = draws = 0
    for index in range(games):
        bot_seat = index % 2
        policies = [rival, rival]
        policies[bot_seat] = bot_action
        state = play_one(50_000 + index, 2, {}, policies)["state"]
        result = state["outcome"]
        if result["draw"]:
            draws += 1
        elif bot_seat in result["winners"]:
            wins += 1
        else:
            losses += 1
    return wins / games, losses / games, draws / games


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    sim_games = int(sys.argv[2]) if len(sys.argv) > 2 else 300

    print(f"Katz und Maus: bot vs baselines, {games} two-player games each (stock 20)")
    for name, rival in (("random-legal", random_action), ("greedy", greedy_action)):
        start = time.perf_counter()
        win, loss, draw = duel(games, rival)
        elapsed = time.perf_counter() - start
        print(
            f"  bot vs {name:<12} won {win:6.1%}  lost {loss:6.1%}  draw {draw:5.1%}"
            f"  ({games / elapsed:.0f} games/s)"
        )

    print("\nBot games per second (all seats bots, article's stock sizes)")
    print(f"{'players':>7} {'stock':>5} {'games/s':>8} {'moves/game':>11} {'µs/move':>8}")
    for players in range(2, 7):
        start = time.perf_counter()
        moves = sum(play_one(seed, players)["moves"] for seed in range(100))
        elapsed = time.perf_counter() - start
        print(
            f"{players:>7} {DEFAULT_STOCK[players]:>5} {100 / elapsed:>8.1f} "
            f"{moves / 100:>11.1f} {elapsed / moves * 1e6:>8.1f}"
        )

    header = (
        f"{'players':>7} {'stock':>5} {'turns':>6} {'p90':>4} {'rounds':>6} {'stock empty':>11}"
        f" {'draw pile out':>13} {'draws':>6} {'starter wins':>12} {'fair':>5}"
    )

    def table(title: str, result: dict) -> None:
        print(f"\n{title} ({result['games']} games per row)")
        print(header)
        for row in result["rows"]:
            print(
                f"{row['players']:>7} {row['stock_size']:>5} {row['turns_mean']:>6.1f}"
                f" {row['turns_p90']:>4} {row['rounds_mean']:>6.1f} {row['stock_empty']:>11.1%}"
                f" {row['exhausted']:>13.1%} {row['draws']:>6.1%} {row['starter_wins']:>12.1%}"
                f" {row['starter_fair']:>5.1%}"
            )

    table("Balance: the article's rules (the source's end of game)", simulate(sim_games, 1))
    table("Teams (4 and 6 players)", simulate(sim_games, 1, players=(4, 6), teams=True))
    quick = max(50, sim_games // 3)
    table(
        "Alternative: old stock table 20/20/15/12/10",
        simulate(quick, 2, stock_sizes={3: 20, 4: 15, 5: 12, 6: 10}),
    )
    table(
        "Variant: a new draw pile from the build piles",
        simulate(quick, 3, empty_draw="recycle"),
    )
    table("Alternative: complete piles removed", simulate(quick, 4, completed="remove"))


if __name__ == "__main__":
    main()
