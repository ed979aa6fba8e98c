"""The first The Cat bots (``bots_version`` 1), kept unchanged so that games dealt
before the planning bots (``bots``) replay exactly: rooms and demos in progress
and the records of their replays. New games never use them.

Strategy: a target mood per known stack chosen greedily by value, the swap that
raises that value most, sideways swaps after a while without gain, the next
stack in turn when nothing helps; always one step per delay of the speed's mean
± 50 %.
"""

from __future__ import annotations

import random
from collections import Counter

from .rules import is_finished, mood_of

CHEAT_CHANCE = 0.1  # per step, once all but one stack are finished
# Tuned on 60 bot rounds per table size: more churn ends jammed rounds sooner
# (3 players, normal speed: mean 90 s → 78 s, longest 178 s → 126 s).
CHURN_PER_STEP = 0.1  # chance of a sideways swap grows with steps without gain …
MAX_CHURN = 0.7  # … up to this
WEIGHT = {0: 0, 1: 0, 2: 2, 3: 5, 4: 12}  # value of a stack by cards of its target

STOP = {"type": "stop"}
PUT_BACK = {"type": "put_back"}


def value(stacks: list[list[str] | None]) -> int:
    """How close the known stacks are to done, with one target mood per stack."""
    return _value([_counts(stack) for stack in stacks])


def _counts(stack: list[str] | None) -> dict[str, int] | None:
    return Counter(mood_of(card) for card in stack) if stack else None


def _value(counts: list[dict[str, int] | None]) -> int:
    pairs = sorted(
        (
            (count, -index, mood)
            for index, moods in enumerate(counts)
            if moods
            for mood, count in moods.items()
            if count
        ),
        reverse=True,
    )
    used_stacks: set[int] = set()
    used_moods: set[str] = set()
    total = 0
    for count, negative_index, mood in pairs:
        if -negative_index in used_stacks or mood in used_moods:
            continue
        used_stacks.add(-negative_index)
        used_moods.add(mood)
        total += WEIGHT[count]
    return total


def swaps(stacks: list[list[str] | None], index: int, middle: list[str]) -> list[tuple]:
    """Every swap for stack ``index`` with the gain in ``value``: ``(gain, give, want)``,
    skipping swaps of two cards of one mood."""
    counts = [_counts(stack) for stack in stacks]
    base = _value(counts)
    held = counts[index]
    gains: dict[tuple[str, str], int] = {}
    result = []
    for give in stacks[index]:
        for want in middle:
            pair = (mood_of(give), mood_of(want))
            if pair[0] == pair[1]:
                continue
            if pair not in gains:
                trial = dict(held)
                trial[pair[0]] -= 1
                trial[pair[1]] = trial.get(pair[1], 0) + 1
                gains[pair] = _value([*counts[:index], trial, *counts[index + 1 :]]) - base
            result.append((gains[pair], give, want))
    return result


def _best_gain(stacks, index, middle) -> int:
    return max((gain for gain, _, _ in swaps(stacks, index, middle)), default=0)


def legacy_action(view: dict, rng: random.Random) -> dict | None:
    """The first bots' next step; ``None`` means it just watches the middle this step."""
    phase = view["phase"]
    if phase == "reveal":
        return {"type": "continue"} if view["legal_actions"] else None
    if phase != "play" or not view["legal_actions"]:
        return None
    middle = view["middle"]
    held = view["held"]
    remembered = view.get("remembered")
    if remembered is None:  # a plain ``view``: only the stack in hand is known
        remembered = [None] * view["my_stacks"]
        if held is not None:
            remembered[held] = view["hand"]
    stacks = [list(stack) if stack is not None else None for stack in remembered]
    finished = [stack is not None and is_finished(stack) for stack in stacks]
    if all(finished):
        return dict(STOP)
    if view.get("cheater") and sum(finished) >= len(stacks) - 1 and rng.random() < CHEAT_CHANCE:
        return dict(STOP)
    if held is None:
        return {"type": "take", "stack": _choose_stack(view, stacks, finished, rng)}
    if finished[held]:
        return dict(PUT_BACK)
    options = swaps(stacks, held, middle)
    best = max((gain for gain, _, _ in options), default=0)
    if best > 0:
        top = [option for option in options if option[0] == best]
        _, give, want = _pick(top, stacks, rng)
        return {"type": "swap", "give": give, "want": want}
    churn = min(MAX_CHURN, CHURN_PER_STEP * view.get("since_gain", 0))
    if options and rng.random() < churn:
        _, give, want = rng.choice(options)
        return {"type": "swap", "give": give, "want": want}
    if not any(not done for i, done in enumerate(finished) if i != held):
        return None  # the only unfinished stack: keep it and watch the middle
    return dict(PUT_BACK)


def _pick(options: list[tuple], stacks, rng: random.Random) -> tuple:
    """Among equally good swaps give away the card whose mood the bot holds least."""
    held_moods = Counter(mood_of(card) for stack in stacks if stack for card in stack)
    fewest = min(held_moods[mood_of(give)] for _, give, _ in options)
    options = [option for option in options if held_moods[mood_of(option[1])] == fewest]
    return options[0] if len(options) == 1 else rng.choice(options)


def _choose_stack(view: dict, stacks, finished, rng: random.Random) -> int:
    open_ = [i for i, done in enumerate(finished) if not done]
    unseen = [i for i in open_ if stacks[i] is None]
    if unseen:
        return unseen[0]
    middle = view["middle"]
    gains = {i: _best_gain(stacks, i, middle) for i in open_}
    best = max(gains.values())
    if best > 0:
        top = [i for i in open_ if gains[i] == best]
        return top[0] if len(top) == 1 else rng.choice(top)
    last = view.get("last_put")
    if last is None:
        return open_[0]
    later = [i for i in open_ if i > last] + [i for i in open_ if i <= last]
    others = [i for i in later if i != last]
    return (others or later)[0]
