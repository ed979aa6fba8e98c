"""Template helpers of the play layer: a game's own templates, found by its key."""

from django import template

from games.play import definition as registry
from games.play.steps import step_through

register = template.Library()


@register.filter
def example_template(check) -> str:
    """The template that draws a worked example checked by ``check["engine"]`` ("" if none)."""
    if not isinstance(check, dict):
        return ""
    game = registry.get(check.get("engine", ""))
    return game.example_template if game else ""


@register.simple_tag
def example_steps(check):
    """The steps of a checked worked example (``StepThrough``), or None."""
    return step_through(check)


@register.filter
def numbered_steps(through, only=None):
    """(number, step) pairs of a ``StepThrough``; ``only``: just that step."""
    return through.numbered(only or None)


@register.simple_tag
def game_statistics(key: str):
    """The stored simulation figures of the game ``key`` as its statistics template
    draws them, or None (no figures stored yet, or the game has none)."""
    game = registry.get(key)
    return game.statistics() if game and game.statistics else None
