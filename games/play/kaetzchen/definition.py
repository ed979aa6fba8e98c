"""Kätzchen-Angeln's one record: the visitor against the computer Kätzchen."""

from __future__ import annotations

from games.engines import kaetzchen
from games.play.definition import DemoExtra, DemoSpec, GameDefinition
from games.play.kaetzchen import (
    board,
    coach,
    example_fields,
    examples,
    exercises,
    statistics,
    steps,
)

KAETZCHEN = GameDefinition(
    key="kaetzchen",
    slug="kaetzchen-angeln",
    title="Kätzchen-Angeln",
    module=kaetzchen,
    present=None,  # the demo draws its own board (no shared table)
    parse_action=lambda data: {"type": "flip"},  # there is nothing else to do
    head_template="play/kaetzchen/head.html",
    bot_names=("Kätzchen",),
    # Kätzchen flips when the page asks for it, after the visitor saw the last flip.
    bot_delay=None,
    demo=DemoSpec(
        template="play/kaetzchen/demo.html",
        partial="game",
        setup=False,
        next_game=board.next_game,
        board=board.board,
        extras={
            "ergebnis": DemoExtra(board.finish, confirm="play/kaetzchen/confirm.html"),
            "auto": DemoExtra(board.auto, versioned=False, htmx_status=204),
            "tempo": DemoExtra(board.speed, versioned=False, htmx_status=204),
        },
        confirm_new="play/kaetzchen/confirm.html",
        profile={"games": 1, "auto": False, "speed": board.DEFAULT_SPEED},
        anchor="kz-demo",
    ),
    coach=coach.COACH,
    verifiers=examples.VERIFIERS,
    example_fields=example_fields.EXAMPLE_FIELDS,
    exercises=exercises.EXERCISES,
    example_steps=steps.example_steps,
    example_step_template="play/kaetzchen/example_step.html",
    statistics_template="play/kaetzchen/statistics.html",
    statistics=lambda: statistics.load(),  # looked up per call (tests replace ``load``)
)
