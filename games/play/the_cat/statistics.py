"""The Cat from simulated bot games: round length by bot speed, right „Stopp!“ calls,
points by seat, and the moods two players take out.

Everyone at the table is a bot (the demo's bots, on the engine's own clock), so a
whole game runs in one ``advance`` call and its events say everything: each
``round_end`` carries its time, the caller and whether the call was right.
``compute(games, seed)`` plays ``games`` games per setting (``SETTINGS``);
``present`` words the stored numbers for ``play/the_cat/statistics.html``.
"""

from __future__ import annotations

from games.engines import the_cat
from games.play import statistics as shared

ENGINE = "the_cat"
PLAYERS = (2, 3, 4)
SPEEDS = ("gemuetlich", "normal", "flink")
# Two players: the removed moods (None: by chance), as the host may choose them.
REMOVED = {
    "zufall": None,
    "farben": ("verwirrt", "frech", "traurig", "albern"),
    "gute-laune": ("grimmig", "erschrocken", "traurig", "beleidigt"),
}
REMOVED_LABELS = {"zufall": "Zufall", "farben": "ähnliche Farben", "gute-laune": "nur gute Laune"}
END_OF_TIME = 1e9  # far beyond any game: one advance plays it to the end


def play_game(players: int, seed: int, *, speed="normal", cheat=False, removed=None) -> dict:
    options = {
        "target": the_cat.DEFAULT_TARGET,
        "bots": {str(seat): speed for seat in range(players)},
        "cheater": [0] if cheat else [],
        "removed": list(removed) if removed else None,
        "names": [f"Bot {n + 1}" for n in range(players)],
    }
    state = the_cat.new_game(seed, players, options, now=0.0)
    state, events = the_cat.advance(state, END_OF_TIME)
    rounds, started = [], 0.0
    for event in events:
        if event["type"] == "deal":
            started = event["at"]
        elif event["type"] == "round_end":
            rounds.append(
                {
                    "seconds": event["at"] - started,
                    "reason": event["reason"],
                    "caller": event["caller"],
                    "right": event["caller_right"],
                    "points": event["points"],
                }
            )
    return {"rounds": rounds, "over": the_cat.outcome(state) is not None}


def _summary(games: list[dict], players: int) -> dict:
    rounds = [r for game in games for r in game["rounds"]]
    calls = [r for r in rounds if r["reason"] == "stop"]
    seat_points = [
        sum(r["points"][seat] for r in rounds) / max(1, len(rounds)) for seat in range(players)
    ]
    return {
        "rounds": len(rounds),
        "seconds_median": shared.median([r["seconds"] for r in rounds]),
        "seconds_p90": shared.quantile([r["seconds"] for r in rounds], 0.9),
        "calls": len(calls),
        "right": sum(1 for r in calls if r["right"]),
        "cheater_calls": sum(1 for r in calls if r["caller"] == 0),
        "cheater_right": sum(1 for r in calls if r["caller"] == 0 and r["right"]),
        "seat_points": seat_points,
        "rounds_per_game": len(rounds) / max(1, len(games)),
    }


def compute(games: int, seed: int) -> dict:
    def run(players, **setting):
        played = [play_game(players, seed + n, **setting) for n in range(games)]
        return _summary(played, players)

    return {
        "games": games,
        "seed": seed,
        "bots": the_cat.BOTS_VERSION,  # figures of older bots are computed again
        "speeds": {
            speed: {str(players): run(players, speed=speed) for players in PLAYERS}
            for speed in SPEEDS
        },
        "cheat": {str(players): run(players, cheat=True) for players in PLAYERS},
        "removed": {key: run(2, removed=moods) for key, moods in REMOVED.items()},
    }


def load() -> dict | None:
    stats = shared.stored(ENGINE)
    return present(stats) if stats else None


def _seconds(value: float) -> str:
    return f"{shared.number(value)}\u00a0s"


def _share(part: int, whole: int) -> str:
    return shared.percent(part / whole, 0) if whole else "–"


def present(stats) -> dict:
    figures = stats.figures
    speeds, cheat, removed = figures["speeds"], figures["cheat"], figures["removed"]
    normal = speeds["normal"]
    length_bars = [
        {
            "label": f"{the_cat.SPEED_NAMES[speed]}, {players}",
            "value": speeds[speed][str(players)]["seconds_median"],
            "whisker": speeds[speed][str(players)]["seconds_p90"],
            "text": _seconds(speeds[speed][str(players)]["seconds_median"]),
        }
        for speed in SPEEDS
        for players in PLAYERS
    ]
    end, tick = shared.nice_scale(max(bar["whisker"] for bar in length_bars))
    honest_calls = sum(normal[str(p)]["calls"] for p in PLAYERS)
    honest_right = sum(normal[str(p)]["right"] for p in PLAYERS)
    cheat_calls = sum(cheat[str(p)]["calls"] for p in PLAYERS)
    cheat_right = sum(cheat[str(p)]["right"] for p in PLAYERS)
    cheater_calls = sum(cheat[str(p)]["cheater_calls"] for p in PLAYERS)
    cheater_right = sum(cheat[str(p)]["cheater_right"] for p in PLAYERS)
    call_bars = [
        {"label": "Schummelkatze aus", "value": honest_right / honest_calls if honest_calls else 0, "text": _share(honest_right, honest_calls), "key": "good"},
        {"label": "Schummelkatze an", "value": cheat_right / cheat_calls if cheat_calls else 0, "text": _share(cheat_right, cheat_calls)},
        {"label": "… nur ihre Rufe", "value": cheater_right / cheater_calls if cheater_calls else 0, "text": _share(cheater_right, cheater_calls), "key": "bad"},
    ]  # fmt: skip
    seat_rows = [
        {
            "label": f"{players} Spieler",
            "cells": [shared.number(points, 2) for points in normal[str(players)]["seat_points"]]
            + [""] * (max(PLAYERS) - players),
        }
        for players in PLAYERS
    ]
    seat_spread = {
        str(players): max(normal[str(players)]["seat_points"])
        - min(normal[str(players)]["seat_points"])
        for players in PLAYERS
    }
    widest = max(PLAYERS, key=lambda p: seat_spread[str(p)])
    removed_rows = [
        {
            "label": REMOVED_LABELS[key],
            "cells": [
                _seconds(removed[key]["seconds_median"]),
                _share(removed[key]["calls"], removed[key]["rounds"]),
                shared.number(removed[key]["rounds_per_game"], 1),
            ],
        }
        for key in REMOVED
    ]
    quickest = min(REMOVED, key=lambda key: removed[key]["seconds_median"])
    # Bots tell moods apart by name, not by colour: which four are out changes nothing
    # for them when the same seeds deal the same shapes (the figures say whether it did).
    same_for_bots = len({repr(removed[key]) for key in REMOVED}) == 1
    rounds_total = sum(s[str(p)]["rounds"] for s in speeds.values() for p in PLAYERS)
    return {
        "games": shared.number(stats.deals),
        "games_value": stats.deals,
        "total": shared.number(
            stats.deals * (len(SPEEDS) * len(PLAYERS) + len(PLAYERS) + len(REMOVED))
        ),
        "rounds_total": shared.number(rounds_total),
        "computed_at": stats.computed_at,
        "rough": stats.deals < 50,
        "length_chart": shared.bar_chart(
            length_bars,
            scale=end,
            tick_every=tick,
            tick_text=lambda value: shared.number(value),
            axis_title="Sekunden je Runde",
            label_width=100,
        ),
        "length_table": [
            {
                "label": the_cat.SPEED_NAMES[speed],
                "cells": [
                    f"{_seconds(speeds[speed][str(p)]['seconds_median'])} / "
                    f"{_seconds(speeds[speed][str(p)]['seconds_p90'])}"
                    for p in PLAYERS
                ],
            }
            for speed in SPEEDS
        ],
        "players": list(PLAYERS),
        "slow": _seconds(speeds["gemuetlich"]["3"]["seconds_median"]),
        "fast": _seconds(speeds["flink"]["3"]["seconds_median"]),
        "call_chart": shared.bar_chart(
            call_bars,
            scale=1.0,
            tick_every=0.25,
            tick_text=lambda value: shared.percent(value, 0),
            axis_title="Anteil richtiger Stopp-Rufe",
            label_width=130,
        ),
        "honest_calls": shared.number(honest_calls),
        "honest_right": _share(honest_right, honest_calls),
        "all_right": honest_calls and honest_right == honest_calls,
        "cheat_calls": shared.number(cheat_calls),
        "cheat_right": _share(cheat_right, cheat_calls),
        "cheater_calls": shared.number(cheater_calls),
        "cheater_right": _share(cheater_right, cheater_calls),
        "cheat_margin": shared.margin(cheat_calls),
        "seat_rows": seat_rows,
        "seat_columns": [f"Platz {seat + 1}" for seat in range(max(PLAYERS))],
        "widest_at": f"{widest} Spielern",
        "widest_spread": shared.number(seat_spread[str(widest)], 2),
        "widest_mean": shared.number(sum(normal[str(widest)]["seat_points"]) / widest, 2),
        # „hardly a difference“ only when the widest gap is small against the mean
        "seats_even": seat_spread[str(widest)]
        <= 0.15 * sum(normal[str(widest)]["seat_points"]) / widest,
        "removed_rows": removed_rows,
        "quickest": REMOVED_LABELS[quickest],
        "quickest_seconds": _seconds(removed[quickest]["seconds_median"]),
        "chance_seconds": _seconds(removed["zufall"]["seconds_median"]),
        "removed_same": same_for_bots,
        "removed_games": shared.number(stats.deals),
    }
