"""The Cat bots. They decide from the bot's own ``bot_view`` only: the open middle,
the stack in hand and what the seat remembers of its own stacks.

Timing: every bot step (one action, or a moment of watching) takes a delay drawn
from ``(seed, round, seat, step)`` around the speed's mean – gemütlich, normal or
flink – so a replay from the seed with the same ``now`` values repeats every bot
action exactly. The choice itself uses an RNG keyed the same way.

Strategy of ``bot_action``:

1. All own stacks known and finished: call „Stopp!“ (also with a stack in hand).
   Bots never call wrongly – except a „Schummelkatze“ (cheater), which, with all
   but one stack finished, calls too early now and then.
2. Holding a stack: make the swap that raises the value of the own stacks most.
   Each known stack is given a target mood – greedily, the most frequent mood
   per stack, every mood for one stack only (each mood exists four times, so
   every stack needs a different one) – and a stack is worth more the more
   cards of its target it holds (4 of a kind much more). Nothing helps: put the
   stack back, or keep it and watch the middle if it is the only unfinished one.
   A bot that has not improved for a while sometimes makes a sideways swap:
   that frees moods two players fight over, so no round jams for ever.
3. Not holding: take a stack never looked at, else the one a middle card would
   improve most, else the next unfinished stack after the one put down last.
"""

from __future__ import annotations

import random
from collections import Counter

from .rules import is_finished, mood_of

SPEEDS = {"gemuetlich": 3.0, "normal": 1.8, "flink": 1.0}  # mean seconds per step
SPEED_NAMES = {"gemuetlich": "gemütlich", "normal": "normal", "flink": "flink"}
_ALIASES = {"gemütlich": "gemuetlich"}

CHEAT_CHANCE = 0.1  # per step, once all but one stack are finished
# Tuned on 60 bot rounds per table size: more churn ends jammed rounds sooner
# (3 players, normal speed: mean 90 s → 78 s, longest 178 s → 126 s).
CHURN_PER_STEP = 0.1  # chance of a sideways swap grows with steps without gain …
MAX_CHURN = 0.7  # … up to this
WEIGHT = {0: 0, 1: 0, 2: 2, 3: 5, 4: 12}  # value of a stack by cards of its target

STOP = {"type": "stop"}
PUT_BACK = {"type": "put_back"}


def normalise_speed(speed: str) -> str:
    speed = _ALIASES.get(speed, speed)
    if speed not in SPEEDS:
        raise ValueError(f"Unbekanntes Bot-Tempo „{speed}“.")
    return speed


def step_rng(seed: int, round_: int, seat: int, step: int) -> random.Random:
    """The RNG of one bot decision."""
    return random.Random(f"the_cat:{seed}:bot:{round_}:{seat}:{step}")


def step_delay(seed: int, round_: int, seat: int, step: int, speed: str) -> float:
    """Seconds before bot step ``step``: the speed's mean ± 50 %."""
    rng = random.Random(f"the_cat:{seed}:wait:{round_}:{seat}:{step}")
    return SPEEDS[speed] * (0.5 + rng.random())


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


def bot_action(view: dict, rng: random.Random) -> dict | None:
    """The bot's next step; ``None`` means it just watches the middle this step."""
    return bot_choice(view, rng)[0]


def bot_choice(view: dict, rng: random.Random) -> tuple[dict | None, dict]:
    """``bot_action`` plus the reason ``{"code": …, "seat": …, plain data}``.

    Codes: ``ready`` (the reveal), ``idle`` (may not act), ``stop_finished`` (every
    own stack is finished), ``stop_early`` (a Schummelkatze's gamble), ``take_unseen``
    (a stack not looked at yet), ``take_gain`` (a middle card would improve it),
    ``take_next`` (the next unfinished stack), ``put_back_finished``, ``swap_gain``
    (``give``/``want``: the swap brings the stacks closer to done), ``swap_churn``
    (a sideways swap to free a mood), ``watch`` (keep the last open stack and wait
    for the middle), ``put_back`` (nothing in the middle helps this stack).
    """
    seat = view.get("seat")

    def why(code: str, **data) -> dict:
        return {"code": code, "seat": seat, **data}

    phase = view["phase"]
    if phase == "reveal":
        if view["legal_actions"]:
            return {"type": "continue"}, why("ready")
        return None, why("idle")
    if phase != "play" or not view["legal_actions"]:
        return None, why("idle")
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
        return dict(STOP), why("stop_finished", stacks=len(stacks))
    if view.get("cheater") and sum(finished) >= len(stacks) - 1 and rng.random() < CHEAT_CHANCE:
        return dict(STOP), why("stop_early")
    if held is None:
        stack, code = _choose_stack(view, stacks, finished, rng)
        return {"type": "take", "stack": stack}, why(code, stack=stack)
    if finished[held]:
        return dict(PUT_BACK), why("put_back_finished", stack=held)
    options = swaps(stacks, held, middle)
    best = max((gain for gain, _, _ in options), default=0)
    if best > 0:
        top = [option for option in options if option[0] == best]
        _, give, want = _pick(top, stacks, rng)
        return {"type": "swap", "give": give, "want": want}, why(
            "swap_gain", give=mood_of(give), want=mood_of(want)
        )
    churn = min(MAX_CHURN, CHURN_PER_STEP * view.get("since_gain", 0))
    if options and rng.random() < churn:
        _, give, want = rng.choice(options)
        return {"type": "swap", "give": give, "want": want}, why(
            "swap_churn", give=mood_of(give), want=mood_of(want)
        )
    if not any(not done for i, done in enumerate(finished) if i != held):
        return None, why("watch")  # the only unfinished stack: keep it and watch the middle
    return dict(PUT_BACK), why("put_back", stack=held)


def _pick(options: list[tuple], stacks, rng: random.Random) -> tuple:
    """Among equally good swaps give away the card whose mood the bot holds least."""
    held_moods = Counter(mood_of(card) for stack in stacks if stack for card in stack)
    fewest = min(held_moods[mood_of(give)] for _, give, _ in options)
    options = [option for option in options if held_moods[mood_of(option[1])] == fewest]
    return options[0] if len(options) == 1 else rng.choice(options)


def _choose_stack(view: dict, stacks, finished, rng: random.Random) -> tuple[int, str]:
    """The stack to take up and the reason's code."""
    open_ = [i for i, done in enumerate(finished) if not done]
    unseen = [i for i in open_ if stacks[i] is None]
    if unseen:
        return unseen[0], "take_unseen"
    middle = view["middle"]
    gains = {i: _best_gain(stacks, i, middle) for i in open_}
    best = max(gains.values())
    if best > 0:
        top = [i for i in open_ if gains[i] == best]
        return (top[0] if len(top) == 1 else rng.choice(top)), "take_gain"
    last = view.get("last_put")
    if last is None:
        return open_[0], "take_next"
    later = [i for i in open_ if i > last] + [i for i in open_ if i <= last]
    others = [i for i in later if i != last]
    return (others or later)[0], "take_next"
