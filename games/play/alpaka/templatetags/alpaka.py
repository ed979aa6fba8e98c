"""Template helpers for Alpaka on the game page: worked examples played by the engine."""

from django import template

from games.play.alpaka.examples import round_steps
from games.play.alpaka.presenter import card

register = template.Library()


@register.simple_tag
def alpaka_example_steps(check):
    """A ``round`` example as the engine plays it (None for other examples)."""
    steps = round_steps(check)
    if steps is None:
        return None
    steps["top"] = card(steps["top"])
    for row in steps["start"]:
        row["cards"] = [card(code) for code in row["cards"]]
        row["label"] = ", ".join(c["label"] for c in row["cards"])
    return steps
