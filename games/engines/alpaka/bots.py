"""Alpaka bots. They decide from the bot's own ``view`` only, never the state.

Heuristic of ``bot_action``:

1. Scoring phase: always confirm (``base.bot_routine``).
2. If a card fits, play one. Playing never raises the hand score and keeps every
   option open (one can still quit next turn), so it beats drawing and quitting.
   Among the fitting values pick the one that sheds most. After laying value
   *v* the bot could lay its other *v*s and then climb (Englert: climb or
   descend) through the values it holds; this chain is judged by
   - whether it empties the hand (wins outright), else
   - the points removed at once plus the points the whole chain removes, so
     the last copy of a value counts twice and one of several copies only
     through its chain: duplicates cost nothing extra and are kept, unless
     the chain sheds them, else
   - the chain's length, and finally the higher card (an Alpaka costs most).
3. Nothing fits: compare quitting (pay the hand score *S* now) with drawing.
   A draw adds, on average, ``E`` points (the expected value of a card whose
   value is not yet in hand, from the unseen cards). Staying lets the bot shed a
   share *f* of its hand while the discard top moves around; *f* grows with the
   opponents' smallest hand (the longer the round may last, the more it sheds).
   Draw when ``(S + E) · (1 − f) < S``; so a high hand keeps playing, a cheap
   hand quits. Englert: only the highest hand pays, so a hand clearly below the
   opponents' expected hands quits at once (it most likely pays nothing).
   Drawing is only chosen when ``legal_actions`` offers it.

``base.random_action`` is the baseline: a uniformly random legal action.
"""

from __future__ import annotations

import random
from collections import Counter

from games.engines.base import bot_routine

from .rules import CARDS, COPIES, ENGLERT, VALUES, hand_score, next_card, previous_card

# Tuned in bot-vs-bot tournaments (thousands of 4-player games per setting).
# How much of its hand a bot expects to shed per card an opponent still holds.
SHED_PER_OPPONENT_CARD = 0.2
MAX_SHED_SHARE = 0.8
# Englert: quit when the hand is below this share of the opponents' expected best.
# Kept low: whoever quits early is often left with the highest hand at the end.
ENGLERT_SAFE_SHARE = 0.3


def bot_action(view: dict, rng: random.Random) -> dict:
    """A heuristic move for the seat the view belongs to (see the module docs)."""
    return bot_choice(view, rng)[0]


def bot_choice(view: dict, rng: random.Random) -> tuple[dict, dict]:
    """``bot_action`` plus the reason: ``{"code": …, "seat": …, plain data}``.

    Codes: ``confirm`` (the scoring wait), ``play_out`` (this card starts a run that
    empties the hand), ``play_only`` (one value fits), ``play_best`` (the value that
    sheds most; ``chain``: cards that could follow, ``saves``: points it removes),
    ``draw`` (``score`` of the hand, ``expected`` cost of a drawn card, ``shortest``
    opponent hand), ``quit_alone`` (nobody else is in), ``quit_no_draw`` (nothing fits,
    the pile is empty), ``quit_safe`` (Englert: the hand is cheap next to the others'),
    ``quit_cheap`` (drawing is expected to cost more than it saves).
    The data about the bot's own hand is for the seat itself (a tip); a presenter
    wording another seat's reason uses only what the table shows.
    """
    seat = view["seat"]
    routine = bot_routine(view)
    if routine is not None:
        return routine, {"code": "confirm", "seat": seat}
    legal = view["legal_actions"]
    hand = view["hand"]
    plays = [action["card"] for action in legal if action["type"] == "play"]
    if plays:
        card, key = _best_play(hand, plays, view["variant"], rng)
        empties, saves, chain, _ = key
        if empties:
            code = "play_out"
        elif len(plays) == 1:
            code = "play_only"
        else:
            code = "play_best"
        return {"type": "play", "card": card}, {
            "code": code,
            "seat": seat,
            "card": card,
            "chain": chain,
            "saves": saves,
        }
    may_draw = any(action["type"] == "draw" for action in legal)
    if not may_draw:
        return {"type": "quit"}, {"code": "quit_no_draw", "seat": seat, "score": hand_score(hand)}
    code, facts = _draw_or_quit(view)
    action = {"type": "draw"} if code == "draw" else {"type": "quit"}
    return action, {"code": code, "seat": seat, **facts}


def _best_play(
    hand: list[str], plays: list[str], variant: str, rng: random.Random
) -> tuple[str, tuple]:
    """The card to play and its key ``(empties, saves, chain cards, value)``."""
    counts = Counter(hand)
    before = hand_score(counts)
    best_key, best = None, []
    for card in plays:
        rest = dict(counts)
        rest[card] -= 1
        if not rest[card]:
            del rest[card]
        chain_cards, after_chain = _chain(rest, card, variant)
        empties = chain_cards == len(hand) - 1
        key = (empties, before - hand_score(rest) + before - after_chain, chain_cards, VALUES[card])
        if best_key is None or key > best_key:
            best_key, best = key, [card]
        elif key == best_key:
            best.append(card)
    return (best[0] if len(best) == 1 else rng.choice(best)), best_key


def _chain(rest: dict[str, int], top: str, variant: str) -> tuple[int, int]:
    """The longest run the bot could lay alone from ``top``: its remaining copies
    of ``top``, then neighbouring values it holds. ``rest`` maps values to counts
    (no zeros). Returns (cards, hand score after)."""
    steps = (next_card, previous_card) if variant == ENGLERT else (next_card,)
    best = (-1, 0)
    for step in steps:
        shed = {top} if top in rest else set()
        value = step(top)
        while value in rest and value != top:
            shed.add(value)
            value = step(value)
        cards = sum(rest[card] for card in shed)
        if cards > best[0]:
            best = (cards, hand_score(card for card in rest if card not in shed))
    return best


def _unseen(hand: list[str], top: str | None) -> Counter:
    counts = Counter({card: COPIES for card in CARDS})
    counts.subtract(hand)
    if top is not None:
        counts[top] -= 1
    return +counts


def _expected_draw_cost(hand: list[str], top: str | None) -> float:
    unseen = _unseen(hand, top)
    total = sum(unseen.values())
    if not total:
        return 0.0
    held = set(hand)
    return sum(VALUES[card] * count for card, count in unseen.items() if card not in held) / total


def _expected_hand_score(cards: int) -> float:
    # Each value shows up with probability 1 − (6/7)^cards in a random hand.
    return sum(VALUES[card] * (1 - (6 / 7) ** cards) for card in CARDS)


def _draw_or_quit(view: dict) -> tuple[str, dict]:
    """``("draw" | "quit_alone" | "quit_safe" | "quit_cheap", facts)`` when nothing fits."""
    hand = view["hand"]
    me = view["seat"]
    score = hand_score(hand)
    others = [seat for seat in view["seats"] if seat["seat"] != me and seat["in_round"]]
    active = [seat for seat in others if not seat["quit"] and not seat["left"]]
    if not active:
        return "quit_alone", {"score": score}
    if view["variant"] == ENGLERT:
        rival = max(_expected_hand_score(seat["hand_size"]) for seat in others)
        if score < ENGLERT_SAFE_SHARE * rival:
            return "quit_safe", {"score": score, "rival": round(rival)}
    shortest = min(seat["hand_size"] for seat in active)
    share = min(MAX_SHED_SHARE, SHED_PER_OPPONENT_CARD * shortest)
    extra = _expected_draw_cost(hand, view["discard_top"])
    facts = {"score": score, "expected": round(extra, 1), "shortest": shortest}
    return ("draw" if (score + extra) * (1 - share) < score else "quit_cheap"), facts
