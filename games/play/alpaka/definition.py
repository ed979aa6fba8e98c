"""Alpaka's one record: everything the shared layers need to show and run the game."""

from __future__ import annotations

from games.engines import alpaka
from games.play.definition import Choice, DemoSpec, GameDefinition, Option

from . import coach, example_fields, examples, exercises, presenter, statistics, steps

ALPAKA = GameDefinition(
    key="alpaka",
    slug="alpaka",
    title="Alpaka",
    module=alpaka,
    present=presenter.present,
    parse_action=presenter.parse_action,
    table_template="play/alpaka/table.html",
    head_template="play/alpaka/head.html",
    options=(
        Option(
            key="variant",
            label="Regelwerk",
            choices=(
                Choice(
                    alpaka.CLASSIC,
                    "Klassisch",
                    "Gleiche oder nächsthöhere Karte; jeder zahlt für seine Hand.",
                ),
                Choice(
                    alpaka.ENGLERT,
                    "Englert-Zusatzregel",
                    "Auch die nächstniedrigere Karte passt; nur die teuerste Hand zahlt.",
                ),
            ),
            default=alpaka.CLASSIC,
        ),
        Option(
            key="target",
            label="Zielpunktzahl",
            choices=(
                Choice(20, "20 Punkte", "schnelle Partie"),
                Choice(40, "40 Punkte", "wie in der Spielregel"),
                Choice(60, "60 Punkte", "etwas länger"),
                Choice(80, "80 Punkte", "langer Abend"),
            ),
            default=40,
        ),
    ),
    timer_seconds=presenter.timer_seconds,
    opening_events=presenter.opening_events,
    bot_names=("Flocke", "Paco", "Wolle", "Lotte", "Kasimir", "Nube", "Pedro", "Mimi"),
    rooms=True,
    lobby_hint="Wer zuerst am Tisch saß, gibt in der ersten Runde.",
    demo=DemoSpec(template="play/demo.html", bot_counts=(1, 2, 3, 4, 5), default_bots=2),
    coach=coach.COACH,
    verifiers=examples.VERIFIERS,
    example_fields=example_fields.EXAMPLE_FIELDS,
    exercises=exercises.EXERCISES,
    example_steps=steps.example_steps,
    example_step_template="play/alpaka/example_step.html",
    statistics_template="play/alpaka/statistics.html",
    statistics=lambda: statistics.load(),  # looked up per call (tests replace ``load``)
)
