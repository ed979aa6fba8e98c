"""The Kätzchen-Angeln article's worked examples, checked by the engine.

Kinds (``engine = "kaetzchen"``): ``flip`` and ``limit`` (see each function).
Each builds the example's position as a real game state and lets the engine
make the flip; ``games.play.kaetzchen.steps`` shows the same flip step by step.
"""

from __future__ import annotations

from games.engines import kaetzchen

LIMIT = 5000  # the site's move limit


def flipper(check: dict) -> int:
    """Who flips in a ``flip`` example: ``"by": "you"`` (default) or ``"cat"`` (the other)."""
    by = check.get("by", "you")
    if by not in kaetzchen.SEAT_NAMES:
        raise ValueError(f"Unbekannter Platz: {by!r}")
    return kaetzchen.SEAT_NAMES.index(by)


def flip_position(check: dict) -> dict:
    """``{"table": [...], "card": "9C"}``: the flipper (``by``) is about to flip ``card``.

    With ``"last_card": true`` it is their last card; otherwise the remaining cards
    are split between both piles.
    """
    table, card = list(check["table"]), check["card"]
    rest = [code for code in kaetzchen.CARDS if code != card and code not in table]
    if len(rest) + len(table) + 1 != len(kaetzchen.CARDS):
        raise ValueError(f"Unmögliche Lage: {check!r}")
    seat = flipper(check)
    own = [] if check.get("last_card") else rest[: len(rest) // 2]
    piles = [[], []]
    piles[seat] = [card, *own]
    piles[1 - seat] = [code for code in rest if code not in own]
    state = kaetzchen.new_game(0)
    state.update(piles=piles, table=table, turn=seat, starter=seat)
    return state


def limit_position(check: dict) -> dict:
    """``{"you": 31, "cat": 17, "table": 4}`` are the counts right after the last
    allowed flip: the position just before it, Kätzchen (seat 1) to flip.

    One card of each of ``table`` ranks other than the Jack lies on the table
    after that flip, so nothing matches.
    """
    you, cat, on_table = check["you"], check["cat"], check["table"]
    if you + cat + on_table != len(kaetzchen.CARDS) or not 1 <= on_table <= 12 or cat < 1:
        raise ValueError(f"Unmögliche Lage: {check!r}")
    ranks = [rank for rank in kaetzchen.RANKS if rank != "J"][:on_table]
    table = [rank + "S" for rank in ranks]
    rest = [code for code in kaetzchen.CARDS if code not in table]
    state = kaetzchen.new_game(0, options={"limit": LIMIT})
    state.update(
        piles=[rest[:you], [table[-1], *rest[you:]]],
        table=table[:-1],
        turn=1,
        moves=LIMIT - 1,
    )
    return state


def flip_event(events: list[dict]) -> dict:
    """The event that says what a flip did (``fish``, ``jack`` or ``stay``)."""
    return next(e for e in events if e["type"] in ("fish", "jack", "stay"))


def _kaetzchen_flip(check: dict) -> dict:
    """``{"table": [...], "card": "9C"}`` (optional ``"by": "cat"``) → ``{"kind", "won", "table"}``.

    With ``"last_card": true`` the card is the flipper's last one, and the
    result also says whether that ended the game (``"game_over"``).
    """
    state, events = kaetzchen.apply(flip_position(check), flipper(check), {"type": "flip"})
    flip = flip_event(events)
    actual = {"kind": flip["type"], "won": flip.get("won", []), "table": state["table"]}
    if check.get("last_card"):
        actual["game_over"] = state["result"] is not None
    return actual


def _kaetzchen_limit(check: dict) -> dict:
    """``{"you": 31, "cat": 17, "table": 4}`` right after the last allowed flip
    → ``{"winner": "you"|"cat"|None, "reason": "limit"}``.

    Builds such a position (Kätzchen's last flip lays the last table card)
    and lets the engine make that flip.
    """
    state, _ = kaetzchen.apply(limit_position(check), 1, {"type": "flip"})
    result = kaetzchen.outcome(state)
    if result is None or result["piles"] != [check["you"], check["cat"]]:
        raise AssertionError(f"Lage nicht erreicht: {result!r}")
    return {"winner": result["winner"], "reason": result["reason"]}


VERIFIERS = {"flip": _kaetzchen_flip, "limit": _kaetzchen_limit}
