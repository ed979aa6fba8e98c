"""Katz und Maus rules that need no game state: cards, values, build piles, options.

Cards are strings ``rank + suit``: ranks ``A 2 … 10 J Q K``, suits ``C D H S``
(``"AS"``, ``"10H"``, ``"KD"``). Two 52-card decks make 104 cards, so every card
string occurs exactly twice. A build pile is the list of the physical cards on
it (bottom first); as every pile starts at 1 and rises by one, the value its
top stands for is simply its length – a King keeps being a King and is worth
whatever its position says (``["AS", "2H", "KD"]`` stands at 3 and needs a 4).
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")
KING = "K"
DECKS = 2
DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)  # one 52-card deck
DECK_SIZE = DECKS * len(DECK)  # 104
VALUES = {rank: index + 1 for index, rank in enumerate(RANKS[:-1])}  # A=1 … Q=12
TOP_VALUE = 12  # the Queen completes a pile
HAND_SIZE = 5
BUILD_PILES = 4
DISCARD_PILES = 4

MIN_PLAYERS = 2
MAX_PLAYERS = 6

# Stock (Spielerstapel) sizes per player count: the article's table. Measured by
# simulation (see ``simulation``): with these sizes most games end with an
# emptied stock, not by the draw pile running out.
DEFAULT_STOCK = {2: 20, 3: 15, 4: 12, 5: 10, 6: 8}
STOCK_MIN, STOCK_MAX = 8, 30

SHUFFLE, REMOVE = "shuffle", "remove"
COMPLETED = (SHUFFLE, REMOVE)
# The draw pile is used up: the game ends (the source's rule, the default) or, in our
# variant, the unfinished build piles become a new draw pile.
END, RECYCLE = "end", "recycle"
SOURCE_END = END
EMPTY_DRAW = (END, RECYCLE)
SINGLE, MATCH = "single", "500"
MATCHES = (SINGLE, MATCH)
TARGET = 500
WIN_POINTS = 25
POINTS_PER_CARD = 5
TEAM_SIZES = (4, 6)


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def is_king(card: str) -> bool:
    return card[:-1] == KING


def value(card: str) -> int | None:
    """The printed value (A=1 … Q=12); ``None`` for a King (wild)."""
    return VALUES.get(card[:-1])


def is_card(card) -> bool:
    return (
        isinstance(card, str) and len(card) in (2, 3) and card[:-1] in RANKS and card[-1] in SUITS
    )


def pile_value(pile: list[str]) -> int:
    """The value the top of a build pile stands for (0: the place is free)."""
    return len(pile)


def fits(card: str, pile: list[str]) -> bool:
    """Whether ``card`` may be laid on the build pile: the next value, or a King
    (which then stands for that value). A free place takes an Ace or a King."""
    need = len(pile) + 1
    if need > TOP_VALUE:
        return False
    return is_king(card) or VALUES[card[:-1]] == need


def stands_for(pile: list[str], index: int = -1) -> int:
    """The value the card at ``index`` of a build pile stands for."""
    return range(1, len(pile) + 1)[index]


def sort_key(card: str) -> tuple[int, str]:
    return (RANKS.index(card[:-1]), card[-1])


def sort_cards(cards: Iterable[str]) -> list[str]:
    """Cards by value, Kings last (for hands)."""
    return sorted(cards, key=sort_key)


def default_stock(players: int) -> int:
    return DEFAULT_STOCK[players]


def max_stock(players: int) -> int:
    """The largest stock that still leaves every player a first hand of five."""
    return min(STOCK_MAX, DECK_SIZE // players - HAND_SIZE)


def teams_for(players: int, teams: bool) -> list[list[int]]:
    """The sides of a game: partners sit opposite (seat i and i + n/2)."""
    if not teams:
        return [[seat] for seat in range(players)]
    half = players // 2
    return [[seat, seat + half] for seat in range(half)]


def round_points(opponent_stock_cards: int) -> int:
    """What the winner of a game scores: 25 plus 5 per card left in the opponents'
    stocks (whatever those cards are)."""
    return WIN_POINTS + POINTS_PER_CARD * opponent_stock_cards
