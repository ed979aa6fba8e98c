"""The Kätzchen-Angeln article's worked examples, checked by the engine.

Kinds (``engine = "kaetzchen"``): ``flip`` and ``limit`` (see each function).
"""

from __future__ import annotations

from games.engines import kaetzchen


def _kaetzchen_flip(check: dict) -> dict:
    """``{"table": [...], "card": "9C"}`` → ``{"kind", "won", "table"}``.

    With ``"last_card": true`` the card is the flipper's last one, and the
    result also says whether that ended the game (``"game_over"``).
    """
    table, card = list(check["table"]), check["card"]
    result = kaetzchen.resolve_flip(table, card)
    actual = {"kind": result["kind"], "won": result["won"], "table": result["table"]}
    if check.get("last_card"):
        rest = [code for code in kaetzchen.CARDS if code != card and code not in table]
        state = kaetzchen.new_game(0)
        state.update(piles=[[card], rest], table=table, turn=0, starter=0)
        state, _ = kaetzchen.apply(state, 0, {"type": "flip"})
        actual["game_over"] = state["result"] is not None
    return actual


def _kaetzchen_limit(check: dict) -> dict:
    """``{"you": 31, "cat": 17, "table": 4}`` right after the last allowed flip
    → ``{"winner": "you"|"cat"|None, "reason": "limit"}``.

    Builds such a position (Kätzchen's last flip lays the fourth table card)
    and lets the engine make that flip.
    """
    you, cat, on_table = check["you"], check["cat"], check["table"]
    if you + cat + on_table != len(kaetzchen.CARDS) or not 1 <= on_table <= 12 or cat < 1:
        raise ValueError(f"Unmögliche Lage: {check!r}")
    # One card of each of ``on_table`` ranks other than the Jack: nothing matches.
    ranks = [rank for rank in kaetzchen.RANKS if rank != "J"][:on_table]
    table = [rank + "S" for rank in ranks]
    rest = [code for code in kaetzchen.CARDS if code not in table]
    limit = 5000
    state = kaetzchen.new_game(0, options={"limit": limit})
    state.update(
        piles=[rest[:you], [table[-1], *rest[you:]]],
        table=table[:-1],
        turn=1,
        moves=limit - 1,
    )
    state, _ = kaetzchen.apply(state, 1, {"type": "flip"})
    result = kaetzchen.outcome(state)
    if result is None or result["piles"] != [you, cat]:
        raise AssertionError(f"Lage nicht erreicht: {result!r}")
    return {"winner": result["winner"], "reason": result["reason"]}


VERIFIERS = {"flip": _kaetzchen_flip, "limit": _kaetzchen_limit}
