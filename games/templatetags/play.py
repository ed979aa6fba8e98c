"""Template helpers of the play layer: a game's own templates, found by its key."""

from django import template

from games.play import definition as registry

register = template.Library()


@register.filter
def example_template(check) -> str:
    """The template that draws a worked example checked by ``check["engine"]`` ("" if none)."""
    if not isinstance(check, dict):
        return ""
    game = registry.get(check.get("engine", ""))
    return game.example_template if game else ""
