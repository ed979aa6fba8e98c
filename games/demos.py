"""Registry of playable demos. A demo module registers itself; the game page asks here.

Keeping the registry in one place means the game page and the full-screen demo
page need no per-game code: each demo brings its templates and context.
"""

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Demo:
    engine: str
    template_name: str  # the demo's region, included on the game page and the demo page
    context: Callable  # (request, game) -> dict for template_name


_DEMOS: dict[str, Demo] = {}


def register(demo: Demo) -> Demo:
    _DEMOS[demo.engine] = demo
    return demo


def demo_for(game) -> Demo | None:
    return _DEMOS.get(game.demo_engine) if game.demo_engine else None
