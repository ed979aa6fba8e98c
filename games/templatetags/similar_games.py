from django import template

from games.models import Game
from games.similar import similar_games as find_similar

register = template.Library()


@register.simple_tag(takes_context=True)
def similar_games(context, game):
    """Usage: {% similar_games game as similar %} – games the visitor may see."""
    request = context.get("request")
    user = getattr(request, "user", None)
    candidates = Game.objects.visible_to(user) if user is not None else Game.objects.published()
    return find_similar(game, candidates)
