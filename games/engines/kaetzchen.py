"""Kätzchen-Angeln (小猫钓鱼): a two-player card game without decisions.

Rules (seed 000): 52 cards, 26 per player, dealt alternately from a seeded
shuffle. Players alternate flipping their top card onto the end of the table
row. The first matching rule applies:

1. a Jack on a non-empty table takes the whole table plus the Jack;
2. a card whose rank is already on the table takes that card, every card
   after it and the new card;
3. otherwise the card stays on the table.

Won cards keep their table order (earliest … just flipped) and go under the
winner's pile. A win gives no extra turn. Whoever flips their last card and
wins nothing loses at once. After flip number ``limit`` without a winner the
larger pile wins (table cards don't count); equal piles are a draw.

Seat 0 is the visitor ("you", „Du“), seat 1 the computer ("cat", „Kätzchen“).
Piles are lists of card codes ("10H", "JD", "AS"), top card first.

Two implementations of the rules live here on purpose: ``resolve_flip`` on
card codes (used by ``apply``, readable) and ``_run_pairs`` on small ints
(used by ``play_out``, ``finish`` and ``simulate``, fast). The tests check
that both give identical games.
"""

from __future__ import annotations

import random
import statistics
from bisect import bisect_left
from collections import deque
from itertools import pairwise

from games.engines.base import IllegalAction

__all__ = [
    "CARDS",
    "IllegalAction",
    "apply",
    "bot_action",
    "bot_choice",
    "card_label",
    "card_symbol",
    "deal",
    "finish",
    "legal_actions",
    "new_game",
    "outcome",
    "play_out",
    "resolve_flip",
    "simulate",
    "to_act",
    "view",
]

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
# Rank-major order, so that ``index >> 2`` is the rank index (4 suits).
CARDS = tuple(rank + suit for rank in RANKS for suit in SUITS)

SEAT_NAMES = ("you", "cat")
DEFAULT_LIMIT = 5000
MIN_PLAYERS = MAX_PLAYERS = 2
# The refusal of a visitor's flip on Kätzchen's turn (the demo's script shows it too).
WAIT_FOR_CAT = "Warte auf den Gegner – Kätzchen ist am Zug."

_CARD_INDEX = {code: index for index, code in enumerate(CARDS)}
_JACK_RANK = RANKS.index("J")

_RANK_LABELS = {
    "A": "Ass",
    "J": "Bube",
    "Q": "Dame",
    "K": "König",
    **{str(n): str(n) for n in range(2, 11)},
}
_SUIT_LABELS = {"S": "Pik", "H": "Herz", "D": "Karo", "C": "Kreuz"}
_SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


# --------------------------------------------------------------------------
# Cards


def _split(code: str) -> tuple[str, str]:
    if code not in _CARD_INDEX:
        raise ValueError(f"Unbekannte Karte: {code!r}")
    return code[:-1], code[-1]


def card_label(code: str) -> str:
    """Accessible German name, e.g. "Pik Ass", "Herz 10", "Kreuz König"."""
    rank, suit = _split(code)
    return f"{_SUIT_LABELS[suit]} {_RANK_LABELS[rank]}"


def card_symbol(code: str) -> str:
    """Short form with suit symbol, e.g. "A♠", "10♥", "J♦"."""
    rank, suit = _split(code)
    return rank + _SUIT_SYMBOLS[suit]


def _rank(code: str) -> str:
    return code[:-1]


def deal(seed: int) -> tuple[list[str], list[str]]:
    """Shuffle with ``random.Random(seed)`` and deal alternately, "you" first.

    Card i of the shuffled deck goes to "you" if i is even, else to "cat";
    each pile lists its cards in dealing order, top card first.
    """
    deck = list(CARDS)
    random.Random(seed).shuffle(deck)
    return deck[0::2], deck[1::2]


# --------------------------------------------------------------------------
# The rules on card codes (readable reference, used by apply)


def resolve_flip(table: list[str], card: str) -> dict:
    """What happens when ``card`` is flipped onto ``table`` (not mutated).

    Returns ``{"kind": "jack"|"fish"|"stay", "won": [...], "table": [...],
    "matched_index": int|None}``; ``won`` is in pile order (table order, the
    flipped card last), ``matched_index`` the table position of the card a
    fish matched.
    """
    _split(card)
    rank = _rank(card)
    if rank == "J" and table:
        return {"kind": "jack", "won": [*table, card], "table": [], "matched_index": None}
    for index, lying in enumerate(table):
        if _rank(lying) == rank:
            return {
                "kind": "fish",
                "won": [*table[index:], card],
                "table": list(table[:index]),
                "matched_index": index,
            }
    return {"kind": "stay", "won": [], "table": [*table, card], "matched_index": None}


# --------------------------------------------------------------------------
# The rules on ints (hot path)
#
# A card is its index in CARDS; ``card >> 2`` is its rank. The table is kept
# twice, as cards and as ranks, so that the rank test is a C-level ``in``.


def _flip_once(pile: deque, table: list[int], ranks: list[int]) -> bool:
    """One flip from ``pile``; True if the flipper has just lost."""
    card = pile.popleft()
    rank = card >> 2
    if rank == _JACK_RANK and table:
        pile.extend(table)
        pile.append(card)
        table.clear()
        ranks.clear()
    elif rank in ranks:
        index = ranks.index(rank)
        pile.extend(table[index:])
        pile.append(card)
        del table[index:], ranks[index:]
    else:
        table.append(card)
        ranks.append(rank)
        return not pile
    return False


def _run_pairs(
    first: deque, second: deque, table: list[int], ranks: list[int], flips: int
) -> tuple[int | None, int]:
    """Flip alternately, ``first`` starting, for at most ``flips`` (even) flips.

    Returns ``(loser, done)``: loser 0 = first, 1 = second, None if the flips
    ran out. This is ``_flip_once`` unrolled for both players, with every
    method bound to a local, because it runs millions of times.
    """
    pop_a, pop_b = first.popleft, second.popleft
    extend_a, extend_b = first.extend, second.extend
    append_a, append_b = first.append, second.append
    lay_card, lay_rank, find_rank = table.append, ranks.append, ranks.index
    jack = _JACK_RANK
    for pair in range(flips // 2):
        card = pop_a()
        rank = card >> 2
        if rank == jack and table:
            extend_a(table)
            append_a(card)
            table.clear()
            ranks.clear()
        elif rank in ranks:
            index = find_rank(rank)
            extend_a(table[index:])
            append_a(card)
            del table[index:], ranks[index:]
        else:
            lay_card(card)
            lay_rank(rank)
            if not first:
                return 0, 2 * pair + 1

        card = pop_b()
        rank = card >> 2
        if rank == jack and table:
            extend_b(table)
            append_b(card)
            table.clear()
            ranks.clear()
        elif rank in ranks:
            index = find_rank(rank)
            extend_b(table[index:])
            append_b(card)
            del table[index:], ranks[index:]
        else:
            lay_card(card)
            lay_rank(rank)
            if not second:
                return 1, 2 * pair + 2
    return None, flips - flips % 2


def _run(
    piles: tuple[deque, deque], table: list[int], turn: int, flips: int
) -> tuple[int | None, int]:
    """Play from ``turn`` for at most ``flips`` flips, mutating the arguments.

    Returns ``(loser_seat | None, flips_done)``.
    """
    ranks = [card >> 2 for card in table]
    flips = max(flips, 0)
    done = 0
    if flips % 2:
        done = 1
        if _flip_once(piles[turn], table, ranks):
            return turn, done
        turn ^= 1
        flips -= 1
    loser, more = _run_pairs(piles[turn], piles[turn ^ 1], table, ranks, flips)
    if loser is not None:
        loser = turn ^ loser
    return loser, done + more


def _run_extra_turn(
    piles: tuple[deque, deque], table: list[int], turn: int, flips: int
) -> tuple[int | None, int]:
    """Like ``_run``, but with the house rule of a close relative (seed 000): whoever
    wins cards flips again. Only the statistics use it, to measure what the rule
    does to the length of a game; the site never plays it."""
    ranks = [card >> 2 for card in table]
    jack = _JACK_RANK
    for done in range(1, max(flips, 0) + 1):
        pile = piles[turn]
        card = pile.popleft()
        rank = card >> 2
        if rank == jack and table:
            pile.extend(table)
            pile.append(card)
            table.clear()
            ranks.clear()
            continue  # the same player again
        if rank in ranks:
            index = ranks.index(rank)
            pile.extend(table[index:])
            pile.append(card)
            del table[index:], ranks[index:]
            continue
        table.append(card)
        ranks.append(rank)
        if not pile:
            return turn, done
        turn ^= 1
    return None, max(flips, 0)


def _verdict(loser: int | None, sizes: tuple[int, int]) -> tuple[int | None, str]:
    """(winner seat or None for a draw, reason) once the game has ended."""
    if loser is not None:
        return loser ^ 1, "empty"
    if sizes[0] == sizes[1]:
        return None, "limit"
    return (0 if sizes[0] > sizes[1] else 1), "limit"


def _seat(who) -> int:
    if who in (0, "you"):
        return 0
    if who in (1, "cat"):
        return 1
    raise ValueError(f"Unbekannter Beginner: {who!r} (erlaubt: 'you', 'cat')")


def _to_ints(codes) -> deque:
    try:
        return deque(_CARD_INDEX[code] for code in codes)
    except (KeyError, TypeError):
        raise ValueError(f"Unbekannte Karte in {codes!r}") from None


def play_out(you: list[str], cat: list[str], starter="you", limit: int = DEFAULT_LIMIT) -> dict:
    """Play a whole game from two piles (top card first) with an empty table.

    Returns ``{"winner": "you"|"cat"|None, "reason": "empty"|"limit",
    "moves": int, "you": int, "cat": int}`` with the pile sizes at the end.
    """
    piles = (_to_ints(you), _to_ints(cat))
    loser, moves = _run(piles, [], _seat(starter), limit)
    winner, reason = _verdict(loser, (len(piles[0]), len(piles[1])))
    return {
        "winner": None if winner is None else SEAT_NAMES[winner],
        "reason": reason,
        "moves": moves,
        "you": len(piles[0]),
        "cat": len(piles[1]),
    }


# --------------------------------------------------------------------------
# State and protocol


def new_game(seed: int, players: int = 2, options: dict | None = None) -> dict:
    """A fresh game. Options: ``{"starter": "you"|"cat", "limit": 5000}``.

    The state is compact JSON: piles (top first), table, seat to act
    (``turn``, None once over), flips so far, limit, starter seat, seed,
    ``result`` (None or ``{"winner": "you"|"cat"|None, "reason": ...}``) and
    ``last``, the minimal record of the last flip from which its events are
    rebuilt.
    """
    if players != 2:
        raise ValueError("Kätzchen-Angeln wird zu zweit gespielt.")
    options = dict(options or {})
    unknown = set(options) - {"starter", "limit", "names"}  # names: the seats are fixed
    if unknown:
        raise ValueError(f"Unbekannte Optionen: {sorted(unknown)}")
    starter = _seat(options.get("starter", "you"))
    limit = options.get("limit", DEFAULT_LIMIT)
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise ValueError("Das Zuglimit muss eine positive ganze Zahl sein.")
    you, cat = deal(seed)
    return {
        "piles": [you, cat],
        "table": [],
        "turn": starter,
        "moves": 0,
        "limit": limit,
        "starter": starter,
        "seed": seed,
        "result": None,
        "last": None,
    }


def _copy(state: dict) -> dict:
    new = dict(state)
    new["piles"] = [list(state["piles"][0]), list(state["piles"][1])]
    new["table"] = list(state["table"])
    new["result"] = None if state["result"] is None else dict(state["result"])
    new["last"] = None if state["last"] is None else dict(state["last"])
    return new


def to_act(state: dict) -> list[int]:
    return [] if state["result"] is not None else [state["turn"]]


def legal_actions(state: dict, seat: int) -> list[dict]:
    return [{"type": "flip"}] if seat in to_act(state) else []


def _finish_if_over(state: dict, flipper: int) -> None:
    """Set ``result`` after a flip if the game has ended (mutates)."""
    piles = state["piles"]
    if piles[flipper]:
        if state["moves"] < state["limit"]:
            return
        winner, reason = _verdict(None, (len(piles[0]), len(piles[1])))
    else:
        winner, reason = flipper ^ 1, "empty"
    state["result"] = {
        "winner": None if winner is None else SEAT_NAMES[winner],
        "reason": reason,
    }
    state["turn"] = None


def apply(state: dict, seat: int, action: dict) -> tuple[dict, list[dict]]:
    """Flip ``seat``'s top card. Returns the new state and the flip's events."""
    if state["result"] is not None:
        raise IllegalAction("Die Partie ist bereits beendet.")
    if seat not in (0, 1):
        raise IllegalAction("Unbekannter Platz.")
    if not isinstance(action, dict) or action.get("type") != "flip":
        raise IllegalAction("Unbekannte Aktion.")
    if seat != state["turn"]:
        if seat == 0:
            raise IllegalAction(WAIT_FOR_CAT)
        raise IllegalAction("Kätzchen ist nicht am Zug – du bist dran.")

    new = _copy(state)
    pile = new["piles"][seat]
    card = pile.pop(0)
    flip = resolve_flip(new["table"], card)
    pile.extend(flip["won"])
    new["table"] = flip["table"]
    new["moves"] += 1
    new["turn"] = seat ^ 1
    new["last"] = {
        "seat": seat,
        "card": card,
        "kind": flip["kind"],
        "index": flip["matched_index"],
        "count": len(flip["won"]),
    }
    _finish_if_over(new, seat)
    return new, _events(new)


def _events(state: dict) -> list[dict]:
    """The events of the last flip (plus ``game_over``), rebuilt from state.

    Valid for the state right after that flip: won cards are the last
    ``count`` cards of the flipper's pile.
    """
    events = []
    last = state["last"]
    if last is not None:
        seat, card, count = last["seat"], last["card"], last["count"]
        events.append({"type": "flip", "seat": seat, "card": card})
        won = state["piles"][seat][-count:] if count else []
        if last["kind"] == "fish":
            events.append(
                {
                    "type": "fish",
                    "seat": seat,
                    "card": card,
                    "matched_index": last["index"],
                    "won": won,
                    "count": count,
                }
            )
        elif last["kind"] == "jack":
            events.append(
                {
                    "type": "jack",
                    "seat": seat,
                    "card": card,
                    "won": won,
                    "count": count,
                }
            )
        else:
            # A Jack that stays lay on an empty table: it cleared nothing.
            lone_jack = _rank(card) == "J" and len(state["table"]) == 1
            events.append({"type": "stay", "seat": seat, "card": card, "lone_jack": lone_jack})
    result = outcome(state)
    if result is not None:
        events.append(
            {
                "type": "game_over",
                "winner": result["winner"],
                "reason": result["reason"],
                "piles": result["piles"],
                "moves": result["moves"],
            }
        )
    return events


def outcome(state: dict) -> dict | None:
    """None while running, else winner ("you"/"cat"/None = draw), reason
    ("empty" | "limit"), winner seat, flips and pile sizes."""
    result = state["result"]
    if result is None:
        return None
    sizes = [len(state["piles"][0]), len(state["piles"][1])]
    winner = result["winner"]
    winner_seat = None if winner is None else SEAT_NAMES.index(winner)
    return {
        "winner": winner,
        "winner_seat": winner_seat,
        "reason": result["reason"],
        "moves": state["moves"],
        "piles": sizes,
    }


def view(state: dict, seat: int | None) -> dict:
    """What anyone sees: pile sizes (never their order), the table, the move
    number, whose turn it is, the starter, the outcome and the last events.

    Nothing here is private to one seat, so every seat (and a spectator)
    gets the same view. The last events are stripped of every card code that
    now lies in a pile (won cards, a flipped card that was won back), so the
    view never tells anything about the order inside a pile.
    """
    visible = []
    for event in _events(state):
        if event["type"] == "flip":
            continue  # names a card that may now lie in a pile
        visible.append({key: value for key, value in event.items() if key not in ("won", "card")})
        if event["type"] == "stay":
            visible[-1]["card"] = event["card"]  # it lies on the table
    turn = state["turn"]
    return {
        "seat": seat,
        "piles": [len(state["piles"][0]), len(state["piles"][1])],
        "table": list(state["table"]),
        "moves": state["moves"],
        "limit": state["limit"],
        "turn": turn,
        "turn_name": None if turn is None else SEAT_NAMES[turn],
        "starter": SEAT_NAMES[state["starter"]],
        "outcome": outcome(state),
        "last_events": visible,
    }


def finish(state: dict) -> tuple[dict, dict]:
    """Play the rest out at once („Zum Ergebnis“): the same end as flipping
    by hand. Returns the final state and a summary like ``play_out``'s plus
    ``flips`` (flips made here). On a finished game it changes
    nothing, so a repeated request is harmless.
    """
    new = _copy(state)
    flips = 0
    if state["result"] is None:
        piles = (_to_ints(state["piles"][0]), _to_ints(state["piles"][1]))
        table = [_CARD_INDEX[code] for code in state["table"]]
        loser, flips = _run(piles, table, state["turn"], state["limit"] - state["moves"])
        new["piles"] = [[CARDS[card] for card in pile] for pile in piles]
        new["table"] = [CARDS[card] for card in table]
        new["moves"] += flips
        new["last"] = None  # the events of the single last flip don't matter here
        winner, reason = _verdict(loser, (len(piles[0]), len(piles[1])))
        new["result"] = {
            "winner": None if winner is None else SEAT_NAMES[winner],
            "reason": reason,
        }
        new["turn"] = None
    result = outcome(new)
    summary = {
        "winner": result["winner"],
        "reason": result["reason"],
        "moves": result["moves"],
        "you": result["piles"][0],
        "cat": result["piles"][1],
        "flips": flips,
    }
    return new, summary


# --------------------------------------------------------------------------
# Statistics for the article


def simulate(
    n: int,
    seed: int = 0,
    limit: int = DEFAULT_LIMIT,
    bin_width: int = 100,
    bins_up_to: int = 2000,
    extra_turn: bool = False,
) -> dict:
    """Play ``n`` random deals and return figures for the article.

    Deals come from one ``random.Random(seed)``; the starter alternates as on
    the site (game 0: "you", game 1: "cat", ...). Histogram bins count games
    by moves, ``from`` and ``to`` inclusive (1–100, 101–200, ...), up to
    ``bins_up_to``, then one overflow bin up to ``limit``. ``extra_turn`` plays
    the same deals with the house rule „wer gewinnt, deckt noch einmal auf“.
    """
    if n < 1:
        raise ValueError("n muss mindestens 1 sein.")
    rng = random.Random(seed)
    deck = list(range(len(CARDS)))
    moves_list = []
    starter_wins = draws = at_limit = 0
    for game in range(n):
        rng.shuffle(deck)
        piles = (deque(deck[0::2]), deque(deck[1::2]))
        starter = game % 2
        loser, moves = (_run_extra_turn if extra_turn else _run)(piles, [], starter, limit)
        winner, reason = _verdict(loser, (len(piles[0]), len(piles[1])))
        moves_list.append(moves)
        at_limit += reason == "limit"
        draws += winner is None
        starter_wins += winner == starter

    top = min(bins_up_to, limit)
    edges = [*range(0, top, bin_width), top]
    if limit > top:
        edges.append(limit)  # overflow bin
    histogram = [{"from": low + 1, "to": high, "count": 0} for low, high in pairwise(edges)]
    for moves in moves_list:
        histogram[bisect_left(edges, moves) - 1]["count"] += 1

    ordered = sorted(moves_list)
    return {
        "games": n,
        "limit": limit,
        "starter": "alternating",
        "extra_turn": extra_turn,
        "median_moves": statistics.median(ordered),
        "mean_moves": statistics.fmean(ordered),
        "p90_moves": ordered[min(n - 1, (9 * n) // 10)],
        "min_moves": ordered[0],
        "max_moves": ordered[-1],
        "share_over_500": sum(m > 500 for m in ordered) / n,
        "share_over_1000": sum(m > 1000 for m in ordered) / n,
        "share_limit": at_limit / n,
        "starter_win_rate": starter_wins / n,
        "draw_rate": draws / n,
        "histogram": histogram,
    }


def bot_choice(view: dict, rng) -> tuple[dict, dict]:
    """Kätzchen's move and why: there is nothing to decide, the top card is flipped.

    The reason names only public facts: the ranks on the table that a flipped card
    would fish (``fishing``), and whether a Jack would clear a non-empty table."""
    table = view.get("table") or []
    ranks = sorted({_rank(card) for card in table}, key=RANKS.index)
    return {"type": "flip"}, {
        "code": "only_move",
        "seat": view.get("seat"),
        "fishing": ranks,
        "table": len(table),
    }


def bot_action(view: dict, rng) -> dict:
    """Kätzchen's move: there is nothing to decide, it flips its top card."""
    return bot_choice(view, rng)[0]
