"""Positions: a step of a replay or the reader's running demo, as something to pass on.

A position is the game's record cut at a step (seed, options and the steps up to
it) plus whose eyes it is seen with (``seat``: 0 for the reader's demo, None for a
replay's public view). „Fehler entdeckt?“ carries a signed reference to one
(``replay_reference``/``demo_reference``); the report stores the position itself
(``resolve``), so editors see the board even after the replay or demo is gone
(``board_html``). „Von hier weiterspielen“ deals a replay's position into the
reader's demo (``continue_in_demo``) where the game allows it.
"""

from __future__ import annotations

from django.core import signing
from django.template.loader import render_to_string

from games.engines.base import IllegalAction
from games.models import DemoGame, Replay
from games.play import definition as registry
from games.play import demo_service, driver, replays
from games.play.definition import GameDefinition
from games.play.table import Table
from games.visitors import visitor_id

SALT = "games.position"
MAX_AGE = 60 * 60 * 24  # a report form left open for a day still attaches its position


def replay_reference(replay: Replay, step: int) -> str:
    return signing.dumps({"r": replay.pk, "s": step}, salt=SALT)


def demo_reference(engine: str) -> str:
    return signing.dumps({"d": engine}, salt=SALT)


def demo_has_position(visitor: str | None, engine: str) -> bool:
    """The visitor has a demo game of ``engine`` with a record (one small query)."""
    if not visitor or not engine:
        return False
    return DemoGame.objects.filter(visitor=visitor, engine=engine, record__isnull=False).exists()


def resolve(reference: str, visitor: str, engine: str) -> dict | None:
    """The position a signed reference names, for a report about game ``engine``."""
    try:
        data = signing.loads(reference, salt=SALT, max_age=MAX_AGE)
    except signing.BadSignature:
        return None
    if "r" in data:
        replay = Replay.objects.filter(pk=data["r"], engine=engine).first()
        if replay is None:
            return None
        step = max(0, min(int(data.get("s", 0)), replay.steps))
        record = {**replay.record, "log": replay.record["log"][:step]}
        return {"engine": engine, "record": record, "seat": None, "replay": replay.pk, "step": step}
    if data.get("d") == engine:
        row = DemoGame.objects.filter(visitor=visitor, engine=engine).first()
        if row is None or not row.record:
            return None
        record = {key: value for key, value in row.record.items() if key != "replay"}
        step = len(record["log"])
        return {"engine": engine, "record": record, "seat": driver.YOU, "step": step}
    return None


def board_html(position: dict | None) -> str:
    """The position drawn with the game's table, as its player (or everyone) saw it."""
    if not position:
        return ""
    definition = registry.get(position.get("engine", ""))
    if definition is None or not definition.replays:
        return ""
    try:
        state = replays.replay_record(definition, position["record"])
    except (IllegalAction, KeyError, ValueError, TypeError):
        return ""
    seat = position.get("seat")
    table = definition.present(
        definition.view(state, seat), bots=set(), hosts=set(), remaining=None, log=[], since=None
    )
    return render_to_string(
        "play/position_board.html",
        {
            "definition": definition,
            "table": table,
            "table_template": definition.table_template,
            "urls": {},
            "version": 0,
            "target_id": "position-board",
            "position": position,
            "seen_by": "die Person, die meldet" if seat is not None else "alle am Tisch",
        },
    )


# --- „Von hier weiterspielen“ ----------------------------------------------------------------


def can_continue(definition: GameDefinition, replay: Replay, step: int) -> bool:
    """The reader takes seat 0, bots the others: turn-based games whose demo allows that
    many bots, while the game still runs. A real-time game's bots and round clock live in
    its engine state (who is a bot, the round's time), so it cannot be resumed that way."""
    demo = definition.demo
    return (
        demo is not None
        and not definition.simultaneous
        and replay.record["players"] - 1 in demo.bot_counts
        and definition.outcome(replays.position(replay, definition, step).state) is None
    )


def continue_in_demo(request, definition: GameDefinition, replay: Replay, at: replays.Position):
    """The reader's demo of this game becomes the position, the reader at seat 0 and bots
    at every other seat. The record keeps the replay's steps, so the new game's own replay
    starts with the same deal."""

    def action(row):
        row.settings = {
            **driver.default_settings(definition),
            **(row.settings or {}),
            "bots": replay.record["players"] - 1,
        }
        row.clock_offset = 0
        row.bot_due = None
        table = Table(
            definition,
            at.state,
            row.version,
            bots=driver.bot_seats(row, definition),
            key=f"demo:{replay.record['seed']}:{at.step}",
            timed=False,
            record={**replay.record, "log": replay.record["log"][: at.step]},
        )
        table.bump()
        table.replan(driver.game_now(row))
        driver.store(row, table)
        row.log = []

    return demo_service.perform(
        visitor_id(request),
        definition.key,
        action,
        create=driver.creator(definition),
        expected_version=None,
        bump_version=False,
    )
