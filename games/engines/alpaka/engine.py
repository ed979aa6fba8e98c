"""The Alpaka game engine (protocol: ``games.engines.base``).

State shape (plain JSON data; cards are ``"1"`` … ``"6"`` and ``"A"``)::

    {
      "game": "alpaka", "version": 1, "seed": int, "players": n,
      "variant": "klassisch" | "englert", "target": 20 | 40 | 60 | 80,
      "names": [str] * n,
      "phase": "play" | "scoring" | "over",
      "round": int,                # 1-based, counts deals
      "dealer": seat, "turn": seat | None,
      "hands": [[card]],           # sorted; kept (and revealed) during scoring
      "draw_pile": [card],         # the top is the last element
      "discard": [card],           # the top is the last element
      "in_round": [bool],          # dealt into the current round
      "quit": [bool],              # out for the current round
      "left": [bool],              # left the room: out for the rest of the game
      "chips": [{"black": b, "white": w}],
      "confirmed": [bool],         # scoring phase: seat pressed „Weiter“
      "round_result": None | {"round", "reason", "seat", "rows": [  # one row per seat
          {"seat", "in_round", "hand", "hand_score", "points", "returned", "chips", "total"}]},
      "score_sheet": [[int | None] * n],  # per round: points paid, −1 for a returned chip
      "outcome": None | {"winners", "points", "reason"},
    }

Phases: ``play`` (``turn`` acts: play/draw/quit) → ``scoring`` (every seat still
in the game sends ``continue``; ``force_continue`` skips the wait) → next
``play`` … → ``over`` once someone reaches the target or fewer than two
players remain.

``view(state, seat)``: ``game, seat, variant, target, names, phase, round,
dealer, turn, to_act, hand`` (own, sorted; ``None`` for spectators), ``seats``
(per seat: ``name, hand_size, in_round, quit, left, confirmed, chips, points``),
``discard_top, discard_size, draw_size, round_result`` (scoring/over: every hand
of the round, public then), ``score_sheet, legal_actions, outcome``.

Events (codes with data; ``games.play.alpaka.presenter`` words them): ``deal`` (round, dealer, seat = starter,
card = open card), ``play`` (seat, card), ``draw`` (seat; never the card),
``quit`` (seat, automatic), ``round_end`` (reason "empty_hand" | "all_quit" |
"stuck", seat), ``score`` (seat, hand_score, points, swapped, chips),
``chip_return`` (seat, chip "white" | "black" | None, points, chips),
``continue`` (seat), ``continue_forced``, ``leave`` (seat), ``game_over``
(reason, winners, points).

Every round is shuffled with ``random.Random(f"alpaka:{seed}:{round}")``, so
the seed plus the action log replays a game exactly (see ``replay``).
"""

from __future__ import annotations

import random

from games.engines import base
from games.engines.base import CONTINUE, OVER, PLAY, SCORING, IllegalAction
from games.engines.base import stored_outcome as outcome
from games.engines.base import to_act_in_turns as to_act

from . import texts
from .rules import (
    CARDS,
    CLASSIC,
    COPIES,
    DEFAULT_TARGET,
    ENGLERT,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TARGETS,
    VARIANTS,
    add_points,
    can_play,
    chip_points,
    hand_score,
    playable_cards,
    return_chip,
    returned_chip,
    sort_cards,
)

FIRST_DEALER = 0  # seat 0 (usually the host) deals first, so seat 1 starts

DRAW = {"type": "draw"}
QUIT = {"type": "quit"}


# --- Creating and dealing ------------------------------------------------------


def new_game(seed: int, players: int, options: dict | None = None) -> dict:
    """A fresh game with the first round dealt.

    ``options``: ``variant`` ("klassisch" | "englert"), ``target`` (20/40/60/80),
    ``names`` (one display name per seat, for the presenter).
    """
    options = dict(options or {})
    base.check_players(players, MIN_PLAYERS, MAX_PLAYERS, "Alpaka")
    variant = options.get("variant", CLASSIC)
    if variant not in VARIANTS:
        raise ValueError(f"Unbekanntes Regelwerk „{variant}“.")
    target = options.get("target", DEFAULT_TARGET)
    if target not in TARGETS:
        raise ValueError("Die Zielpunktzahl muss 20, 40, 60 oder 80 sein.")
    names = base.seat_names(options, players)
    state = base.round_state(
        "alpaka",
        seed,
        names,
        variant=variant,
        target=target,
        turn=None,
        hands=[[] for _ in range(players)],
        draw_pile=[],
        discard=[],
        in_round=[False] * players,
        quit=[False] * players,
        chips=[{"black": 0, "white": 0} for _ in range(players)],
        confirmed=[False] * players,
    )
    _deal(state, [])
    return state


def _deal(state: dict, events: list) -> None:
    n = state["players"]
    left = state["left"]
    dealer = base.next_deal(state, FIRST_DEALER, lambda seat: not left[seat])
    seats = [seat for seat in range(n) if not left[seat]]
    deck = [card for card in CARDS for _ in range(COPIES)]
    random.Random(f"alpaka:{state['seed']}:{state['round']}").shuffle(deck)
    hands: list[list[str]] = [[] for _ in range(n)]
    for index, seat in enumerate(seats):
        hands[seat] = sort_cards(deck[index * HAND_SIZE : (index + 1) * HAND_SIZE])
    rest = deck[len(seats) * HAND_SIZE :]
    state["hands"] = hands
    state["discard"] = [rest.pop()]
    state["draw_pile"] = rest
    state["in_round"] = [not gone for gone in left]
    state["quit"] = [False] * n
    state["confirmed"] = [False] * n
    state["round_result"] = None
    state["phase"] = PLAY
    state["turn"] = base.next_seat(dealer, n, lambda seat: not left[seat])
    events.append(
        {
            "type": "deal",
            "round": state["round"],
            "dealer": dealer,
            "seat": state["turn"],
            "card": state["discard"][-1],
        }
    )


def _active(state: dict, seat: int) -> bool:
    return state["in_round"][seat] and not state["quit"][seat] and not state["left"][seat]


def _active_seats(state: dict) -> list[int]:
    return [seat for seat in range(state["players"]) if _active(state, seat)]


# --- Queries -------------------------------------------------------------------


def _may_draw(state: dict, seat: int) -> bool:
    # Drawing needs cards in the pile and at least one other player still in.
    others = any(_active(state, other) for other in range(state["players"]) if other != seat)
    return bool(state["draw_pile"]) and others


def legal_actions(state: dict, seat: int) -> list[dict]:
    if seat not in to_act(state):
        return []
    if state["phase"] == SCORING:
        return [dict(CONTINUE)]
    top = state["discard"][-1]
    actions = [
        {"type": "play", "card": card}
        for card in playable_cards(state["hands"][seat], top, state["variant"])
    ]
    if _may_draw(state, seat):
        actions.append(dict(DRAW))
    actions.append(dict(QUIT))
    return actions


def points(state: dict) -> list[int]:
    """Every seat's minus points (the chips' value)."""
    return [chip_points(chips) for chips in state["chips"]]


# --- Applying actions --------------------------------------------------------------


def apply(state: dict, seat: int, action: dict) -> tuple[dict, list[dict]]:
    """Apply ``seat``'s action; returns ``(new_state, events)``. Raises
    ``IllegalAction`` (German message) and then leaves ``state`` untouched."""
    base.check_seat(state, seat)
    kind = base.action_type(action)
    phase = state["phase"]
    if phase == OVER:
        raise IllegalAction("Die Partie ist vorbei.")
    if phase == SCORING:
        if kind != "continue":
            raise IllegalAction("Die Runde ist vorbei – bestätige die Wertung mit „Weiter“.")
        return base.confirm(state, seat, _deal)
    if kind == "continue":
        raise IllegalAction("Die Runde läuft noch – bestätigen kannst du erst bei der Wertung.")
    if kind not in ("play", "draw", "quit"):
        raise IllegalAction(f"Unbekannte Aktion „{kind}“.")
    if state["left"][seat]:
        raise IllegalAction("Du hast den Raum verlassen.")
    if state["quit"][seat]:
        raise IllegalAction("Du bist in dieser Runde schon ausgestiegen.")
    if seat != state["turn"]:
        raise IllegalAction("Du bist nicht am Zug.")
    if kind == "play":
        card = action.get("card")
        _check_play(state, seat, card)
        new = base.clone(state)
        return new, _play(new, seat, card)
    if kind == "draw":
        _check_draw(state, seat)
        new = base.clone(state)
        return new, _draw(new, seat)
    new = base.clone(state)
    return new, _quit(new, seat, automatic=False)


def _check_play(state: dict, seat: int, card) -> None:
    if not isinstance(card, str) or card not in CARDS:
        raise IllegalAction(f"Unbekannte Karte „{card}“.")
    if card not in state["hands"][seat]:
        raise IllegalAction("Diese Karte hast du nicht auf der Hand.")
    top = state["discard"][-1]
    if not can_play(card, top, state["variant"]):
        raise IllegalAction(
            f"{texts.card_the(card, capital=True)} passt nicht auf {texts.card_the(top)}."
        )


def _check_draw(state: dict, seat: int) -> None:
    others = any(_active(state, other) for other in range(state["players"]) if other != seat)
    if not others:
        raise IllegalAction("Alle anderen sind ausgestiegen – Ziehen geht nicht mehr.")
    if not state["draw_pile"]:
        raise IllegalAction("Der Nachziehstapel ist leer – Ziehen geht nicht.")


def _play(state: dict, seat: int, card: str) -> list[dict]:
    hand = state["hands"][seat]
    hand.remove(card)
    state["discard"].append(card)
    events = [
        {
            "type": "play",
            "seat": seat,
            "card": card,
        }
    ]
    if not hand:
        _end_round(state, "empty_hand", seat, events)
    else:
        _pass_turn(state, seat, events)
    return events


def _draw(state: dict, seat: int) -> list[dict]:
    # The drawn card is private: the event names no card, the drawer's view shows it.
    card = state["draw_pile"].pop()
    state["hands"][seat] = sort_cards([*state["hands"][seat], card])
    events = [{"type": "draw", "seat": seat}]
    _pass_turn(state, seat, events)
    return events


def _quit(state: dict, seat: int, automatic: bool) -> list[dict]:
    state["quit"][seat] = True
    events = [{"type": "quit", "seat": seat, "automatic": automatic}]
    _pass_turn(state, seat, events)
    return events


def _pass_turn(state: dict, seat: int, events: list) -> None:
    """Hand the turn to the next active seat after ``seat``, or end the round when
    nobody is left or the lone remaining player has nothing that fits."""
    n = state["players"]
    following = base.next_seat(seat, n, lambda other: _active(state, other))
    if following is None:
        _end_round(state, "all_quit", None, events)
        return
    if len(_active_seats(state)) == 1 and not playable_cards(
        state["hands"][following], state["discard"][-1], state["variant"]
    ):
        _end_round(state, "stuck", following, events)
        return
    state["turn"] = following


# --- Round end, scoring, game end ----------------------------------------------


def _end_round(state: dict, reason: str, seat: int | None, events: list) -> None:
    events.append({"type": "round_end", "reason": reason, "seat": seat})

    n = state["players"]
    seats = [s for s in range(n) if state["in_round"][s]]
    scores = {s: hand_score(state["hands"][s]) for s in seats}
    if state["variant"] == ENGLERT:
        # Only the highest hand (ties: all of them) pays.
        highest = max(scores.values())
        payers = {s for s in seats if scores[s] == highest and highest > 0}
    else:
        payers = {s for s in seats if scores[s] > 0}

    rows = []
    sheet: list[int | None] = [None] * n
    for s in range(n):
        row = {
            "seat": s,
            "in_round": s in scores,
            "hand": list(state["hands"][s]) if s in scores else [],
            "hand_score": scores.get(s, 0),
            "points": 0,
            "returned": None,
        }
        if s in scores:
            chips = state["chips"][s]
            if not state["hands"][s]:
                kind = returned_chip(chips)
                state["chips"][s] = return_chip(chips)
                row["returned"] = kind
                row["points"] = -1 if kind else 0
                events.append(_return_event(state, s, kind))
            elif s in payers:
                paid = scores[s]
                state["chips"][s] = add_points(chips, paid)
                row["points"] = paid
                swapped = chips["white"] + paid % 10 >= 10
                events.append(_pay_event(state, s, paid, swapped))
            else:
                events.append(
                    {
                        "type": "score",
                        "seat": s,
                        "hand_score": scores[s],
                        "points": 0,
                        "swapped": False,
                        "chips": dict(chips),
                    }
                )
            sheet[s] = row["points"]
        row["chips"] = dict(state["chips"][s])
        row["total"] = chip_points(state["chips"][s])
        rows.append(row)

    state["round_result"] = {"round": state["round"], "reason": reason, "seat": seat, "rows": rows}
    state["score_sheet"].append(sheet)
    state["phase"] = SCORING
    state["turn"] = None
    state["confirmed"] = [False] * n

    totals = points(state)
    reached = [s for s in range(n) if not state["left"][s] and totals[s] >= state["target"]]
    if reached:
        _finish(state, "target", events)


def _pay_event(state: dict, seat: int, paid: int, swapped: bool) -> dict:
    return {
        "type": "score",
        "seat": seat,
        "hand_score": paid,
        "points": paid,
        "swapped": swapped,
        "chips": dict(state["chips"][seat]),
    }


def _paid_chips(paid: int) -> dict[str, int]:
    return {"black": paid // 10, "white": paid % 10}


def _return_event(state: dict, seat: int, kind: str | None) -> dict:
    return {
        "type": "chip_return",
        "seat": seat,
        "hand_score": 0,
        "points": -1 if kind else 0,
        "chip": kind,
        "chips": dict(state["chips"][seat]),
    }


def _finish(state: dict, reason: str, events: list) -> None:
    totals = points(state)
    remaining = [s for s in range(state["players"]) if not state["left"][s]]
    best = min((totals[s] for s in remaining), default=0)
    winners = [s for s in remaining if totals[s] == best]
    state["phase"] = OVER
    state["turn"] = None
    state["outcome"] = {"winners": winners, "points": totals, "reason": reason}
    events.append({"type": "game_over", "reason": reason, "winners": winners, "points": totals})


# --- Site hooks: timeouts, forced continue, leaving ------------------------------


def timeout(state: dict) -> tuple[dict, list[dict]]:
    """The 90-second rule: the player to act quits the round automatically. In the
    scoring phase this is ``force_continue``. A no-op once the game is over."""
    if state["phase"] == SCORING:
        return force_continue(state)
    new = base.clone(state)
    if state["phase"] != PLAY:
        return new, []
    return new, _quit(new, new["turn"], automatic=True)


def force_continue(state: dict) -> tuple[dict, list[dict]]:
    """The 45-second scoring wait is over: the next round is dealt without the
    missing confirmations (see ``base.skip_confirmations``)."""
    return base.skip_confirmations(state, _deal)


def remove_player(state: dict, seat: int) -> tuple[dict, list[dict]]:
    """„Raum verlassen“: the seat quits now and is out for the rest of the game
    (never dealt again, never a winner). With fewer than two players left the
    game ends with the current standings. A no-op once the game is over."""
    base.check_leaving(state, seat)
    new = base.clone(state)
    if state["phase"] == OVER:
        return new, []
    new["left"][seat] = True
    events = [{"type": "leave", "seat": seat}]
    if sum(not gone for gone in new["left"]) < 2:
        _finish(new, "abandoned", events)
        return new, events
    if new["phase"] == PLAY:
        if new["in_round"][seat]:
            new["quit"][seat] = True  # the hand stays and still scores
        turn = new["turn"]
        # Re-check the turn: it may have been the leaver's, or the one left is stuck.
        if not _active(new, turn) or len(_active_seats(new)) == 1:
            _pass_turn(new, turn, events)
    elif not to_act(new):
        _deal(new, events)
    return new, events


# Rebuilds a game from its seed and log (entries: see ``base.replayer``).
replay = base.replayer(new_game, apply, timeout, force_continue, remove_player)


# --- View ------------------------------------------------------------------------


def view(state: dict, seat: int | None) -> dict:
    """What ``seat`` may see (``None``: a spectator). Other hands appear only as
    sizes and the draw pile only as its size; the hands of a finished round are
    public in its score table (``round_result``)."""
    totals = points(state)
    discard = state["discard"]
    return {
        **base.turn_view(state, seat),
        "variant": state["variant"],
        "target": state["target"],
        "seats": [
            {
                "seat": s,
                "name": state["names"][s],
                "hand_size": len(state["hands"][s]),
                "in_round": state["in_round"][s],
                "quit": state["quit"][s],
                "left": state["left"][s],
                "confirmed": state["confirmed"][s],
                "chips": dict(state["chips"][s]),
                "points": totals[s],
            }
            for s in range(state["players"])
        ],
        "discard_top": discard[-1] if discard else None,
        "discard_size": len(discard),
        "draw_size": len(state["draw_pile"]),
        "round_result": base.clone(state["round_result"]) if state["round_result"] else None,
        "score_sheet": [list(row) for row in state["score_sheet"]],
        "legal_actions": [] if seat is None else legal_actions(state, seat),
        "outcome": outcome(state),
    }
