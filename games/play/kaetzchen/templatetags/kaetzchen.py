"""Template helpers for Kätzchen-Angeln on the game page: the statistics."""

from django import template

from games.play.kaetzchen import statistics as kaetzchen_statistics

register = template.Library()


@register.simple_tag
def kaetzchen_statistics_figures():
    """The stored simulation figures (one query), or None before the first simulation."""
    return kaetzchen_statistics.load()
