"""The Alpaka article's worked examples, checked by the engine (``games.example_checks``).

Every kind builds the example's position as a real game state and lets the
engine play it, so a wrong example – or a wrong engine – fails CI.
``games.play.alpaka.steps`` shows the same positions step by step.

Kinds (``engine = "alpaka"``):

``play``   ``top``, ``card``, ``variant`` → ``{"allowed": bool}``: whether the
           engine lets a player holding ``card`` lay it on ``top``.
``score``  ``hand`` → ``{"score": int}``: the hand's minus points when a round
           ends with it (the player quits holding it).
``round``  ``players`` (names), ``hands``, ``top``, optional ``variant``,
           ``below`` (cards under ``top`` on the discard pile), ``draw`` (the
           next cards of the draw pile, the first drawn first),
           ``quit`` (names already out), ``points`` (each one's minus points
           before), ``moves`` (``[name, "play:4" | "draw" | "quit"]`` in turn
           order), ``report`` (names to report, default all), ``ask_draw``
           → ``{"reason": "empty_hand" | "all_quit" | "stuck",
           "points": {name: paid}}`` (−1 for a returned chip) and, with
           ``ask_draw``, ``"draw_allowed"`` for the first mover before the moves.
``chips``  ``black``, ``white`` before a round ended without hand cards →
           the chips after it: ``{"black", "white", "points"}``.
``end``    ``points`` (name → minus points after a scoring), optional ``target``
           → ``{"over": bool, "winners": [names]}`` (winners only when over).
"""

from __future__ import annotations

from collections import Counter

from games.engines import alpaka


def _state(
    names, hands, top, *, variant="klassisch", target=40, points=None, turn=0, draw=(), below=()
):
    """A running round with exactly these hands and discard top; all 56 cards stay
    accounted for (the rest lies in the draw pile, ``draw`` on top of it – the first
    drawn first). ``below``: cards already covered on the discard pile."""
    state = alpaka.new_game(1, len(names), {"variant": variant, "target": target, "names": names})
    pool = Counter({card: 8 for card in alpaka.CARDS})
    for cards in [*hands, [top], draw, below]:
        pool.subtract(cards)
    if min(pool.values()) < 0:
        raise ValueError("Mehr als acht Karten einer Sorte im Beispiel.")
    state["hands"] = [alpaka.rules.sort_cards(hand) for hand in hands]
    state["discard"] = [*below, top]
    rest = sorted(pool.elements(), key=alpaka.CARDS.index)
    state["draw_pile"] = rest + list(reversed(draw))
    state["chips"] = [alpaka.chips_for(p) for p in (points or [0] * len(names))]
    state["turn"] = turn
    return state


def _action(text: str) -> dict:
    kind, _, card = text.partition(":")
    return {"type": kind, "card": card} if kind == "play" else {"type": kind}


def _play(check: dict) -> dict:
    top, card = check["top"], check["card"]
    other = ["1"] if card != "1" else ["2"]
    state = _state(["A", "B"], [[card], other], top, variant=check["variant"])
    allowed = {"type": "play", "card": card} in alpaka.legal_actions(state, 0)
    if allowed:  # the engine really takes it, too
        state, _ = alpaka.apply(state, 0, {"type": "play", "card": card})
        assert state["discard"][-1] == card
    return {"allowed": allowed}


def _score(check: dict) -> dict:
    hand = list(check["hand"])
    other = ["1"] if "1" not in hand else ["2"]
    state = _state(["A", "B"], [hand, other], "4")
    state["quit"] = [False, True]
    state, _ = alpaka.apply(state, 0, {"type": "quit"})
    return {"score": state["round_result"]["rows"][0]["hand_score"]}


def _round(check: dict) -> dict:
    return _play_round(check)[0]


def _play_round(check: dict) -> tuple[dict, dict, list]:
    names = list(check["players"])
    seat = {name: index for index, name in enumerate(names)}
    moves = [(seat[name], _action(text)) for name, text in check.get("moves", [])]
    points = check.get("points") or {}
    state = _state(
        names,
        check["hands"],
        check["top"],
        variant=check.get("variant", "klassisch"),
        points=[points.get(name, 0) for name in names],
        turn=moves[0][0] if moves else 0,
        draw=check.get("draw", ()),
        below=check.get("below", ()),
    )
    for name in check.get("quit", []):
        state["quit"][seat[name]] = True
    actual = {}
    if check.get("ask_draw"):
        actual["draw_allowed"] = {"type": "draw"} in alpaka.legal_actions(state, state["turn"])
    log = [(None, None, [], state)]  # (mover, action, events, state after)
    for mover, action in moves:
        state, events = alpaka.apply(state, mover, action)
        log.append((mover, action, events, state))
    result = state["round_result"]
    if result is None:
        raise AssertionError("Die Runde ist nach den Zügen des Beispiels nicht vorbei.")
    report = check.get("report", names)
    actual["reason"] = result["reason"]
    actual["points"] = {name: result["rows"][seat[name]]["points"] for name in report}
    return actual, state, log


def _chips(check: dict) -> dict:
    before = {"black": check["black"], "white": check["white"]}
    state = _state(["A", "B"], [["5"], ["1"]], "4", points=[alpaka.rules.chip_points(before), 0])
    state["chips"][0] = before
    state, _ = alpaka.apply(state, 0, {"type": "play", "card": "5"})  # the last card
    chips = state["chips"][0]
    return {**chips, "points": alpaka.rules.chip_points(chips)}


def _end(check: dict) -> dict:
    names = list(check["points"])
    totals = [check["points"][name] for name in names]
    # Everyone quits holding a single 1 and pays exactly 1 in this last scoring
    # (nobody stands below 1 here; a 0 would need an empty hand instead).
    if min(totals) < 1:
        raise ValueError("Das Beispiel braucht mindestens 1 Minuspunkt pro Spieler.")
    state = _state(
        names,
        [["1"] for _ in names],
        "4",
        target=check.get("target", 40),
        points=[total - 1 for total in totals],
    )
    for other in range(1, len(names)):
        state["quit"][other] = True
    state, _ = alpaka.apply(state, 0, {"type": "quit"})
    assert alpaka.points(state) == totals
    result = alpaka.outcome(state)
    if result is None:
        return {"over": False}
    return {"over": True, "winners": [names[s] for s in result["winners"]]}


VERIFIERS = {"play": _play, "score": _score, "round": _round, "chips": _chips, "end": _end}
