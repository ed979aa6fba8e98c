"""The reader's own stars for a game: the per-visitor part of the cached game page.

The game page shows the average and five plain star buttons; htmx swaps in this
visitor's form (their vote pressed, a CSRF token) right after the page loads.
Without JavaScript a star leads to the rating page, where the vote is cast.
"""

from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers

from feedback.services import with_vote_stats
from games.models import Game
from games.visitors import existing_visitor_id
from site_config.page_cache import PER_VISITOR_CACHE_CONTROL

STAR_VALUES = {"1", "2", "3", "4", "5"}


@require_safe
@vary_on_headers("HX-Request")
def stars(request, slug):
    games = with_vote_stats(Game.objects.visible_to(request.user), existing_visitor_id(request))
    game = get_object_or_404(games, slug=slug)
    if request.htmx:
        response = render(request, "feedback/includes/rating.html", {"game": game})
    else:
        chosen = request.GET.get("sterne", "")
        context = {"game": game, "chosen": int(chosen) if chosen in STAR_VALUES else None}
        response = render(request, "feedback/rating_page.html", context)
    response["Cache-Control"] = PER_VISITOR_CACHE_CONTROL
    return response
