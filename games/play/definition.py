"""One record per game that every shared layer reads, and the registry of them.

Shared code (game pages, the demo driver, rooms, base templates, shared JS)
never names a game: it asks ``get(key)`` or ``for_slug(slug)`` for the
``GameDefinition`` and uses what it declares – the engine module, options,
presenter, templates, bot policy, example verifiers and statistics.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

TURNS = "turns"  # one decision at a time; a request names the whole table's version
SIMULTANEOUS = "simultaneous"  # everyone acts at once; the engine checks each action itself


@dataclass(frozen=True)
class Choice:
    value: Any
    label: str
    hint: str = ""


@dataclass(frozen=True)
class Option:
    """One setting the host (or the demo's reader) chooses, shown as radio buttons."""

    key: str
    label: str
    choices: tuple[Choice, ...]
    default: Any

    def parse(self, raw) -> Any:
        """The choice whose value matches the submitted text; ``ValueError`` otherwise."""
        for choice in self.choices:
            if str(choice.value) == str(raw).strip():
                return choice.value
        raise ValueError(f"Ungültige Auswahl für „{self.label}“.")

    def label_for(self, value) -> str:
        return next((c.label for c in self.choices if c.value == value), str(value))


class TableContext(dict):
    """What a presenter makes of one seat's view: the game's template reads it
    like a dict; the shared layers read only the typed summary below."""

    @property
    def status(self) -> str:
        """The status line („Du bist am Zug: …“)."""
        return self.get("status", "")

    @property
    def news(self) -> list[str]:
        """What happened since the version the client showed, worded for the viewer."""
        return self.get("news", [])

    @property
    def attention(self) -> bool:
        """The viewer is asked to act now (screen readers hear the status after the news)."""
        return bool(self.get("attention"))

    @property
    def finished(self) -> bool:
        return bool(self.get("finished"))


@dataclass(frozen=True)
class DemoExtra:
    """A demo request beyond acting and starting (e.g. „Zum Ergebnis“, a preference).

    ``run(row, data)`` changes the demo row in place and may return what the board
    needs; ``versioned=False`` for preferences that never touch the game;
    ``confirm`` names the template of the no-JavaScript confirmation page.
    """

    run: Callable
    versioned: bool = True
    confirm: str = ""
    htmx_status: int = 200  # 204: nothing to swap (a preference)


@dataclass(frozen=True)
class CoachNote:
    """A short note of the guided first game, shown when its rule first matters."""

    text: str
    section: str  # the article's section anchor (``rules.Section.kind``), e.g. "ablauf"
    link: str = "Mehr dazu in den Regeln"


@dataclass(frozen=True)
class CoachSpec:
    """What a game adds to the demo's coach (``games.play.coach``): tips, „Warum?“ and
    the notes of the guided first game. The wording lives in the game's presenter."""

    # (action, view) -> the move in words („Leg die 5.“)
    move_text: Callable[[dict, dict], str]
    # (reason, view) -> why, worded for the viewer; a reason of another seat only from
    # public facts; an unknown code gets a general sentence
    reason_text: Callable[[dict, dict], str]
    # (event, view) -> the bot's move as the log words it
    event_text: Callable[[dict, dict], str]
    # (knowledge, events, guided) -> keys of the notes that matter now, most urgent first
    notes: Callable[[dict, list[dict], bool], list[str]] = lambda view, events, guided: []
    note_texts: Mapping[str, CoachNote] = field(default_factory=dict)
    # (state, seat) -> what the seat knows (its view plus what it remembers); None: the view
    knowledge: Callable[[dict, int], dict] | None = None
    # (state) -> in a guided first game the bots wait for the learner now
    bots_wait: Callable[[dict], bool] | None = None
    recent: int = 3  # the bots' last moves shown with „Warum?“

    @classmethod
    def worded_by(cls, presenter, notes, note_texts, **more) -> CoachSpec:
        """The usual wiring: the presenter module words moves, reasons and events."""
        return cls(
            move_text=presenter.move_text,
            reason_text=presenter.reason_text,
            event_text=presenter.event_text,
            notes=notes,
            note_texts=note_texts,
            **more,
        )


@dataclass(frozen=True)
class DemoSpec:
    """The in-page demo: the reader at seat 0 against bots on a private table."""

    template: str  # the demo region (game page and full-screen page)
    partial: str = "body"  # the partial of ``template`` an htmx request gets
    bot_counts: tuple[int, ...] = (1,)
    default_bots: int = 1
    # False: no setup form; a game is dealt at once with the default settings.
    setup: bool = True
    # (row) -> dict: options for the next game (e.g. who starts, from the row's profile)
    next_game: Callable | None = None
    # (row, *, back, note, result, since) -> dict: the template's context; None: the generic board
    board: Callable | None = None
    extras: Mapping[str, DemoExtra] = field(default_factory=dict)
    confirm_new: str = ""  # the no-JavaScript confirmation page of „Neues Spiel“
    profile: Mapping[str, Any] = field(default_factory=dict)  # a new visitor's profile
    anchor: str = ""  # where a no-JavaScript redirect lands; "" means "<key>-demo"


@dataclass(frozen=True)
class GameDefinition:
    key: str  # the engine key, as in Game.demo_engine and Room.engine
    slug: str  # the game page /spiele/<slug>/
    title: str
    module: ModuleType  # the engine (games.engines.base protocol)
    # (view, *, bots, hosts, remaining, log, since) -> table; None: no shared table
    present: Callable[..., TableContext] | None
    parse_action: Callable[[Any], dict | None]  # form data -> engine action or None
    table_template: str = ""
    head_template: str = ""  # CSS/JS of the table and demo, included in <head>
    mode: str = TURNS
    options: tuple[Option, ...] = ()
    timer_seconds: Callable[[dict], int | None] = lambda state: None
    opening_events: Callable[[dict], list[dict]] = lambda state: []
    bot_names: tuple[str, ...] = ()
    # Seconds a bot waits before its move, so humans can follow the table.
    # None: the client asks for each bot move when its animation is done.
    bot_delay: tuple[float, float] | None = (0.8, 1.2)
    rooms: bool = False  # online rooms at /spiele/<slug>/raum/
    lobby_hint: str = ""  # one sentence under the lobby's start button (who deals first …)
    demo: DemoSpec | None = None
    verifiers: Mapping[str, Callable[[dict], dict]] = field(default_factory=dict)
    # Per verifier kind, the typed fields editors fill in instead of JSON (games.example_fields).
    example_fields: Mapping[str, Any] = field(default_factory=dict)
    example_template: str = ""  # drawn under a checked worked example
    # (check) -> the example as steps the engine played (None: not a step-through);
    # each step a dict with ``title`` (a sentence worded from the engine's events),
    # optional ``lines`` (more sentences) and whatever ``example_step_template`` draws.
    example_steps: Callable[[dict], list[dict] | None] | None = None
    example_step_template: str = ""  # draws one step (gets ``step``)
    # „Üben“: kind -> exercises.kinds.ExerciseKind (the position's typed fields, the
    # board drawn from it, the engine's verdict on an answer).
    exercises: Mapping[str, Any] = field(default_factory=dict)
    statistics_template: str = ""  # drawn in the article's „Statistik“ section
    # () -> the stored simulation figures as that template draws them (None: none yet)
    statistics: Callable[[], dict | None] | None = None
    min_players: int = 0  # 0: the engine's MIN_PLAYERS
    max_players: int = 0  # 0: the engine's MAX_PLAYERS
    # (options, bot seats) -> the engine's options, for engines that run their bots
    # themselves (simultaneous games: bots act on the engine's clock)
    engine_options: Callable[[dict, set[int]], dict] | None = None
    poll_ms: int = 1000  # how often a table asks for news while nothing is pushed
    # Engine event types that change nothing the other seats decide on (a hint to a
    # partner): a move that names a version from before them is still current.
    side_events: frozenset[str] = frozenset()
    coach: CoachSpec | None = None  # tips, „Warum?“ and the guided first game in the demo

    def __post_init__(self):
        for name, constant in (("min_players", "MIN_PLAYERS"), ("max_players", "MAX_PLAYERS")):
            if not getattr(self, name):
                object.__setattr__(self, name, getattr(self.module, constant))

    # --- Options ---------------------------------------------------------------

    def default_options(self) -> dict:
        return {option.key: option.default for option in self.options}

    def option_choices(self, values: dict) -> list[dict]:
        """The options as radio groups for play/option_choices.html, ``values`` checked."""
        return [
            {
                "key": option.key,
                "label": option.label,
                # Short labels („20 Punkte“) sit several to a row.
                "compact": all(len(choice.label) <= 12 for choice in option.choices),
                "choices": [
                    {
                        **choice.__dict__,
                        "checked": values.get(option.key, option.default) == choice.value,
                    }
                    for choice in option.choices
                ],
            }
            for option in self.options
        ]

    def clean_options(self, data, current: dict | None = None) -> dict:
        """Options from submitted data; keys not submitted keep ``current``."""
        result = dict(current or self.default_options())
        for option in self.options:
            if option.key in data:
                result[option.key] = option.parse(data.get(option.key))
        return result

    def options_form(self, data=None, initial: dict | None = None):
        """The options as a Django form (bound to ``data`` when given)."""
        from games.play.forms import options_form_class

        return options_form_class(self)(data=data, initial=initial or self.default_options())

    def option_summary(self, options: dict) -> list[tuple[str, str]]:
        return [
            (option.label, option.label_for(options.get(option.key, option.default)))
            for option in self.options
        ]

    # --- The engine protocol, in one place so services never import an engine ---

    @property
    def simultaneous(self) -> bool:
        """Everyone acts at once; time is an input of the engine (seconds since the epoch),
        which runs its bots itself (``next_due``/``advance``)."""
        return self.mode == SIMULTANEOUS

    def game_options(self, names: list[str], options: dict, bots=()) -> dict:
        """The engine's options of a new game (what a replay deals with again)."""
        options = {**options, "names": list(names)}
        if self.engine_options is not None:
            options = {**self.engine_options(options, set(bots)), "names": list(names)}
        return options

    def new_game(
        self, seed: int, names: list[str], options: dict, bots=(), now: float | None = None
    ) -> dict:
        return self.deal_engine(seed, len(names), self.game_options(names, options, bots), now)

    def deal_engine(self, seed: int, players: int, options: dict, now: float | None = None):
        """``new_game`` of the engine with options already made (``game_options``)."""
        if self.simultaneous:
            return self.module.new_game(seed, players, options, now=now or 0.0)
        return self.module.new_game(seed, players, options)

    def apply(self, state, seat, action, now: float | None = None):
        if self.simultaneous:
            return self.module.apply(state, seat, action, now=now)
        return self.module.apply(state, seat, action)

    def view(self, state, seat):
        return self.module.view(state, seat)

    def to_act(self, state) -> list[int]:
        return self.module.to_act(state)

    def outcome(self, state):
        return self.module.outcome(state)

    def timeout(self, state, now: float | None = None):
        if self.simultaneous:
            return self.module.timeout(state, now=now)
        return self.module.timeout(state)

    def remove_player(self, state, seat, now: float | None = None):
        if self.simultaneous:
            return self.module.remove_player(state, seat, now=now)
        return self.module.remove_player(state, seat)

    def bot_action(self, view, rng):
        return self.module.bot_action(view, rng)

    def bot_choice(self, view, rng) -> tuple[dict, dict]:
        """The bot's move and its reason (``{"code": …}``); an engine without
        ``bot_choice`` gives the move with the reason ``unknown``."""
        choose = getattr(self.module, "bot_choice", None)
        if choose is None:
            return self.module.bot_action(view, rng), {"code": "unknown"}
        return choose(view, rng)

    def replay_entry(self, state, entry: dict):
        """Apply one entry of a game's record (``games.play.record``): ``(state, events)``.

        Entries have the shape of the engines' ``replay`` logs: ``{"seat", "action"}``
        or ``{"op": "timeout" | "advance" | "remove_player" | "force_continue"}``,
        with ``now`` where time is an input of the engine."""
        op = entry.get("op", "apply")
        now = entry.get("now")
        if op == "apply":
            return self.apply(state, entry["seat"], entry["action"], now=now)
        if op == "timeout":
            return self.timeout(state, now=now)
        if op == "advance":
            return self.module.advance(state, now)
        if op == "remove_player":
            return self.remove_player(state, entry["seat"], now=now)
        if op == "force_continue":
            return self.module.force_continue(state)
        raise ValueError(f"Unknown record entry {op!r}")

    @property
    def replays(self) -> bool:
        """Finished games are kept as replays: the game draws a shared table."""
        return self.present is not None and bool(self.table_template)


_DEFINITIONS: dict[str, GameDefinition] = {}


def register(definition: GameDefinition) -> GameDefinition:
    """Called once per game from its play package's ``AppConfig.ready``."""
    known = _DEFINITIONS.get(definition.key)
    if known is not None and known is not definition:
        raise ValueError(f"Game key {definition.key!r} is registered twice")
    _DEFINITIONS[definition.key] = definition
    return definition


def get(key: str) -> GameDefinition | None:
    return _DEFINITIONS.get(key) if key else None


def for_slug(slug: str) -> GameDefinition | None:
    return next((d for d in _DEFINITIONS.values() if d.slug == slug), None)


def all_definitions() -> list[GameDefinition]:
    return sorted(_DEFINITIONS.values(), key=lambda d: d.key)


def key_choices() -> list[tuple[str, str]]:
    """(key, title) of every registered game, for the admin's demo field."""
    return [("", "keine Demo")] + [(d.key, d.title) for d in all_definitions()]
