"""The one demo driver: the reader (seat 0) against bots on a private table.

Every game's in-page demo runs here, on the same ``games.play.table.Table`` as
the online rooms – the same moves, bot steps and deadlines – with the state in
the visitor's ``DemoGame`` row (``games.play.demo_service``: locked row, version
check). There is no turn timer: a reader may stop to look something up in the
rules. Bots move after their delay (``GameDefinition.bot_delay``) or, for a
definition without one, when the client asks for the next bot move.

Each ``*_action`` returns a function that ``demo_service.perform`` runs inside
the locked transaction; it raises ``IllegalAction`` to refuse (nothing is
stored) and may return a dict for the board (``note``, engine ``events`` …).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from games import clock
from games.engines.base import IllegalAction
from games.play import coach, live, replays, scheduler
from games.play.definition import GameDefinition
from games.play.table import Table

YOU = 0
READER = "Du"
BOTS_MOVED = "Die Bots waren inzwischen am Zug – hier ist der aktuelle Stand."
NOT_BOTS_TURN = "Die Gegner sind gerade nicht am Zug."
START_FIRST = "Starte zuerst ein Spiel."


def default_settings(definition: GameDefinition) -> dict:
    return {"bots": definition.demo.default_bots, **definition.default_options()}


def clean_settings(definition: GameDefinition, data, current: dict) -> dict:
    """The reader's choice of opponents and rules; ``IllegalAction`` when invalid."""
    counts = definition.demo.bot_counts
    wrong = f"Wähle {counts[0]} bis {counts[-1]} Bots."
    try:
        bots = int(data.get("bots", current.get("bots", definition.demo.default_bots)))
    except (TypeError, ValueError):
        raise IllegalAction(wrong) from None
    if bots not in counts:
        raise IllegalAction(wrong)
    try:
        options = definition.clean_options(
            data, current={key: current[key] for key in definition.default_options()}
        )
    except (KeyError, ValueError) as error:
        raise IllegalAction(str(error) if isinstance(error, ValueError) else wrong) from None
    return {**options, "bots": bots}


def bot_seats(row, definition: GameDefinition | None = None) -> set[int]:
    """Seats 1 … n; a row without settings has the definition's default opponents."""
    default = definition.demo.default_bots if definition else 0
    return set(range(1, (row.settings or {}).get("bots", default) + 1))


# A demo's bots move only while their reader watches (a stream, a poll, a request). A bot
# move overdue by more than this was made by nobody, so the table stood still meanwhile.
PAUSED_AFTER = timedelta(seconds=2)
# How far past a due move a resumed clock lands (see ``resume``).
STORED_ROUNDING = timedelta(milliseconds=1)


def _offset(row) -> timedelta:
    return timedelta(seconds=row.clock_offset or 0)


def game_now(row) -> datetime:
    """The demo's own clock: the time since its deal without the pauses (the engine and
    the timers run on it; ``row.bot_due`` is stored as a moment of real time). While
    the bots wait for the learner (``held``) it stands still."""
    held = (row.profile or {}).get(HELD)
    if held is not None:
        return datetime.fromtimestamp(held, UTC)
    return clock.now() - _offset(row)


# The guided first game: while the game says its bots wait for the learner
# (``CoachSpec.bots_wait``), the demo's clock stands still at ``profile["held"]`` and
# each of the learner's moves lets this much game time pass – about one bot step.
HELD = "held"
HOLD_STEP = 1.5


def bots_wait(definition: GameDefinition, row) -> bool:
    spec = definition.coach
    return bool(
        spec is not None
        and spec.bots_wait is not None
        and row.state is not None
        and coach.guided(row)
        and spec.bots_wait(row.state)
    )


def settle_hold(definition: GameDefinition, row) -> None:
    """Start or end the bots' wait after a change: while they wait nothing is due;
    once they stop waiting, the clock runs on from where it stood."""
    if bots_wait(definition, row):
        if HELD not in row.profile:
            row.profile = {**row.profile, HELD: game_now(row).timestamp()}
        row.bot_due = None
    elif HELD in (row.profile or {}):
        held = row.profile[HELD]
        row.profile = {key: value for key, value in row.profile.items() if key != HELD}
        row.clock_offset = clock.now().timestamp() - held
        table = table_of(definition, row)
        table.replan(game_now(row))
        bot_due = table.timers.bot_due
        row.bot_due = bot_due + _offset(row) if bot_due is not None else None


def resume(row) -> None:
    """A table nobody watched stood still: its clock skips the wait, so the bot that was
    due acts now – once – instead of every move it would have made meanwhile."""
    now = clock.now()
    if row.bot_due is not None and now - row.bot_due > PAUSED_AFTER:
        # The clock lands just past the due move, not on it: the row keeps moments to the
        # microsecond, the engine as floats, and exactly "on it" may round to just before.
        skipped = now - row.bot_due - STORED_ROUNDING
        row.clock_offset = (row.clock_offset or 0) + skipped.total_seconds()
        row.bot_due = now - STORED_ROUNDING


def table_of(definition: GameDefinition, row) -> Table:
    seed = row.state.get("seed", 0) if row.state else 0
    bot_due = row.bot_due - _offset(row) if row.bot_due is not None else None
    return Table(
        definition,
        row.state,
        row.version,
        log=row.log,
        timers=scheduler.Timers(None, bot_due),
        bots=bot_seats(row, definition),
        key=f"demo:{seed}",
        timed=False,
        record=row.record,
    )


def store(row, table: Table) -> None:
    if table.over:  # kept once: the record then names the replay
        replays.keep(table.definition, table, source="demo", players=[row.visitor])
    row.state, row.version, row.log = table.state, table.version, table.log
    row.record = table.record
    bot_due = table.timers.bot_due
    row.bot_due = bot_due + _offset(row) if bot_due is not None else None
    settle_hold(table.definition, row)


def _deal(definition: GameDefinition, row) -> None:
    # Rows stored before the demo had settings play with the defaults.
    settings = row.settings = {**default_settings(definition), **(row.settings or {})}
    row.profile = {**(row.profile or {}), "deals": (row.profile or {}).get("deals", 0) + 1}
    row.profile.pop(HELD, None)  # a new game's clock starts at the deal
    names = [READER, *definition.bot_names[: settings["bots"]]]
    options = {key: settings[key] for key in definition.default_options()}
    if definition.demo.next_game:
        options.update(definition.demo.next_game(row))
    table = table_of(definition, row)
    table.deal(names, options, game_now(row))
    table.key = f"demo:{table.state.get('seed', 0)}"
    store(row, table)


def creator(definition: GameDefinition):
    """The row a first-time visitor gets: the setup form, or a game dealt at once."""

    def create():
        from games.models import DemoGame

        row = DemoGame(settings=default_settings(definition), profile=dict(definition.demo.profile))
        if definition.demo.setup:
            return None, row.profile, {"settings": row.settings}
        _deal(definition, row)
        # The first game of a new row is game number one, shown at version 0.
        row.log = [{**entry, "v": 0} for entry in row.log]
        return (
            row.state,
            row.profile,
            {
                "settings": row.settings,
                "log": row.log,
                "bot_due": row.bot_due,
                "record": row.record,
            },
        )

    return create


# --- Actions (run by demo_service.perform in the locked transaction) -------------------------


def start_action(definition: GameDefinition, data):
    def action(row):
        row.settings = clean_settings(
            definition, data, row.settings or default_settings(definition)
        )
        _deal(definition, row)

    return action


def catch_up(definition: GameDefinition, row, *, force_bot: bool = False) -> int:
    """The bots' moves due by now are made (after a pause: once); returns how many."""
    if row.state is None or bots_wait(definition, row):
        return 0
    resume(row)
    table = table_of(definition, row)
    steps = table.advance(game_now(row), force_bot=force_bot)
    store(row, table)
    return steps


def act_action(definition: GameDefinition, data):
    def action(row):
        moved = definition.bot_delay is not None and catch_up(definition, row)
        # Turns: a bot move the page has not shown yet refuses the reader's move. Everyone
        # acting at once: the engine checks the move against the current table itself
        # (a card taken meanwhile is refused by name), so bots moving never refuses it.
        if moved and not definition.simultaneous:
            return {"note": BOTS_MOVED}
        if row.state is None:
            raise IllegalAction(START_FIRST)
        parsed = definition.parse_action(data)
        if parsed is None:
            raise IllegalAction("Unbekannte Aktion.")
        coach.mark_seen(definition, row)
        if bots_wait(definition, row):  # each move of the learner lets a bot step pass
            row.profile = {**row.profile, HELD: row.profile[HELD] + HOLD_STEP}
        table = table_of(definition, row)
        events = table.act(YOU, parsed, game_now(row))
        store(row, table)
        return {"events": events}

    return action


def bot_action(definition: GameDefinition):
    """The client asks for the next bot move (definitions without a bot delay)."""

    def action(row):
        seen = row.version
        if not catch_up(definition, row, force_bot=True):
            raise IllegalAction(NOT_BOTS_TURN)
        return {"events": [entry["event"] for entry in row.log if entry["v"] > seen]}

    return action


def poll_action(definition: GameDefinition):
    def action(row):
        catch_up(definition, row)

    return action


def due(definition: GameDefinition, row) -> bool:
    """A scheduled bot move fell due (the page should show it)."""
    return (
        definition.bot_delay is not None
        and row.state is not None
        and row.bot_due is not None
        and row.bot_due <= clock.now()
    )


def new_action(definition: GameDefinition):
    """„Neues Spiel“: back to the setup form, or the next game dealt at once."""

    def action(row):
        if definition.demo.setup:
            row.state, row.log, row.bot_due, row.record = None, [], None, None
            row.version += 1
            return {}
        row.profile = {**row.profile, "games": row.profile.get("games", 1) + 1}
        _deal(definition, row)
        return {"dealt": True}

    return action


# --- Live updates (games.play.live): the bots' moves pushed to the reader's page -------------


def pushes(definition: GameDefinition) -> bool:
    """Bots that move on their own clock; a definition whose client asks for each bot
    move (no ``bot_delay``) has nothing to push."""
    return definition.bot_delay is not None


CHANNEL_KIND = "demo"


def channel(definition: GameDefinition, visitor: str) -> str:
    return live.table_channel(CHANNEL_KIND, definition.key, visitor)


READER_VIEW = "reader"  # the demo's one viewer, in the push channels


def announce(definition: GameDefinition, row, views: live.Views | None = None) -> None:
    """After a saved change: the reader's open pages (any tab, any server) learn the
    version, or get the table itself (``views``, drawn for the reader)."""
    if pushes(definition) and row.pk is not None:
        live.publish_on_commit(channel(definition, row.visitor), row.version, row.bot_due, views)
