"""The Cat game engine: everyone plays at once (protocol: ``games.engines.base``).

There are no turns. Time is an input: the engine never reads a clock. Every call
that may let time pass takes ``now`` (seconds as a float, e.g. epoch seconds,
never decreasing); bots act on that clock inside the engine, each step at a due
time drawn from ``(seed, round, seat, step)``, so the seed plus the log of
``(seat, action, now)`` replays a game exactly, bots included (see ``replay``).

State shape (plain JSON data; cards are ``"<mood>-<copy>"``, see ``rules``)::

    {
      "game": "the_cat", "version": 1, "seed": int, "players": n,
      "names": [str] * n, "target": 20 | 12, "round_seconds": float | None,
      "removed_choice": [mood] * 4 | None,   # the host's choice for two players
      "removed": [mood] * 4 | None,          # out of the game (two players), per game
      "bots": [speed | None] * n, "cheaters": [bool] * n,
      "bots_version": 1 | 2,                 # which bots play (``bots.BOTS_VERSION``)
      "phase": "play" | "reveal" | "over",
      "round": int, "dealer": seat,
      "in_round": [bool],                    # dealt into the current round
      "stacks": [[[card] * 4] * k],          # per seat its k stacks ([] if not dealt in)
      "middle": [card] * 4,                  # open; a swap keeps the slot
      "held": [int | None],                  # the stack each seat holds (at most one)
      "last_put": [int | None],              # the stack each seat put down last
      "seen": [[bool] * k],                  # stacks the seat has looked at this round
      "progress": [int], "since_gain": [int],  # own bookkeeping the bots use
      "plans": [dict | None], "last_swap": [dict | None],  # what each seat keeps in mind
      "gave_up": [bool], "ready": [bool], "left": [bool],
      "now": float, "round_started": float, "deadline": float | None,
      "bot_steps": [int], "bot_due": [float | None],
      "scores": [int], "score_sheet": [[int | None] * n],
      "round_result": None | {...}, "outcome": None | {"winners", "points", "reason"},
    }

Actions: ``take`` (stack), ``swap`` (give = a card of the held stack, want = a
middle card by identity), ``put_back``, ``stop``, ``give_up`` (vote to end a
round nobody can finish), ``continue`` (reveal: ready for the next round).

Events are data only, every one with ``at`` (the game time): ``deal`` (round,
dealer, middle, stacks), ``take`` (seat, stack), ``swap`` (seat, stack, gave,
took, slot), ``put_back`` (seat, stack), ``stop`` (seat, put_down), ``give_up``
(seat), ``round_end`` (round, reason "stop" | "time" | "given_up" | "left",
caller, caller_right, points, totals), ``continue`` (seat),
``continue_forced``, ``leave`` (seat), ``game_over`` (reason, winners, points).
"""

from __future__ import annotations

import random

from games.engines import base
from games.engines.base import OVER, PLAY, IllegalAction
from games.engines.base import stored_outcome as outcome

from . import bots as bot_module
from .rules import (
    DEFAULT_TARGET,
    MAX_PLAYERS,
    MIDDLE_SIZE,
    MIN_PLAYERS,
    MOOD_KEYS,
    REMOVED_WITH_TWO,
    STACK_SIZE,
    TARGETS,
    best_count,
    caller_right,
    deck,
    is_finished,
    mood_of,
    round_points,
    stacks_per_player,
    winners,
)

REVEAL = "reveal"  # the round's stacks are shown; the seats confirm before the next deal

FIRST_DEALER = 0  # seat 0 (the host) deals the first round
DEFAULT_ROUND_SECONDS = 300.0  # a round nobody calls ends after five minutes
ACTIONS = ("take", "swap", "put_back", "stop", "give_up", "continue")

TOO_LATE = "Zu spät – die Karte hat gerade jemand genommen."
# The same swap sent twice (a double click, a request repeated): the first one took the card.
ALREADY_SWAPPED = "Zu spät – diese Karte hast du dir gerade schon geholt."
OWN_STACKS = "Getauscht wird nur mit der Mitte – nie zwischen deinen eigenen Stapeln."
CHOOSE_FIRST = "Wähle zuerst eine Karte aus deiner Hand, dann die Karte aus der Mitte."


# --- Creating and dealing ------------------------------------------------------


def new_game(seed: int, players: int, options: dict | None = None, *, now: float = 0.0) -> dict:
    """A fresh game with the first round dealt at ``now``.

    ``options``: ``names``; ``target`` (20, or 12 for the short game);
    ``round_seconds`` (round timer, default 300; ``None`` or 0: no timer);
    ``removed`` (two players: the four moods the host takes out, else chance);
    ``bots`` (``{seat: "gemuetlich" | "normal" | "flink"}``); ``cheater``
    (bot seats that play „Schummelkatze“); ``bots_version`` (default: the
    newest bots; 1 replays games dealt before them).
    """
    options = dict(options or {})
    base.check_players(players, MIN_PLAYERS, MAX_PLAYERS, "The Cat")
    target = options.get("target", DEFAULT_TARGET)
    if target not in TARGETS:
        raise ValueError("Gespielt wird bis 20 Punkte oder – kurz – bis 12.")
    names = base.seat_names(options, players)
    round_seconds = options.get("round_seconds", DEFAULT_ROUND_SECONDS)
    if round_seconds is not None and (
        not isinstance(round_seconds, int | float) or round_seconds < 0
    ):
        raise ValueError("Die Rundenzeit muss eine Zahl von Sekunden sein.")
    removed = options.get("removed")
    if removed in (None, "zufall"):
        removed = None
    else:
        if (
            not isinstance(removed, list | tuple)
            or len(set(removed)) != REMOVED_WITH_TWO
            or len(removed) != REMOVED_WITH_TWO
            or not set(removed) <= set(MOOD_KEYS)
        ):
            raise ValueError("Zu zweit kommen genau vier verschiedene Launen aus dem Spiel.")
        removed = [key for key in MOOD_KEYS if key in removed]
    bot_seats: list[str | None] = [None] * players
    for key, speed in (options.get("bots") or {}).items():
        seat = int(key)
        if not 0 <= seat < players:
            raise ValueError("Diesen Platz gibt es nicht.")
        bot_seats[seat] = bot_module.normalise_speed(speed)
    cheaters = [False] * players
    for key in options.get("cheater") or []:
        seat = int(key)
        if not 0 <= seat < players or bot_seats[seat] is None:
            raise ValueError("Schummeln kann nur eine Bot-Katze.")
        cheaters[seat] = True
    bots_version = options.get("bots_version", bot_module.BOTS_VERSION)
    if bots_version not in bot_module.BOTS_VERSIONS:
        raise ValueError("Diese Bots gibt es nicht.")
    now = float(now)
    state = base.round_state(
        "the_cat",
        seed,
        names,
        target=target,
        round_seconds=float(round_seconds) if round_seconds else None,
        removed_choice=removed,
        removed=None,
        bots=bot_seats,
        cheaters=cheaters,
        bots_version=bots_version,
        dealer=FIRST_DEALER,
        in_round=[False] * players,
        stacks=[[] for _ in range(players)],
        middle=[],
        held=[None] * players,
        last_put=[None] * players,
        seen=[[] for _ in range(players)],
        progress=[0] * players,
        since_gain=[0] * players,
        plans=[None] * players,
        last_swap=[None] * players,
        gave_up=[False] * players,
        ready=[False] * players,
        now=now,
        round_started=now,
        deadline=None,
        bot_steps=[0] * players,
        bot_due=[None] * players,
        scores=[0] * players,
    )
    _deal(state, [], now)
    return state


def _deal(state: dict, events: list, now: float) -> None:
    n = state["players"]
    seats = [seat for seat in range(n) if not state["left"][seat]]
    k = stacks_per_player(len(seats))
    state["round"] += 1
    removed: list[str] = []
    if len(seats) == 2:
        if state["removed"] is None:  # chosen once, for the rest of the game
            choice = state["removed_choice"]
            if choice is None:
                rng = random.Random(f"the_cat:{state['seed']}:removed")
                choice = sorted(rng.sample(MOOD_KEYS, REMOVED_WITH_TWO), key=MOOD_KEYS.index)
            state["removed"] = list(choice)
        removed = state["removed"]
    cards = deck(removed)
    random.Random(f"the_cat:{state['seed']}:deal:{state['round']}").shuffle(cards)
    stacks: list[list[list[str]]] = [[] for _ in range(n)]
    position = 0
    for seat in seats:
        for _ in range(k):
            stacks[seat].append(cards[position : position + STACK_SIZE])
            position += STACK_SIZE
    state["stacks"] = stacks
    state["middle"] = cards[position : position + MIDDLE_SIZE]
    assert position + MIDDLE_SIZE == len(cards)
    state["in_round"] = [not gone for gone in state["left"]]
    state["held"] = [None] * n
    state["last_put"] = [None] * n
    state["seen"] = [[False] * len(stacks[seat]) for seat in range(n)]
    state["progress"] = [sum(best_count(stack) for stack in own) for own in stacks]
    state["since_gain"] = [0] * n
    if "plans" in state:  # states of games dealt before the planning bots have none
        state["plans"] = [None] * n
        state["last_swap"] = [None] * n
    state["gave_up"] = [False] * n
    state["ready"] = [False] * n
    state["phase"] = PLAY
    state["round_result"] = None
    state["round_started"] = now
    state["deadline"] = now + state["round_seconds"] if state["round_seconds"] else None
    state["bot_steps"] = [0] * n
    state["bot_due"] = [
        now + _bot_delay(state, seat, 0, "deal")
        if state["bots"][seat] and state["in_round"][seat]
        else None
        for seat in range(n)
    ]
    events.append(
        {
            "type": "deal",
            "round": state["round"],
            "dealer": state["dealer"],
            "middle": list(state["middle"]),
            "stacks": [len(own) for own in stacks],
            "at": now,
        }
    )


def _bot_delay(state: dict, seat: int, step: int, after: str) -> float:
    """The wait before a bot step; the first bots keep their even pace."""
    pace = after if state.get("bots_version", 1) >= 2 else None
    return bot_module.step_delay(
        state["seed"], state["round"], seat, step, state["bots"][seat], pace
    )


def arranged(
    players: int,
    stacks: list[list[list[str] | None]],
    middle: list[str] | None = None,
    options: dict | None = None,
    *,
    scores: list[int] | None = None,
    now: float = 0.0,
) -> dict:
    """A first round dealt in a given position (tests and the article's examples).

    ``stacks[seat]`` lists the seat's stacks as four mood keys each, or ``None`` for
    a stack filled from the remaining cards; ``middle`` likewise (``None``: filled).
    Cards get their copies in order, so every physical card still exists exactly
    once. Filled stacks take the rest in an order that never repeats a mood in a
    row. With two players the removed moods are ``options["removed"]`` or the
    last four moods the position does not use. ``scores`` are the totals before.
    """
    options = dict(options or {})
    options.setdefault("round_seconds", None)
    used = {mood for own in stacks for stack in own if stack for mood in stack}
    used |= set(middle or [])
    if players == 2 and not options.get("removed"):
        free = [key for key in MOOD_KEYS if key not in used]
        options["removed"] = free[-REMOVED_WITH_TWO:]
    state = new_game(0, players, options, now=now)
    removed = state["removed"] or []
    if len(stacks) != players or any(
        len(own) != len(state["stacks"][seat]) for seat, own in enumerate(stacks)
    ):
        raise ValueError("Die Stapel passen nicht zur Zahl der Spieler.")
    pool = {key: [f"{key}-{copy}" for copy in range(1, 5)] for key in MOOD_KEYS}
    for key in removed:
        if key in used:
            raise ValueError(f"Die Laune „{key}“ ist zu zweit aus dem Spiel.")
        pool[key] = []

    def take(mood: str) -> str:
        if not pool.get(mood):
            raise ValueError(f"Von der Laune „{mood}“ gibt es nur vier Karten.")
        return pool[mood].pop(0)

    placed = [[[take(m) for m in stack] if stack else None for stack in own] for own in stacks]
    middle_cards = [take(m) for m in middle] if middle else None
    rest = sorted(
        (card for cards in pool.values() for card in cards),
        key=lambda card: (card.rsplit("-", 1)[1], MOOD_KEYS.index(mood_of(card))),
    )
    for own in placed:
        for i, stack in enumerate(own):
            if stack is None:
                own[i], rest = rest[:STACK_SIZE], rest[STACK_SIZE:]
    if middle_cards is None:
        middle_cards, rest = rest[:MIDDLE_SIZE], rest[MIDDLE_SIZE:]
    if rest or len(middle_cards) != MIDDLE_SIZE:
        raise ValueError("Die Lage verteilt nicht genau alle Karten.")
    state["stacks"] = placed
    state["middle"] = middle_cards
    state["progress"] = [sum(best_count(stack) for stack in own) for own in placed]
    if scores is not None:
        state["scores"] = list(scores)
    return state


# --- Queries -------------------------------------------------------------------


def _is_bot(state: dict, seat: int) -> bool:
    return state["bots"][seat] is not None


def _playing(state: dict, seat: int) -> bool:
    return state["in_round"][seat] and not state["left"][seat]


def to_act(state: dict) -> list[int]:
    """Every seat that may act now: in play all seats at the table at once; in the
    reveal those who have not confirmed yet."""
    if state["phase"] == PLAY:
        return [seat for seat in range(state["players"]) if _playing(state, seat)]
    if state["phase"] == REVEAL:
        return base.unconfirmed(state, "ready")
    return []


def legal_actions(state: dict, seat: int) -> list[dict]:
    if seat not in to_act(state):
        return []
    if state["phase"] == REVEAL:
        return [{"type": "continue"}]
    held = state["held"][seat]
    actions: list[dict] = []
    if held is None:
        actions += [{"type": "take", "stack": i} for i in range(len(state["stacks"][seat]))]
    else:
        actions += [
            {"type": "swap", "give": give, "want": want}
            for give in state["stacks"][seat][held]
            for want in state["middle"]
        ]
        actions.append({"type": "put_back"})
    actions.append({"type": "stop"})
    if not state["gave_up"][seat]:
        actions.append({"type": "give_up"})
    return actions


def next_due(state: dict) -> float | None:
    """The game time of the next thing the engine does by itself (a bot step or
    the round deadline), ``None`` if nothing is scheduled. The site calls
    ``advance(state, next_due(state))`` when that time comes."""
    if state["phase"] != PLAY:
        return None
    times = [due for due in state["bot_due"] if due is not None]
    if state["deadline"] is not None:
        times.append(state["deadline"])
    return min(times, default=None)


# --- Time ------------------------------------------------------------------------


def advance(state: dict, now: float) -> tuple[dict, list[dict]]:
    """Let game time run up to ``now``: every bot step due by then happens in
    time order (ties by seat), and a round deadline reached ends the round.
    Returns ``(new_state, events)``; the input state is not changed."""
    new = base.clone(state)
    events: list[dict] = []
    _advance(new, now, events)
    return new, events


def _advance(state: dict, now: float | None, events: list) -> None:
    if now is None:
        return
    now = float(now)
    while state["phase"] == PLAY:
        due = [(t, seat) for seat, t in enumerate(state["bot_due"]) if t is not None]
        bot = min(due) if due else None
        deadline = state["deadline"]
        if deadline is not None and deadline <= now and (bot is None or deadline <= bot[0]):
            state["now"] = max(state["now"], deadline)
            _end_round(state, None, "time", events)
            continue
        if bot is None or bot[0] > now:
            break
        state["now"] = max(state["now"], bot[0])
        _bot_step(state, bot[1], events)
    state["now"] = max(state["now"], now)


def _bot_step(state: dict, seat: int, events: list) -> None:
    step = state["bot_steps"][seat]
    rng = bot_module.step_rng(state["seed"], state["round"], seat, step)
    if state.get("bots_version", 1) >= 2:
        action, reason = bot_module.bot_choice(bot_view(state, seat), rng)
        # The plan is the bot's memory (its stacks' target moods), not part of the
        # reason kept with the public move.
        state["plans"][seat] = reason.pop("plan", None)
    else:
        action = bot_module.legacy_action(bot_view(state, seat), rng)
        reason = None  # the first bots gave no reasons: their games replay unchanged
    state["bot_steps"][seat] = step + 1
    round_ = state["round"]
    if action is not None:
        try:
            _check(state, seat, action)
        except IllegalAction:
            action = None  # cannot happen with a sound bot; a lost step at worst
    if action is not None:
        first = len(events)
        _act(state, seat, action, events)
        if reason is not None and len(events) > first:  # the site keeps it (``why``)
            events[first]["why"] = reason
    if state["phase"] == PLAY and state["round"] == round_:
        _note_progress(state, seat)
        pace = bot_module.pace_of(action)
        state["bot_due"][seat] = state["now"] + _bot_delay(state, seat, step + 1, pace)


def _note_progress(state: dict, seat: int) -> None:
    progress = sum(best_count(stack) for stack in state["stacks"][seat])
    if progress > state["progress"][seat]:
        state["progress"][seat] = progress
        state["since_gain"][seat] = 0
    else:
        state["since_gain"][seat] += 1


# --- Applying actions --------------------------------------------------------------


def apply(
    state: dict, seat: int, action: dict, now: float | None = None
) -> tuple[dict, list[dict]]:
    """Apply ``seat``'s action at game time ``now`` (default: the state's time).
    Bots first act up to ``now``; then the action is checked against the state as
    it is at that moment. Returns ``(new_state, events)`` – the bot steps' events
    first. Raises ``IllegalAction`` (German message); the input state is never
    changed, and a later ``advance`` replays the same bot steps."""
    base.check_seat(state, seat)
    new = base.clone(state)
    events: list[dict] = []
    _advance(new, now, events)
    _check(new, seat, action)
    _act(new, seat, action, events)
    if new["phase"] == PLAY and not _is_bot(new, seat):
        _note_progress(new, seat)
    return new, events


def try_apply(
    state: dict, seat: int, action: dict, now: float | None = None
) -> tuple[dict, list[dict], str | None]:
    """Like ``apply``, but a refused action still lets the bots' steps up to
    ``now`` happen: returns ``(new_state, events, None)``, or ``(advanced_state,
    bot_events, German message)`` when the action was refused. What a server
    wants for a click that arrives after a bot took the card."""
    base.check_seat(state, seat)
    new = base.clone(state)
    events: list[dict] = []
    _advance(new, now, events)
    try:
        _check(new, seat, action)
    except IllegalAction as refused:
        return new, events, str(refused)
    _act(new, seat, action, events)
    if new["phase"] == PLAY and not _is_bot(new, seat):
        _note_progress(new, seat)
    return new, events, None


def _check(state: dict, seat: int, action: dict) -> None:
    """Raise ``IllegalAction`` unless ``seat`` may do ``action`` now."""
    kind = base.action_type(action)
    if kind not in ACTIONS:
        raise IllegalAction(f"Unbekannte Aktion „{kind}“.")
    phase = state["phase"]
    if kind == "stop" and _round_called(state):
        raise IllegalAction(_stop_too_late(state, seat))
    if phase == OVER:
        raise IllegalAction("Die Partie ist vorbei.")
    if state["left"][seat]:
        raise IllegalAction("Du hast den Raum verlassen.")
    if phase == REVEAL:
        if kind != "continue":
            raise IllegalAction("Die Runde ist vorbei – gleich wird neu ausgeteilt.")
        if state["ready"][seat]:
            raise IllegalAction("Du bist schon bereit für die nächste Runde.")
        return
    if kind == "continue":
        raise IllegalAction("Die Runde läuft noch.")
    if not state["in_round"][seat]:
        raise IllegalAction("Du spielst in dieser Runde nicht mit.")
    held = state["held"][seat]
    own = state["stacks"][seat]
    if kind == "take":
        index = action.get("stack")
        if held is not None:
            raise IllegalAction("Du hältst schon einen Stapel – leg ihn erst verdeckt zurück.")
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(own):
            raise IllegalAction("Diesen Stapel hast du nicht.")
    elif kind == "put_back":
        if held is None:
            raise IllegalAction("Du hältst gerade keinen Stapel.")
    elif kind == "swap":
        if held is None:
            raise IllegalAction("Nimm erst einen deiner Stapel auf, dann kannst du tauschen.")
        give, want = action.get("give"), action.get("want")
        if not give:
            raise IllegalAction(CHOOSE_FIRST)
        others = [card for i, stack in enumerate(own) if i != held for card in stack]
        if give not in own[held]:
            if give in others:
                raise IllegalAction(OWN_STACKS)
            if want in own[held] and give in state["middle"]:
                raise IllegalAction(ALREADY_SWAPPED)
            raise IllegalAction("Diese Karte hast du nicht auf der Hand.")
        if want not in state["middle"]:
            if want in own[held]:
                raise IllegalAction("Diese Karte hast du schon auf der Hand.")
            if want in others:
                raise IllegalAction(OWN_STACKS)
            if not isinstance(want, str) or mood_of(want) not in MOOD_KEYS:
                raise IllegalAction(f"Unbekannte Karte „{want}“.")
            raise IllegalAction(TOO_LATE)
    elif kind == "give_up" and state["gave_up"][seat]:
        raise IllegalAction("Du hast schon dafür gestimmt, die Runde zu beenden.")


def _round_called(state: dict) -> bool:
    """The current round has ended (by „Stopp!“, time or votes); the reveal is on."""
    result = state["round_result"]
    return state["phase"] != PLAY and bool(result) and result["round"] == state["round"]


def _stop_too_late(state: dict, seat: int) -> str:
    """A „Stopp!“ that arrives after the round ended: who was first."""
    if state["phase"] == OVER:
        return "Zu spät – die Partie ist vorbei."
    caller = state["round_result"]["caller"]
    if caller is None:
        return "Zu spät – die Runde ist schon vorbei."
    if caller == seat:
        return "Zu spät – du hast schon „Stopp!“ gerufen."
    return f"Zu spät – {state['names'][caller]} hat schon „Stopp!“ gerufen."


def _act(state: dict, seat: int, action: dict, events: list) -> None:
    """Carry out a checked action."""
    kind = action["type"]
    at = state["now"]
    if kind == "continue":
        state["ready"][seat] = True
        events.append({"type": "continue", "seat": seat, "at": at})
        if not to_act(state):
            _next_round(state, events)
    elif kind == "take":
        index = action["stack"]
        state["held"][seat] = index
        state["seen"][seat][index] = True
        events.append({"type": "take", "seat": seat, "stack": index, "at": at})
    elif kind == "put_back":
        index = state["held"][seat]
        state["held"][seat] = None
        state["last_put"][seat] = index
        events.append({"type": "put_back", "seat": seat, "stack": index, "at": at})
    elif kind == "swap":
        index = state["held"][seat]
        hand = state["stacks"][seat][index]
        give, want = action["give"], action["want"]
        slot = state["middle"].index(want)
        # One atomic step: the own card goes into the middle, the wanted card
        # takes its place in the hand; four cards everywhere before and after.
        state["middle"][slot] = give
        hand[hand.index(give)] = want
        if "last_swap" in state:
            state["last_swap"][seat] = {"stack": index, "gave": give, "took": want}
        events.append(
            {
                "type": "swap",
                "seat": seat,
                "stack": index,
                "gave": give,
                "took": want,
                "slot": slot,
                "at": at,
            }
        )
    elif kind == "stop":
        put_down = state["held"][seat]
        if put_down is not None:  # the held stack is put down first and counts as it is
            state["held"][seat] = None
            state["last_put"][seat] = put_down
        events.append({"type": "stop", "seat": seat, "put_down": put_down, "at": at})
        _end_round(state, seat, "stop", events)
    elif kind == "give_up":
        state["gave_up"][seat] = True
        events.append({"type": "give_up", "seat": seat, "at": at})
        humans = [s for s in to_act(state) if not _is_bot(state, s)]
        if all(state["gave_up"][s] for s in humans):
            _end_round(state, None, "given_up", events)


# --- Round end and scoring -----------------------------------------------------------


def _end_round(state: dict, caller: int | None, reason: str, events: list) -> None:
    n = state["players"]
    at = state["now"]
    state["held"] = [None] * n
    scoring = [state["stacks"][s] if _playing(state, s) else [] for s in range(n)]
    points = round_points(scoring, caller)
    right = caller_right(state["stacks"][caller]) if caller is not None else None
    sheet: list[int | None] = []
    rows = []
    for seat in range(n):
        scored = _playing(state, seat)
        state["scores"][seat] += points[seat] if scored else 0
        sheet.append(points[seat] if scored else None)
        own = state["stacks"][seat]
        rows.append(
            {
                "seat": seat,
                "in_round": state["in_round"][seat],
                "stacks": [
                    {
                        "cards": list(stack),
                        "finished": is_finished(stack),
                        "mood": mood_of(stack[0]) if is_finished(stack) else None,
                    }
                    for stack in own
                ],
                "finished": sum(is_finished(stack) for stack in own),
                "caller": seat == caller,
                "points": points[seat] if scored else 0,
                "total": state["scores"][seat],
            }
        )
    state["score_sheet"].append(sheet)
    state["round_result"] = {
        "round": state["round"],
        "reason": reason,
        "caller": caller,
        "caller_right": right,
        "middle": list(state["middle"]),
        # Two players: the moods that were out of this round, public from now on.
        "removed": list(state["removed"]) if sum(state["in_round"]) == 2 else None,
        "rows": rows,
    }
    state["phase"] = REVEAL
    state["deadline"] = None
    state["bot_due"] = [None] * n
    # Bots are ready at once; seats that left never hold anything up.
    state["ready"] = [state["left"][s] or _is_bot(state, s) for s in range(n)]
    if caller is not None:
        state["dealer"] = caller  # the caller deals next
    events.append(
        {
            "type": "round_end",
            "round": state["round"],
            "reason": reason,
            "caller": caller,
            "caller_right": right,
            "points": [p if p is not None else 0 for p in sheet],
            "totals": list(state["scores"]),
            "at": at,
        }
    )
    remaining = [s for s in range(n) if not state["left"][s]]
    if len(remaining) < MIN_PLAYERS:
        _finish(state, "abandoned", events)
    elif any(state["scores"][s] >= state["target"] for s in remaining):
        _finish(state, "target", events)
    elif not to_act(state):
        _next_round(state, events)


def _next_round(state: dict, events: list) -> None:
    if state["left"][state["dealer"]]:
        n = state["players"]
        state["dealer"] = next(
            (state["dealer"] + step) % n
            for step in range(1, n + 1)
            if not state["left"][(state["dealer"] + step) % n]
        )
    _deal(state, events, state["now"])


def _finish(state: dict, reason: str, events: list) -> None:
    eligible = [not gone for gone in state["left"]]
    won = winners(state["scores"], eligible)
    state["phase"] = OVER
    state["deadline"] = None
    state["bot_due"] = [None] * state["players"]
    state["outcome"] = {"winners": won, "points": list(state["scores"]), "reason": reason}
    events.append(
        {
            "type": "game_over",
            "reason": reason,
            "winners": won,
            "points": list(state["scores"]),
            "at": state["now"],
        }
    )


# --- Site hooks: timeouts, leaving ---------------------------------------------------


def timeout(state: dict, now: float | None = None) -> tuple[dict, list[dict]]:
    """The site's timer fired. In play: the round ends without a caller (everyone
    scores their finished stacks), after the bots acted up to ``now`` (default:
    the round deadline, else the state's time). In the reveal: the next round is
    dealt without the missing confirmations. A no-op once the game is over."""
    new = base.clone(state)
    events: list[dict] = []
    if state["phase"] == PLAY:
        if now is None:
            now = state["deadline"] if state["deadline"] is not None else state["now"]
        round_ = new["round"]
        _advance(new, now, events)
        if new["phase"] == PLAY and new["round"] == round_:
            _end_round(new, None, "time", events)
    elif state["phase"] == REVEAL:
        _advance(new, now, events)
        events.append({"type": "continue_forced", "at": new["now"]})
        _next_round(new, events)
    return new, events


def remove_player(state: dict, seat: int, now: float | None = None) -> tuple[dict, list[dict]]:
    """„Raum verlassen“ at ``now``: the seat is out for the rest of the game and can
    no longer win. A running round ends at once without a caller (the others score
    their finished stacks; the leaver's cards are stuck face down, so the others
    could not finish anyway), and the next round is dealt for those who stay. With
    fewer than two players left the game ends with the current standings."""
    base.check_leaving(state, seat)
    new = base.clone(state)
    events: list[dict] = []
    _advance(new, now, events)
    if new["phase"] == OVER:
        return new, events
    new["left"][seat] = True
    new["bot_due"][seat] = None
    events.append({"type": "leave", "seat": seat, "at": new["now"]})
    if new["phase"] == PLAY and new["in_round"][seat]:
        _end_round(new, None, "left", events)
    elif new["phase"] == REVEAL:
        remaining = [s for s in range(new["players"]) if not new["left"][s]]
        if len(remaining) < MIN_PLAYERS:
            _finish(new, "abandoned", events)
        elif not to_act(new):
            _next_round(new, events)
    return new, events


# --- Views -------------------------------------------------------------------------


def view(state: dict, seat: int | None) -> dict:
    """What ``seat`` may see (``None``: a spectator). In play: the open middle, the
    own held stack's four cards, and for every seat only how many stacks it has
    and whether it holds one. Removed moods and all stacks appear only in the
    reveal (``round_result``) once a round has ended."""
    table = base.round_view(state, seat)
    phase = state["phase"]
    held = state["held"][seat] if seat is not None else None
    ended = phase in (REVEAL, OVER)
    return {
        **table,
        "target": state["target"],
        "now": state["now"],
        "round_started": state["round_started"],
        "deadline": state["deadline"],
        "middle": list(state["middle"]),
        "held": held,
        "hand": list(state["stacks"][seat][held]) if held is not None else None,
        "my_stacks": len(state["stacks"][seat]) if seat is not None else 0,
        "gave_up": state["gave_up"][seat] if seat is not None else False,
        "seats": [
            {
                "seat": s,
                "name": state["names"][s],
                "stacks": len(state["stacks"][s]),
                "holding": state["held"][s] is not None,
                "in_round": state["in_round"][s],
                "left": state["left"][s],
                "bot": state["bots"][s],
                "cheater": state["cheaters"][s],
                "gave_up": state["gave_up"][s],
                "ready": state["ready"][s],
                "points": state["scores"][s],
            }
            for s in range(state["players"])
        ],
        "to_act": to_act(state),
        "scores": list(state["scores"]),
        "score_sheet": [list(row) for row in state["score_sheet"]],
        "round_result": base.clone(state["round_result"])
        if ended and state["round_result"]
        else None,
        # Chance keeps the removed moods secret until a reveal; a host's choice is public.
        "removed": (
            list(state["removed"])
            if state["removed"] and (ended or state["removed_choice"])
            else None
        ),
        "legal_actions": [] if seat is None else legal_actions(state, seat),
        "outcome": outcome(state),
    }


def bot_view(state: dict, seat: int) -> dict:
    """``view`` plus what the seat itself remembers: the cards of every own stack it
    has looked at this round (own stacks only change in their owner's hand, so
    memory is exact), the stack it put down last, and how many of its own steps
    passed since its stacks last improved, its plan (target mood per stack) and its
    last swap. A human at the table knows the same."""
    result = view(state, seat)
    result["remembered"] = [
        list(stack) if state["seen"][seat][i] else None
        for i, stack in enumerate(state["stacks"][seat])
    ]
    result["last_put"] = state["last_put"][seat]
    result["since_gain"] = state["since_gain"][seat]
    result["speed"] = state["bots"][seat]
    result["cheater"] = state["cheaters"][seat]
    plans, swaps = state.get("plans"), state.get("last_swap")
    result["plan"] = base.clone(plans[seat]) if plans and plans[seat] else None
    result["last_swap"] = dict(swaps[seat]) if swaps and swaps[seat] else None
    return result


# --- Replay ------------------------------------------------------------------------


_replay = base.replayer(new_game, apply, advance, timeout, remove_player)


def replay(
    seed: int, players: int, options: dict | None, log: list[dict], *, start: float = 0.0
) -> dict:
    """Rebuild a game from its seed and log, dealt at game time ``start``. Entries
    (see ``base.replayer``): ``{"seat", "action", "now"}`` for ``apply``, or
    ``{"op": "advance", "now"}``, ``{"op": "timeout", "now"}``,
    ``{"op": "remove_player", "seat", "now"}`` for the site hooks."""
    return _replay(seed, players, options, log, now=start)


def card_counts(state: dict) -> dict[str, int]:
    """How many cards lie where (for invariant checks): stacks and middle."""
    in_stacks = sum(len(stack) for own in state["stacks"] for stack in own)
    return {
        "stacks": in_stacks,
        "middle": len(state["middle"]),
        "total": in_stacks + len(state["middle"]),
    }
