"""The protocol shared by all turn-based engines, and the pieces they share.

State is plain JSON-serialisable data (dicts, lists, str, int, bool, None).
Randomness only ever comes from ``random.Random(seed)``; a game is replayed
exactly from its seed and action log (``replayer``).

An engine module exposes:

``new_game(seed: int, players: int, options: dict | None = None) -> dict``
    A fresh state. Seats are numbered 0..players-1.
``legal_actions(state: dict, seat: int) -> list[dict]``
    The actions the seat may take now (empty when it is not their turn).
``apply(state: dict, seat: int, action: dict) -> tuple[dict, list[dict]]``
    Returns a new state and the events the UI animates. The input state is
    never mutated. An illegal action raises ``IllegalAction`` with a German
    message.
``view(state: dict, seat: int | None) -> dict``
    What ``seat`` may see (``None``: a spectator). Hidden cards are removed,
    not merely flagged.
``outcome(state: dict) -> dict | None``
    ``None`` while the game runs, else a dict describing the result.
``to_act(state: dict) -> list[int]``
    The seats whose decision the game waits for.

Events are codes with data – dicts with a ``type`` key, e.g. ``{"type":
"fish", "seat": 0, "count": 4}`` – and carry no wording: each game's
presenter (``games/play/<key>/``) words them in German for the viewer
(„Geangelt! Du nimmst 4 Karten“). Only ``IllegalAction`` messages are
German in the engine.

The helpers below are what several engines do alike: copying and checking
state, the seats' names, the wait after a scored round (every seat still at
the table confirms with ``continue``, or the site's timer skips the wait),
and the bots' baseline moves.
"""

from __future__ import annotations

import marshal
import random
from collections.abc import Callable

# The phases of a game dealt in rounds; an engine may name more (or others).
PLAY = "play"
SCORING = "scoring"  # a round is scored; the seats confirm before the next deal
OVER = "over"

CONTINUE = {"type": "continue"}


class IllegalAction(ValueError):
    """An action the rules do not allow. ``str(error)`` is German."""


# --- State ---------------------------------------------------------------------------


def clone(state: dict) -> dict:
    """A deep copy of plain JSON-like data."""
    # A marshal round-trip is a fast deep copy for such data.
    return marshal.loads(marshal.dumps(state))


def round_state(game: str, seed: int, names: list[str], **entries) -> dict:
    """A new state of a game dealt in rounds, before its first deal: the entries
    every such engine keeps, then the game's own ``entries`` (which may
    override them, e.g. a fixed first ``dealer``)."""
    players = len(names)
    return {
        "game": game,
        "version": 1,
        "seed": seed,
        "players": players,
        "names": names,
        "phase": PLAY,
        "round": 0,
        "dealer": None,
        "left": [False] * players,  # left the room: out for the rest of the game
        "round_result": None,
        "score_sheet": [],
        "outcome": None,
        **entries,
    }


def check_players(players, minimum: int, maximum: int, title: str) -> None:
    """``ValueError`` unless ``players`` is a whole number the game allows
    (``title``: the game's German name, for the message)."""
    if not isinstance(players, int) or not minimum <= players <= maximum:
        raise ValueError(f"{title} braucht {minimum} bis {maximum} Spieler.")


def seat_names(options: dict, players: int) -> list[str]:
    """One display name per seat from ``options["names"]`` (default „Spieler 1“ …)."""
    names = options.get("names") or [f"Spieler {seat + 1}" for seat in range(players)]
    if len(names) != players or not all(isinstance(name, str) for name in names):
        raise ValueError("Für jeden Platz braucht es genau einen Namen.")
    return list(names)


def check_seat(state: dict, seat) -> None:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state["players"]:
        raise IllegalAction("Diesen Platz gibt es nicht.")


def action_type(action) -> str:
    """The ``type`` of an action; ``IllegalAction`` for anything that is no action."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("Ungültige Aktion.")
    return action["type"]


def stored_outcome(state: dict) -> dict | None:
    """``outcome`` of an engine that keeps the result in ``state["outcome"]``."""
    result = state["outcome"]
    return None if result is None else clone(result)


def next_seat(seat: int, n: int, wanted: Callable[[int], bool]) -> int | None:
    """The first seat after ``seat`` (clockwise, ending with ``seat`` itself)
    for which ``wanted(seat)`` holds."""
    for step in range(1, n + 1):
        candidate = (seat + step) % n
        if wanted(candidate):
            return candidate
    return None


def next_deal(state: dict, first_dealer: int, playing: Callable[[int], bool]) -> int:
    """Count the next round and pass the deal on: ``first_dealer`` deals the
    first round, then each time the next seat still ``playing``. Returns the dealer."""
    state["round"] += 1
    if state["dealer"] is None:
        state["dealer"] = first_dealer
    else:
        state["dealer"] = next_seat(state["dealer"], state["players"], playing)
    return state["dealer"]


def round_view(state: dict, seat: int | None) -> dict:
    """The first entries of a round-based engine's ``view``: who looks, the
    names, the phase, the round and its dealer."""
    if seat is not None:
        check_seat(state, seat)
    return {
        "game": state["game"],
        "seat": seat,
        "names": list(state["names"]),
        "phase": state["phase"],
        "round": state["round"],
        "dealer": state["dealer"],
    }


def turn_view(state: dict, seat: int | None) -> dict:
    """``round_view`` of a game taking turns with hidden hands, plus whose turn
    it is, the seats awaited and the seat's own hand."""
    return {
        **round_view(state, seat),
        "turn": state["turn"],
        "to_act": to_act_in_turns(state),
        "hand": None if seat is None else list(state["hands"][seat]),
    }


def check_leaving(state: dict, seat) -> None:
    """What ``remove_player`` („Raum verlassen“) refuses: no such seat, or a seat
    that has left already."""
    check_seat(state, seat)
    if state["left"][seat]:
        raise IllegalAction("Dieser Platz hat den Raum schon verlassen.")


# --- The wait after a scored round ------------------------------------------------------


def to_act_in_turns(state: dict) -> list[int]:
    """``to_act`` of a game taking turns: the seat on turn during play, in the
    scoring wait every seat that has not confirmed yet."""
    if state["phase"] == PLAY:
        return [state["turn"]]
    if state["phase"] == SCORING:
        return unconfirmed(state)
    return []


def unconfirmed(state: dict, flag: str = "confirmed") -> list[int]:
    """The seats still at the table whose ``state[flag]`` is not set yet."""
    return [
        seat
        for seat in range(state["players"])
        if not state["left"][seat] and not state[flag][seat]
    ]


def confirm(state: dict, seat: int, deal: Callable[[dict, list], None]) -> tuple[dict, list[dict]]:
    """``seat`` confirms the scored round („Weiter“); the last confirmation
    deals the next round (``deal(new_state, events)``)."""
    if state["left"][seat]:
        raise IllegalAction("Du hast den Raum verlassen.")
    if state["confirmed"][seat]:
        raise IllegalAction("Du hast die Wertung schon bestätigt.")
    new = clone(state)
    new["confirmed"][seat] = True
    events = [{"type": "continue", "seat": seat}]
    if not unconfirmed(new):
        deal(new, events)
    return new, events


def skip_confirmations(state: dict, deal: Callable[[dict, list], None]) -> tuple[dict, list[dict]]:
    """End the scoring wait without the missing confirmations and deal the next
    round. A no-op outside the scoring phase (a timer may race a last click)."""
    new = clone(state)
    if state["phase"] != SCORING:
        return new, []
    events = [{"type": "continue_forced"}]
    deal(new, events)
    return new, events


# --- Replay ------------------------------------------------------------------------


def replayer(new_game: Callable[..., dict], apply: Callable, *site_hooks: Callable):
    """The ``replay`` function of an engine with these functions (each site hook
    is logged under its function's name)."""
    steps = {"apply": apply, **{hook.__name__: hook for hook in site_hooks}}

    def replay(seed: int, players: int, options: dict | None, log: list[dict], **start) -> dict:
        """Rebuild a game from its seed and log; ``start`` goes to ``new_game``.

        A log entry is ``{"seat": s, "action": {...}}`` for ``apply``, or
        ``{"op": name}`` for the site hook of that name (``timeout``,
        ``remove_player`` …), which gets the entry's ``seat`` if it has one. An
        engine that takes the time as an input logs it as ``now``; the call then
        gets it as the keyword ``now``.
        """
        state = new_game(seed, players, options, **start)
        for entry in log:
            op = entry.get("op", "apply")
            if op not in steps:
                raise ValueError(f"Unbekannter Protokolleintrag „{op}“.")
            args = [entry["seat"]] if "seat" in entry else []
            if op == "apply":
                args.append(entry["action"])
            clock = {"now": entry["now"]} if "now" in entry else {}
            state, _ = steps[op](state, *args, **clock)
        return state

    return replay


# --- Bots ------------------------------------------------------------------------------


def bot_continue(view: dict) -> dict:
    """Bots confirm the score table straight away."""
    return dict(CONTINUE)


def bot_routine(view: dict) -> dict | None:
    """The move any bot makes without thinking – „Weiter“ in the scoring wait –
    or ``None`` when it has to decide. ``ValueError`` when it may not act."""
    if not view["legal_actions"]:
        raise ValueError("Der Bot ist nicht am Zug.")
    return bot_continue(view) if view["phase"] == SCORING else None


def random_action(view: dict, rng: random.Random) -> dict | None:
    """A uniformly random legal action (the baseline a bot must beat); ``None``
    when the seat may not act."""
    legal = view["legal_actions"]
    return dict(rng.choice(legal)) if legal else None
