"""Balance figures from bot games (for the article's statistics section).

``simulate(games, seed, ...)`` plays ``games`` single games per player count
with the strategic bots of ``bots`` (every seat a bot, every move through
``view`` → ``bot_action`` → ``apply`` like the site) and returns plain data::

    {
      "games": int, "seed": int, "completed": str, "teams": bool,
      "rows": [{
        "players": n, "stock_size": s, "games": int,
        "turns_mean": float, "turns_median": float, "turns_p90": int,
        "rounds_mean": float,        # turns / players: rounds at the table
        "moves_mean": float,         # applied actions per game
        "stock_empty": float,        # share ending with an emptied stock
        "exhausted": float,          # share ending by an empty draw pile
        "draws": float,              # share of draws (all games)
        "draws_exhausted": float,    # share of draws among exhausted games
        "stuck": float, "limit": float,
        "starter_wins": float,       # the starting player (or team) won alone
        "starter_fair": float,       # 1 / number of sides
        "turns_histogram": [[first_turn, games], ...],  # bins of HISTOGRAM_BIN turns
      }]
    }
"""

from __future__ import annotations

import random
import statistics

from .bots import bot_action
from .engine import apply, new_game, outcome, to_act, view
from .rules import DEFAULT_STOCK, MAX_PLAYERS, MIN_PLAYERS

HISTOGRAM_BIN = 10


def _histogram(turns: list[int]) -> list[list[int]]:
    bins: dict[int, int] = {}
    for count in turns:
        start = (count - 1) // HISTOGRAM_BIN * HISTOGRAM_BIN + 1
        bins[start] = bins.get(start, 0) + 1
    if not bins:
        return []
    first, last = min(bins), max(bins)
    return [[start, bins.get(start, 0)] for start in range(first, last + 1, HISTOGRAM_BIN)]


def play_one(seed: int, players: int, options: dict | None = None, policies=None) -> dict:
    """One bot game; returns the final state plus the move count and starter."""
    state = new_game(seed, players, options)
    starter = state["turn"]
    rng = random.Random(seed)
    policies = policies or [bot_action] * players
    moves = 0
    while outcome(state) is None:
        seat = to_act(state)[0]
        state, _ = apply(state, seat, policies[seat](view(state, seat), rng))
        moves += 1
    return {"state": state, "moves": moves, "starter": starter}


def _row(players: int, stock_size: int, results: list[dict], teams: bool) -> dict:
    games = len(results)
    turns = sorted(r["state"]["turns"] for r in results)
    reasons = [r["state"]["round_result"]["reason"] for r in results]
    draws = [r["state"]["outcome"]["draw"] for r in results]
    exhausted = [d for d, reason in zip(draws, reasons, strict=True) if reason == "exhausted"]
    starter_wins = 0
    for result in results:
        out = result["state"]["outcome"]
        if not out["draw"] and result["starter"] in out["winners"]:
            starter_wins += 1
    sides = players // 2 if teams else players
    return {
        "players": players,
        "stock_size": stock_size,
        "games": games,
        "turns_mean": round(statistics.fmean(turns), 1),
        "turns_median": float(statistics.median(turns)),
        "turns_p90": turns[min(games - 1, int(0.9 * games))],
        "rounds_mean": round(statistics.fmean(turns) / players, 1),
        "moves_mean": round(statistics.fmean(r["moves"] for r in results), 1),
        "stock_empty": round(reasons.count("stock") / games, 3),
        "exhausted": round(reasons.count("exhausted") / games, 3),
        "draws": round(sum(draws) / games, 3),
        "draws_exhausted": round(sum(exhausted) / len(exhausted), 3) if exhausted else 0.0,
        "stuck": round(reasons.count("stuck") / games, 3),
        "limit": round(reasons.count("limit") / games, 3),
        "starter_wins": round(starter_wins / games, 3),
        "starter_fair": round(1 / sides, 3),
        "turns_histogram": _histogram(turns),
    }


def simulate(
    games: int = 200,
    seed: int = 1,
    *,
    players: tuple[int, ...] | list[int] = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1)),
    stock_sizes: dict[int, int] | None = None,
    completed: str = "shuffle",
    teams: bool = False,
    empty_draw: str = "end",
) -> dict:
    """Bot games per player count (see the module docs for the figures)."""
    sizes = {**DEFAULT_STOCK, **(stock_sizes or {})}
    rows = []
    for count in players:
        if teams and count not in (4, 6):
            continue
        options = {
            "stock_size": sizes[count],
            "completed": completed,
            "teams": teams,
            "empty_draw": empty_draw,
        }
        results = [
            play_one(seed * 100_003 + count * 10_007 + index, count, options)
            for index in range(games)
        ]
        rows.append(_row(count, sizes[count], results, teams))
    return {
        "games": games,
        "seed": seed,
        "completed": completed,
        "teams": teams,
        "empty_draw": empty_draw,
        "rows": rows,
    }
