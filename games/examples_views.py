"""One worked example as a step-through: a step for htmx, a page without JavaScript.

The game page shows the first step of a checked example; every other step loads
on demand: with htmx its Zurück/Weiter links fetch the figure of one step from
here. The same address without htmx is a page of its own, so the links work in a
new tab and without JavaScript too. Both are whole-page cached like the game page
(``cached_page``: public for readers, never for staff, who may see a working copy).
"""

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers

from games.models import Game
from games.play import definition as registry
from games.play.steps import step_through
from rules.citations import Citations
from rules.publishing import article_for_page
from site_config.page_cache import cached_page

STEP_PARAM = "schritt"
FIGURE = "includes/example_steps.html#figure"


def _step_number(request, count: int) -> int:
    raw = request.GET.get(STEP_PARAM, "1")
    if not raw.isdigit() or not 1 <= int(raw) <= count:
        raise Http404("Diesen Schritt gibt es in diesem Beispiel nicht.")
    return int(raw)


@require_safe
@cached_page
@vary_on_headers("HX-Request")
def example_step(request, slug, number):
    game = get_object_or_404(Game.objects.visible_to(request.user), slug=slug)
    article = article_for_page(request, game).article
    examples = list(article.examples.all()) if article else []
    if not 1 <= number <= len(examples):
        raise Http404("Dieses Beispiel gibt es nicht.")
    example = examples[number - 1]
    through = step_through(example.engine_check)
    if through is None:
        raise Http404("Dieses Beispiel lässt sich nicht Schritt für Schritt zeigen.")
    current = _step_number(request, through.count)
    context = {
        "game": game,
        "example": example,
        "number": number,
        "through": through,
        "current": current,
        "announce": through.steps[current - 1]["title"],
        # Citations lead to the article's „Quellen“ on the game page.
        "cites": Citations.of(article.sources.all(), base=game.get_absolute_url()),
    }
    if request.htmx:
        response = render(request, FIGURE, context)
    else:
        play = registry.get(example.engine_check.get("engine", ""))
        context["head_templates"] = [play.head_template] if play and play.head_template else []
        response = render(request, "games/example_page.html", context)
    return response
