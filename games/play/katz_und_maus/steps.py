"""Katz und Maus's worked examples step by step, as the engine plays them.

``example_steps(check)`` builds the same positions as the verifiers in
``examples.py``, lets the engine act and words its events with the presenter's
``describe`` in the article's terms (build piles A–D, the player the example
names). Each step: ``title``, ``lines`` and what
``play/katz_und_maus/example_step.html`` draws – the build piles, the players'
stock, hand and Ablagestapel, the draw pile's size.
"""

from __future__ import annotations

from games.engines import katz_und_maus as engine
from games.engines.base import IllegalAction
from games.play.katz_und_maus import examples
from games.play.katz_und_maus.presenter import (
    RANK_NAMES,
    _discard_piles,
    card,
    card_acc,
    describe,
    value_name,
)

PILES = examples.PILES  # the article's names of the build piles
OTHERS = ("Anna", "Ben", "Cara", "Dirk", "Emil", "Frieda")  # seats the example does not name


def _cards(count: int) -> str:
    return "1 Karte" if count == 1 else f"{count} Karten"


def _rank_name(code: str) -> str:
    return RANK_NAMES.get(code[:-1], code[:-1])


def _words(event: dict, names: list[str]) -> str:
    return describe(event, None, names, build_names=PILES)


def _names(check: dict, players: int) -> list[str]:
    name = check.get("name", OTHERS[0])
    others = [other for other in OTHERS if other != name]
    return [name, *others[: players - 1]]


# --- What a step draws --------------------------------------------------------------------


def _build(state: dict, changed=()) -> list[dict]:
    piles = []
    for index, pile in enumerate(state["build"]):
        if not pile:
            text = "frei"
        elif pile[-1][:-1] == "K":
            text = f"König als {value_name(len(pile))}"
        else:
            text = f"zeigt {value_name(len(pile))}"
        piles.append(
            {
                "name": PILES[index],
                "top": card(pile[-1]) if pile else None,
                "text": text,
                "changed": index in changed,
            }
        )
    return piles


def _player(state: dict, seat: int, name: str, *, hand=True, discards=True, points=None):
    stock = state["stocks"][seat]
    cards = state["hands"][seat]
    piles = state["discards"][seat]
    return {
        "name": name,
        "stock_top": card(stock[-1]) if stock else None,
        "stock_count": len(stock),
        "stock_text": _cards(len(stock)) if stock else "leer",
        "hand": [card(code) for code in cards] if hand else None,
        "hand_text": ", ".join(_rank_name(code) for code in cards) or "keine Karte",
        "discards": _discard_piles(piles) if discards and any(piles) else None,
        "points": points,
    }


def _table(state: dict, players: list[dict], *, build=True, changed=(), draw=True) -> dict:
    """``draw=False``: the draw pile's size is beside the example's point (a position
    built for one card puts the other cards there)."""
    return {
        "build": _build(state, changed) if build else None,
        "players": players,
        "draw": len(state["draw_pile"]) if draw else None,
    }


def _step(title: str, lines=(), table: dict | None = None) -> dict:
    return {"title": title, "lines": [line for line in lines if line], **(table or {})}


# --- turn: a whole turn, move by move ----------------------------------------------------------

SHOWN = ("draw", "recycle", "play", "complete", "discard", "stock_empty", "finished")


def _turn_steps(check: dict) -> list[dict]:
    actual, _, log, arranged = examples._play_turn(check)
    names = _names(check, len(arranged["stocks"]))
    me = names[0]

    def table(state, events=()):
        changed = {e["pile"] for e in events if e["type"] in ("play", "complete")}
        return _table(state, [_player(state, 0, me)], changed=changed)

    hand = arranged["hands"][0]
    steps = [
        _step(
            f"{me} ist am Zug und hat {_cards(len(hand))} auf der Hand.",
            [f"Oben auf dem Spielerstapel liegt {card_acc(arranged['stocks'][0][-1])}."],
            table(arranged),
        )
    ]
    for move, events, state in log:
        said = [_words(e, names) for e in events if e["type"] in SHOWN and e.get("seat", 0) == 0]
        said = [sentence for sentence in said if sentence]
        end = next((e for e in events if e["type"] == "round_end"), None)
        if end is not None and 0 in end["winners"]:
            said.append(f"Damit hat {me} gewonnen – die übrigen Karten zählen nicht mehr.")
        if move == "start" and not said:
            said = [f"{me} hat schon fünf Karten und zieht nichts nach."]
        steps.append(_step(said[0], said[1:], table(state, events)))
    return steps


# --- build: does this card fit on that pile? -------------------------------------------------------


def _build_steps(check: dict) -> list[dict]:
    state, code, index = examples._build_position(check)
    names = _names(check, 2)
    me, pile_name = names[0], PILES[index]
    pile = state["build"][index]

    def table(now, changed=()):
        return _table(now, [_player(now, 0, me, discards=False)], changed=changed, draw=False)

    if pile:
        ranks = ", ".join(_rank_name(c) for c in pile)
        first = f"Auf Baustapel {pile_name} liegen {ranks}."
        needs = len(pile) + 1
        lines = [f"Als Nächstes gehört eine {value_name(needs)} oder ein König darauf."]
        kings = [
            f"Der König an {position}. Stelle steht dort für "
            f"{card_acc(engine.RANKS[position - 1] + 'H')}."
            for position, c in enumerate(pile, start=1)
            if c[:-1] == "K"
        ]
        lines[:0] = kings
        if needs == engine.rules.TOP_VALUE:
            lines[-1] = "Als Nächstes gehört die Dame darauf – oder ein König an ihrer Stelle."
    else:
        first = "Alle vier Plätze in der Mitte sind frei."
        lines = ["Einen neuen Baustapel beginnt nur ein Ass oder ein König."]
    lines.append(f"{me} hat {card_acc(code)} auf der Hand.")
    steps = [_step(first, lines, table(state))]
    try:
        after, events = engine.apply(
            state, 0, {"type": "play", "source": "hand", "card": code, "pile": index}
        )
    except IllegalAction as refusal:
        steps.append(
            _step(
                f"{me} möchte {card_acc(code)} auf Baustapel {pile_name} legen – das geht nicht.",
                [f"Die Engine lehnt ab: „{refusal}“"],
                table(state),
            )
        )
        return steps
    # The hand's one card is gone then; the refill after it is not the example's point.
    said = [_words(e, names) for e in events if e["type"] in ("play", "complete")]
    if not any(e["type"] == "complete" for e in events):
        said.append(f"Baustapel {pile_name} zeigt jetzt {value_name(len(after['build'][index]))}.")
    steps.append(_step(said[0], said[1:], table(after, {index})))
    return steps


# --- end: the draw pile runs out ----------------------------------------------------------------


def _stock_lines(state: dict, names: list[str]) -> list[str]:
    lines = [
        f"{name}: {_cards(len(state['stocks'][s]))} im Spielerstapel"
        for s, name in enumerate(names)
    ]
    if state["teams"]:
        for side in state["sides"]:
            left = sum(len(state["stocks"][s]) for s in side)
            partners = " und ".join(names[s] for s in side)
            lines.append(f"{partners} zusammen: {_cards(left)}")
    return lines


def _others(state: dict, names: list[str], *, points=None) -> list[dict]:
    return [
        _player(
            state,
            seat,
            name,
            hand=False,
            discards=False,
            points=None if points is None else points[seat],
        )
        for seat, name in enumerate(names)
    ]


def _end_steps(check: dict) -> list[dict]:
    names, before, after, events = examples._play_end(check)
    end = next(e for e in events if e["type"] == "round_end")
    discard = next(e for e in events if e["type"] == "discard")
    mover = names[1]
    table = _table(before, _others(before, names), build=False)
    return [
        _step(
            "Der Kartenstock ist leer, und in der Mitte liegt kein Baustapel mehr.",
            _stock_lines(before, names),
            table,
        ),
        _step(
            _words(discard, names),
            [f"Jetzt ist {mover} am Zug und müsste nachziehen – es gibt aber nichts mehr."],
            _table(after, _others(after, names), build=False),
        ),
        _step(
            _words(end, names),
            _stock_lines(after, names),
            _table(after, _others(after, names, points=end["points"]), build=False),
        ),
    ]


# --- score: points for the winner -------------------------------------------------------------------


def _score_steps(check: dict) -> list[dict]:
    names, before, after, events = examples._play_score(check)
    winner = names[0]
    played = next(e for e in events if e["type"] == "play")
    end = next(e for e in events if e["type"] == "round_end")
    over = next((e for e in events if e["type"] == "game_over"), None)
    others = sum(len(before["stocks"][s]) for s in range(1, len(names)))
    standing = ", ".join(f"{name} {after['scores'][s]}" for s, name in enumerate(names))
    start_lines = _stock_lines(before, names)[1:]
    if any(before["scores"]):
        start_lines.append(
            "Punkte bisher: "
            + ", ".join(f"{name} {before['scores'][s]}" for s, name in enumerate(names))
            + "."
        )
    steps = [
        _step(
            f"{winner} hat nur noch eine Karte im Spielerstapel: "
            f"{card_acc(before['stocks'][0][-1])}.",
            start_lines,
            _table(before, _others(before, names, points=before["scores"]), draw=False),
        ),
        _step(
            _words(played, names),
            [_words(e, names) for e in events if e["type"] == "stock_empty"],
            _table(after, _others(after, names), changed={played["pile"]}, draw=False),
        ),
        _step(
            _words(end, names),
            [
                f"Das sind {engine.rules.WIN_POINTS} + {engine.rules.POINTS_PER_CARD} × "
                f"{others} = {max(end['points'])} Punkte.",
                f"Stand: {standing}.",
            ],
            _table(after, _others(after, names, points=after["scores"]), build=False),
        ),
    ]
    if over is not None:
        steps.append(
            _step(
                _words(over, names),
                table=_table(after, _others(after, names, points=after["scores"]), build=False),
            )
        )
    return steps


STEPS = {"turn": _turn_steps, "build": _build_steps, "end": _end_steps, "score": _score_steps}


def example_steps(check: dict) -> list[dict] | None:
    """A checked example as steps (None for kinds without a step-through)."""
    steps = STEPS.get(check.get("kind"))
    return steps(check) if steps else None
