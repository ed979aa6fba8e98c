"""Alpaka's exercises („Üben“, see ``exercises.kinds``).

Kind ``turn``: you (the first player) are to move in a running round – hands, the
discard pile's top, the next cards of the draw pile, who quit already. Tap a hand card
to lay it, the draw pile to draw, or „Aussteigen“. The goal says what counts:

- ``legal``: any move the engine allows (it refuses the others with its reason);
- ``play``: a card the engine lets you lay (drawing or quitting is no answer);
- ``lowest``: the move after which your hand costs the fewest minus points (the
  engine plays every allowed move and counts, ``rules.hand_score``).
"""

from __future__ import annotations

from exercises.kinds import ExerciseKind, Verdict
from games.engines import alpaka
from games.engines.alpaka import texts
from games.engines.base import IllegalAction
from games.example_fields import CardRows, Cards, Names, Pick, Text
from games.play.alpaka.examples import _state
from games.play.alpaka.presenter import card

DRAW, QUIT = "draw", "quit"
ANSWER_HELP = "„play:5“ (die 5 ablegen), „play:A“, „draw“ (ziehen) oder „quit“ (aussteigen)."


def _position(setup: dict) -> dict:
    names = list(setup["players"])
    state = _state(
        names,
        setup["hands"],
        setup["top"],
        variant=setup.get("variant", alpaka.CLASSIC),
        draw=setup.get("draw", ()),
    )
    for name in setup.get("quit", []):
        state["quit"][names.index(name)] = True
    return state


def _action(token: str) -> dict | None:
    kind, _, value = token.partition(":")
    if kind == "play" and value in alpaka.CARDS:
        return {"type": "play", "card": value}
    if token in (DRAW, QUIT):
        return {"type": token}
    return None


def _points_after(state: dict, action: dict) -> tuple[int, dict]:
    after, _ = alpaka.apply(state, 0, action)
    return alpaka.hand_score(after["hands"][0]), after


def _move_sentence(state: dict, action: dict, after: dict) -> str:
    if action["type"] == "play":
        return (
            f"Du legst {texts.card_the(action['card'])} auf {texts.card_the(state['discard'][-1])}."
        )
    if action["type"] == DRAW:
        drawn = [c for c in after["hands"][0]]
        for c in state["hands"][0]:
            drawn.remove(c)
        return f"Du ziehst {texts.card_the(drawn[0]) if drawn else 'eine Karte'}."
    return "Du steigst aus; deine Handkarten zählen bei der Wertung."


def _points_text(points: int) -> str:
    return "1 Minuspunkt" if points == 1 else f"{points} Minuspunkte"


def judge(setup: dict, token: str) -> Verdict:
    state = _position(setup)
    action = _action(token)
    if action is None:
        return Verdict(False, "verboten", ("Diesen Zug gibt es nicht.",))
    try:
        points, after = _points_after(state, action)
    except IllegalAction as error:
        return Verdict(False, "verboten", (str(error),))
    happened = [_move_sentence(state, action, after)]
    goal = setup.get("goal", "legal")
    if goal == "legal":
        return Verdict(True, "", tuple(happened))
    if goal == "play":
        if action["type"] != "play":
            return Verdict(False, "keine_karte", (*happened, "Gefragt war eine Karte zum Ablegen."))
        return Verdict(True, "", tuple(happened))
    options = {}
    for legal in alpaka.legal_actions(state, 0):
        options[_token(legal)] = _points_after(state, legal)[0]
    best = min(options.values())
    happened.append(f"Deine Hand ist danach {_points_text(points)} wert.")
    if points > best:
        cheapest = [t for t, p in options.items() if p == best]
        happened.append(f"Mit {_label(cheapest[0])} wären es nur {_points_text(best)}.")
        return Verdict(False, "teurer", tuple(happened))
    return Verdict(True, "", tuple(happened))


def _token(action: dict) -> str:
    return f"play:{action['card']}" if action["type"] == "play" else action["type"]


def _label(token: str) -> str:
    if token.startswith("play:"):
        return texts.card_the(token[5:])
    return {"draw": "Ziehen", "quit": "Aussteigen"}[token]


def board(setup: dict) -> dict:
    names = list(setup["players"])
    quit_names = set(setup.get("quit", []))
    state = _position(setup)
    hand = alpaka.rules.sort_cards(setup["hands"][0])
    return {
        "hand": [{**card(code), "token": f"play:{code}"} for code in hand],
        "top": card(setup["top"]),
        "draw_count": len(state["draw_pile"]),
        "others": [
            {"name": name, "count": len(setup["hands"][seat]), "quit": name in quit_names}
            for seat, name in enumerate(names)
            if seat
        ],
        "englert": setup.get("variant") == alpaka.ENGLERT,
    }


def parse(data) -> str | None:
    token = str(data.get("antwort", "")).strip()
    return token if _action(token) is not None else None


EXERCISES = {
    "turn": ExerciseKind(
        "Dein Zug",
        position=(
            Names("players", "Spieler", "Du zuerst, dann die anderen in Sitzreihenfolge."),
            CardRows("hands", "Handkarten", "Eine Zeile je Spieler, deine zuerst."),
            Text("top", "Oben auf dem Ablagestapel", "Eine Karte: 1–6 oder A."),
            Cards(
                "draw",
                "Als Nächstes gezogen",
                "Die obersten Karten des Nachziehstapels.",
                optional=True,
            ),
            Names("quit", "Schon ausgestiegen", optional=True),
            Pick(
                "variant",
                "Regel",
                optional=True,
                choices=(("klassisch", "klassisch"), ("englert", "mit Englert-Zusatzregel")),
            ),
            Pick(
                "goal",
                "Richtig ist",
                choices=(
                    ("legal", "jeder erlaubte Zug"),
                    ("play", "jede Karte, die abgelegt werden darf"),
                    ("lowest", "der Zug mit den wenigsten Minuspunkten auf der Hand"),
                ),
            ),
        ),
        reasons=(
            ("verboten", "Die Engine erlaubt den Zug nicht"),
            ("keine_karte", "Erlaubt, aber keine Karte abgelegt"),
            ("teurer", "Erlaubt, aber danach kostet die Hand mehr"),
        ),
        board=board,
        parse=parse,
        judge=judge,
        template="play/alpaka/exercise_board.html",
        answer_help=ANSWER_HELP,
        solution=lambda setup, token: {"token": token},
    ),
}
