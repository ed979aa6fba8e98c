"""Kätzchen-Angeln's exercises („Üben“, see ``exercises.kinds``).

Kind ``catch``: the table and the card you (or your opposite) are about to flip. Tap
the table card where the catch starts – with a Jack the whole table – or „Nichts“
when the card stays. The engine flips it (``examples.flip_position``) and says what
it won.
"""

from __future__ import annotations

from exercises.kinds import ExerciseKind, Verdict
from games.engines import kaetzchen as engine
from games.example_fields import Cards, Pick, Text, YesNo
from games.play.kaetzchen.board import card_context
from games.play.kaetzchen.examples import flip_event, flip_position, flipper
from games.play.kaetzchen.presenter import ARTICLE, event_text, result_text

NOTHING = "nichts"
CARD_HELP = "Karten wie 9C, JD, 10S (Rang und Farbe C/D/H/S), durch Leerzeichen getrennt."
ANSWER_HELP = (
    "„tisch:1“ (die erste Karte links auf dem Tisch, „tisch:2“ die zweite …) oder „nichts“."
)


def _flip(setup: dict) -> tuple[dict, dict]:
    state, events = engine.apply(flip_position(setup), flipper(setup), {"type": "flip"})
    return state, flip_event(events)


def intended(setup: dict) -> str:
    """The token of what the flip really does."""
    result = engine.resolve_flip(list(setup["table"]), setup["card"])
    if result["kind"] == "stay":
        return NOTHING
    return f"tisch:{list(setup['table']).index(result['won'][0]) + 1}"


def judge(setup: dict, token: str) -> Verdict:
    state, flip = _flip(setup)
    result = engine.resolve_flip(list(setup["table"]), setup["card"])
    happened = [
        event_text({"type": "flip", "seat": flipper(setup), "card": setup["card"]}, ARTICLE),
        event_text(flip, ARTICLE),
    ]
    if result["kind"] != "stay":
        happened.append("Gewonnen: " + ", ".join(engine.card_label(c) for c in result["won"]) + ".")
    if state["result"] is not None:
        happened.append(result_text(state["result"], ARTICLE))
    right = intended(setup)
    if token == right:
        return Verdict(True, "", tuple(happened))
    if result["kind"] == "stay":
        why = "bleibt"
    elif token == NOTHING:
        why = "bube" if result["kind"] == "jack" else "angelt"
    else:
        why = "bube" if result["kind"] == "jack" else "andere_karte"
    return Verdict(False, why, tuple(happened))


def board(setup: dict) -> dict:
    table = list(setup.get("table", []))
    who = flipper(setup)
    return {
        "table": [
            {**card_context(code), "token": f"tisch:{index}"}
            for index, code in enumerate(table, start=1)
        ],
        "card": card_context(setup["card"]),
        "yours": who == 0,
        "last_card": bool(setup.get("last_card")),
        "nothing": NOTHING,
    }


def parse(data) -> str | None:
    token = str(data.get("antwort", "")).strip()
    if token == NOTHING or (token.startswith("tisch:") and token[6:].isdigit()):
        return token
    return None


def solution(setup: dict, token: str) -> dict:
    return {"token": token}


EXERCISES = {
    "catch": ExerciseKind(
        "Was angelt die Karte?",
        position=(
            Cards("table", "Auf dem Tisch", CARD_HELP),
            Text("card", "Aufgedeckte Karte", "Eine Karte, z. B. 9C."),
            Pick(
                "by", "Wer deckt auf", optional=True, choices=(("you", "du"), ("cat", "Gegenüber"))
            ),
            YesNo("last_card", "Letzte Karte des Stapels", optional=True),
        ),
        reasons=(
            ("bleibt", "Nichts passt – die Karte bleibt liegen"),
            ("angelt", "Die Karte angelt etwas"),
            ("bube", "Der Bube räumt den ganzen Tisch ab"),
            ("andere_karte", "Der Fang beginnt bei einer anderen Karte"),
        ),
        board=board,
        parse=parse,
        judge=judge,
        template="play/kaetzchen/exercise_board.html",
        answer_help=ANSWER_HELP,
        solution=solution,
    ),
}
