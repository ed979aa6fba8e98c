from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers

from feedback.services import with_vote_stats
from feedback.views import game_page_context
from games import seo
from games.forms import CatalogueFilterForm
from games.models import Edition, Game
from games.play import definition as registry
from games.play import views as demo_views
from games.visitors import existing_visitor_id
from rules.models import Section
from rules.publishing import article_for_page
from sleeves.selectors import box_for


@require_safe
@vary_on_headers("HX-Request")
def catalogue(request):
    form = CatalogueFilterForm(request.GET or None)
    games = form.filter(
        Game.objects.visible_to(request.user).prefetch_related("publishers", "authors")
    )
    games = with_vote_stats(games)
    context = {"form": form, "games": games}
    if request.htmx:
        return render(request, "games/catalogue.html#results", context)
    return render(request, "games/catalogue.html", context)


def _game_for(request, slug, with_votes=False):
    games = Game.objects.visible_to(request.user).prefetch_related(
        "publishers",
        "authors",
        "illustrators",
        Prefetch("editions", queryset=Edition.objects.select_related("publisher")),
    )
    if with_votes:
        # Average, count and this browser's vote ride along in the game query.
        games = with_vote_stats(games, existing_visitor_id(request))
    return get_object_or_404(games, slug=slug)


GENERIC_DEMO = "play/demo.html"


def play_context(request, game) -> dict:
    """The game's definition and, when it has a demo, the demo region's context."""
    play = registry.get(game.demo_engine)
    demo = play.demo if play else None
    heads = []
    if demo is not None and demo.template == GENERIC_DEMO:
        heads.append("play/demo_head.html")
    if play is not None and play.head_template:
        heads.append(play.head_template)
    return {
        "play": play,
        "demo": demo,
        "demo_context": demo_views.demo_context(request, play) if demo else {},
        "head_templates": heads if demo else [],
    }


@require_safe
def game_detail(request, slug):
    game = _game_for(request, slug, with_votes=True)
    # Readers get the published snapshot, staff the working copy (rules/publishing.py).
    article_page = article_for_page(request, game)
    article = article_page.article
    play = play_context(request, game)
    demo = play["demo"]
    sections = list(article.sections.all()) if article else []
    context = {
        "game": game,
        "article": article,
        "sections": sections,
        "has_examples_section": any(s.kind == Section.Kind.EXAMPLES for s in sections),
        "has_mistakes_section": any(s.kind == Section.Kind.MISTAKES for s in sections),
        **play,
        "json_ld": seo.game_json_ld(request, game, article),
        "is_preview": not game.is_published
        or (article_page.is_working_copy and not article_page.has_public_version),
        "article_page": article_page,
        "sleeves": box_for(game),
    }
    context.update(game_page_context(request, game, article, sections, demo))
    response = render(request, "games/game_detail.html", context)
    # The reader's own vote, demo state and CSRF token are on the page: no shared caches.
    patch_cache_control(response, private=True)
    return response


@require_safe
def game_demo(request, slug):
    game = _game_for(request, slug)
    context = {"game": game, **play_context(request, game)}
    if context["demo"] is None:
        raise Http404("Für dieses Spiel gibt es noch keine Demo.")
    response = render(request, "games/game_demo.html", context)
    patch_cache_control(response, private=True, no_cache=True)
    return response
