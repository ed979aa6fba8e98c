from dataclasses import dataclass
from functools import cache, partial
from urllib.parse import urlencode

from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers

from site_config.page_cache import cached_page, query_part_key
from sleeves.calculation import MAX_COPIES, MAX_GAMES, Selection, parse_selection
from sleeves.selectors import finder_for, search_games

SEARCH_LIMIT = 12


@dataclass(frozen=True)
class FinderState:
    """Everything the finder keeps in its URL; builds the links that change one part."""

    selection: Selection
    include_expansions: bool = False
    query: str = ""

    def url(
        self, selection: Selection | None = None, include_expansions: bool | None = None
    ) -> str:
        selection = self.selection if selection is None else selection
        expansions = self.include_expansions if include_expansions is None else include_expansions
        params = {}
        if selection.picks:
            params["spiele"] = selection.param
        if expansions:
            params["erweiterungen"] = "1"
        if self.query:
            params["q"] = self.query
        query_string = urlencode(params, safe=",*~")
        return reverse("sleeves:finder") + (f"?{query_string}" if query_string else "")

    def share_url(self) -> str:
        """The bookmarkable address of the result, without the search text."""
        return FinderState(self.selection, self.include_expansions).url()


@require_safe
@cached_page
@vary_on_headers("HX-Request")
def finder(request):
    # Everything below is computed only if the finder's part of the page is not kept
    # (templatetags/page_parts): a kept page costs no query and no calculation.
    prepared = cache(partial(_finder_context, request))
    context = {name: partial(_pick, prepared, name) for name in FINDER_CONTEXT}
    # The finder shows the sleeve catalogue and the games' rows; its share link the address.
    context["finder_key"] = query_part_key(
        request, "sleeve-finder", "games", "sleeves", with_address=True
    )
    context["finder_is_htmx"] = bool(request.htmx)  # the list then carries out-of-band swaps
    if request.htmx:
        return render(request, "sleeves/finder.html#finder", context)
    return render(request, "sleeves/finder.html", context)


FINDER_CONTEXT = (
    "result", "calculation", "state", "found", "found_more", "query", "share_url",
    "toggle_expansions_url", "clear_url",
)  # fmt: skip


def _pick(prepared, name):
    return prepared()[name]


def _finder_context(request) -> dict:
    include_expansions = request.GET.get("erweiterungen") == "1"
    query = request.GET.get("q", "").strip()[:80]
    result = finder_for(
        parse_selection(request.GET.getlist("spiele")), request.user, include_expansions
    )
    state = FinderState(result.selection, include_expansions, query)

    for row in result.rows:
        slug, copies = row.game.slug, row.pick.copies
        row.plus_url = state.url(state.selection.with_copies(slug, copies + 1))
        row.minus_url = state.url(state.selection.with_copies(slug, copies - 1))
        row.remove_url = state.url(state.selection.without(slug))
        row.can_add_copy = copies < MAX_COPIES
        row.variant_links = [
            (variant, state.url(state.selection.with_edition(slug, variant.key)))
            for variant in row.variants
        ]
    found = search_games(request.user, query, limit=SEARCH_LIMIT)
    for game in found:
        pick = state.selection.get(game.slug)
        game.finder_copies = pick.copies if pick else 0
        game.finder_add_url = state.url(state.selection.adding(game.slug))
        game.finder_can_add = game.finder_copies < MAX_COPIES and (
            pick is not None or len(state.selection.picks) < MAX_GAMES
        )

    return {
        "result": result,
        "calculation": result.calculation,
        "state": state,
        "found": found,
        "found_more": len(found) >= SEARCH_LIMIT,
        "query": query,
        "share_url": request.build_absolute_uri(state.share_url()),
        "toggle_expansions_url": state.url(include_expansions=not include_expansions),
        "clear_url": FinderState(Selection(), include_expansions, query).url(),
    }
