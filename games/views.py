from functools import cache, partial
from urllib.parse import urlencode

from django.db.models import Prefetch, prefetch_related_objects
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers

from editorial.drafts import overlay as overlay_game_draft
from exercises.views import cards_by_section as exercise_cards
from feedback.services import attach_vote_stats, with_vote_stats
from feedback.views import game_page_context
from games import seo
from games.forms import CatalogueFilterForm
from games.models import Edition, Game, sees_drafts
from games.play import definition as registry
from games.play import views as demo_views
from rules.citations import NO_SOURCES
from rules.models import Section
from rules.publishing import SNAPSHOT_DIGEST, PublishedArticle, article_for_page
from site_config import content_versions, row_sql
from site_config.page_cache import (
    PER_VISITOR_CACHE_CONTROL,
    cached_page,
    code_stamp,
    query_part_key,
)
from sleeves.selectors import box_for


@require_safe
@cached_page
@vary_on_headers("HX-Request")
def catalogue(request):
    # Form and list are built only if their part of the page is not kept (page_parts):
    # even an unevaluated annotated queryset costs more than the rest of a kept page.
    form = cache(lambda: CatalogueFilterForm(request.GET or None))

    def games():
        listed = form().filter(
            Game.objects.visible_to(request.user).prefetch_related("publishers", "authors")
        )
        return with_vote_stats(listed)

    context = {
        "form": form,
        "games": cache(games),
        # The filter form shows nothing but the query string's values.
        "form_key": f"{code_stamp()}:catalogue-form:{request.GET.urlencode()}",
        # The results show every visible game's row, people and vote averages; a search
        # also reads the published articles' glossary words.
        "results_key": query_part_key(request, "catalogue", "games", "votes", "articles"),
    }
    if request.htmx:
        return render(request, "games/catalogue.html#results", context)
    return render(request, "games/catalogue.html", context)


def _game_for(request, slug, for_page=False):
    games = Game.objects.visible_to(request.user)
    if not for_page:
        games = games.prefetch_related(
            "publishers",
            "authors",
            "illustrators",
            Prefetch("editions", queryset=Edition.objects.select_related("publisher")),
        )
        return get_object_or_404(games, slug=slug)
    if not sees_drafts(request.user):
        # A reader's page: the SQL is compiled once (a miss of a game page drew it anew,
        # ~0.7 ms of its ~4.3 ms CPU).
        game = _PUBLISHED_FOR_PAGE.first(slug)
        if game is None:
            raise Http404("Kein Spiel mit dieser Adresse.")
        return game
    return get_object_or_404(_for_page(games), slug=slug)


def _for_page(games):
    # The article rides along (article_for_page uses it). People, publishers and
    # editions are read only when their part of the page is drawn (page_parts).
    games = games.select_related("article").defer("article__published_snapshot")
    return games.annotate(article_snapshot_digest=SNAPSHOT_DIGEST)


_PUBLISHED_FOR_PAGE = row_sql.Compiled(
    lambda slug: _for_page(Game.objects.published()).filter(slug=slug).order_by()[:1],
    "\x00slug",
)


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
    if play is not None and play.coach is not None:
        heads.append("play/coach_head.html")
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


def quick_start(sections) -> list[dict]:
    """„So geht's in 2 Minuten“: the goal, the turn box and the end, each from its section
    (``gist`` of „Ziel“ and „Spielende“, the turn summary of „Ablauf“), with a link to it.
    Parts the article does not have are left out."""
    wanted = (
        (Section.Kind.GOAL, "gist", "Das Ziel"),
        (Section.Kind.PLAY, "summary", "Dein Zug"),
        (Section.Kind.END, "gist", "Das Ende"),
    )
    by_kind = {section.kind: section for section in sections}
    parts = []
    for kind, field, label in wanted:
        section = by_kind.get(kind)
        if section is not None and getattr(section, field):
            parts.append({"label": label, "text": getattr(section, field), "section": section})
    return parts


def _with_people(game) -> Game:
    prefetch_related_objects([game], "publishers", "authors", "illustrators")
    return game


def _editions_of(game) -> list[Edition]:
    drafted = getattr(game, "draft_editions", None)  # a staff preview (editorial.drafts)
    if drafted is not None:
        return drafted
    return list(game.editions.select_related("publisher"))


def _shared_parts_keys(game) -> dict:
    """Keys of the parts that read rows beyond the game's own (templatetags/page_parts):
    similar games and statistics (every game), the sleeve box (the sleeve catalogue and
    the game's editions). Each is keyed by the version of the tables it reads."""
    games_version, sleeves_version, votes_version = content_versions.versions(
        "games", "sleeves", "votes"
    ).split(".")
    own = f"{code_stamp()}:{game.pk}:{game.slug}:{game.updated_at.isoformat()}"
    return {
        # People and publishers are rows of the games group.
        "people_key": f"{own}:people:{games_version}",
        "similar_key": f"{own}:similar:{games_version}",
        "statistics_key": f"{own}:statistics:{games_version}",
        # Exercises count to the games group (site_config.content_versions).
        "exercises_key": f"{own}:exercises:{games_version}",
        "sleeves_key": f"{own}:sleeves:{sleeves_version}",
        # Editions and their publishers count to the sleeves' group (they name variants).
        "editions_key": f"{own}:editions:{sleeves_version}",
        # Not a part's key: the votes' averages are kept by it (feedback.services).
        "votes_version": votes_version,
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


def _body_key(request, context) -> str:
    """The whole article area as one part: the keys of everything it shows (the
    published article, people and votes via ``json_ld_key``, similar games, statistics,
    sleeves, editions) together. After an edit elsewhere on the site the page is drawn
    from this one part; after an edit that touches it, from its warm inner parts.
    Never kept for staff, previews or an opened report form (it holds a CSRF token)."""
    if (
        not context["json_ld_key"]
        or context["report_form_open"]
        or context["is_preview"]
        or request.user.is_staff
    ):
        return ""
    return ":".join(
        (
            context["json_ld_key"],
            context["similar_key"],
            context["statistics_key"],
            context["sleeves_key"],
            context["editions_key"],
            "body",
            "htmx" if request.htmx else "page",
        )
    )


@require_safe
@cached_page
def game_detail(request, slug):
    """The rules page: the same for every reader, so it is served from the page cache.

    Per-visitor parts (the demo, the reader's own stars, „Mitspieler finden“) are
    fragments the page loads afterwards (``includes/fragment.html``).
    """
    game = _game_for(request, slug, for_page=True)
    parts_keys = _shared_parts_keys(game)
    # Average and count of the votes; the reader's own stars are a fragment (feedback),
    # never part of the cached page.
    attach_vote_stats(game, parts_keys.pop("votes_version"))
    # Readers get the published snapshot, staff the working copy (rules/publishing.py).
    article_page = article_for_page(request, game)
    article = article_page.article
    if article_page.is_working_copy and overlay_game_draft(game):
        # Staff preview the game's draft too; nothing drawn from it is kept for readers.
        parts_keys = {name: "" for name in parts_keys}
    play = play_context(request, game)
    demo = play["demo"]
    # The sections are unpacked from the snapshot only when a part showing them is drawn.
    sections = cache(lambda: list(article.sections.all()) if article else [])
    people = cache(partial(_with_people, game))
    context = {
        "game": game,
        "article": article,
        "sections": sections,
        "has_examples_section": cache(
            lambda: any(s.kind == Section.Kind.EXAMPLES for s in sections())
        ),
        "has_mistakes_section": cache(
            lambda: any(s.kind == Section.Kind.MISTAKES for s in sections())
        ),
        # A game with simulation figures shows them even if its article has no such section.
        "has_statistics_section": cache(
            lambda: any(s.kind == Section.Kind.STATISTICS for s in sections())
        ),
        "has_short_rules": cache(
            lambda: any(s.kind == Section.Kind.SHORT_RULES for s in sections())
        ),
        "quick_start": cache(lambda: quick_start(sections())),
        # Citations („[@key S. 2]“) link to the article's sources (rules/citations.py).
        "cites": cache(lambda: article.citations if article else NO_SOURCES),
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
        # „Üben“: the exercises that belong to a section, linked beside it.
        # (No query for a game without exercise kinds.)
        "exercise_cards": cache(
            lambda: exercise_cards(game) if play["play"] and play["play"].exercises else {}
        ),
        "exercises_url": reverse("exercises:practice", args=[game.slug]),
        # Worked examples drawn by the engine are kept by content and code (examples.html).
        "code_stamp": code_stamp(),
        "parts_key": _article_parts_key(game, article),
        **parts_keys,
    }
    context["json_ld_key"] = _json_ld_key(request, game, context)
    context.update(game_page_context(request, game, article, sections, demo))
    context["body_key"] = _body_key(request, context)
    response = render(request, "games/game_detail.html", context)
    # An opened report form carries this reader's CSRF token.
    response.page_cacheable = not context["report_form_open"]
    return response


def _has_short_rules(request, game) -> bool:
    """Whether the article the reader sees has a Kurzregel (the demo page links it)."""
    article = article_for_page(request, game).article
    return bool(article) and any(s.kind == Section.Kind.SHORT_RULES for s in article.sections.all())


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
        context["has_short_rules"] = _has_short_rules(request, game)
        response = render(request, "games/game_demo.html", context)
    response["Cache-Control"] = PER_VISITOR_CACHE_CONTROL
    return response
