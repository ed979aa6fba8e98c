"""The Katz und Maus article's worked examples, checked by the engine.

``VERIFIERS`` maps a check's ``kind`` to a function(check) -> the engine's
outcome shaped like the example's ``expect``. Every kind builds the example's
position as a real game (``katz_und_maus.arrange``) and lets the engine play it,
so a wrong example – or a wrong engine – fails the tests.

Cards are written as ranks only (``"A"``, ``"2"`` … ``"10"``, ``"J"``, ``"Q"``,
``"K"``); suits are assigned here (the colour never matters). Lists are bottom
first, so the top card is the last. Build piles are ``"A"`` … ``"D"``, a
player's discard piles („Ablagestapel“) 1–4.

Kinds (``engine = "katz_und_maus"``):

``build``  ``pile`` (ranks on a build pile), ``card`` → ``{"fits": bool}`` plus,
           when it fits, ``"value"`` (what the card stands for there) and
           ``"complete"`` (the pile is done and leaves the table); optional
           ``at`` (the pile's letter, default ``"A"``).
``turn``   a position – ``build`` (up to four piles), ``stock``, ``hand``,
           ``discards`` (up to four piles), ``draw`` (the next cards drawn, in
           order), optional ``draw_size`` (cards in the draw pile), ``players``
           (default 2) – and ``moves`` in turn order: ``"hand:7:A"`` (a hand 7
           onto build pile A), ``"stock:A"``, ``"discard:1:A"`` (the top of
           discard pile 1 onto A), ``"end:Q:2"`` (the hand's Queen onto discard
           pile 2, ending the turn). The turn starts with the usual refill.
           → ``{"drawn": [cards per draw], "completed": int, "recycled": int
           (new draw piles from the build piles), "build": [values of A–D],
           "hand": [ranks], "over": bool}`` plus ``"stock_top"`` (rank) while
           the stock has cards and ``"winner"`` (seat) when the game ended; optional ``report`` (keys)
           keeps only those keys; optional ``empty_draw`` (``"end"``, the source's rule
           and the default, or the variant ``"recycle"``).
``end``    ``players`` (names), ``stocks`` (cards left per name) and optional
           ``teams`` – the draw pile runs out when the next player must draw →
           ``{"winners": [names], "draw": bool, "points": {name: points}}``.
``score``  ``players`` (names, the first one wins by playing the last stock
           card), ``stocks`` (cards left in the others' stocks), optional
           ``teams``, ``before`` (match points before) → ``{"points": {name:
           points this game}, "totals": {...}, "match_over": bool}``.

Every kind may name the player the example talks about (``name``, e.g.
``"Anna"``); verifiers ignore it, the step-throughs (``steps``) word with it.

``turn_steps(check)`` returns a ``turn`` example as the engine plays it (the
position and the engine's events per move) for the rules page.
"""

from __future__ import annotations

from collections import Counter

from games.engines import katz_und_maus as engine

SUIT_ORDER = ("H", "S", "D", "C")
PILES = "ABCD"


class _Cards:
    """Hands out concrete cards for ranks, at most two of each card."""

    def __init__(self) -> None:
        self.used: Counter = Counter()

    def card(self, rank: str) -> str:
        rank = str(rank)
        if rank not in engine.RANKS:
            raise ValueError(f"Unbekannter Kartenwert „{rank}“.")
        for suit in SUIT_ORDER:
            for _ in range(2):
                card = rank + suit
                if self.used[card] < 2:
                    self.used[card] += 1
                    return card
        raise ValueError(f"Mehr als acht Karten „{rank}“ im Beispiel.")

    def cards(self, ranks) -> list[str]:
        return [self.card(rank) for rank in ranks]


FILLER = ("5", "6", "7", "8", "9", "10", "J", "Q", "2", "3", "4")


def _filler(count: int) -> list[str]:
    """Ranks for stock cards whose values the example does not care about."""
    return [FILLER[index % len(FILLER)] for index in range(count)]


def _rank(card: str | None) -> str | None:
    return None if card is None else card[:-1]


def _build_position(check: dict) -> tuple[dict, str, int]:
    """(the game, the hand card, the build pile's index) of a ``build`` check; the
    pile stands at ``at`` (a letter, default A), the places before it are free."""
    cards = _Cards()
    pile = cards.cards(check["pile"])
    card = cards.card(check["card"])
    index = PILES.index(check.get("at", "A"))
    build = [[] for _ in range(index)] + [pile]
    state = engine.arrange(2, stocks=[["9H"], ["9S"]], hands=[[card], []], build=build)
    return state, card, index


def _build(check: dict) -> dict:
    state, card, index = _build_position(check)
    if not engine.fits(card, state["build"][index]):
        return {"fits": False}
    state, events = engine.apply(
        state, 0, {"type": "play", "source": "hand", "card": card, "pile": index}
    )
    return {
        "fits": True,
        "value": events[0]["value"],
        "complete": any(event["type"] == "complete" for event in events),
    }


def _parse_move(text: str, state: dict, seat: int) -> dict:
    parts = text.split(":")
    kind = parts[0]
    if kind == "stock":
        return {"type": "play", "source": "stock", "pile": PILES.index(parts[1])}
    if kind == "hand":
        card = next(c for c in state["hands"][seat] if _rank(c) == parts[1])
        return {"type": "play", "source": "hand", "card": card, "pile": PILES.index(parts[2])}
    if kind == "discard":
        return {
            "type": "play",
            "source": "discard",
            "index": int(parts[1]) - 1,
            "pile": PILES.index(parts[2]),
        }
    if kind == "end":
        card = next(c for c in state["hands"][seat] if _rank(c) == parts[1])
        return {"type": "discard", "card": card, "pile": int(parts[2]) - 1}
    raise ValueError(f"Unbekannter Zug „{text}“.")


def _play_turn(check: dict) -> tuple[dict, dict, list, dict]:
    """(expect-shaped result, final state, [(move, events, state after)], the position
    before the turn's refill)."""
    players = check.get("players", 2)
    cards = _Cards()
    build = [cards.cards(pile) for pile in check.get("build", [])]
    stock = cards.cards(check["stock"])
    hand = cards.cards(check.get("hand", []))
    discards = [cards.cards(pile) for pile in check.get("discards", [])]
    discards += [[] for _ in range(4 - len(discards))]
    draw = cards.cards(check.get("draw", []))
    others = [cards.cards(["9"] * 5) for _ in range(players - 1)]
    state = engine.arrange(
        players,
        stocks=[stock, *others],
        hands=[hand, *[[] for _ in others]],
        discards=[discards, *[[[] for _ in range(4)] for _ in others]],
        build=build,
        draw_top=draw,
        draw_size=check.get("draw_size"),
        options={"empty_draw": check.get("empty_draw", "end")},
    )
    arranged = state
    state, events = engine.begin_turn(state, 0)
    log = [("start", events, state)]
    for text in check.get("moves", []):
        if state["phase"] != "play":
            raise AssertionError(f"Das Spiel ist schon vorbei vor „{text}“.")
        action = _parse_move(text, state, 0)
        state, events = engine.apply(state, 0, action)
        log.append((text, events, state))
    everything = [event for _, moved, _ in log for event in moved]
    actual = {
        "drawn": [e["count"] for e in everything if e["type"] == "draw" and e["seat"] == 0],
        "completed": sum(e["type"] == "complete" for e in everything),
        "recycled": sum(e["type"] == "recycle" for e in everything),
        "build": [len(pile) for pile in state["build"]],
        "hand": [_rank(card) for card in state["hands"][0]],
        "over": state["phase"] == "over",
    }
    if state["stocks"][0]:
        actual["stock_top"] = _rank(state["stocks"][0][-1])
    if state["outcome"] is not None:
        actual["winner"] = state["outcome"]["winners"][0]
    if "report" in check:
        actual = {key: actual[key] for key in check["report"] if key in actual}
    return actual, state, log, arranged


def _turn(check: dict) -> dict:
    return _play_turn(check)[0]


def turn_steps(check: dict) -> dict | None:
    """A ``turn`` example as the engine plays it: the start position (ranks) and,
    per move, the move text and the engine's events (codes with data). None for
    other kinds."""
    if not isinstance(check, dict) or check.get("kind") != "turn":
        return None
    actual, _, log, _ = _play_turn(check)
    return {
        "start": {
            key: check.get(key)
            for key in ("build", "stock", "hand", "discards", "draw", "draw_size")
        },
        "steps": [{"move": move, "events": events} for move, events, _ in log],
        "result": actual,
    }


def _seats(check: dict) -> tuple[list[str], dict]:
    names = list(check["players"])
    return names, {"teams": bool(check.get("teams")), "names": names}


def _end(check: dict) -> dict:
    names, _, state, _ = _play_end(check)
    result = engine.outcome(state)
    gained = state["round_result"]["points"]
    return {
        "winners": [names[s] for s in result["winners"]],
        "draw": result["draw"],
        "points": {name: gained[seat] for seat, name in enumerate(names)},
    }


def _play_end(check: dict) -> tuple[list[str], dict, dict, list[dict]]:
    """(names, the position, the state after, the engine's events) of an ``end`` check."""
    names, options = _seats(check)
    cards = _Cards()
    stocks = [cards.cards(_filler(check["stocks"][name])) for name in names]
    # Player 0 ends the turn; the next player must draw and the draw pile is empty.
    state = engine.arrange(
        len(names),
        stocks=stocks,
        hands=[cards.cards(["K", "K"]), *[[] for _ in names[1:]]],
        draw_size=0,
        options=options,
    )
    after, events = engine.apply(
        state, 0, {"type": "discard", "card": state["hands"][0][0], "pile": 0}
    )
    result = engine.outcome(after)
    if result is None or result["reason"] != "exhausted":
        raise AssertionError("Das Spiel endet hier nicht durch den leeren Kartenstock.")
    return names, state, after, events


def _score(check: dict) -> dict:
    names, _, state, _ = _play_score(check)
    result = state["round_result"]
    return {
        "points": {name: result["points"][seat] for seat, name in enumerate(names)},
        "totals": {name: state["scores"][seat] for seat, name in enumerate(names)},
        "match_over": state["phase"] == "over",
    }


def _play_score(check: dict) -> tuple[list[str], dict, dict, list[dict]]:
    """(names, the position, the state after, the engine's events) of a ``score`` check."""
    names, options = _seats(check)
    options["match"] = "500"
    cards = _Cards()
    stocks = [cards.cards(["A"])]
    stocks += [cards.cards(_filler(check["stocks"].get(name, 0))) for name in names[1:]]
    state = engine.arrange(
        len(names),
        stocks=stocks,
        hands=[cards.cards(["K"]), *[[] for _ in names[1:]]],
        options=options,
    )
    before = check.get("before", {})
    state["scores"] = [before.get(name, 0) for name in names]
    after, events = engine.apply(state, 0, {"type": "play", "source": "stock", "pile": 0})
    result = after["round_result"]
    if result is None or result["reason"] != "stock":
        raise AssertionError("Das Spiel endet hier nicht mit einem leeren Spielerstapel.")
    return names, state, after, events


VERIFIERS = {"build": _build, "turn": _turn, "end": _end, "score": _score}
