"""The Cat rules that need no game state: moods, cards, the deal layout, scoring.

Cards are strings ``"<mood>-<copy>"`` (``"grimmig-3"``): 13 moods × copies 1–4.
Every physical card keeps its identity for the whole game, so a swap can name
the exact middle card it wants.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

# (key, German name) in a fixed order; the keys are ASCII and stable.
MOODS: tuple[tuple[str, str], ...] = (
    ("verschlafen", "verschlafen"),
    ("grimmig", "grimmig"),
    ("froehlich", "fröhlich"),
    ("verliebt", "verliebt"),
    ("erschrocken", "erschrocken"),
    ("frech", "frech"),
    ("hungrig", "hungrig"),
    ("traurig", "traurig"),
    ("verwirrt", "verwirrt"),
    ("stolz", "stolz"),
    ("neugierig", "neugierig"),
    ("beleidigt", "beleidigt"),
    ("albern", "albern"),
)
MOOD_KEYS: tuple[str, ...] = tuple(key for key, _ in MOODS)
MOOD_NAMES: dict[str, str] = dict(MOODS)
COPIES = 4
STACK_SIZE = 4
MIDDLE_SIZE = 4
CARDS: tuple[str, ...] = tuple(
    f"{key}-{copy}" for key in MOOD_KEYS for copy in range(1, COPIES + 1)
)
CARD_SET = frozenset(CARDS)
DECK_SIZE = len(CARDS)  # 52
REMOVED_WITH_TWO = 4  # moods that leave the game with two players

MIN_PLAYERS = 2
MAX_PLAYERS = 4
DEFAULT_TARGET = 20
SHORT_TARGET = 12
TARGETS = (SHORT_TARGET, DEFAULT_TARGET)


_MOOD_OF = {card: card.rsplit("-", 1)[0] for card in CARDS}


def mood_of(card: str) -> str:
    """``"grimmig-3"`` → ``"grimmig"``."""
    mood = _MOOD_OF.get(card)
    return mood if mood is not None else str(card).rsplit("-", 1)[0]


def card_id(mood: str, copy: int) -> str:
    return f"{mood}-{copy}"


def stacks_per_player(players: int) -> int:
    """Four stacks each with two or three players, three with four (S. 1)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"The Cat braucht {MIN_PLAYERS} bis {MAX_PLAYERS} Spieler.")
    return 3 if players == 4 else 4


def deck(removed: Iterable[str] = ()) -> list[str]:
    """The cards in play, in fixed order: all 52, or 36 without four removed moods."""
    gone = set(removed)
    return [card for card in CARDS if mood_of(card) not in gone]


def cards_in_play(players: int) -> int:
    return DECK_SIZE - (REMOVED_WITH_TWO * COPIES if players == 2 else 0)


def is_finished(stack: Sequence[str]) -> bool:
    """A finished stack: four cards of one mood."""
    return len(stack) == STACK_SIZE and len({mood_of(card) for card in stack}) == 1


def stack_mood(stack: Sequence[str]) -> str | None:
    """The mood of a finished stack, else ``None``."""
    return mood_of(stack[0]) if is_finished(stack) else None


def best_count(stack: Sequence[str]) -> int:
    """How many cards of the stack's most frequent mood it holds (1–4)."""
    return max(Counter(mood_of(card) for card in stack).values(), default=0)


def round_points(stacks: Sequence[Sequence[Sequence[str]]], caller: int | None) -> list[int]:
    """Points of one round (S. 2). ``stacks[seat]`` are the seat's stacks (empty for a
    seat not dealt in). The caller gets 1 per stack + 1 bonus if every stack is
    finished, else 0; everyone else 1 per finished stack. ``caller=None``: a round
    nobody called (time ran out, everyone gave up, someone left) – everyone scores
    their finished stacks, nobody gets a bonus."""
    points = []
    for seat, own in enumerate(stacks):
        finished = sum(is_finished(stack) for stack in own)
        if seat == caller:
            points.append(finished + 1 if own and finished == len(own) else 0)
        else:
            points.append(finished)
    return points


def caller_right(stacks: Sequence[Sequence[str]]) -> bool:
    """Whether a caller with these stacks called correctly: every stack finished."""
    return bool(stacks) and all(is_finished(stack) for stack in stacks)


def winners(totals: Sequence[int], eligible: Sequence[bool]) -> list[int]:
    """Most points win; ties win together. Only ``eligible`` seats can win."""
    seats = [seat for seat, ok in enumerate(eligible) if ok]
    if not seats:
        return []
    best = max(totals[seat] for seat in seats)
    return [seat for seat in seats if totals[seat] == best]
