"""The Kurzregel: one printable A4 page per game (``/spiele/<slug>/kurzregel/``).

Its text is the article's section of kind „kurzregel“ (written by the editors, not
assembled from the article, so it can be checked to fit on one page). Like the game
page it is the same for every reader and served from the page cache; staff see the
working copy.
"""

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from games.models import Game
from rules.citations import NO_SOURCES, Citations
from rules.models import Section
from rules.publishing import article_for_page
from site_config.page_cache import cached_page


@require_safe
@cached_page
def short_rules(request, slug):
    game = get_object_or_404(Game.objects.visible_to(request.user), slug=slug)
    article_page = article_for_page(request, game)
    article = article_page.article
    sections = list(article.sections.all()) if article else []
    short = next((s for s in sections if s.kind == Section.Kind.SHORT_RULES), None)
    if short is None:
        raise Http404("Für dieses Spiel gibt es noch keine Kurzregel.")
    summary = next((s for s in sections if s.kind == Section.Kind.PLAY and s.summary), None)
    sources = list(article.sources.all())
    context = {
        "game": game,
        "article": article,
        "short": short,
        "turn": summary,
        # The footer names what we read; an original we only know from a description is not.
        "sources": [source for source in sources if source.read_on],
        # Citations lead to the article's „Quellen“ on the game page.
        "cites": Citations.of(sources, base=game.get_absolute_url()) if sources else NO_SOURCES,
        "is_preview": article_page.is_working_copy,
        "article_page": article_page,  # staff's „Bearbeiten“ (editorial.templatetags.workbench)
    }
    return render(request, "rules/short_rules.html", context)
