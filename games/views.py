from functools import cache, partial
from urllib.parse import urlencode

from django.db.models import Prefetch, prefetch_related_objects
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers

from feedback.services import with_vote_stats
from feedback.views import game_page_context
from games import seo
from games.forms import CatalogueFilterForm
from games.models import Edition, Game
from games.play import definition as registry
from games.play import views as demo_views
from rules.models import Section
from rules.publishing import PublishedArticle, article_for_page
from site_config import content_versions
from site_config.page_cache import PER_VISITOR_CACHE_CONTROL, cached_page, code_stamp
from sleeves.selectors import box_for


@require_safe
@cached_page
@vary_on_headers("HX-Request")
def catalogue(request):
    form = CatalogueFilterForm(request.GET or None)
    games = form.filter(
        Game.objects.visible_to(request.user).prefetch_related("publishers", "authors")
    )
    games = with_vote_stats(games)
    # An unbound filter form renders the same for every reader (templatetags/page_parts).
    form_key = "" if form.is_bound else f"{code_stamp()}:catalogue-form"
    context = {"form": form, "games": games, "form_key": form_key}
    if request.htmx:
        return render(request, "games/catalogue.html#results", context)
    return render(request, "games/catalogue.html", context)


def _game_for(request, slug, with_votes=False, for_page=False):
    games = Game.objects.visible_to(request.user)
    if for_page:
        # The article rides along (article_for_page uses it). People, publishers and
        # editions are read only when their part of the page is drawn (page_parts).
        games = games.select_related("article")
    else:
        games = games.prefetch_related(
            "publishers",
            "authors",
            "illustrators",
            Prefetch("editions", queryset=Edition.objects.select_related("publisher")),
        )
    if with_votes:
        # Average and count ride along in the game query; the reader's own stars are a
        # fragment (feedback), never part of the cached page.
        games = with_vote_stats(games)
    return get_object_or_404(games, slug=slug)


GENERIC_DEMO = "play/demo.html"


def play_context(request, game, with_state: bool = False) -> dict:
    """The game's definition and, when it has a demo, what the demo region needs.

    ``with_state`` adds the visitor's demo (the fragment and the full-screen page);
    the cached game page shows only the slot that loads it.
    """
    play = registry.get(game.demo_engine)
    demo = play.demo if play else None
    heads = []
    if demo is not None and demo.template == GENERIC_DEMO:
        heads.append("play/demo_head.html")
    if play is not None and play.head_template:
        heads.append(play.head_template)
    context = {"play": play, "demo": demo, "head_templates": heads if demo else []}
    if with_state:
        back = demo_views.return_path(request, game.slug)
        context["demo_context"] = demo_views.demo_context(request, play, back=back) if demo else {}
    return context


def _article_parts_key(game, article) -> str:
    """What identifies the rendered parts of a published article (templatetags/page_parts).

    The article's id and version, a hash of the published snapshot (what the parts
    show; robust against a snapshot changed without a new version), the code and the
    game's slug (in the examples' step links) name its rendered sections. Another
    game's edit leaves them as they are. A working copy (staff) is never kept.
    """
    if not isinstance(article, PublishedArticle):
        return ""
    return ":".join(
        (
            code_stamp(),
            "article",
            str(article.pk),
            str(article.published_version),
            article.content_digest,
            game.slug,
        )
    )


def _with_people(game) -> Game:
    prefetch_related_objects([game], "publishers", "authors", "illustrators")
    return game


def _editions_of(game) -> list[Edition]:
    return list(game.editions.select_related("publisher"))


def _shared_parts_keys(game) -> dict:
    """Keys of the parts that read rows beyond the game's own (templatetags/page_parts):
    similar games and statistics (every game), the sleeve box (the sleeve catalogue and
    the game's editions). Each is keyed by the version of the tables it reads."""
    games_version, sleeves_version = content_versions.versions("games", "sleeves").split(".")
    own = f"{code_stamp()}:{game.pk}:{game.slug}:{game.updated_at.isoformat()}"
    return {
        # People and publishers are rows of the games group.
        "people_key": f"{own}:people:{games_version}",
        "similar_key": f"{own}:similar:{games_version}",
        "statistics_key": f"{own}:statistics:{games_version}",
        "sleeves_key": f"{own}:sleeves:{sleeves_version}",
        # Editions and their publishers count to the sleeves' group (they name variants).
        "editions_key": f"{own}:editions:{sleeves_version}",
    }


def _json_ld_key(request, game, context) -> str:
    """The structured data reads the game, its people (``people_key``), the published
    article (``parts_key``; none for a working copy), the votes' average and the
    address the page was asked for."""
    if not context["parts_key"]:
        return ""
    return ":".join(
        (
            context["people_key"],
            context["parts_key"],
            "json-ld",
            request.scheme,
            request.get_host(),
            str(getattr(game, "vote_count", 0)),
            str(getattr(game, "vote_average", "")),
        )
    )


@require_safe
@cached_page
def game_detail(request, slug):
    """The rules page: the same for every reader, so it is served from the page cache.

    Per-visitor parts (the demo, the reader's own stars, „Mitspieler finden“) are
    fragments the page loads afterwards (``includes/fragment.html``).
    """
    game = _game_for(request, slug, with_votes=True, for_page=True)
    # Readers get the published snapshot, staff the working copy (rules/publishing.py).
    article_page = article_for_page(request, game)
    article = article_page.article
    play = play_context(request, game)
    demo = play["demo"]
    sections = list(article.sections.all()) if article else []
    people = cache(partial(_with_people, game))
    context = {
        "game": game,
        "article": article,
        "sections": sections,
        "has_examples_section": any(s.kind == Section.Kind.EXAMPLES for s in sections),
        "has_mistakes_section": any(s.kind == Section.Kind.MISTAKES for s in sections),
        **play,
        "demo_fragment_url": game.get_demo_url()
        + "?"
        + urlencode({"zurueck": game.get_absolute_url()}),
        # People and publishers are read (once) only when a part showing them is drawn.
        "people": people,
        "json_ld": cache(lambda: seo.game_json_ld(request, people(), article)),
        "is_preview": not game.is_published
        or (article_page.is_working_copy and not article_page.has_public_version),
        "article_page": article_page,
        # Drawn only when the sleeve box's part is not kept (the template calls it once).
        "sleeves": cache(partial(box_for, game)),
        "editions": cache(partial(_editions_of, game)),
        # Worked examples drawn by the engine are kept by content and code (examples.html).
        "code_stamp": code_stamp(),
        "parts_key": _article_parts_key(game, article),
        **_shared_parts_keys(game),
    }
    context["json_ld_key"] = _json_ld_key(request, game, context)
    context.update(game_page_context(request, game, article, sections, demo))
    response = render(request, "games/game_detail.html", context)
    # An opened report form carries this reader's CSRF token.
    response.page_cacheable = not context["report_form_open"]
    return response


@require_safe
@vary_on_headers("HX-Request")
def game_demo(request, slug):
    """The full-screen demo; asked by htmx, the demo region the game page loads after itself."""
    game = _game_for(request, slug)
    context = {"game": game, **play_context(request, game, with_state=True)}
    if context["demo"] is None:
        raise Http404("Für dieses Spiel gibt es noch keine Demo.")
    if request.htmx:
        response = render(
            request, context["demo"].template, {"game": game, "demo": context["demo_context"]}
        )
    else:
        response = render(request, "games/game_demo.html", context)
    response["Cache-Control"] = PER_VISITOR_CACHE_CONTROL
    return response
