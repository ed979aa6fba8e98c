"""Katz und Maus bots. They decide from the bot's own ``view`` only, one move at
a time (a bot's turn is played move by move, each move a fresh decision).

Strategy of ``bot_action``, in order:

1. Scoring wait (match to 500): confirm (``base.bot_routine``).
2. A partner's hint (team play) that is legal now is followed.
3. The stock's top card fits: play it. Among several places the bot takes the
   one leaving the least help for the opponents (see *risk* below).
4. Plan a chain to the stock card: for every build pile below the stock card's
   value the bot fills the gap with discard-pile tops first (which clears its
   discard piles and may uncover the next card of the chain), then hand cards,
   then Kings (discard-pile Kings before hand Kings). The cheapest chain – Kings
   are expensive, hand cards cost a little, discard cards are free – is
   started; the next call re-plans with the new position.
5. Safe plays: hand and discard-pile cards that fit (never a King) are played
   when they do not raise the *risk*: the weighted number of opponents whose
   face-up stock card would fit next (the next player counts double, the
   partner counts as help). Discard-pile tops and cards that empty the hand
   (five new cards) are preferred; a play that blocks an opponent's stock card
   counts as a gain.
6. End the turn: discard the card least useful for the next chains (never a
   King if there is another card) onto the pile that keeps the discard piles
   ordered – the same value or one lower than the top, else a free pile for a
   high card, never a high card on a low one if it can be helped. A player
   whose stock is empty („kartenlos“) sends ``end`` instead.

``base.random_action`` is the baseline: a uniformly random legal action.
"""

from __future__ import annotations

import random

from games.engines.base import bot_routine

from .rules import RANKS, TOP_VALUE, VALUES

KING_RANK = "K"
KING_VALUE = 13  # for ordering only


def _value(card: str | None) -> int | None:
    """Printed value, 0 for a King (wild), None for no card."""
    if card is None:
        return None
    return VALUES.get(card[:-1], 0)


def _card_of(action: dict, me: dict, hand: list[str]) -> str:
    source = action["source"]
    if source == "stock":
        return me["stock_top"]
    if source == "hand":
        return action["card"]
    return me["discards"][action["index"]][-1]


def bot_action(view: dict, rng: random.Random) -> dict:
    """A strategic move for the seat the view belongs to (see the module docs)."""
    return bot_choice(view, rng)[0]


def bot_choice(view: dict, rng: random.Random) -> tuple[dict, dict]:
    """``bot_action`` plus the reason: ``{"code": …, "seat": …, plain data}``.

    Codes: ``confirm`` (scoring wait), ``follow_hint`` (the partner's hint),
    ``stock_play`` (the stock card fits; ``pile``), ``chain`` (a step towards the stock
    card: ``pile``, ``target`` value, ``source``), ``safe_play`` (a card that helps
    nobody else; ``source``, ``pile``, ``blocks``: it takes a value an opponent's
    stock card needs), ``discard`` (the turn ends; ``card``, ``pile``, ``kept_useful``:
    the card is of no use for the next chain), ``end`` (no stock left: end the turn).
    Everything named is on the table once the move is made, except which hand
    cards the bot kept.
    """
    seat = view["seat"]
    routine = bot_routine(view)
    if routine is not None:
        return routine, {"code": "confirm", "seat": seat}
    action, reason = _Planner(view, rng).choose_with_reason()
    return action, {"seat": seat, **reason}


class _Planner:
    def __init__(self, view: dict, rng: random.Random) -> None:
        self.view = view
        self.rng = rng
        self.legal = view["legal_actions"]
        self.seat = view["seat"]
        self.me = view["seats"][self.seat]
        self.hand = view["hand"] or []
        self.needs = [pile["value"] + 1 for pile in view["build"]]  # 13: complete/unusable
        self.plays = [a for a in self.legal if a["type"] == "play"]
        self._weights = self._opponent_weights()

    # --- Who would profit from a build pile's next value -------------------------

    def _opponent_weights(self) -> dict[int, float]:
        """Weight per value 1–12: how much it helps others (partner negative)
        when a build pile needs that value next."""
        view = self.view
        n = view["players"]
        weights: dict[int, float] = {}
        partner = self.me["partner"]
        order = [(self.seat + step) % n for step in range(1, n)]
        for distance, other in enumerate(order):
            seat = view["seats"][other]
            if seat["out"] or seat["stock_top"] is None:
                continue
            value = _value(seat["stock_top"])
            if not value:  # a King fits anywhere: nothing to avoid
                continue
            weight = -1.5 if other == partner else 2.0 if distance == 0 else 1.0
            weights[value] = weights.get(value, 0.0) + weight
        return weights

    def _risk_change(self, pile: int) -> float:
        """Risk added by one more card on ``pile``."""
        before = self.needs[pile]
        after = before + 1 if before < TOP_VALUE else 1  # complete: the place is free
        return self._weights.get(after, 0.0) - self._weights.get(before, 0.0)

    # --- Decision ---------------------------------------------------------------

    def choose(self) -> dict:
        return self.choose_with_reason()[0]

    def choose_with_reason(self) -> tuple[dict, dict]:
        action = self._follow_hint()
        if action:
            return action, {"code": "follow_hint", "pile": action["pile"]}
        action = self._stock_play()
        if action:
            return action, {"code": "stock_play", "pile": action["pile"]}
        action = self._chain()
        if action:
            return action, {
                "code": "chain",
                "pile": action["pile"],
                "target": _value(self.me["stock_top"]),
                "source": action["source"],
            }
        action = self._safe_play()
        if action:
            return action, {
                "code": "safe_play",
                "pile": action["pile"],
                "source": action["source"],
                "blocks": self._risk_change(action["pile"]) < 0,
            }
        action = self._end_turn()
        if action["type"] == "end":
            return action, {"code": "end"}
        return action, {"code": "discard", "card": action["card"], "pile": action["pile"]}

    def _follow_hint(self) -> dict | None:
        hint = self.me.get("hint")
        if not hint:
            return None
        matching = [
            a
            for a in self.plays
            if a["pile"] == hint["pile"] and _card_of(a, self.me, self.hand)[:-1] == hint["rank"]
        ]
        order = {"stock": 0, "discard": 1, "hand": 2}
        matching.sort(key=lambda a: order[a["source"]])
        return matching[0] if matching else None

    def _stock_play(self) -> dict | None:
        options = [a for a in self.plays if a["source"] == "stock"]
        if not options:
            return None
        return min(options, key=lambda a: (self._risk_change(a["pile"]), -self.needs[a["pile"]]))

    def _chain(self) -> dict | None:
        top = self.me["stock_top"]
        target = _value(top)
        if not target:  # no stock card, or a King (then it already fits)
            return None
        best = None
        seen_free = False
        for pile, need in enumerate(self.needs):
            if need > target:
                continue
            if need == 1:
                if seen_free:
                    continue
                seen_free = True
            plan = self._plan(pile, need, target)
            if plan is not None and (best is None or plan[0] < best[0]):
                best = plan
        return best[1] if best else None

    def _plan(self, pile: int, need: int, target: int) -> tuple[float, dict] | None:
        """Fill values ``need`` … ``target - 1`` on ``pile``; (cost, first move)."""
        hand = list(self.hand)
        stacks = [list(p) for p in self.me["discards"]]
        cost = 0.0
        first = None
        for wanted in range(need, target):
            move = None
            for index, stack in enumerate(stacks):
                if stack and _value(stack[-1]) == wanted:
                    move = {"type": "play", "source": "discard", "index": index, "pile": pile}
                    stack.pop()
                    cost += 0.0
                    break
            if move is None:
                card = next((c for c in hand if _value(c) == wanted), None)
                if card is not None:
                    hand.remove(card)
                    move = {"type": "play", "source": "hand", "card": card, "pile": pile}
                    cost += 0.5
            if move is None:
                for index, stack in enumerate(stacks):
                    if stack and _value(stack[-1]) == 0:
                        move = {"type": "play", "source": "discard", "index": index, "pile": pile}
                        stack.pop()
                        cost += 2.5
                        break
            if move is None:
                card = next((c for c in hand if _value(c) == 0), None)
                if card is not None:
                    hand.remove(card)
                    move = {"type": "play", "source": "hand", "card": card, "pile": pile}
                    cost += 3.0
            if move is None:
                return None
            first = first or move
        if first is None:
            return None
        # Emptying the hand on the way is a bonus (five new cards).
        if not hand:
            cost -= 1.0
        return cost + 0.3 * max(0.0, self._risk_change(pile)), first

    def _safe_play(self) -> dict | None:
        best_key, best = None, []
        hand_size = len(self.hand)
        for action in self.plays:
            if action["source"] == "stock":
                continue
            card = _card_of(action, self.me, self.hand)
            if _value(card) == 0:
                continue  # Kings are saved for the stock card
            risk = self._risk_change(action["pile"])
            if risk > 0:
                continue
            gain = -risk
            if action["source"] == "discard":
                gain += 1.0
            elif hand_size == 1:
                gain += 1.5  # five new cards
            else:
                gain += 0.5
            if self.needs[action["pile"]] == TOP_VALUE:
                gain += 0.5  # completes a pile: back under the draw pile
            key = gain
            if best_key is None or key > best_key:
                best_key, best = key, [action]
            elif key == best_key:
                best.append(action)
        if not best:
            return None
        return best[0] if len(best) == 1 else self.rng.choice(best)

    def _end_turn(self) -> dict:
        discards = [a for a in self.legal if a["type"] == "discard"]
        if not discards:
            return {"type": "end"}
        target = _value(self.me["stock_top"]) or 0
        useful = set()
        if target:
            for need in self.needs:
                if need <= target:
                    useful.update(range(need, target))
        best_key, best = None, None
        for action in discards:
            card = action["card"]
            value = _value(card)
            order = value or KING_VALUE
            pile = self.me["discards"][action["pile"]]
            score = 0.15 * order
            if value == 0:
                score -= 10.0
            if value in useful:
                score -= 3.0
            if not pile:
                score += 1.0 + 2.0 * order / TOP_VALUE
            else:
                top = _value(pile[-1]) or KING_VALUE
                if top == order:
                    score += 4.0
                elif top == order + 1:
                    score += 5.0
                elif top > order:
                    score += 3.0 - 0.3 * (top - order)
                else:
                    score -= 2.0 + (order - top) * 0.5
            key = (score, -RANKS.index(card[:-1]), -action["pile"])
            if best_key is None or key > best_key:
                best_key, best = key, action
        return dict(best)
