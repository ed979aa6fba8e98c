"""The Cat's one record: everything the shared layers need to show and run the game.

Everyone plays at once (``SIMULTANEOUS``): the engine checks each action against
the table as it is when the request arrives and runs its bots on its own clock
(``engine_options`` tells it which seats are bots and how fast they are). The
shared demo driver and rooms therefore skip the whole-table version check for
this game's moves.
"""

from __future__ import annotations

from games.engines import the_cat
from games.play.definition import (
    SIMULTANEOUS,
    Choice,
    DemoSpec,
    GameDefinition,
    Option,
)
from games.play.the_cat import examples, presenter, steps

CHEAT_ON = "an"
CHEAT_OFF = "aus"


def engine_options(options: dict, bots: set[int]) -> dict:
    """Room or demo settings plus the bot seats → the engine's options."""
    speed = options.get("speed", "gemuetlich")
    seats = sorted(bots)
    cheater = [seats[0]] if seats and options.get("cheat") == CHEAT_ON else []
    return {
        "target": options.get("target", the_cat.DEFAULT_TARGET),
        "bots": {str(seat): speed for seat in seats},
        "cheater": cheater,
        "round_seconds": presenter.ROUND_SECONDS,
    }


THE_CAT = GameDefinition(
    key="the_cat",
    slug="the-cat",
    title="The Cat",
    module=the_cat,
    present=presenter.present,
    parse_action=presenter.parse_action,
    table_template="play/the_cat/table.html",
    head_template="play/the_cat/head.html",
    mode=SIMULTANEOUS,
    options=(
        Option(
            key="target",
            label="Spiellänge",
            choices=(
                Choice(the_cat.DEFAULT_TARGET, "bis 20 Punkte", "wie im Regelheft"),
                Choice(the_cat.SHORT_TARGET, "kurz: bis 12 Punkte", "für zwischendurch"),
            ),
            default=the_cat.DEFAULT_TARGET,
        ),
        Option(
            key="speed",
            label="Tempo der Bots",
            choices=(
                Choice("gemuetlich", "gemütlich", "etwa alle 3 Sekunden ein Griff"),
                Choice("normal", "normal", "knapp 2 Sekunden"),
                Choice("flink", "flink", "etwa jede Sekunde"),
            ),
            default="gemuetlich",
        ),
        Option(
            key="cheat",
            label="Schummelkatze",
            choices=(
                Choice(CHEAT_OFF, "aus", "Bots rufen nur Stopp, wenn sie recht haben"),
                Choice(
                    CHEAT_ON,
                    "an",
                    "ein Bot ruft manchmal zu früh Stopp – und bekommt dafür 0 Punkte",
                ),
            ),
            default=CHEAT_OFF,
        ),
    ),
    engine_options=engine_options,
    timer_seconds=presenter.timer_seconds,
    bot_names=("Minka", "Tiger", "Pünktchen", "Mautzi", "Findus", "Socke"),
    rooms=True,
    demo=DemoSpec(
        template="play/demo.html",
        bot_counts=(1, 2, 3),
        default_bots=2,
    ),
    poll_ms=500,
    verifiers=examples.VERIFIERS,
    example_steps=steps.example_steps,
    example_step_template="play/the_cat/example_step.html",
)
