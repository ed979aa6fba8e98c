"""Template helpers of the play layer: a game's own templates, found by its key, and
small parts (a card face, chips) drawn once per process."""

import threading

from django import template
from django.conf import settings
from django.template.loader import render_to_string

from games.play import definition as registry
from games.play.steps import step_through

register = template.Library()

PURE_KEPT = 4096  # distinct drawings kept per process before the store starts afresh
_pure_drawn: dict = {}
_pure_lock = threading.Lock()


@register.simple_tag
def pure_include(template_name: str, **values):
    """``{% include %}`` of a small template whose output depends on ``values`` alone
    (it sees nothing else of the context): drawn once per process for each set of
    values. A table draws the same card faces and chips again and again, for every
    viewer of every move; an include each cost up to a fifth of a table's render.
    While DEBUG every call draws, so an edited template shows at once."""
    if settings.DEBUG:
        return render_to_string(template_name, values)
    try:
        key = (template_name, _frozen(values))
    except TypeError:  # a value of a kind not known to be plain data: drawn every time
        return render_to_string(template_name, values)
    html = _pure_drawn.get(key)
    if html is None:
        html = render_to_string(template_name, values)
        with _pure_lock:
            if len(_pure_drawn) >= PURE_KEPT:
                _pure_drawn.clear()
            _pure_drawn[key] = html
    return html


def _frozen(value):
    """A hashable copy of plain presenter data (dicts, lists, strings, numbers, ranges).

    Plain strings, ints and None are their own keys (the common case: a table's keys
    are built on every drawing); bools, floats and marked-safe strings carry their
    kind, because True == 1 == 1.0 and a safe string equals its plain text, yet each
    draws differently. A dict keeps its order: equal dicts built in another order
    only miss the store, and presenters build theirs alike every time."""
    kind = type(value)
    if kind is str or kind is int or value is None:
        return value
    if isinstance(value, dict):
        return (dict, *[(name, _frozen(item)) for name, item in value.items()])
    if isinstance(value, list | tuple):
        return (list, *[_frozen(item) for item in value])
    if isinstance(value, str | int | float | range):
        return (kind.__name__, value)
    raise TypeError(f"not plain data: {kind.__name__}")


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
