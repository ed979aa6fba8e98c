"""Katz und Maus's one record: everything the shared layers need to show and run the game.

Players are chosen by the number of bots in the demo and by the seats in a
room; the engine decides which settings fit that many players (teams only with
4 or 6, a stock no larger than the deck allows). ``engine_options`` turns the
form's choices into the engine's options and refuses, in German, what the
engine would refuse – the demo and rooms show that message and deal nothing.
"""

from __future__ import annotations

from games.engines import katz_und_maus as km
from games.engines.base import IllegalAction
from games.play import driver
from games.play.definition import Choice, DemoExtra, DemoSpec, GameDefinition, Option

from . import coach, example_fields, examples, exercises, presenter, statistics, steps

ALONE, TEAMS = "allein", "team"
# When the draw pile is used up: the source's end of game, or our variant.
SOURCE_END, RESHUFFLE = "end", "recycle"
STANDARD = 0  # the engine's stock size for the player count


def engine_options(options: dict, bots: set[int]) -> dict:
    """The chosen settings -> the engine's options; ``IllegalAction`` when they
    do not fit the number of players at the table."""
    players = len(options.get("names") or ())
    teams = options.get("teams") == TEAMS
    if teams and players not in (4, 6):
        raise IllegalAction(
            f"Im Team spielt ihr nur zu viert oder zu sechst – am Tisch sind {players}. "
            "Wähle „Jeder für sich“ oder ändere die Zahl der Spieler."
        )
    stock = options.get("stock_size") or STANDARD
    if stock and players and stock > km.max_stock(players):
        raise IllegalAction(
            f"Mit {players} Spielern hat ein Spielerstapel höchstens {km.max_stock(players)} "
            "Karten – wähle einen kleineren."
        )
    return {
        "teams": teams,
        "stock_size": stock or None,
        "match": options.get("match", "single"),
        "completed": options.get("completed", "shuffle"),
        "empty_draw": options.get("empty_draw", SOURCE_END),
    }


def _faster(row, data):
    """„Schneller“ in the demo: the bots play the rest of their turns at once."""
    if row.state is None:
        raise IllegalAction(driver.START_FIRST)
    table = driver.table_of(KATZ_UND_MAUS, row)
    steps = 0
    while steps < MAX_FAST_STEPS and table.advance(driver.game_now(row), force_bot=True):
        steps += 1
    if not steps:
        raise IllegalAction(driver.NOT_BOTS_TURN)
    driver.store(row, table)
    return {}


MAX_FAST_STEPS = 500  # far more than any bot turns between two of the reader's turns

KATZ_UND_MAUS = GameDefinition(
    key="katz_und_maus",
    slug="katz-und-maus",
    title="Katz und Maus",
    module=km,
    present=presenter.present,
    parse_action=presenter.parse_action,
    table_template="play/katz_und_maus/table.html",
    head_template="play/katz_und_maus/head.html",
    options=(
        Option(
            key="teams",
            label="Spielweise",
            choices=(
                Choice(ALONE, "Jeder für sich", "Wer zuerst den Spielerstapel leert, gewinnt."),
                Choice(
                    TEAMS,
                    "Teams",
                    "Nur zu viert oder zu sechst: Partner sitzen gegenüber und gewinnen gemeinsam.",
                ),
            ),
            default=ALONE,
        ),
        Option(
            key="match",
            label="Partie",
            choices=(
                Choice("single", "Ein Spiel", "Wer zuerst fertig ist, gewinnt."),
                Choice("500", "Bis 500 Punkte", "25 Punkte plus 5 je Karte der anderen."),
            ),
            default="single",
        ),
        Option(
            key="stock_size",
            label="Spielerstapel",
            choices=(
                Choice(STANDARD, "Standard", "20 Karten zu zweit, weniger mit mehr Spielern"),
                Choice(10, "10 Karten"),
                Choice(15, "15 Karten"),
                Choice(20, "20 Karten"),
                Choice(25, "25 Karten"),
                Choice(30, "30 Karten"),
            ),
            default=STANDARD,
        ),
        Option(
            key="completed",
            label="Fertige Baustapel",
            choices=(
                Choice("shuffle", "Unter den Stapel", "gemischt unter den Kartenstock"),
                Choice("remove", "Aus dem Spiel", "Der Kartenstock wird schneller leer."),
            ),
            default="shuffle",
        ),
        Option(
            key="empty_draw",
            label="Kartenstock aufgebraucht",
            choices=(
                Choice(
                    SOURCE_END,
                    "Spiel endet",
                    "Regel der Quelle: die wenigsten Karten im Spielerstapel gewinnen.",
                ),
                Choice(
                    RESHUFFLE,
                    "Variante: Baustapel mischen",
                    "Unsere Variante: Die Baustapel werden zum neuen Kartenstock.",
                ),
            ),
            default=SOURCE_END,
        ),
    ),
    timer_seconds=presenter.timer_seconds,
    opening_events=presenter.opening_events,
    bot_names=("Paco", "Minka", "Pieps", "Lotte", "Krümel"),
    bot_delay=(0.6, 0.9),
    rooms=True,
    # A hint changes what the partner sees, not what anyone may do: the player on
    # turn keeps moving against the version shown before it.
    side_events=frozenset({"hint"}),
    lobby_hint=(
        "Wer zuerst am Tisch saß, gibt; der Platz danach beginnt. Im Team sitzen Partner "
        "einander gegenüber (zu viert Platz 1 und 3, zu sechst Platz 1 und 4)."
    ),
    demo=DemoSpec(
        template="play/demo.html",
        bot_counts=(1, 2, 3, 4, 5),
        default_bots=1,
        # Any version: it only fast-forwards the bots, whatever the page showed.
        extras={"schneller": DemoExtra(run=_faster, versioned=False)},
    ),
    coach=coach.COACH,
    verifiers=examples.VERIFIERS,
    example_fields=example_fields.EXAMPLE_FIELDS,
    exercises=exercises.EXERCISES,
    example_steps=steps.example_steps,
    example_step_template="play/katz_und_maus/example_step.html",
    statistics_template="play/katz_und_maus/statistics.html",
    statistics=lambda: statistics.load(),  # looked up per call (tests replace ``load``)
    engine_options=engine_options,
)
