"""The Cat bots. They decide from the bot's own ``bot_view`` only: the open middle,
the stack in hand, what the seat remembers of its own stacks, its plan and its
last swap – what a person at the table knows too.

``bot_choice(view, rng) -> (action, reason)``: ``action`` is the next step
(``None``: the bot just watches the middle this step), ``reason`` plain data
with a ``code`` (snake_case) saying why, for coaching texts and tests.
``bot_action`` is ``bot_choice(...)[0]``.

Timing: every bot step takes a delay drawn from ``(seed, round, seat, step)``
around the speed's mean – gemütlich, normal or flink – and scaled by what the bot
just did, as a person's pace is: looking at a freshly taken stack takes longer
than the next grab after a swap, putting a stack down is quick (``PACE``). A
replay from the seed with the same ``now`` values repeats every bot action
exactly; the choice itself uses an RNG keyed the same way.

Strategy (a person's, not a search):

1. **Plan.** Every known stack gets a target mood: the moods the bot holds most
   of across all its stacks, each for one stack only (every mood exists four
   times), matched to the stacks that hold most of them; finished stacks keep
   their mood. The plan stays while the bot makes progress; it is made again
   when the bot sees a stack for the first time. After ``PATIENCE`` steps
   without progress the bot gives up the target it has the least hope for
   (others seem to collect it) and takes the best free mood instead
   (``change_plan``); it does not come back to the two moods it gave up last.
2. **Stopp!** All own stacks finished: call „Stopp!“ (``call_stop``), also with
   a stack in hand. Honest bots never call wrongly. A „Schummelkatze“ with all
   but one stack finished bluffs now and then (``bluff_stop``).
3. **Holding a stack:** finished – put it down (``stack_done``); the middle
   has a card of its target – swap a card that belongs to no plan (or to
   another stack's) for it (``collect_mood``, ``finish_stack`` for the fourth
   card). Never the swap that undoes the bot's own last swap. A stack
   somewhere else wants a middle card – put this one down (``switch_stack``).
   Long without progress, a swap of two cards nobody of its plan needs stirs
   the middle (``stir_middle``): that frees moods others wait for, so no round
   jams. Else keep watching a moment (``watch_middle``) or put the stack down
   (``nothing_fits``).
4. **Hands empty:** look at a stack never seen (``look_at_stack``), else take
   the stack a middle card helps most (``go_for_mood``), else the next
   unfinished stack after the one put down last (``next_stack``).

Games dealt before these bots keep the first ones (``legacy_bots``); the
state's ``bots_version`` says which play.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import permutations

from . import legacy_bots
from .rules import MOOD_KEYS, is_finished, mood_of

SPEEDS = {"gemuetlich": 3.0, "normal": 1.8, "flink": 1.0}  # mean seconds per step
SPEED_NAMES = {"gemuetlich": "gemütlich", "normal": "normal", "flink": "flink"}
_ALIASES = {"gemütlich": "gemuetlich"}

BOTS_VERSION = 2  # 1: ``legacy_bots`` (games dealt before the planning bots)
BOTS_VERSIONS = (1, 2)

# How long the next step takes, by what the bot just did (times the speed's mean).
PACE = {
    "deal": 1.0,  # the cards are dealt: reach for a stack
    "take": 1.4,  # read the four cards just taken up
    "swap": 0.8,  # the next grab of a planned swap is quick
    "put_back": 0.6,  # put down, reach for the next stack
    "watch": 1.0,  # watching the middle a moment
}
CHEAT_CHANCE = 0.2  # per step, with all but one stack finished and the last close
PATIENCE = 8  # steps without progress before the weakest target is given up
STIR_AFTER = 5  # steps without progress before a sideways swap stirs the middle …
STIR_CHANCE = 0.3  # … now and then, not at every step
WATCH_CHANCE = 0.4  # nothing fits: keep watching the middle instead of putting down
CANDIDATES = 6  # moods considered when making a plan (the most held)
WEIGHT = {0: 0, 1: 1, 2: 3, 3: 6, 4: 12}  # a stack's worth by cards of its target

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


def step_delay(
    seed: int, round_: int, seat: int, step: int, speed: str, after: str | None = None
) -> float:
    """Seconds before bot step ``step``: the speed's mean ± 50 %, times the pace of
    what the bot just did (``after``, a key of ``PACE``; ``None``: the first
    bots' even pace)."""
    rng = random.Random(f"the_cat:{seed}:wait:{round_}:{seat}:{step}")
    return SPEEDS[speed] * (0.5 + rng.random()) * (PACE[after] if after else 1.0)


def pace_of(action: dict | None) -> str:
    """The ``PACE`` key of a step that did ``action``."""
    kind = action["type"] if action else "watch"
    return kind if kind in PACE else "watch"


def _rank(mood: str) -> int:
    """Ties go by the moods' fixed order, never by their names: the bots play the
    same whichever four moods are out with two players (the deck keeps its order)."""
    return MOOD_KEYS.index(mood)


# --- The plan ----------------------------------------------------------------------


def _known(view: dict) -> list[list[str] | None]:
    remembered = view.get("remembered")
    if remembered is None:  # a plain ``view``: only the stack in hand is known
        remembered = [None] * view["my_stacks"]
        if view["held"] is not None:
            remembered[view["held"]] = view["hand"]
    return [list(stack) if stack is not None else None for stack in remembered]


def _assign(stacks, middle, keep, avoid) -> list[str | None]:
    """Target moods for the known stacks: the most held moods, matched to the stacks
    that hold most of them; ``keep`` (the old targets) wins ties."""
    counts = [Counter(mood_of(card) for card in stack) if stack else None for stack in stacks]
    held = Counter(mood_of(card) for stack in stacks if stack for card in stack)
    shown = Counter(mood_of(card) for card in middle)
    targets: list[str | None] = [None] * len(stacks)
    open_ = []
    for i, stack in enumerate(stacks):
        if stack is not None and is_finished(stack):
            targets[i] = mood_of(stack[0])
        elif stack is not None:
            open_.append(i)
    taken = {mood for mood in targets if mood}
    moods = sorted(
        (m for m in set(held) | set(shown) if m not in taken),
        key=lambda m: (m in avoid, -held[m], -shown[m], _rank(m)),
    )[: max(CANDIDATES, len(open_))]
    best, best_score = None, None
    for choice in permutations(moods, len(open_)):
        score = 0
        for i, mood in zip(open_, choice, strict=True):
            score += WEIGHT[counts[i][mood]] + 2 * held[mood] + shown[mood]
            score -= 20 if mood in avoid else 0
            score += 2 if keep and i < len(keep) and keep[i] == mood else 0
        if best_score is None or score > best_score:
            best, best_score = choice, score
    for i, mood in zip(open_, best or (), strict=False):
        targets[i] = mood
    return targets


def make_plan(view: dict, stacks, middle) -> tuple[dict, dict | None]:
    """The bot's plan after this look at the table, and a ``change_plan`` note if
    it gave up a target just now."""
    memory = view.get("plan") or {}
    targets = memory.get("targets")
    avoid = list(memory.get("avoid") or [])
    mark = memory.get("mark", 0)
    since = view.get("since_gain", 0)
    seen = [stack is not None for stack in stacks]
    if since < mark:  # progress since the last change: patience starts again
        mark = 0
    change = None
    if not targets or len(targets) != len(stacks) or memory.get("seen") != seen:
        targets = _assign(stacks, middle, targets, avoid)
    else:
        targets = list(targets)
        for i, stack in enumerate(stacks):  # a stack finished on another mood keeps it
            if stack is not None and is_finished(stack):
                targets[i] = mood_of(stack[0])
        if since >= mark + PATIENCE:
            change = _give_up_one(stacks, middle, targets, avoid)
            mark = since
            if change:
                avoid = [change["dropped"]]
    return {"targets": targets, "avoid": avoid, "mark": mark, "seen": seen}, change


def _give_up_one(stacks, middle, targets, avoid) -> dict | None:
    held = Counter(mood_of(card) for stack in stacks if stack for card in stack)
    shown = Counter(mood_of(card) for card in middle)
    open_ = [
        i
        for i, stack in enumerate(stacks)
        if stack is not None and not is_finished(stack) and targets[i]
    ]
    if not open_:
        return None
    weakest = min(open_, key=lambda i: (held[targets[i]] + shown[targets[i]], i))
    dropped = targets[weakest]
    counts = Counter(mood_of(card) for card in stacks[weakest])
    free = [
        m for m in set(held) | set(shown) if m not in targets and m not in avoid and m != dropped
    ]
    if not free:
        return None
    mood = max(free, key=lambda m: (counts[m], held[m] + shown[m], -_rank(m)))
    targets[weakest] = mood
    return {"code": "change_plan", "stack": weakest, "dropped": dropped, "mood": mood}


# --- Choosing a step ---------------------------------------------------------------


def _undoes(view: dict, stack: int, give: str, want: str) -> bool:
    """Whether this swap takes back the bot's own last swap (same stack, the moods
    the other way round)."""
    last = view.get("last_swap")
    return bool(
        last
        and last["stack"] == stack
        and mood_of(give) == mood_of(last["took"])
        and mood_of(want) == mood_of(last["gave"])
    )


def bot_choice(view: dict, rng: random.Random) -> tuple[dict | None, dict]:
    """The bot's next step and why: ``(action, reason)``; ``action`` ``None`` means
    it watches the middle this step. ``reason["plan"]`` is what the bot keeps in
    mind for its next step (the engine stores it for the seat)."""
    phase = view["phase"]
    seat = view.get("seat")
    if phase == "reveal":
        if view["legal_actions"]:
            return {"type": "continue"}, {"code": "ready", "seat": seat}
        return None, {"code": "wait", "seat": seat}
    if phase != "play" or not view["legal_actions"]:
        return None, {"code": "wait", "seat": seat}
    middle = view["middle"]
    held = view["held"]
    stacks = _known(view)
    plan, change = make_plan(view, stacks, middle)
    targets = plan["targets"]
    action, reason = _decide(view, stacks, targets, middle, held, rng)
    if change and reason["code"] not in ("call_stop", "bluff_stop"):
        reason = {**reason, "changed": change}
    reason["plan"] = plan
    reason["seat"] = seat  # whose reason: the presenter words another seat's apart
    return action, reason


def _decide(view, stacks, targets, middle, held, rng):
    finished = [stack is not None and is_finished(stack) for stack in stacks]
    total = len(stacks)
    if all(finished):
        return dict(STOP), {"code": "call_stop", "stacks": total}
    if view.get("cheater") and sum(finished) == total - 1 and rng.random() < CHEAT_CHANCE:
        # The Schummelkatze's bluff: one stack is still wrong, it calls anyway once
        # that stack is close (three of four) – hoping nobody looks closely.
        last = finished.index(False)
        if stacks[last] is not None and _have(stacks[last], targets[last]) >= 3:
            return dict(STOP), {
                "code": "bluff_stop",
                "finished": total - 1,
                "stacks": total,
                "stack": last,
            }
    shown = {mood_of(card) for card in middle}
    if held is None:
        return _take(view, stacks, targets, finished, shown)
    hand = stacks[held]
    target = targets[held]
    if finished[held]:
        return dict(PUT_BACK), {"code": "stack_done", "stack": held, "mood": mood_of(hand[0])}
    swap = _collect(view, held, hand, targets, middle)
    if swap:
        give, want = swap
        have = _have(hand, target) + 1
        code = "finish_stack" if have == len(hand) else "collect_mood"
        return (
            {"type": "swap", "give": give, "want": want},
            {"code": code, "stack": held, "mood": target, "gave": mood_of(give), "count": have},
        )
    elsewhere = [
        i
        for i, done in enumerate(finished)
        if i != held and not done and stacks[i] is not None and targets[i] in shown
    ]
    park = _park(view, held, hand, targets, middle, finished)
    if park:
        give, want, to = park
        return (
            {"type": "swap", "give": give, "want": want},
            {"code": "pass_on", "stack": held, "to": to, "mood": mood_of(give)},
        )
    unseen = [i for i, stack in enumerate(stacks) if stack is None]
    if elsewhere or unseen:
        go = elsewhere[0] if elsewhere else unseen[0]
        return dict(PUT_BACK), {
            "code": "switch_stack",
            "stack": held,
            "to": go,
            "mood": targets[go],
        }
    if view.get("since_gain", 0) >= STIR_AFTER and rng.random() < STIR_CHANCE:
        stir = _stir(view, held, hand, targets, middle, rng)
        if stir:
            give, want = stir
            return (
                {"type": "swap", "give": give, "want": want},
                {
                    "code": "stir_middle",
                    "stack": held,
                    "gave": mood_of(give),
                    "took": mood_of(want),
                },
            )
    alone = not any(not done for i, done in enumerate(finished) if i != held)
    if alone or rng.random() < WATCH_CHANCE:
        return None, {"code": "watch_middle", "stack": held, "mood": target}
    return dict(PUT_BACK), {"code": "nothing_fits", "stack": held, "mood": target}


def _have(stack: list[str], mood: str | None) -> int:
    return sum(mood_of(card) == mood for card in stack)


def _collect(view, held, hand, targets, middle) -> tuple[str, str] | None:
    target = targets[held]
    wants = [card for card in middle if mood_of(card) == target]
    if not target or not wants:
        return None
    planned = set(targets)
    gives = sorted(
        (card for card in hand if mood_of(card) != target),
        # a card no stack of the plan wants goes first, then the plan's rarest
        key=lambda card: (mood_of(card) in planned, _rank(mood_of(card)), card[-1]),
    )
    for give in gives:
        for want in wants:
            if not _undoes(view, held, give, want):
                return give, want
    return None


def _park(view, held, hand, targets, middle, finished) -> tuple[str, str, int] | None:
    """A card another own stack collects goes to the middle for that stack to take
    (for a middle card of no target): the only way between own stacks."""
    planned = set(targets)
    for give in hand:
        mood = mood_of(give)
        if mood == targets[held] or mood not in planned:
            continue
        to = targets.index(mood)
        if finished[to]:
            continue
        for want in middle:
            if mood_of(want) not in planned and not _undoes(view, held, give, want):
                return give, want, to
    return None


def _stir(view, held, hand, targets, middle, rng) -> tuple[str, str] | None:
    planned = set(targets)
    gives = [card for card in hand if mood_of(card) not in planned]
    wants = [
        card
        for card in middle
        if mood_of(card) not in planned and all(mood_of(card) != mood_of(give) for give in gives)
    ]
    options = [
        (give, want) for give in gives for want in wants if not _undoes(view, held, give, want)
    ]
    last = view.get("last_swap")
    if last:  # never take back the very card given last
        options = [(g, w) for g, w in options if w != last["gave"]]
    return rng.choice(options) if options else None


def _take(view, stacks, targets, finished, shown):
    open_ = [i for i, done in enumerate(finished) if not done]
    unseen = [i for i in open_ if stacks[i] is None]
    if unseen:
        return {"type": "take", "stack": unseen[0]}, {"code": "look_at_stack", "stack": unseen[0]}
    helped = [i for i in open_ if targets[i] in shown]
    if helped:
        best = max(helped, key=lambda i: (_have(stacks[i], targets[i]), -i))
        return {"type": "take", "stack": best}, {
            "code": "go_for_mood",
            "stack": best,
            "mood": targets[best],
        }
    last = view.get("last_put")
    if last is None:
        choice = open_[0]
    else:
        later = [i for i in open_ if i > last] + [i for i in open_ if i <= last]
        others = [i for i in later if i != last]
        choice = (others or later)[0]
    return {"type": "take", "stack": choice}, {
        "code": "next_stack",
        "stack": choice,
        "mood": targets[choice],
    }


def bot_action(view: dict, rng: random.Random) -> dict | None:
    """The bot's next step (``bot_choice`` without the reason); ``None``: watching."""
    return bot_choice(view, rng)[0]


legacy_action = legacy_bots.legacy_action
