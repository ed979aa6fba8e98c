"""What a game's package declares for its exercises, and how the engine judges them.

An exercise is a position the game's engine builds from typed fields (``setup``), a
question, and an answer given by acting on the board: a tap on a card, a pile, a
button such as „Aussteigen“ or „Stopp!“. The board form posts plain fields; the kind
turns them into one answer token (``parse``) – e.g. ``"play:5"`` – and lets the engine
play it (``judge``): a ``Verdict`` says whether the answer does what the question asks,
why not (a reason code of the kind) and what the engine did, in German sentences.

Each game package lists its kinds in ``GameDefinition.exercises`` (kind →
``ExerciseKind``). Editors fill in the position, the intended answer and one intended
wrong answer with its reason; ``check`` (used by the admin and by
``manage.py check_exercises``) runs both through the engine.

No module here imports a game: the registry (``games.play.definition``) is asked.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.example_fields import CheckSchema, Field, Pick, Text
from games.play import definition as registry

ANSWER = "answer"  # the intended answer's token, stored in the setup
WRONG = "wrong"  # an intended wrong answer's token
WHY = "why"  # the wrong answer's reason code, stored in ``expect``
ANSWER_KEYS = (ANSWER, WRONG)


@dataclass(frozen=True)
class Verdict:
    right: bool
    why: str = ""  # a reason code of the kind ("" when right)
    happened: tuple[str, ...] = ()  # what the engine did, worded for the reader


@dataclass(frozen=True)
class ExerciseKind:
    label: str
    position: tuple[Field, ...]  # the typed fields of the position
    reasons: tuple[tuple[str, str], ...]  # (code, what it means) of wrong answers
    board: Callable[[dict], dict]  # setup -> what the board template draws (visible only)
    parse: Callable[[Mapping[str, Any]], str | None]  # posted fields -> answer token
    judge: Callable[[dict, str], Verdict]  # setup, token -> the engine's verdict
    template: str  # draws the board (gets ``board``, ``exercise``, ``solution``)
    answer_help: str = ""  # how tokens are written (for editors)
    # (setup, token) -> what the solution marks on the board (e.g. the card to tap)
    solution: Callable[[dict, str], dict] = lambda setup, token: {}
    schema: CheckSchema = field(init=False)

    def __post_init__(self):
        answer = (
            Text(ANSWER, "Richtige Antwort", self.answer_help),
            Text(WRONG, "Eine falsche Antwort", self.answer_help),
        )
        expect = (Pick(WHY, "Die Engine sagt zur falschen Antwort", choices=self.reasons),)
        object.__setattr__(
            self, "schema", CheckSchema(self.label, check=(*self.position, *answer), expect=expect)
        )

    def reason_label(self, code: str) -> str:
        return dict(self.reasons).get(code, code)


class UnknownKind(LookupError):
    pass


def kind_for(setup: dict | None) -> ExerciseKind:
    setup = setup or {}
    game = registry.get(setup.get("engine", ""))
    kind = game.exercises.get(setup.get("kind", "")) if game else None
    if kind is None:
        raise UnknownKind(f"Keine Übungsart {setup.get('engine')!r}/{setup.get('kind')!r}")
    return kind


def position_of(setup: dict) -> dict:
    """The setup without the intended answers (what a board may be drawn from)."""
    return {key: value for key, value in setup.items() if key not in ANSWER_KEYS}


def judge(setup: dict, token: str) -> Verdict:
    return kind_for(setup).judge(position_of(setup), token)


class ExerciseMismatch(ValueError):
    pass


def check(setup: dict) -> dict:
    """The engine's word on an exercise, shaped like its ``expect`` (``{"why": code}``).

    Raises ``ExerciseMismatch`` when the engine refuses the intended answer or accepts
    the intended wrong one (the message says what the engine did)."""
    right = judge(setup, setup.get(ANSWER, ""))
    if not right.right:
        raise ExerciseMismatch(
            "die richtige Antwort „{}“ gilt laut Engine nicht ({}): {}".format(
                setup.get(ANSWER, ""),
                kind_for(setup).reason_label(right.why),
                " ".join(right.happened),
            )
        )
    wrong = judge(setup, setup.get(WRONG, ""))
    if wrong.right:
        raise ExerciseMismatch(
            "die falsche Antwort „{}“ gilt laut Engine als richtig: {}".format(
                setup.get(WRONG, ""), " ".join(wrong.happened)
            )
        )
    return {WHY: wrong.why}


def mismatch(setup: dict, expect: dict | None) -> str | None:
    """None when the engine agrees with the exercise, else a readable difference."""
    try:
        actual = check(setup)
    except (ExerciseMismatch, UnknownKind, ValueError, KeyError, TypeError) as error:
        return str(error)
    if actual != (expect or {}):
        kind = kind_for(setup)
        return "zur falschen Antwort erwartet „{}“, die Engine sagt „{}“".format(
            kind.reason_label((expect or {}).get(WHY, "")), kind.reason_label(actual[WHY])
        )
    return None
