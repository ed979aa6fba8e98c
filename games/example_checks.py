"""Worked examples checked by the engines.

An article's ``WorkedExample`` may carry ``engine_check`` (the position, as
JSON) and ``expect`` (what the article says happens). ``verify(check)`` runs
the position through the engine and returns the actual outcome in the same
shape as ``expect``; the test suite compares the two for the shipped content,
so a wrong example fails CI.

Each game's definition brings its verifiers (``GameDefinition.verifiers``,
kind -> function); this module only looks them up.
"""

from __future__ import annotations

from collections.abc import Callable

from games.play import definition as registry

Verifier = Callable[[dict], dict]


class UnknownCheck(LookupError):
    pass


def verify(check: dict) -> dict:
    """The engine's outcome for ``check``, shaped like the example's ``expect``."""
    game = registry.get(check.get("engine", ""))
    func = game.verifiers.get(check.get("kind", "")) if game else None
    if func is None:
        raise UnknownCheck(
            f"Keine Prüfung für {check.get('engine')!r}/{check.get('kind')!r}"
        ) from None
    return func(check)


def mismatch(check: dict, expect: dict) -> str | None:
    """None when the engine agrees with ``expect``, else a readable difference."""
    actual = verify(check)
    if actual == expect:
        return None
    return f"erwartet {expect!r}, die Engine sagt {actual!r}"


def registered() -> list[tuple[str, str]]:
    return sorted(
        (game.key, kind) for game in registry.all_definitions() for kind in game.verifiers
    )
