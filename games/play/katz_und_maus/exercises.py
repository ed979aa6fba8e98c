"""Katz und Maus's exercises („Üben“, see ``exercises.kinds``).

Kind ``move``: your turn in a running game of two – the build piles in the middle, your
stock's top card, your hand and your discard piles. Choose a card (stock, hand or the
top of a discard pile), then where it goes: a build pile A–D, or – with a hand card –
one of your discard piles, which ends the turn. The goal says what counts:

- ``legal``: any move the engine allows;
- ``complete``: a move that completes a build pile (its Queen, or a King standing
  for it);
- ``free_stock``: a move after which your stock's top card fits on a build pile;
- ``stock``: a move that plays your stock's top card.

Cards are written as ranks (suits are handed out, ``examples._Cards``).
"""

from __future__ import annotations

from exercises.kinds import ExerciseKind, Verdict
from games.engines import katz_und_maus as engine
from games.engines.base import IllegalAction
from games.example_fields import CardRows, Cards, Pick
from games.play.katz_und_maus.examples import PILES, _Cards, _parse_move, _rank
from games.play.katz_und_maus.presenter import card, card_acc, value_name

ANSWER_HELP = "„stock:A“, „hand:7:A“, „discard:1:A“ (Ablage 1 auf Stapel A) oder „end:Q:2“ (die Dame auf Ablage 2, Zugende)."
RANKS = "Ränge A, 2 … 10, J, Q, K, durch Leerzeichen getrennt; unten zuerst."
PILE_ROWS = "Eine Zeile je Stapel, Ränge durch Leerzeichen, unten zuerst; „–“ für leer."
GOALS = (
    ("legal", "jeder erlaubte Zug"),
    ("complete", "ein Zug, der einen Ablagestapel fertig macht"),
    ("free_stock", "ein Zug, nach dem die Stapelkarte passt"),
    ("stock", "die Stapelkarte spielen"),
)


def _position(setup: dict) -> dict:
    cards = _Cards()
    build = [cards.cards(pile) for pile in setup.get("build", [])]
    build += [[] for _ in range(4 - len(build))]
    stock = cards.cards(setup["stock"])
    hand = cards.cards(setup.get("hand", []))
    discards = [cards.cards(pile) for pile in setup.get("discards", [])]
    discards += [[] for _ in range(4 - len(discards))]
    return engine.arrange(
        2,
        stocks=[stock, cards.cards(["9"] * 5)],
        hands=[hand, []],
        discards=[discards, [[] for _ in range(4)]],
        build=build,
    )


def _move(state: dict, token: str) -> dict | None:
    try:
        return _parse_move(token, state, 0)
    except (StopIteration, ValueError, IndexError):
        return None


def _fits_somewhere(state: dict) -> bool:
    stock = state["stocks"][0]
    return bool(stock) and any(engine.fits(stock[-1], pile) for pile in state["build"])


def _sentence(state: dict, token: str, events: list[dict]) -> list[str]:
    lines = []
    for event in events:
        if event["type"] == "play":
            lines.append(
                f"Du legst {card_acc(event['card'])} auf Baustapel {event['pile'] + 1} "
                f"(zählt dort als {value_name(event['value'])})."
            )
        elif event["type"] == "complete":
            lines.append("Der Baustapel ist fertig und verlässt die Mitte.")
        elif event["type"] == "discard":
            lines.append(
                f"Du legst {card_acc(event['card'])} auf deinen Ablagestapel {event['pile'] + 1}; "
                "dein Zug ist vorbei."
            )
    return lines


def judge(setup: dict, token: str) -> Verdict:
    state = _position(setup)
    action = _move(state, token)
    if action is None:
        return Verdict(False, "verboten", ("Diese Karte hast du dort nicht.",))
    try:
        after, events = engine.apply(state, 0, action)
    except IllegalAction as error:
        return Verdict(False, "verboten", (str(error),))
    happened = _sentence(state, token, events)
    goal = setup.get("goal", "legal")
    if goal == "complete" and not any(e["type"] == "complete" for e in events):
        return Verdict(False, "nicht_fertig", (*happened, "Kein Baustapel wurde fertig."))
    if goal == "stock" and not token.startswith("stock:"):
        return Verdict(
            False, "nicht_stapel", (*happened, "Die Karte auf deinem Spielerstapel liegt noch da.")
        )
    if goal == "free_stock" and not _fits_somewhere(after):
        top = card_acc(after["stocks"][0][-1]) if after["stocks"][0] else ""
        return Verdict(
            False,
            "stapel_passt_nicht",
            (*happened, f"Für {top} auf deinem Spielerstapel ist danach noch kein Platz."),
        )
    return Verdict(True, "", tuple(happened))


def board(setup: dict) -> dict:
    state = _position(setup)
    stock = state["stocks"][0]
    return {
        "build": [
            {
                "letter": PILES[index],
                "top": card(pile[-1]) if pile else None,
                "value": len(pile),
                "needs": value_name(len(pile) + 1) if len(pile) < 12 else "",
            }
            for index, pile in enumerate(state["build"])
        ],
        "stock": {**card(stock[-1]), "source": "stock", "count": len(stock)} if stock else None,
        "hand": [
            {**card(code), "source": f"hand:{_rank(code)}", "key": f"{index}"}
            for index, code in enumerate(state["hands"][0])
        ],
        "discards": [
            {
                "number": index + 1,
                "target": f"ablage:{index + 1}",
                "top": {**card(pile[-1]), "source": f"discard:{index + 1}"} if pile else None,
                "count": len(pile),
            }
            for index, pile in enumerate(state["discards"][0])
        ],
    }


def parse(data) -> str | None:
    source = str(data.get("quelle", "")).strip()
    target = str(data.get("antwort", "")).strip()
    if not source:
        return None
    if target in PILES and len(target) == 1:
        return f"{source}:{target}"
    if target.startswith("ablage:") and source.startswith("hand:"):
        return f"end:{source[5:]}:{target[7:]}"
    return None


def solution(setup: dict, token: str) -> dict:
    parts = token.split(":")
    if parts[0] == "end":
        return {"source": f"hand:{parts[1]}", "target": f"ablage:{parts[2]}"}
    return {"source": ":".join(parts[:-1]), "target": parts[-1]}


EXERCISES = {
    "move": ExerciseKind(
        "Ein Zug",
        position=(
            CardRows("build", "Ablagestapel in der Mitte", PILE_ROWS, optional=True),
            Cards("stock", "Eigener Stapel", RANKS),
            Cards("hand", "Hand", RANKS),
            CardRows("discards", "Eigene Ablagen", PILE_ROWS, optional=True),
            Pick("goal", "Richtig ist", choices=GOALS),
        ),
        reasons=(
            ("verboten", "Die Engine erlaubt den Zug nicht"),
            ("nicht_fertig", "Erlaubt, aber kein Stapel wird fertig"),
            ("nicht_stapel", "Erlaubt, aber die Stapelkarte bleibt liegen"),
            ("stapel_passt_nicht", "Erlaubt, aber die Stapelkarte passt danach nicht"),
        ),
        board=board,
        parse=parse,
        judge=judge,
        template="play/katz_und_maus/exercise_board.html",
        answer_help=ANSWER_HELP,
        solution=solution,
    ),
}
