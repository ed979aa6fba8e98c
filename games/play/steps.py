"""Worked examples as step-throughs, the same for every game.

A game's definition names ``example_steps(check)`` – the example's position
played by the engine and worded by the game's presenter, one dict per step –
and ``example_step_template``, which draws one step. This module only asks the
registry; it knows no game.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.play import definition as registry


@dataclass(frozen=True)
class StepThrough:
    steps: list[dict]
    template: str  # draws one step (``step`` in its context)

    @property
    def count(self) -> int:
        return len(self.steps)

    def numbered(self, only: int | None = None) -> list[tuple[int, dict]]:
        """(number, step) pairs, counted from 1; ``only``: just that step."""
        pairs = list(enumerate(self.steps, start=1))
        return pairs if only is None else [pairs[only - 1]]


def step_through(check) -> StepThrough | None:
    """The steps of a checked example, or None when its game draws none for it."""
    if not isinstance(check, dict):
        return None
    game = registry.get(check.get("engine", ""))
    if game is None or game.example_steps is None:
        return None
    steps = game.example_steps(check)
    if not steps:
        return None
    return StepThrough(steps=list(steps), template=game.example_step_template)
