from django import template

register = template.Library()

STAR_WORDS = {1: "schwach", 2: "geht so", 3: "gut", 4: "sehr gut", 5: "großartig"}


@register.filter
def star_parts(average):
    """Five icons for an average: "full", "half" or "empty" (rounded to half stars)."""
    halves = round(float(average or 0) * 2)
    return [
        "full" if halves >= 2 * n else "half" if halves == 2 * n - 1 else "empty"
        for n in range(1, 6)
    ]


@register.simple_tag
def star_buttons(game):
    """The five vote buttons with the reader's current vote marked."""
    mine = getattr(game, "my_stars", None) or 0
    return [
        {
            "value": n,
            "on": n <= mine,
            "pressed": n == mine,
            "label": f"{n} von 5 Sternen – {STAR_WORDS[n]}",
        }
        for n in range(1, 6)
    ]
