"""The The-Cat article's worked examples, checked by the engine.

Every kind builds the example's position with ``the_cat.arranged`` (all cards
accounted for) and lets the engine play the moves, so a wrong example – or a
wrong engine – fails CI. Moods are the engine's keys (``"froehlich"``).

Kinds (``engine = "the_cat"``):

``deal``   ``players`` → ``{"cards", "moods", "stacks_each", "middle"}``: what a
           fresh deal puts on the table.
``moves``  a position and ``moves`` → ``{"middle": [moods], "hands": {name:
           [moods]}}`` (who holds a stack, its cards in order) and ``"refused":
           {name: message}`` when the engine refused a move.
``round``  a position and ``moves`` that end the round (or ``ends = "time"``:
           the round timer runs out after them) → ``{"reason", "points":
           {name: points}}``, with ``"caller"`` and ``"caller_right"`` when
           someone called, ``"refused"`` as above, and ``"totals"`` and
           ``"winners"`` when the game is over.

A position: ``players`` (names, seats in order), ``stacks`` (per player a list
of stacks, each four moods or ``[]`` for a stack filled from the other cards),
optional ``middle`` (four moods), ``scores`` (totals before), ``target``,
``report`` (names whose points to report; default all).

Moves are ``[name, move]`` with ``move`` one of ``"take:<stack>"``,
``"put_back"``, ``"swap:<give mood>:<want mood>"``, ``"stop"``, ``"give_up"``.
A third element ``"gleichzeitig"`` means the player chose the move on the same
view as the previous move – the cards are named as they lay then (a race).
"""

from __future__ import annotations

from games.engines import the_cat
from games.engines.the_cat import IllegalAction, mood_of


def _position(check: dict) -> tuple[dict, list[str]]:
    names = list(check["players"])
    stacks = [[list(stack) or None for stack in own] for own in check["stacks"]]
    options = {"names": names, "target": check.get("target", the_cat.DEFAULT_TARGET)}
    state = the_cat.arranged(
        len(names), stacks, check.get("middle") or None, options, scores=check.get("scores")
    )
    return state, names


def _action(state: dict, seat: int, move: str) -> dict:
    kind, *args = move.split(":")
    if kind == "take":
        return {"type": "take", "stack": int(args[0])}
    if kind == "swap":
        give_mood, want_mood = args
        held = state["held"][seat]
        hand = state["stacks"][seat][held] if held is not None else []
        give = next((card for card in hand if mood_of(card) == give_mood), f"{give_mood}-?")
        want = next(
            (card for card in state["middle"] if mood_of(card) == want_mood), f"{want_mood}-?"
        )
        return {"type": "swap", "give": give, "want": want}
    if kind in ("put_back", "stop", "give_up"):
        return {"type": kind}
    raise ValueError(f"Unbekannter Zug „{move}“.")


def _play(check: dict, timeline: list | None = None) -> tuple[dict, list[str], dict, list[dict]]:
    """Play the example's moves; ``timeline`` (if given) gets one entry per move:
    ``{"seat", "action", "events", "state", "refused"}`` (``seat`` None: the round timer)."""
    state, names = _position(check)
    refused: dict[str, str] = {}
    events: list[dict] = []
    before = state
    now = 0.0
    for entry in check.get("moves", []):
        name, move = entry[0], entry[1]
        seat = names.index(name)
        seen = before if len(entry) > 2 and entry[2] == "gleichzeitig" else state
        action = _action(seen, seat, move)
        before = state
        now += 1.0
        refusal = ""
        try:
            state, new_events = the_cat.apply(state, seat, action, now=now)
        except IllegalAction as error:
            refused[name] = refusal = str(error)
            new_events = []
        events += new_events
        if timeline is not None:
            timeline.append(
                {
                    "seat": seat,
                    "action": action,
                    "events": new_events,
                    "state": state,
                    "refused": refusal,
                }
            )
    if check.get("ends") == "time":
        state, new_events = the_cat.timeout(state, now + 1.0)
        events += new_events
        if timeline is not None:
            timeline.append(
                {"seat": None, "action": None, "events": new_events, "state": state, "refused": ""}
            )
    return state, names, refused, events


def _moves(check: dict) -> dict:
    state, names, refused, _ = _play(check)
    result = {
        "middle": [mood_of(card) for card in state["middle"]],
        "hands": {
            names[seat]: [mood_of(card) for card in state["stacks"][seat][held]]
            for seat, held in enumerate(state["held"])
            if held is not None
        },
    }
    if refused:
        result["refused"] = refused
    return result


def _round(check: dict) -> dict:
    state, names, refused, _ = _play(check)
    result = state["round_result"]
    if state["phase"] == the_cat.PLAY or result is None:
        raise ValueError("Die Züge beenden die Runde nicht.")
    report = check.get("report") or names
    actual = {
        "reason": result["reason"],
        "points": {name: result["rows"][names.index(name)]["points"] for name in report},
    }
    if result["caller"] is not None:
        actual["caller"] = names[result["caller"]]
        actual["caller_right"] = result["caller_right"]
    if refused:
        actual["refused"] = refused
    over = the_cat.outcome(state)
    if over is not None:
        actual["totals"] = {name: state["scores"][names.index(name)] for name in report}
        actual["winners"] = [names[seat] for seat in over["winners"]]
    return actual


def _deal(check: dict) -> dict:
    players = check["players"]
    state = the_cat.new_game(0, players)
    cards = [card for own in state["stacks"] for stack in own for card in stack]
    cards += state["middle"]
    return {
        "cards": len(cards),
        "moods": len({mood_of(card) for card in cards}),
        "stacks_each": len(state["stacks"][0]),
        "middle": len(state["middle"]),
    }


VERIFIERS = {"deal": _deal, "moves": _moves, "round": _round}
