"""Which games can be played in rooms, and how.

Rooms are generic over the turn-based engine protocol (``games.engines.base``)
plus the site hooks an online table needs: ``timeout(state)`` (the player to
act gives up the decision), ``remove_player(state, seat)`` and
``bot_action(view, rng)``. Everything specific to one game – its options with
German labels, timers, the table template and how a view is presented – is
declared once in a ``RoomEngine`` and registered here. Offering another game
in rooms means: one ``register(RoomEngine(...))`` and a table template.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any


@dataclass(frozen=True)
class Choice:
    value: Any
    label: str
    hint: str = ""


@dataclass(frozen=True)
class Option:
    """One setting the host chooses in the lobby (rendered as radio buttons)."""

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


@dataclass(frozen=True)
class RoomEngine:
    key: str  # the engine key, as in Game.demo_engine
    game_slug: str  # rooms live under /spiele/<game_slug>/raum/
    title: str
    module: ModuleType
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    table_template: str  # the table, shared by rooms and the in-page demo
    # (view, *, me, names, bots, ...) -> template context for table_template
    present: Callable[..., dict]
    # submitted form data -> engine action (dict) or None when unknown
    parse_action: Callable[[Any], dict | None]
    # seconds a human decision may take in ``state`` (None: no timer)
    timer_seconds: Callable[[dict], int | None]
    # the events of the opening deal for the log (engines report later deals themselves)
    opening_events: Callable[[dict], list[dict]] = lambda state: []
    bot_names: tuple[str, ...] = ()
    # delay range of a bot's move, so humans can follow the table
    bot_delay: tuple[float, float] = (0.8, 1.2)
    extra: dict = field(default_factory=dict)

    def default_options(self) -> dict:
        return {option.key: option.default for option in self.options}

    def option_choices(self, values: dict) -> list[dict]:
        """The options as radio groups for rooms/_option_choices.html, ``values`` checked."""
        return [
            {
                "key": option.key,
                "label": option.label,
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

    def option_summary(self, options: dict) -> list[tuple[str, str]]:
        return [
            (option.label, option.label_for(options.get(option.key, option.default)))
            for option in self.options
        ]

    # The engine protocol, in one place so services never import an engine.
    def new_game(self, seed: int, names: list[str], options: dict) -> dict:
        return self.module.new_game(seed, len(names), {**options, "names": list(names)})

    def apply(self, state, seat, action):
        return self.module.apply(state, seat, action)

    def view(self, state, seat):
        return self.module.view(state, seat)

    def to_act(self, state) -> list[int]:
        return self.module.to_act(state)

    def outcome(self, state):
        return self.module.outcome(state)

    def timeout(self, state):
        return self.module.timeout(state)

    def remove_player(self, state, seat):
        return self.module.remove_player(state, seat)

    def bot_action(self, view, rng):
        return self.module.bot_action(view, rng)


_ENGINES: dict[str, RoomEngine] = {}


def register(engine: RoomEngine) -> RoomEngine:
    _ENGINES[engine.key] = engine
    return engine


def get(key: str) -> RoomEngine | None:
    _load_builtin()
    return _ENGINES.get(key)


def for_slug(slug: str) -> RoomEngine | None:
    _load_builtin()
    return next((engine for engine in _ENGINES.values() if engine.game_slug == slug), None)


def _load_builtin() -> None:
    # Imported lazily: the game modules import this registry.
    from rooms import alpaka_table  # noqa: F401
