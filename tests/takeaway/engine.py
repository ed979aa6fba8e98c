"""The take-away engine (protocol: games.engines.base), standard library only."""

from __future__ import annotations

import random

from games.engines.base import IllegalAction

MIN_PLAYERS = MAX_PLAYERS = 2
START = 15


def new_game(seed: int, players: int = 2, options: dict | None = None) -> dict:
    options = options or {}
    names = list(options.get("names", ["A", "B"]))
    return {"seed": seed, "names": names, "left": START, "turn": 0, "winner": None}


def to_act(state: dict) -> list[int]:
    return [] if state["winner"] is not None else [state["turn"]]


def legal_actions(state: dict, seat: int) -> list[dict]:
    if seat not in to_act(state):
        return []
    return [{"type": "take", "count": n} for n in range(1, min(3, state["left"]) + 1)]


def apply(state: dict, seat: int, action: dict) -> tuple[dict, list[dict]]:
    if seat not in to_act(state):
        raise IllegalAction("Du bist nicht am Zug.")
    if action not in legal_actions(state, seat):
        raise IllegalAction("Nimm 1, 2 oder 3 – aber nicht mehr, als noch liegen.")
    new = {**state, "left": state["left"] - action["count"], "turn": 1 - seat}
    events = [{"type": "take", "seat": seat, "count": action["count"], "left": new["left"]}]
    if new["left"] == 0:
        new["winner"] = seat
        events.append({"type": "game_over", "winner": seat})
    return new, events


def view(state: dict, seat: int | None) -> dict:
    return {
        "seat": seat,
        "names": state["names"],
        "left": state["left"],
        "turn": state["turn"],
        "legal_actions": legal_actions(state, seat) if seat is not None else [],
        "outcome": outcome(state),
    }


def outcome(state: dict) -> dict | None:
    return None if state["winner"] is None else {"winners": [state["winner"]]}


def timeout(state: dict) -> tuple[dict, list[dict]]:
    return apply(state, state["turn"], {"type": "take", "count": 1})


def remove_player(state: dict, seat: int) -> tuple[dict, list[dict]]:
    new = {**state, "winner": 1 - seat}
    return new, [{"type": "game_over", "winner": 1 - seat}]


def bot_action(view: dict, rng: random.Random) -> dict:
    """Leave a multiple of four when possible."""
    best = view["left"] % 4
    return {"type": "take", "count": best or 1}
