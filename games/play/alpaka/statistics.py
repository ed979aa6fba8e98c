"""Alpaka from simulated bot games: whether quitting pays, points per round, game length.

``compute(games, seed)`` plays ``games`` games per player count (2–6, the page's
rules: classic, 40 points) with the demo's bots. Every time a bot quits although
it could have drawn, the round is also played on from the same moment with a
draw instead (the same cards come, the bots decide as always): quitting paid when
the bot's points after the round are lower than in that other round. ``present``
turns the stored figures into what ``play/alpaka/statistics.html`` draws.
"""

from __future__ import annotations

import itertools
import random

from games.engines import alpaka
from games.play.statistics import (
    bar_chart,
    margin,
    median,
    nice_scale,
    number,
    percent,
    quantile,
    stored,
)

ENGINE = "alpaka"
PLAYERS = (2, 3, 4, 5, 6)
OPTIONS = {"variant": alpaka.CLASSIC, "target": 40}
MAX_ACTIONS = 20000  # a safety net; a game ends long before


def _bot_move(state: dict, seat: int, rng: random.Random) -> dict:
    return alpaka.bot_action(alpaka.view(state, seat), rng)


def _round_total(state: dict, seat: int, rng: random.Random) -> int:
    """Play the running round to its end with the bots; the seat's points then."""
    round_ = state["round"]
    while state["phase"] == alpaka.PLAY and state["round"] == round_:
        actor = alpaka.to_act(state)[0]
        state, _ = alpaka.apply(state, actor, _bot_move(state, actor, rng))
    return alpaka.points(state)[seat]


def _quit_worth(state: dict, seat: int, seed: int) -> int:
    """Points after the round when quitting minus when drawing (negative: quitting paid)."""
    quit_state, _ = alpaka.apply(state, seat, {"type": "quit"})
    draw_state, _ = alpaka.apply(state, seat, {"type": "draw"})
    # The same choices afterwards: both branches use one seed.
    after_quit = _round_total(quit_state, seat, random.Random(seed))
    after_draw = _round_total(draw_state, seat, random.Random(seed))
    return after_quit - after_draw


def play_game(players: int, seed: int) -> dict:
    names = [f"Bot {n + 1}" for n in range(players)]
    state = alpaka.new_game(seed, players, {**OPTIONS, "names": names})
    rng = random.Random(seed)
    actions, quits = 0, []
    while alpaka.outcome(state) is None and actions < MAX_ACTIONS:
        seat = alpaka.to_act(state)[0]
        action = _bot_move(state, seat, rng)
        if action["type"] == "quit" and {"type": "draw"} in alpaka.legal_actions(state, seat):
            quits.append(_quit_worth(state, seat, seed * 1000 + actions))
        state, _ = alpaka.apply(state, seat, action)
        actions += 1
    paid = [p for row in state["score_sheet"] for p in row if p is not None]
    return {
        "actions": actions,
        "rounds": state["round"],
        "points_per_round": sum(paid) / max(1, len(paid)),
        "quits": quits,
    }


def compute(games: int, seed: int) -> dict:
    rows = []
    for players in PLAYERS:
        played = [play_game(players, seed + n) for n in range(games)]
        quits = [worth for game in played for worth in game["quits"]]
        rows.append(
            {
                "players": players,
                "rounds_median": median([g["rounds"] for g in played]),
                "rounds_p90": quantile([g["rounds"] for g in played], 0.9),
                "actions_median": median([g["actions"] for g in played]),
                "points_per_round": sum(g["points_per_round"] for g in played) / games,
                "quits": len(quits),
                "quit_paid": sum(1 for w in quits if w < 0),
                "quit_even": sum(1 for w in quits if w == 0),
                "quit_cost": sum(1 for w in quits if w > 0),
                "quit_saved_mean": -sum(quits) / len(quits) if quits else 0.0,
            }
        )
    return {"games": games, "seed": seed, "rows": rows}


def load() -> dict | None:
    stats = stored(ENGINE)
    return present(stats) if stats else None


def _players(count: int) -> str:
    return f"{count} Spieler"


AT = {2: "zu zweit", 3: "zu dritt", 4: "zu viert", 5: "zu fünft", 6: "zu sechst"}


def present(stats) -> dict:
    rows = stats.figures["rows"]
    quits = sum(r["quits"] for r in rows)
    paid = sum(r["quit_paid"] for r in rows)
    even = sum(r["quit_even"] for r in rows)
    cost = sum(r["quit_cost"] for r in rows)

    def share(part: int) -> float:
        return part / quits if quits else 0.0

    quit_bars = [
        {"label": "zahlte sich aus", "value": share(paid), "text": percent(share(paid), 0), "key": "good"},
        {"label": "egal", "value": share(even), "text": percent(share(even), 0), "key": "even"},
        {"label": "kostete Punkte", "value": share(cost), "text": percent(share(cost), 0), "key": "bad"},
    ]  # fmt: skip
    points_end, points_tick = nice_scale(max(r["points_per_round"] for r in rows))
    rounds_end, rounds_tick = nice_scale(max(r["rounds_p90"] for r in rows))
    return {
        "games": number(stats.deals),
        "games_value": stats.deals,
        "total": number(stats.deals * len(rows)),
        "computed_at": stats.computed_at,
        "rough": stats.deals < 100,
        "quits": number(quits),
        "quits_value": quits,
        "paid": percent(share(paid), 0),
        "cost": percent(share(cost), 0),
        "even": percent(share(even), 0),
        "mostly_paid": paid > cost,
        "margin": margin(quits),
        "quit_chart": bar_chart(
            quit_bars,
            scale=1.0,
            tick_every=0.25,
            tick_text=lambda value: percent(value, 0),
            axis_title="Anteil der Ausstiege",
            label_width=120,
        ),
        "points_chart": bar_chart(
            [
                {
                    "label": _players(r["players"]),
                    "value": r["points_per_round"],
                    "text": number(r["points_per_round"], 1),
                }
                for r in rows
            ],
            scale=points_end,
            tick_every=points_tick,
            axis_title="Minuspunkte je Spieler und Runde",
            label_width=80,
        ),  # fmt: skip
        "rounds_chart": bar_chart(
            [
                {
                    "label": _players(r["players"]),
                    "value": r["rounds_median"],
                    "whisker": r["rounds_p90"],
                    "text": number(r["rounds_median"]),
                }
                for r in rows
            ],
            scale=rounds_end,
            tick_every=rounds_tick,
            axis_title="Runden bis 40 Punkte",
            label_width=80,
        ),  # fmt: skip
        "players": [r["players"] for r in rows],
        "table": [
            {"label": "Runden, Median", "cells": [number(r["rounds_median"]) for r in rows]},
            {
                "label": "Runden, 9 von 10 Spielen höchstens",
                "cells": [number(r["rounds_p90"]) for r in rows],
            },
            {"label": "Züge, Median", "cells": [number(r["actions_median"]) for r in rows]},
            {
                "label": "Minuspunkte je Spieler und Runde",
                "cells": [number(r["points_per_round"], 1) for r in rows],
            },
            {"label": "Ausstiege mit Alternative", "cells": [number(r["quits"]) for r in rows]},
            {
                "label": "… davon zahlten sich aus",
                "cells": [
                    percent(r["quit_paid"] / r["quits"], 0) if r["quits"] else "–" for r in rows
                ],
            },
        ],  # fmt: skip
        "fewest_points": AT[min(rows, key=lambda r: r["points_per_round"])["players"]],
        "fewest_points_value": number(min(r["points_per_round"] for r in rows), 1),
        "most_points": AT[max(rows, key=lambda r: r["points_per_round"])["players"]],
        "most_points_value": number(max(r["points_per_round"] for r in rows), 1),
        # Only said when the numbers show it: more players, more points per head.
        "points_grow": all(
            a["points_per_round"] <= b["points_per_round"] for a, b in itertools.pairwise(rows)
        ),
        "longest": AT[max(rows, key=lambda r: r["rounds_median"])["players"]],
        "longest_rounds": number(max(r["rounds_median"] for r in rows)),
        "shortest": AT[min(rows, key=lambda r: r["rounds_median"])["players"]],
        "shortest_rounds": number(min(r["rounds_median"] for r in rows)),
    }
