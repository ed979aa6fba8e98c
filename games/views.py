from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers

from games import seo
from games.demos import demo_for
from games.forms import CatalogueFilterForm
from games.models import Edition, Game
from rules.models import RulesArticle, Section


@require_safe
@vary_on_headers("HX-Request")
def catalogue(request):
    form = CatalogueFilterForm(request.GET or None)
    games = form.filter(
        Game.objects.visible_to(request.user).prefetch_related("publishers", "authors")
    )
    context = {"form": form, "games": games}
    if request.htmx:
        return render(request, "games/catalogue.html#results", context)
    return render(request, "games/catalogue.html", context)


def _game_for(request, slug):
    games = Game.objects.visible_to(request.user).prefetch_related(
        "publishers",
        "authors",
        "illustrators",
        Prefetch("editions", queryset=Edition.objects.select_related("publisher")),
    )
    return get_object_or_404(games, slug=slug)


def _article_for(request, game):
    """The game's article with its parts, or None when the public may not see it yet."""
    article = (
        RulesArticle.objects.filter(game=game)
        .prefetch_related("sections", "examples", "mistakes")
        .first()
    )
    if article is None:
        return None
    if not article.is_published and not request.user.is_staff:
        return None
    return article


@require_safe
def game_detail(request, slug):
    game = _game_for(request, slug)
    article = _article_for(request, game)
    demo = demo_for(game)
    sections = list(article.sections.all()) if article else []
    context = {
        "game": game,
        "article": article,
        "sections": sections,
        "has_examples_section": any(s.kind == Section.Kind.EXAMPLES for s in sections),
        "has_mistakes_section": any(s.kind == Section.Kind.MISTAKES for s in sections),
        "demo": demo,
        "demo_context": demo.context(request, game) if demo else {},
        "json_ld": seo.game_json_ld(request, game, article),
        "is_preview": not game.is_published or (article is not None and not article.is_published),
    }
    return render(request, "games/game_detail.html", context)


@require_safe
def game_demo(request, slug):
    game = _game_for(request, slug)
    demo = demo_for(game)
    if demo is None:
        raise Http404("Für dieses Spiel gibt es noch keine Demo.")
    context = {"game": game, "demo": demo, "demo_context": demo.context(request, game)}
    return render(request, "games/game_demo.html", context)
