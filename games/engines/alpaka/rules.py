"""Alpaka rules that need no game state: cards, what fits, hand scores, chips.

Both the engine and the bots build on these helpers; they are also what the
rules article's examples are checked against.
"""

from __future__ import annotations

from collections.abc import Iterable

CARDS = ("1", "2", "3", "4", "5", "6", "A")
VALUES = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "A": 10}
COPIES = 8
DECK_SIZE = COPIES * len(CARDS)  # 56
HAND_SIZE = 6

CLASSIC = "klassisch"
ENGLERT = "englert"
VARIANTS = (CLASSIC, ENGLERT)
TARGETS = (20, 40, 60, 80)
DEFAULT_TARGET = 40
MIN_PLAYERS = 2
MAX_PLAYERS = 6

_RANK = {card: index for index, card in enumerate(CARDS)}


def next_card(card: str) -> str:
    """The next higher value; the circle closes: 6 → Alpaka → 1."""
    return CARDS[(_RANK[card] + 1) % len(CARDS)]


def previous_card(card: str) -> str:
    """The next lower value (Englert rule): 1 → Alpaka → 6."""
    return CARDS[(_RANK[card] - 1) % len(CARDS)]


def can_play(card: str, top: str, variant: str = CLASSIC) -> bool:
    """Whether ``card`` may be laid on ``top``: same value, next higher, and with
    the Englert rule also next lower."""
    if card == top or card == next_card(top):
        return True
    return variant == ENGLERT and card == previous_card(top)


def playable_cards(hand: Iterable[str], top: str, variant: str = CLASSIC) -> list[str]:
    """The distinct values in ``hand`` that fit on ``top``, in card order."""
    return [card for card in sort_cards(set(hand)) if can_play(card, top, variant)]


def hand_score(cards: Iterable[str]) -> int:
    """Minus points of a hand: every distinct value counts once."""
    return sum(VALUES[card] for card in set(cards))


def sort_cards(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=_RANK.__getitem__)


def card_order(card: str) -> int:
    return _RANK[card]


# --- Chips -------------------------------------------------------------------
#
# Points are paid as black chips (10) for the tens and white chips (1) for the
# rest; whenever a player holds ten or more whites, ten are swapped for a black.
# So a player's chips always equal ``chips_for(points)``; the chip returned for
# an empty hand keeps that shape too (a black against nine whites change).


def chips_for(points: int) -> dict[str, int]:
    """The chips for ``points`` minus points: as many blacks as possible."""
    if points < 0:
        raise ValueError("Minuspunkte können nicht negativ sein.")
    return {"black": points // 10, "white": points % 10}


def chip_points(chips: dict[str, int]) -> int:
    return 10 * chips["black"] + chips["white"]


def add_points(chips: dict[str, int], points: int) -> dict[str, int]:
    """Pay ``points``: blacks for the tens, whites for the rest, then swap every
    ten whites for a black. Returns new chips."""
    black = chips["black"] + points // 10
    white = chips["white"] + points % 10
    return {"black": black + white // 10, "white": white % 10}


def returned_chip(chips: dict[str, int]) -> str | None:
    """Which chip an empty hand gives back: ``"white"``, ``"black"`` (against
    nine whites change) or ``None`` at zero."""
    if chips["white"] > 0:
        return "white"
    if chips["black"] > 0:
        return "black"
    return None


def return_chip(chips: dict[str, int]) -> dict[str, int]:
    """Chips after giving one back for an empty hand (net −1, never below 0)."""
    kind = returned_chip(chips)
    if kind == "white":
        return {"black": chips["black"], "white": chips["white"] - 1}
    if kind == "black":
        return {"black": chips["black"] - 1, "white": chips["white"] + 9}
    return {"black": 0, "white": 0}
