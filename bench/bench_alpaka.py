"""Alpaka engine benchmark: whole bot games per second.

Run: ``.venv/bin/python bench/bench_alpaka.py [games]``. Every decision goes
through the site's path: ``view`` → ``bot_action`` → ``apply``.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engines.alpaka import (  # noqa: E402
    apply,
    bot_action,
    new_game,
    outcome,
    to_act,
    view,
)


def play_game(seed: int, players: int, variant: str, target: int) -> int:
    """One bot-only game; returns the number of actions applied."""
    state = new_game(seed, players, {"variant": variant, "target": target})
    rng = random.Random(seed)
    steps = 0
    while outcome(state) is None:
        seat = to_act(state)[0]
        state, _ = apply(state, seat, bot_action(view(state, seat), rng))
        steps += 1
    return steps


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    print(f"Alpaka, {games} bot games per row (target 40)")
    print(f"{'variant':<10} {'players':>7} {'games/s':>9} {'actions/game':>13} {'µs/action':>10}")
    total_games, total_time = 0, 0.0
    for variant in ("klassisch", "englert"):
        for players in (2, 4, 6):
            start = time.perf_counter()
            steps = sum(play_game(seed, players, variant, 40) for seed in range(games))
            elapsed = time.perf_counter() - start
            total_games += games
            total_time += elapsed
            print(
                f"{variant:<10} {players:>7} {games / elapsed:>9.1f} "
                f"{steps / games:>13.1f} {elapsed / steps * 1e6:>10.1f}"
            )
    print(f"overall: {total_games / total_time:.1f} games/s")


if __name__ == "__main__":
    main()
