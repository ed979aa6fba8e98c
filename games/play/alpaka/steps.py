"""Alpaka's worked examples step by step, as the engine plays them.

``example_steps(check)`` builds the same positions as the verifiers in
``examples.py``, lets the engine act and turns its events into steps worded by
the presenter (``describe``). Each step: ``title``, ``lines`` and what
``play/alpaka/example_step.html`` draws – the open card and the players' hands
and chips.
"""

from __future__ import annotations

from games.engines import alpaka
from games.engines.alpaka import texts
from games.engines.base import IllegalAction
from games.play.alpaka import examples
from games.play.alpaka.presenter import VARIANT_LABELS, card, chips, describe

ME = ["Du", "B"]  # positions of one player: worded as „du“ (seat 0)
ACTION_WORDS = {"play": "ablegen", "draw": "ziehen", "quit": "aussteigen"}


def _hand(name, codes, *, out=False, chip_counts=None) -> dict:
    """One player's row; ``codes`` None: the hand is not shown."""
    cards = [card(code) for code in codes or ()]
    label = ", ".join(c["label"] for c in cards) if cards else "keine Karten"
    return {
        "name": name,
        "cards": cards,
        "label": "" if codes is None else label,
        "out": out,
        "chips": chips(chip_counts) if chip_counts is not None else None,
    }


def _table(state: dict, seats, *, names=None, show_chips=True, show_cards=True) -> dict:
    """The open card and the hands of ``seats`` (with their chips if ``show_chips``)."""
    names = names or state["names"]
    return {
        "top": card(state["discard"][-1]),
        "hands": [
            _hand(
                names[seat],
                state["hands"][seat] if show_cards else None,
                out=state["quit"][seat] and show_cards,
                chip_counts=state["chips"][seat] if show_chips else None,
            )
            for seat in seats
        ],
    }


def _scored(state: dict, seats, *, show_cards=True) -> dict:
    """After a scoring: every seat's chips (and the hand that was scored)."""
    return {**_table(state, seats, show_cards=show_cards), "top": None}


def _step(title: str, lines=(), table: dict | None = None) -> dict:
    return {"title": title, "lines": [line for line in lines if line], **(table or {})}


def _variant_line(variant: str) -> str:
    return f"Regelwerk: {VARIANT_LABELS[variant]}."


def _allowed_line(state: dict, seat: int) -> str:
    kinds = []
    for action in alpaka.legal_actions(state, seat):
        word = ACTION_WORDS[action["type"]]
        if word not in kinds:
            kinds.append(word)
    return "Erlaubt sind jetzt: " + texts.join_names(kinds) + "."


# --- round: the moves of a whole round ------------------------------------------


def _round_steps(check: dict) -> list[dict]:
    _, state, log = examples._play_round(check)
    names = state["names"]
    report = {names.index(name) for name in check.get("report", names)}
    seats = range(len(names))
    start = log[0][3]
    first = start["turn"]
    lines = [_variant_line(start["variant"])]
    out = [names[seat] for seat in seats if start["quit"][seat]]
    if out:
        lines.append(f"Schon ausgestiegen: {texts.join_names(out)}.")
    lines.append(
        "Stand vorher: "
        + ", ".join(f"{names[s]} {texts.points(alpaka.points(start)[s])}" for s in seats)
        + "."
    )
    if check.get("ask_draw"):
        try:
            alpaka.apply(start, first, {"type": "draw"})
        except IllegalAction as refusal:
            lines.append(f"Ziehen darf {names[first]} nicht: {refusal}")
    steps = [
        _step(
            f"Oben liegt {texts.card_a(start['discard'][-1])}. {names[first]} ist am Zug.",
            lines,
            _table(start, seats),
        )
    ]
    for _mover, _action, events, after in log[1:]:
        moves = [e for e in events if e["type"] in ("play", "draw", "quit")]
        for event in moves:
            steps.append(
                _step(describe(event, None, names), table=_table(after, seats, show_chips=False))
            )
        end = next((e for e in events if e["type"] == "round_end"), None)
        if end is None:
            continue
        steps.append(
            _step(describe(end, None, names), table=_table(after, seats, show_chips=False))
        )
        scoring = [
            describe(e, None, names, state["target"], chips_paid=True)
            for e in events
            if e["type"] in ("score", "chip_return") and e["seat"] in report
        ]
        steps.append(_step("Die Wertung:", scoring, _scored(after, sorted(report))))
    return steps


# --- play: may this card go on that one? -----------------------------------------


def _play_steps(check: dict) -> list[dict]:
    top, code, variant = check["top"], check["card"], check["variant"]
    other = ["1"] if code != "1" else ["2"]
    state = examples._state(ME, [[code], other], top, variant=variant)
    steps = [
        _step(
            f"Oben liegt {texts.card_a(top)}, du hältst {texts.card_a(code)}.",
            [_variant_line(variant)],
            _table(state, [0], show_chips=False),
        )
    ]
    try:
        after, events = alpaka.apply(state, 0, {"type": "play", "card": code})
    except IllegalAction as refusal:
        steps.append(
            _step(str(refusal), [_allowed_line(state, 0)], _table(state, [0], show_chips=False))
        )
    else:
        played = next(e for e in events if e["type"] == "play")
        steps.append(
            _step(
                describe(played, 0, ME),
                [f"Erlaubt: {texts.card_the(code, capital=True)} passt auf {texts.card_the(top)}."],
                _table(after, [0], show_chips=False),
            )
        )
    return steps


# --- score: what a hand costs ------------------------------------------------------


def _score_steps(check: dict) -> list[dict]:
    hand = list(check["hand"])
    other = ["1"] if "1" not in hand else ["2"]
    state = examples._state(ME, [hand, other], "4")
    state["quit"] = [False, True]
    after, events = alpaka.apply(state, 0, {"type": "quit"})
    quit_event = next(e for e in events if e["type"] == "quit")
    end = next(e for e in events if e["type"] == "round_end")
    score = next(e for e in events if e["type"] == "score" and e["seat"] == 0)
    values = sorted({card(code)["value"] for code in hand})
    return [
        _step(
            "Auf der Hand: " + ", ".join(card(code)["label"] for code in hand) + ".",
            table=_table(state, [0], show_chips=False),
        ),
        _step(
            describe(quit_event, 0, ME),
            [describe(end, 0, ME)],
            _table(after, [0], show_chips=False),
        ),
        _step(
            describe(score, 0, ME, chips_paid=True),
            ["Jede Zahl zählt nur einmal: " + " + ".join(map(str, values)) + "."],
            _scored(after, [0]),
        ),
    ]


# --- chips: a round ended with an empty hand -----------------------------------------


def _chips_steps(check: dict) -> list[dict]:
    before = {"black": check["black"], "white": check["white"]}
    state = examples._state(ME, [["5"], ["1"]], "4", points=[alpaka.rules.chip_points(before), 0])
    state["chips"][0] = before
    after, events = alpaka.apply(state, 0, {"type": "play", "card": "5"})
    played = next(e for e in events if e["type"] == "play")
    end = next(e for e in events if e["type"] == "round_end")
    paid = [
        describe(e, 0, ME, chips_paid=True)
        for e in events
        if e["type"] in ("score", "chip_return") and e["seat"] == 0
    ]
    now = alpaka.points(after)[0]
    return [
        _step(
            f"Du hast {texts.chips_accusative(before)} und nur noch eine Karte.",
            table=_table(state, [0]),
        ),
        _step(
            describe(played, 0, ME),
            [describe(end, 0, ME)],
            _table(after, [0], show_chips=False),
        ),
        _step(
            paid[-1],
            [*paid[:-1], f"Du stehst jetzt bei {texts.points(now, dative=True)}."],
            _scored(after, [0], show_cards=False),
        ),
    ]


# --- end: does the game end after this scoring? ------------------------------------------


def _end_steps(check: dict) -> list[dict]:
    names = list(check["points"])
    target = check.get("target", 40)
    totals = [check["points"][name] for name in names]
    state = examples._state(
        names, [["1"] for _ in names], "4", target=target, points=[t - 1 for t in totals]
    )
    for other in range(1, len(names)):
        state["quit"][other] = True
    after, events = alpaka.apply(state, 0, {"type": "quit"})
    seats = range(len(names))
    standing = _scored(after, seats, show_cards=False)
    over = next((e for e in events if e["type"] == "game_over"), None)
    steps = [
        _step(
            "Nach der Wertung: "
            + ", ".join(f"{names[s]} {texts.points(alpaka.points(after)[s])}" for s in seats)
            + ".",
            [f"Die Partie endet, sobald jemand {texts.points(target)} erreicht hat."],
            standing,
        )
    ]
    if over is not None:
        steps.append(_step(describe(over, None, names, target), table=standing))
    else:
        steps.append(
            _step(
                f"Niemand hat {texts.points(target)} erreicht: Es geht mit der nächsten Runde weiter.",
                table=standing,
            )
        )
    return steps


STEPS = {
    "round": _round_steps,
    "play": _play_steps,
    "score": _score_steps,
    "chips": _chips_steps,
    "end": _end_steps,
}


def example_steps(check: dict) -> list[dict] | None:
    """A checked example as steps (None for kinds without a step-through)."""
    steps = STEPS.get(check.get("kind"))
    return steps(check) if steps else None
