from urllib.parse import urlencode

from django.shortcuts import get_object_or_404, redirect, render
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from feedback import services
from feedback.forms import ErrorReportForm, VoteForm
from feedback.models import ErrorReport
from games.models import Game
from games.play import definition as registry
from games.visitors import visitor_id
from rules.publishing import article_for_page

FORM_ANCHOR = "fehler-melden"
SECTION_PARAM = "abschnitt"
OPEN_PARAM = "melden"


def _choices_and_version(request, game):
    article = article_for_page(request, game).article
    sections = list(article.sections.all()) if article else []
    choices = services.section_choices(article, sections, has_demo=_has_demo(game))
    return choices, getattr(article, "published_version", None)


def _new_form(request, choices, version, game=None):
    kind = request.GET.get(SECTION_PARAM, "")
    valid_kinds = {value for value, _ in choices}
    return ErrorReportForm(
        section_choices=choices,
        initial={
            "section_kind": kind if kind in valid_kinds else "",
            "fassung": version or "",
            "stellung": _demo_position(request, game),
        },
    )


def _demo_position(request, game) -> str:
    """A reader who played the game's demo sends its position along (games.play.positions)."""
    if game is None or not game.demo_engine:
        return ""
    from games.play import positions
    from games.visitors import existing_visitor_id

    if not positions.demo_has_position(existing_visitor_id(request), game.demo_engine):
        return ""
    return positions.demo_reference(game.demo_engine)


def _has_demo(game) -> bool:
    play = registry.get(game.demo_engine)
    return play is not None and play.demo is not None


def game_page_context(request, game, article, sections, demo) -> dict:
    """What the game page needs for the report box (no extra queries); ``sections``
    gives the article's sections when called."""
    is_open = SECTION_PARAM in request.GET or OPEN_PARAM in request.GET
    if not is_open:
        return {"report_form": None, "report_form_open": False}
    choices = services.section_choices(article, sections(), has_demo=demo is not None)
    return {
        "report_form": _new_form(
            request, choices, getattr(article, "published_version", None), game
        ),
        "report_form_open": True,
    }


@vary_on_headers("HX-Request")
@require_http_methods(["GET", "POST"])
def report(request, slug):
    """GET (htmx): the form for the game page. POST: store, then thank in place or redirect."""
    game = get_object_or_404(Game.objects.visible_to(request.user), slug=slug)
    if request.method == "GET" and not request.htmx:
        # Without JavaScript the form opens on the game page itself.
        query = urlencode({SECTION_PARAM: request.GET.get(SECTION_PARAM, "")})
        return redirect(f"{game.get_absolute_url()}?{query}#{FORM_ANCHOR}")
    choices, version = _choices_and_version(request, game)
    context = {"game": game, "focus_form": True}
    if request.method == "GET":
        context["report_form"] = _new_form(request, choices, version, game)
        return render(request, "feedback/report_page.html#form", context)

    form = ErrorReportForm(request.POST, section_choices=choices)
    context["report_form"] = form
    if not form.is_valid():
        template = "feedback/report_page.html#form" if request.htmx else "feedback/report_page.html"
        return render(request, template, context)
    report = services.create_report(request, game, form.cleaned_data, form.section_label())
    context["report"] = report
    context["status_url"] = request.build_absolute_uri(report.get_status_url())
    if request.htmx or report.pk is None:
        # A dropped flood gets the same thanks, only its link leads nowhere.
        template = (
            "feedback/report_page.html#thanks" if request.htmx else "feedback/report_page.html"
        )
        return render(request, template, context)
    return redirect(f"{report.get_status_url()}?neu=1")


@require_safe
def status(request, token):
    """The reader's private page for one report; the unguessable token is the only key."""
    report = get_object_or_404(ErrorReport.objects.select_related("game"), token=token)
    context = {
        "report": report,
        "game": report.game,
        "is_new": "neu" in request.GET,
        "status_url": request.build_absolute_uri(report.get_status_url()),
        "steps": _steps(report),
    }
    response = render(request, "feedback/status.html", context)
    response["X-Robots-Tag"] = "noindex, nofollow"
    patch_cache_control(response, private=True, no_store=True)
    return response


def _steps(report):
    """The progress line: received → in review → corrected or rejected."""
    status = ErrorReport.Status
    final = status.REJECTED if report.status == status.REJECTED else status.CORRECTED
    order = [status.NEW, status.IN_REVIEW, final]
    reached = order.index(report.status) if report.status in order else 0
    return [
        {
            "label": step.label,
            # A closed report has reached its last step: it is done, not waiting.
            "done": index < reached or (index == reached and report.is_closed),
            "current": index == reached,
        }
        for index, step in enumerate(order)
    ]


@require_POST
@vary_on_headers("HX-Request")
def vote(request, slug):
    game = get_object_or_404(Game.objects.visible_to(request.user), slug=slug)
    form = VoteForm(request.POST)
    visitor = visitor_id(request)
    context = {"game": game}
    status_code = 200
    if not form.is_valid():
        context["rating_error"] = "Bitte wähle einen bis fünf Sterne."
        status_code = 400
    elif not services.vote_allowed(request, game, visitor):
        context["rating_error"] = (
            "Von deinem Anschluss kamen gerade sehr viele Bewertungen. "
            "Bitte versuch es in einer Stunde noch einmal."
        )
        status_code = 429
    else:
        stars = form.cleaned_data["sterne"]
        vote = services.cast_vote(game, visitor, stars)
        context["rating_message"] = (
            f"Danke! Du hast {stars} von 5 Sternen vergeben. Ändern kannst du das jederzeit."
        )
        # Set by accounts when this was the game's first vote (accounts/receivers.py).
        points = getattr(vote, "points_awarded", 0)
        if points:
            context["rating_points"] = points
            context["rating_message"] += (
                f" Als erste Stimme für {game.title} bringt sie dir +{points} Punkte"
                + (
                    " – zu sehen in „Mein Bereich“."
                    if request.user.is_authenticated
                    else "; mit einem Konto sammelst du sie in „Mein Bereich“."
                )
            )
    if request.htmx:
        # htmx swaps only 2xx answers; the error is shown in place instead.
        context["game"] = services.with_vote_stats(Game.objects.filter(pk=game.pk), visitor).get()
        response = render(request, "feedback/includes/rating.html", context)
    elif status_code != 200:
        response = render(request, "feedback/vote_problem.html", context, status=status_code)
    else:
        response = redirect(f"{game.get_absolute_url()}#bewertung")
    return response
