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
from games.play.wording import join_names

from . import coach, example_fields, examples, exercises, presenter, statistics, steps

CHEAT_ON = "an"
CHEAT_OFF = "aus"

# Two players: which four moods leave the game, for the whole game. By chance they stay
# secret until the first reveal; a set the host picks is known to everyone at the table.
BY_CHANCE = "zufall"
REMOVED_SETS = {
    # one mood of four pairs with similar colours: the rest are easier to tell apart
    "farben": ("verwirrt", "frech", "traurig", "albern"),
    "gute-laune": ("grimmig", "erschrocken", "traurig", "beleidigt"),
}


def _without(key: str) -> str:
    """„ohne verwirrt, frech, traurig und albern“: the hint of a removed set."""
    return "ohne " + join_names([the_cat.MOOD_NAMES[mood] for mood in REMOVED_SETS[key]])


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
        "removed": list(REMOVED_SETS.get(options.get("removed", BY_CHANCE), ())) or None,
        # The record says which bots played, so its replay repeats them (see the
        # migration that marks older records with the first bots).
        "bots_version": the_cat.BOTS_VERSION,
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
                Choice(the_cat.DEFAULT_TARGET, "bis 20 Punkte", "laut Regelbeschreibung"),
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
            key="removed",
            label="Zu zweit aus dem Spiel",
            choices=(
                Choice(BY_CHANCE, "Zufall", "vier Launen, geheim bis zur ersten Auflösung"),
                *(
                    Choice(key, label, _without(key))
                    for key, label in (
                        ("farben", "ähnliche Farben"),
                        ("gute-laune", "nur gute Laune"),
                    )
                ),
            ),
            default=BY_CHANCE,
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
    coach=coach.COACH,
    poll_ms=500,
    verifiers=examples.VERIFIERS,
    example_fields=example_fields.EXAMPLE_FIELDS,
    exercises=exercises.EXERCISES,
    example_steps=steps.example_steps,
    example_step_template="play/the_cat/example_step.html",
    statistics_template="play/the_cat/statistics.html",
    statistics=lambda: statistics.load(),  # looked up per call (tests replace ``load``)
)
