"""Worked examples checked by the engines.

An article's ``WorkedExample`` may carry ``engine_check`` (the position, as
JSON) and ``expect`` (what the article says happens). ``verify(check)`` runs
the position through the engine and returns the actual outcome in the same
shape as ``expect``; the test suite compares the two for the shipped content,
so a wrong example fails CI.

Each (engine, kind) has one verifier. Engines add theirs with
``@verifier("alpaka", "score")`` in this module or their own.
"""

from __future__ import annotations

from collections.abc import Callable

from games.engines import kaetzchen

Verifier = Callable[[dict], dict]
_VERIFIERS: dict[tuple[str, str], Verifier] = {}


class UnknownCheck(LookupError):
    pass


def verifier(engine: str, kind: str):
    def register(func: Verifier) -> Verifier:
        _VERIFIERS[(engine, kind)] = func
        return func

    return register


def verify(check: dict) -> dict:
    """The engine's outcome for ``check``, shaped like the example's ``expect``."""
    try:
        func = _VERIFIERS[(check["engine"], check["kind"])]
    except KeyError:
        raise UnknownCheck(
            f"Keine Prüfung für {check.get('engine')!r}/{check.get('kind')!r}"
        ) from None
    return func(check)


def mismatch(check: dict, expect: dict) -> str | None:
    """None when the engine agrees with ``expect``, else a readable difference."""
    actual = verify(check)
    if actual == expect:
        return None
    return f"erwartet {expect!r}, die Engine sagt {actual!r}"


def registered() -> list[tuple[str, str]]:
    return sorted(_VERIFIERS)


# --------------------------------------------------------------------------
# Kätzchen-Angeln


@verifier("kaetzchen", "flip")
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


@verifier("kaetzchen", "limit")
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
