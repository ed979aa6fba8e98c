"""The Katz und Maus game engine (protocol: ``games.engines.base``).

State shape (plain JSON data; cards as in ``rules``, every list's top is its
last element)::

    {
      "game": "katz_und_maus", "version": 1, "seed": int, "players": n,
      "names": [str] * n,
      "stock_size": 10..30, "completed": "shuffle" | "remove",
      "match": "single" | "500", "teams": bool, "kartenlos_all": bool,
      "empty_draw": "end" | "recycle",
      "sides": [[seat, ...]],       # teams: [[0, 2], [1, 3]]; else one seat each
      "phase": "play" | "scoring" | "over",
      "round": int, "dealer": seat, "turn": seat | None,
      "turns": int, "plays": int,   # this game so far (safety limits)
      "draw_pile": [card],          # face down; the top is the last element
      "gone": [card],               # out of this game: removed piles, leavers' cards
      "build": [[card] * 4],        # the four build places („Baustapel“); [] = free
      "stocks": [[card]],           # Spielerstapel; only the top is face up
      "hands": [[card]],            # sorted, Kings last
      "discards": [[[card] * 4]],   # each seat's four Ablagestapel, face up
      "left": [bool],               # left the room
      "out": [bool],                # no longer playing (left, or the partner left)
      "hints": [None | {"from": seat, "rank": str, "pile": 0..3}],
      "scores": [int],              # match points; partners carry the same total
      "confirmed": [bool],          # scoring phase (match to 500): „Weiter“ pressed
      "shuffles": int,              # piles shuffled so far (RNG counter)
      "recycled": int,              # new draw piles made from the build piles
      "idle_recycles": int,         # ... since the last stock card was played
      "round_result": None | {...}, "score_sheet": [[int] * n],
      "outcome": None | {"winners", "reason", "draw", "points"},
    }

Actions (``seat`` is the acting player):

- ``{"type": "play", "source": "stock", "pile": p}`` – the stock's top card,
- ``{"type": "play", "source": "hand", "card": "7H", "pile": p}``,
- ``{"type": "play", "source": "discard", "index": d, "pile": p}`` – the top of
  the own discard pile ``d`` (0–3),
- ``{"type": "discard", "card": "7H", "pile": d}`` – ends the turn,
- ``{"type": "end"}`` – ends the turn of a player whose stock is empty
  („kartenlos“ rule: no drawing, no discarding any more),
- ``{"type": "hint", "rank": "7", "pile": p}`` – team play only, any time, to
  the partner („Leg deine 7 auf Baustapel p+1“); never listed in
  ``legal_actions`` and never changes the turn,
- ``{"type": "continue"}`` – match to 500: ready for the next game.

``p`` is a build place 0–3. A free place takes an Ace or a King.

Turn flow: at the start of a turn the hand is filled to five from the draw pile.
A draw pile that is too short gives what it has. By the source's rule
(``empty_draw="end"``, the default) a needed draw that finds the draw pile empty
ends the game. The variant ``"recycle"`` first shuffles the unfinished build
piles into a new draw pile – once, and again only after a stock card has been
played since the last time (and only when a build pile lies on the table).
Plays follow, as many as wanted; a hand emptied by playing draws five more at
once (after a pile completed by that last card went under the draw pile). A
discard ends the turn. A complete pile (twelve cards,
the top standing for the Queen – also a King there) is shuffled under the draw
pile (``completed="shuffle"``) or leaves the game (``"remove"``).

The game ends the moment a side is finished (single play: the stock is empty,
also mid-turn; teams: both partners' stocks are empty; ``kartenlos_all``: no
card left at all), when a needed draw finds the draw pile empty (fewest stock
cards win, a tie is a draw), when every remaining player's stock is empty and
nothing fits any more („stuck“, ``kartenlos_all`` only: fewest cards win), or
after ``MAX_TURNS`` turns or ``MAX_PLAYS`` plays (a safety net that real games
never reach, scored like an empty draw pile).

Events are codes with data only, never text: ``deal`` (round, dealer, starter,
stock_size, stock_tops), ``turn`` (seat), ``draw`` (seat, count, wanted,
reason "turn" | "empty_hand"; never the cards), ``recycle`` (count: build-pile
cards that became the new draw pile), ``play`` (seat, source, index,
card, pile, value, stock_top: the newly revealed top or None), ``complete``
(pile, to "draw_pile" | "gone"), ``discard`` (seat, card, pile, forced),
``end_turn`` (seat, forced), ``skip`` (seat), ``stock_empty`` (seat),
``finished`` (seat), ``hint`` (seat, to, rank, pile), ``hint_followed`` (seat),
``round_end`` (reason "stock" | "exhausted" | "stuck" | "limit" | "abandoned",
winners, draw, stocks, points), ``continue`` (seat), ``continue_forced``,
``leave`` (seat, out: seats that stop playing), ``game_over`` (reason, winners,
draw, points).

Randomness: each game of a match is dealt with ``random.Random(f"katz_und_maus:
{seed}:{round}")`` and the n-th completed pile is shuffled with
``random.Random(f"katz_und_maus:{seed}:{round}:{n}")``; no RNG state is stored
and ``replay`` rebuilds any game from the seed and the log.
"""

from __future__ import annotations

import random
from collections import Counter

from games.engines import base
from games.engines.base import CONTINUE, OVER, PLAY, SCORING, IllegalAction
from games.engines.base import stored_outcome as outcome
from games.engines.base import to_act_in_turns as to_act

from .rules import (
    BUILD_PILES,
    COMPLETED,
    DECK,
    DECKS,
    DISCARD_PILES,
    EMPTY_DRAW,
    HAND_SIZE,
    MATCHES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RANKS,
    RECYCLE,
    REMOVE,
    SHUFFLE,
    SINGLE,
    SOURCE_END,
    STOCK_MAX,
    STOCK_MIN,
    TARGET,
    TEAM_SIZES,
    TOP_VALUE,
    default_stock,
    fits,
    is_card,
    is_king,
    max_stock,
    rank,
    round_points,
    sort_cards,
    teams_for,
)

FIRST_DEALER = 0  # seat 0 deals the first game, so seat 1 starts
MAX_IDLE_RECYCLES = 1  # recycles in a row without a stock card played
MAX_TURNS = 2000  # safety net per game; bot games need well under 300
MAX_PLAYS = 20_000  # the same for plays per game (a turn may go on and on in theory)

END = {"type": "end"}


# --- Creating and dealing --------------------------------------------------------


def new_game(seed: int, players: int, options: dict | None = None) -> dict:
    """A fresh game, dealt, with the starting player's hand filled.

    ``options``: ``stock_size`` (8–30; default by player count, see
    ``rules.DEFAULT_STOCK``), ``completed`` ("shuffle" | "remove"), ``match``
    ("single" | "500"), ``teams`` (bool, 4 or 6 players), ``kartenlos_all``
    (bool: a player wins only with no card left at all), ``empty_draw``
    ("end" | "recycle": the source's end when the draw pile is used up, or the
    variant that first rebuilds it from the build piles), ``names``.
    """
    options = dict(options or {})
    base.check_players(players, MIN_PLAYERS, MAX_PLAYERS, "Katz und Maus")
    stock_size = options.get("stock_size") or default_stock(players)
    if not isinstance(stock_size, int) or not STOCK_MIN <= stock_size <= STOCK_MAX:
        raise ValueError(f"Der Spielerstapel muss {STOCK_MIN} bis {STOCK_MAX} Karten haben.")
    if stock_size > max_stock(players):
        raise ValueError(
            f"Mit {players} Spielern hat ein Spielerstapel höchstens {max_stock(players)} Karten."
        )
    completed = options.get("completed", SHUFFLE)
    if completed not in COMPLETED:
        raise ValueError(f"Unbekannte Regel für fertige Stapel „{completed}“.")
    match = str(options.get("match", SINGLE))
    if match not in MATCHES:
        raise ValueError("Gespielt wird ein einzelnes Spiel oder bis 500 Punkte.")
    teams = bool(options.get("teams", False))
    if teams and players not in TEAM_SIZES:
        raise ValueError("Im Team spielt ihr nur zu viert oder zu sechst.")
    empty_draw = options.get("empty_draw", SOURCE_END)
    if empty_draw not in EMPTY_DRAW:
        raise ValueError(f"Unbekannte Regel für den leeren Kartenstock „{empty_draw}“.")
    names = base.seat_names(options, players)
    state = base.round_state(
        "katz_und_maus",
        seed,
        names,
        stock_size=stock_size,
        completed=completed,
        match=match,
        teams=teams,
        kartenlos_all=bool(options.get("kartenlos_all", False)),
        empty_draw=empty_draw,
        sides=teams_for(players, teams),
        turn=None,
        turns=0,
        plays=0,
        draw_pile=[],
        gone=[],
        build=[[] for _ in range(BUILD_PILES)],
        stocks=[[] for _ in range(players)],
        hands=[[] for _ in range(players)],
        discards=[[[] for _ in range(DISCARD_PILES)] for _ in range(players)],
        out=[False] * players,
        hints=[None] * players,
        scores=[0] * players,
        confirmed=[False] * players,
        shuffles=0,
        recycled=0,
        idle_recycles=0,
    )
    _deal(state, [])
    return state


def _deal(state: dict, events: list) -> None:
    n = state["players"]
    out = state["out"]
    dealer = base.next_deal(state, FIRST_DEALER, lambda seat: not out[seat])
    deck = [card for card in DECK for _ in range(DECKS)]
    random.Random(f"katz_und_maus:{state['seed']}:{state['round']}").shuffle(deck)
    order = []  # one card at a time, starting left of the dealer
    seat = dealer
    for _ in range(n):
        seat = (seat + 1) % n
        if not out[seat]:
            order.append(seat)
    stocks: list[list[str]] = [[] for _ in range(n)]
    for _ in range(state["stock_size"]):
        for seat in order:
            stocks[seat].append(deck.pop())
    state["stocks"] = stocks
    state["draw_pile"] = deck
    state["gone"] = []
    state["build"] = [[] for _ in range(BUILD_PILES)]
    state["hands"] = [[] for _ in range(n)]
    state["discards"] = [[[] for _ in range(DISCARD_PILES)] for _ in range(n)]
    state["hints"] = [None] * n
    state["confirmed"] = [False] * n
    state["round_result"] = None
    state["shuffles"] = 0
    state["recycled"] = 0
    state["idle_recycles"] = 0
    state["turns"] = 0
    state["plays"] = 0
    state["phase"] = PLAY
    state["turn"] = None
    events.append(
        {
            "type": "deal",
            "round": state["round"],
            "dealer": dealer,
            "starter": order[0],
            "stock_size": state["stock_size"],
            "stock_tops": [stock[-1] if stock else None for stock in stocks],
        }
    )
    _begin_turn(state, order[0], events)


# --- Queries -----------------------------------------------------------------------


def side_of(state: dict, seat: int) -> list[int]:
    for side in state["sides"]:
        if seat in side:
            return side
    raise ValueError(seat)


def partner(state: dict, seat: int) -> int | None:
    """The partner in team play (the seat opposite), else ``None``."""
    if not state["teams"]:
        return None
    return (seat + state["players"] // 2) % state["players"]


def kartenlos(state: dict, seat: int) -> bool:
    """The stock is empty but the game goes on: the player builds with hand and
    discard piles only, draws no more and discards no more."""
    return not state["stocks"][seat]


def cards_left(state: dict, seat: int) -> int:
    return (
        len(state["stocks"][seat])
        + len(state["hands"][seat])
        + sum(len(pile) for pile in state["discards"][seat])
    )


def finished(state: dict, seat: int) -> bool:
    """Done for the win: the stock is empty (``kartenlos_all``: no card left)."""
    if state["kartenlos_all"]:
        return cards_left(state, seat) == 0
    return not state["stocks"][seat]


def _plays(state: dict, seat: int) -> list[dict]:
    build = state["build"]
    actions = []
    stock = state["stocks"][seat]
    if stock:
        card = stock[-1]
        actions += [
            {"type": "play", "source": "stock", "pile": pile}
            for pile in range(BUILD_PILES)
            if fits(card, build[pile])
        ]
    for card in dict.fromkeys(state["hands"][seat]):
        actions += [
            {"type": "play", "source": "hand", "card": card, "pile": pile}
            for pile in range(BUILD_PILES)
            if fits(card, build[pile])
        ]
    for index, discard in enumerate(state["discards"][seat]):
        if discard:
            actions += [
                {"type": "play", "source": "discard", "index": index, "pile": pile}
                for pile in range(BUILD_PILES)
                if fits(discard[-1], build[pile])
            ]
    return actions


def legal_actions(state: dict, seat: int) -> list[dict]:
    """Every move the seat may make now (hints are never listed)."""
    if seat not in to_act(state):
        return []
    if state["phase"] == SCORING:
        return [dict(CONTINUE)]
    actions = _plays(state, seat)
    if kartenlos(state, seat):
        actions.append(dict(END))
    else:
        actions += [
            {"type": "discard", "card": card, "pile": pile}
            for card in dict.fromkeys(state["hands"][seat])
            for pile in range(DISCARD_PILES)
        ]
    return actions


def card_count(state: dict) -> Counter:
    """Every card in the game, wherever it lies (always the full 104)."""
    cards = Counter(state["draw_pile"]) + Counter(state["gone"])
    for pile in state["build"]:
        cards.update(pile)
    for seat in range(state["players"]):
        cards.update(state["stocks"][seat])
        cards.update(state["hands"][seat])
        for pile in state["discards"][seat]:
            cards.update(pile)
    return cards


# --- Applying actions ---------------------------------------------------------------


def apply(state: dict, seat: int, action: dict) -> tuple[dict, list[dict]]:
    base.check_seat(state, seat)
    kind = base.action_type(action)
    phase = state["phase"]
    if phase == OVER:
        raise IllegalAction("Das Spiel ist vorbei.")
    if kind == "hint":
        _check_hint(state, seat, action)
        new = base.clone(state)
        return new, _hint(new, seat, action)
    if phase == SCORING:
        if kind != "continue":
            raise IllegalAction("Das Spiel ist vorbei – bestätige die Wertung mit „Weiter“.")
        return base.confirm(state, seat, _deal)
    if kind == "continue":
        raise IllegalAction("Das Spiel läuft noch – bestätigen kannst du erst bei der Wertung.")
    if kind not in ("play", "discard", "end"):
        raise IllegalAction(f"Unbekannte Aktion „{kind}“.")
    if state["out"][seat]:
        raise IllegalAction("Du spielst in diesem Spiel nicht mehr mit.")
    if seat != state["turn"]:
        raise IllegalAction("Du bist nicht am Zug.")
    if kind == "play":
        source, card, pile = _check_play(state, seat, action)
        new = base.clone(state)
        return new, _play(new, seat, source, action.get("index"), card, pile)
    if kind == "discard":
        card, pile = _check_discard(state, seat, action)
        new = base.clone(state)
        events: list[dict] = []
        _discard(new, seat, card, pile, False, events)
        return new, events
    if not kartenlos(state, seat):
        raise IllegalAction(
            "Dein Zug endet, indem du eine Handkarte auf einen deiner Ablagestapel legst."
        )
    new = base.clone(state)
    events = [{"type": "end_turn", "seat": seat, "forced": False}]
    _end_turn(new, seat, events)
    return new, events


def _check_pile(pile, label: str) -> int:
    if not isinstance(pile, int) or isinstance(pile, bool) or not 0 <= pile < 4:
        raise IllegalAction(f"Diesen {label} gibt es nicht – wähle 1 bis 4.")
    return pile


def _check_play(state: dict, seat: int, action: dict) -> tuple[str, str, int]:
    source = action.get("source")
    if source == "stock":
        stock = state["stocks"][seat]
        if not stock:
            raise IllegalAction("Dein Spielerstapel ist leer.")
        card = stock[-1]
    elif source == "hand":
        card = action.get("card")
        if not is_card(card):
            raise IllegalAction(f"Unbekannte Karte „{card}“.")
        if card not in state["hands"][seat]:
            raise IllegalAction("Diese Karte hast du nicht auf der Hand.")
    elif source == "discard":
        index = _check_pile(action.get("index"), "Ablagestapel")
        discard = state["discards"][seat][index]
        if not discard:
            raise IllegalAction(f"Dein Ablagestapel {index + 1} ist leer.")
        card = discard[-1]
    else:
        raise IllegalAction(
            "Spielen kannst du vom Spielerstapel, von der Hand oder vom Ablagestapel."
        )
    pile = _check_pile(action.get("pile"), "Baustapel")
    build = state["build"][pile]
    if not fits(card, build):
        if not build:
            raise IllegalAction(
                "Einen neuen Baustapel beginnst du nur mit einem Ass oder einem König."
            )
        if len(build) >= TOP_VALUE:
            raise IllegalAction("Dieser Baustapel ist schon vollständig.")
        raise IllegalAction(
            f"Auf Baustapel {pile + 1} gehört jetzt eine {_value_name(len(build) + 1)} "
            "oder ein König."
        )
    return source, card, pile


def _value_name(value: int) -> str:
    return {1: "Ass", 11: "Bube", 12: "Dame"}.get(value, str(value))


def _check_discard(state: dict, seat: int, action: dict) -> tuple[str, int]:
    if kartenlos(state, seat):
        raise IllegalAction(
            "Dein Spielerstapel ist leer: Du legst nichts mehr ab, beende deinen Zug mit „Fertig“."
        )
    card = action.get("card")
    if not is_card(card):
        raise IllegalAction(f"Unbekannte Karte „{card}“.")
    if card not in state["hands"][seat]:
        raise IllegalAction("Ablegen darfst du nur eine Karte von deiner Hand.")
    return card, _check_pile(action.get("pile"), "Ablagestapel")


def _check_hint(state: dict, seat: int, action: dict) -> None:
    if not state["teams"]:
        raise IllegalAction("Hinweise gibt es nur im Teamspiel.")
    if state["phase"] != PLAY:
        raise IllegalAction("Hinweise gibt es nur während des Spiels.")
    if state["out"][seat]:
        raise IllegalAction("Du spielst in diesem Spiel nicht mehr mit.")
    if action.get("rank") not in RANKS:
        raise IllegalAction("Nenne eine Karte von Ass bis König.")
    _check_pile(action.get("pile"), "Baustapel")


def _hint(state: dict, seat: int, action: dict) -> list[dict]:
    to = partner(state, seat)
    hint = {"from": seat, "rank": action["rank"], "pile": action["pile"]}
    state["hints"][to] = hint
    return [{"type": "hint", "seat": seat, "to": to, "rank": hint["rank"], "pile": hint["pile"]}]


def _play(
    state: dict, seat: int, source: str, index: int | None, card: str, pile: int
) -> list[dict]:
    events: list[dict] = []
    state["plays"] += 1
    stock = state["stocks"][seat]
    if source == "stock":
        stock.pop()
        state["idle_recycles"] = 0
    elif source == "hand":
        state["hands"][seat].remove(card)
    else:
        state["discards"][seat][index].pop()
    build = state["build"][pile]
    build.append(card)
    events.append(
        {
            "type": "play",
            "seat": seat,
            "source": source,
            "index": index if source == "discard" else None,
            "card": card,
            "pile": pile,
            "value": len(build),
            "stock_top": (stock[-1] if stock else None) if source == "stock" else None,
        }
    )
    hint = state["hints"][seat]
    if hint and hint["pile"] == pile and hint["rank"] == rank(card):
        state["hints"][seat] = None
        events.append({"type": "hint_followed", "seat": seat})
    if len(build) == TOP_VALUE:
        _complete(state, pile, events)
    if source == "stock" and not stock:
        events.append({"type": "stock_empty", "seat": seat})
    if _check_finished(state, seat, events):
        return events
    if state["plays"] > MAX_PLAYS:
        _end_round(state, "limit", None, events)
        return events
    # An emptied hand draws five more at once and the turn goes on.
    hand_empty = not state["hands"][seat] and not kartenlos(state, seat)
    if hand_empty and not _draw(state, seat, "empty_hand", events):
        return events
    if kartenlos(state, seat) and not _plays(state, seat):
        events.append({"type": "end_turn", "seat": seat, "forced": True})
        _end_turn(state, seat, events)
    return events


def _complete(state: dict, pile: int, events: list) -> None:
    cards = state["build"][pile]
    state["build"][pile] = []
    if state["completed"] == REMOVE:
        state["gone"].extend(cards)
        events.append({"type": "complete", "pile": pile, "to": "gone"})
        return
    state["shuffles"] += 1
    rng = random.Random(f"katz_und_maus:{state['seed']}:{state['round']}:{state['shuffles']}")
    rng.shuffle(cards)
    state["draw_pile"][:0] = cards  # under the draw pile (its top is the end)
    events.append({"type": "complete", "pile": pile, "to": "draw_pile"})


def _check_finished(state: dict, seat: int, events: list) -> bool:
    """After a play: end the game if the seat's side is done. True when it ended."""
    if not finished(state, seat):
        return False
    side = side_of(state, seat)
    if len(side) > 1:
        events.append({"type": "finished", "seat": seat})
    if all(finished(state, member) for member in side):
        _end_round(state, "stock", side, events)
        return True
    return False


def _draw(state: dict, seat: int, reason: str, events: list) -> bool:
    """Fill the hand to five. A short draw pile gives what it has; with the
    variant ``empty_draw="recycle"`` the build piles are then shuffled into a new
    draw pile and the rest is drawn from it. Returns False (and ends the game:
    the draw pile is used up) when cards are needed and none can be drawn."""
    hand = state["hands"][seat]
    wanted = HAND_SIZE - len(hand)
    if wanted <= 0:
        return True
    pile = state["draw_pile"]
    drawn: list[str] = []
    while len(drawn) < wanted:
        if not pile:
            if not _may_recycle(state):
                break
            _recycle(state, events)
        count = min(wanted - len(drawn), len(pile))
        drawn += pile[-count:]
        del pile[-count:]
    if not drawn:
        _end_round(state, "exhausted", None, events)
        return False
    state["hands"][seat] = sort_cards(hand + drawn)
    events.append(
        {"type": "draw", "seat": seat, "count": len(drawn), "wanted": wanted, "reason": reason}
    )
    return True


def _may_recycle(state: dict) -> bool:
    """The build piles may form a new draw pile once, and again only if someone
    has played a stock card since the last time (so a game cannot circle
    forever)."""
    if state["empty_draw"] != RECYCLE or not any(state["build"]):
        return False
    return state["idle_recycles"] < MAX_IDLE_RECYCLES


def _recycle(state: dict, events: list) -> None:
    """The draw pile is empty: the unfinished build piles are shuffled into a new
    one and their places are free again."""
    cards = [card for pile in state["build"] for card in pile]
    state["build"] = [[] for _ in range(BUILD_PILES)]
    state["shuffles"] += 1
    state["recycled"] += 1
    state["idle_recycles"] += 1
    rng = random.Random(f"katz_und_maus:{state['seed']}:{state['round']}:{state['shuffles']}")
    rng.shuffle(cards)
    state["draw_pile"][:0] = cards
    events.append({"type": "recycle", "count": len(cards)})


def _discard(state: dict, seat: int, card: str, pile: int, forced: bool, events: list) -> None:
    state["hands"][seat].remove(card)
    state["discards"][seat][pile].append(card)
    events.append({"type": "discard", "seat": seat, "card": card, "pile": pile, "forced": forced})
    _end_turn(state, seat, events)


def _end_turn(state: dict, seat: int, events: list) -> None:
    state["hints"][seat] = None
    _advance(state, seat, events)


def _advance(state: dict, seat: int, events: list) -> None:
    """Hand the turn to the next playing seat after ``seat``. Seats whose stock
    is empty and who can play nothing are skipped; if that is everyone, the game
    is stuck and ends."""
    n = state["players"]
    current = seat
    for _ in range(n):
        following = base.next_seat(current, n, lambda other: not state["out"][other])
        if following is None:
            break
        if kartenlos(state, following) and not _plays(state, following):
            if state["hints"][following]:
                state["hints"][following] = None
            events.append({"type": "skip", "seat": following})
            current = following
            continue
        _begin_turn(state, following, events)
        return
    _end_round(state, "stuck", None, events)


def _begin_turn(state: dict, seat: int, events: list) -> None:
    state["turn"] = seat
    state["turns"] += 1
    events.append({"type": "turn", "seat": seat})
    if state["turns"] > MAX_TURNS:
        _end_round(state, "limit", None, events)
        return
    if not kartenlos(state, seat):
        _draw(state, seat, "turn", events)


# --- Game end, scoring, match ----------------------------------------------------


def _playing_sides(state: dict) -> list[list[int]]:
    return [side for side in state["sides"] if not any(state["out"][seat] for seat in side)]


def _side_remaining(state: dict, side: list[int], reason: str) -> int:
    if reason == "stuck":
        return sum(cards_left(state, seat) for seat in side)
    return sum(len(state["stocks"][seat]) for seat in side)


def _end_round(state: dict, reason: str, winner_side: list[int] | None, events: list) -> None:
    n = state["players"]
    sides = _playing_sides(state)
    if reason == "abandoned":
        winners = [seat for side in sides for seat in side]
        draw = False
        gained = [0] * n
    else:
        if winner_side is not None:
            winning = [winner_side]
        else:
            remaining = {tuple(side): _side_remaining(state, side, reason) for side in sides}
            fewest = min(remaining.values())
            winning = [side for side in sides if remaining[tuple(side)] == fewest]
        winners = sorted(seat for side in winning for seat in side)
        draw = len(winning) > 1
        gained = [0] * n
        if not draw:
            opponents = sum(
                len(state["stocks"][seat]) for side in sides if side != winning[0] for seat in side
            )
            for seat in winning[0]:
                gained[seat] = round_points(opponents)
    for seat in range(n):
        state["scores"][seat] += gained[seat]
    stocks = [len(stock) for stock in state["stocks"]]
    state["round_result"] = {
        "round": state["round"],
        "reason": reason,
        "winners": winners,
        "draw": draw,
        "stocks": stocks,
        "points": gained,
        "totals": list(state["scores"]),
    }
    state["score_sheet"].append(gained)
    state["turn"] = None
    state["confirmed"] = [False] * n
    events.append(
        {
            "type": "round_end",
            "reason": reason,
            "winners": winners,
            "draw": draw,
            "stocks": stocks,
            "points": gained,
        }
    )
    if state["match"] == SINGLE or reason == "abandoned":
        _finish(state, reason, winners, draw, events)
        return
    remaining = [seat for seat in range(n) if not state["out"][seat]]
    best = max(state["scores"][seat] for seat in remaining)
    if best >= TARGET:
        leaders = [seat for seat in remaining if state["scores"][seat] == best]
        _finish(state, "target", leaders, False, events)
        return
    state["phase"] = SCORING


def _finish(state: dict, reason: str, winners: list[int], draw: bool, events: list) -> None:
    state["phase"] = OVER
    state["turn"] = None
    state["outcome"] = {
        "winners": list(winners),
        "reason": reason,
        "draw": draw,
        "points": list(state["scores"]),
    }
    events.append(
        {
            "type": "game_over",
            "reason": reason,
            "winners": list(winners),
            "draw": draw,
            "points": list(state["scores"]),
        }
    )


# --- Site hooks: timeout, forced continue, leaving ---------------------------------


def forced_discard(state: dict, seat: int) -> tuple[str, int]:
    """What a timeout discards: the highest hand card that is not a King (a King
    only when the hand holds nothing else), onto the first empty Ablagestapel,
    else onto the one whose top is highest (ties: the first)."""
    hand = state["hands"][seat]
    plain = [card for card in hand if not is_king(card)]
    card = (plain or hand)[-1]
    piles = state["discards"][seat]
    for index, pile in enumerate(piles):
        if not pile:
            return card, index
    tops = [_order(pile[-1]) for pile in piles]
    return card, tops.index(max(tops))


def _order(card: str) -> int:
    return RANKS.index(rank(card))


def timeout(state: dict) -> tuple[dict, list[dict]]:
    """The turn timer ran out: the turn ends with a forced discard
    (``forced_discard``); a player with an empty stock just ends the turn. In
    the scoring wait this is ``force_continue``; a no-op once the game is over."""
    if state["phase"] == SCORING:
        return force_continue(state)
    new = base.clone(state)
    if state["phase"] != PLAY:
        return new, []
    seat = new["turn"]
    events: list[dict] = []
    if kartenlos(new, seat):
        events.append({"type": "end_turn", "seat": seat, "forced": True})
        _end_turn(new, seat, events)
    else:
        card, pile = forced_discard(new, seat)
        _discard(new, seat, card, pile, True, events)
    return new, events


def force_continue(state: dict) -> tuple[dict, list[dict]]:
    """The scoring wait of a match is over: the next game is dealt without the
    missing confirmations (see ``base.skip_confirmations``)."""
    return base.skip_confirmations(state, _deal)


def remove_player(state: dict, seat: int) -> tuple[dict, list[dict]]:
    """„Raum verlassen“: the seat's cards (stock, hand, discard piles) leave the
    game; in team play the partner stops too and the team is out (a team cannot
    win with one player's stock gone). Fewer than two sides left: the game ends
    and the rest win, without points. A no-op once the game is over."""
    base.check_leaving(state, seat)
    new = base.clone(state)
    if state["phase"] == OVER:
        return new, []
    new["left"][seat] = True
    stopping = [member for member in side_of(new, seat) if not new["out"][member]]
    for member in stopping:
        new["out"][member] = True
        if new["phase"] == PLAY:
            new["gone"] += new["stocks"][member] + new["hands"][member]
            for pile in new["discards"][member]:
                new["gone"] += pile
            new["stocks"][member] = []
            new["hands"][member] = []
            new["discards"][member] = [[] for _ in range(DISCARD_PILES)]
            new["hints"][member] = None
    events = [{"type": "leave", "seat": seat, "out": stopping}]
    if len(_playing_sides(new)) < 2:
        if new["phase"] == PLAY:
            _end_round(new, "abandoned", None, events)
        else:
            winners = [s for side in _playing_sides(new) for s in side]
            _finish(new, "abandoned", winners, False, events)
        return new, events
    if new["phase"] == PLAY:
        if new["turn"] in stopping:
            _advance(new, new["turn"], events)
    elif not to_act(new):
        _deal(new, events)
    return new, events


# Rebuilds a game from its seed and log (entries: see ``base.replayer``).
replay = base.replayer(new_game, apply, timeout, force_continue, remove_player)


# --- View ---------------------------------------------------------------------------


def view(state: dict, seat: int | None) -> dict:
    """What ``seat`` may see (``None``: a spectator): the own hand; for every
    seat the stock's top and size, the hand's size and the face-up discard piles;
    the build piles' top card and the value it stands for; the draw pile's size.
    Never the draw pile order, other hands, stock cards below the top, or the
    seed."""
    return {
        **base.turn_view(state, seat),
        "players": state["players"],
        "stock_size": state["stock_size"],
        "completed": state["completed"],
        "match": state["match"],
        "teams": state["teams"],
        "kartenlos_all": state["kartenlos_all"],
        "empty_draw": state["empty_draw"],
        "sides": [list(side) for side in state["sides"]],
        "seats": [
            {
                "seat": s,
                "name": state["names"][s],
                "stock_top": state["stocks"][s][-1] if state["stocks"][s] else None,
                "stock_count": len(state["stocks"][s]),
                "hand_size": len(state["hands"][s]),
                "discards": [list(pile) for pile in state["discards"][s]],
                "partner": partner(state, s),
                "kartenlos": kartenlos(state, s) and not state["out"][s],
                "finished": finished(state, s) and not state["out"][s],
                "left": state["left"][s],
                "out": state["out"][s],
                "score": state["scores"][s],
                "confirmed": state["confirmed"][s],
                "hint": dict(state["hints"][s]) if state["hints"][s] else None,
            }
            for s in range(state["players"])
        ],
        "build": [
            {"top": pile[-1] if pile else None, "value": len(pile), "size": len(pile)}
            for pile in state["build"]
        ],
        "draw_size": len(state["draw_pile"]),
        "gone_size": len(state["gone"]),
        "round_result": base.clone(state["round_result"]) if state["round_result"] else None,
        "score_sheet": [list(row) for row in state["score_sheet"]],
        "legal_actions": [] if seat is None else legal_actions(state, seat),
        "outcome": outcome(state),
    }


# --- Arranged positions --------------------------------------------------------------


def begin_turn(state: dict, seat: int) -> tuple[dict, list[dict]]:
    """Start ``seat``'s turn in an arranged position (fill the hand, or skip a
    seat with nothing to do); for worked examples and tests."""
    new = base.clone(state)
    events: list[dict] = []
    new["turns"] = 0
    _begin_turn(new, seat, events)
    return new, events


def arrange(
    players: int,
    *,
    stocks: list[list[str]],
    hands: list[list[str]] | None = None,
    discards: list[list[list[str]]] | None = None,
    build: list[list[str]] | None = None,
    draw_top: list[str] | None = None,
    draw_size: int | None = None,
    turn: int = 0,
    options: dict | None = None,
) -> dict:
    """A running game in a given position (for worked examples and tests).

    Lists are bottom first (the top is the last card). ``draw_top`` are the next
    cards to be drawn, the first one drawn first. The other cards of the 104 go
    to the draw pile below them, or – beyond ``draw_size`` cards – out of the
    game (``gone``), so every card stays accounted for. No refill happens: the
    hands are exactly as given.
    """
    options = {"stock_size": 10, **(options or {})}
    state = new_game(1, players, options)
    empty4 = [[] for _ in range(4)]
    state["stocks"] = [list(stock) for stock in stocks]
    state["hands"] = [sort_cards(hand) for hand in (hands or [[] for _ in range(players)])]
    state["discards"] = [
        [list(pile) for pile in seat_piles] for seat_piles in (discards or [empty4] * players)
    ]
    state["build"] = [list(pile) for pile in (build or empty4)]
    state["build"] += [[] for _ in range(4 - len(state["build"]))]
    pool = Counter({card: DECKS for card in DECK})
    used = Counter(draw_top or [])
    for seat in range(players):
        used.update(state["stocks"][seat])
        used.update(state["hands"][seat])
        for pile in state["discards"][seat]:
            used.update(pile)
    for pile in state["build"]:
        used.update(pile)
    pool.subtract(used)
    if min(pool.values()) < 0:
        raise ValueError("Jede Karte gibt es nur zweimal.")
    rest = sort_cards(pool.elements())
    if draw_size is not None:
        keep = max(0, draw_size - len(draw_top or []))
        state["gone"] = rest[keep:]
        rest = rest[:keep]
    state["draw_pile"] = rest + list(reversed(draw_top or []))
    state["turn"] = turn
    state["turns"] = 1
    return state
