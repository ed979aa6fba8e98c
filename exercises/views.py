"""„Üben“: /spiele/<slug>/ueben/ lists a game's exercises; each is answered on its board.

An answer is a plain form post (``…/ueben/<n>/``) – with htmx only that exercise is
swapped, without JavaScript the whole page comes back with the verdict and the
browser jumps to ``#uebung-<n>``. The engine judges (``exercises.kinds.judge``);
progress is kept per visitor (``exercises.progress``). Pages differ per visitor,
so they are never stored in the page cache.
"""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from exercises import progress
from exercises.kinds import ANSWER, UnknownKind, kind_for, position_of
from exercises.kinds import judge as engine_judge
from exercises.models import Exercise
from games.models import Game
from games.play import definition as registry
from games.visitors import is_new_visitor, visitor_id
from rules.models import Section
from site_config.page_cache import PER_VISITOR_CACHE_CONTROL
from site_config.ratelimit import HOUR, Limit, client_ip, hit

SECTION_LABELS = dict(Section.Kind.choices)
NEW_VISITORS_PER_IP = Limit("exercise-visitor-ip", 60, HOUR)


def anchor(number: int) -> str:
    return f"uebung-{number}"


def _game(request, slug) -> Game:
    game = get_object_or_404(Game.objects.visible_to(request.user), slug=slug)
    if registry.get(game.demo_engine) is None:
        raise Http404("Für dieses Spiel gibt es keine Übungen.")
    return game


def _exercises(game) -> list[Exercise]:
    exercises = []
    for exercise in game.exercises.published():
        try:
            kind_for(exercise.setup)
        except UnknownKind:
            continue  # a kind the code no longer knows is not shown
        exercises.append(exercise)
    return exercises


def item(game, exercise, number, row=None, verdict=None, token="", error="") -> dict:
    """What one exercise's template needs; the solution only once it is to be shown."""
    kind = kind_for(exercise.setup)
    misses = row.misses if row else 0
    solved = bool(row and row.solved)
    show_solution = not solved and misses >= progress.SHOW_SOLUTION_AFTER
    if verdict is not None and verdict.right:
        show_solution = False
    section = exercise.section
    return {
        "exercise": exercise,
        "number": number,
        "anchor": anchor(number),
        "board": kind.board(position_of(exercise.setup)),
        "board_template": kind.template,
        "solved": solved,
        "misses": misses,
        "verdict": verdict,
        "reason": kind.reason_label(verdict.why) if verdict and not verdict.right else "",
        "token": token,
        "error": error,
        "show_solution": show_solution,
        "solution": kind.solution(exercise.setup, exercise.setup.get(ANSWER, ""))
        if show_solution
        else {},
        "section_url": f"{game.get_absolute_url()}#{section}" if section else "",
        "section_label": SECTION_LABELS.get(section, ""),
        "action_url": reverse("exercises:answer", args=[game.slug, number]),
    }


def page_context(request, game, replaced: dict | None = None) -> dict:
    exercises = _exercises(game)
    rows = progress.rows_for(progress.visitors_of(request), exercises)
    items = []
    for number, exercise in enumerate(exercises, start=1):
        if replaced and replaced["number"] == number:
            items.append(replaced)
        else:
            items.append(item(game, exercise, number, rows.get(exercise.pk)))
    solved = sum(1 for entry in items if entry["solved"])
    return {
        "game": game,
        "items": items,
        "solved": solved,
        "total": len(items),
        "all_done": bool(items) and solved == len(items),
        "page_url": reverse("exercises:practice", args=[game.slug]),
    }


def _per_visitor(response):
    response["Cache-Control"] = PER_VISITOR_CACHE_CONTROL
    return response


@require_safe
@vary_on_headers("HX-Request")
def practice(request, slug):
    game = _game(request, slug)
    context = page_context(request, game)
    template = "exercises/page.html#list" if request.htmx else "exercises/page.html"
    return _per_visitor(render(request, template, context))


@require_POST
@vary_on_headers("HX-Request")
def answer(request, slug, number):
    game = _game(request, slug)
    exercises = _exercises(game)
    if not 1 <= number <= len(exercises):
        raise Http404("Diese Übung gibt es nicht.")
    exercise = exercises[number - 1]
    kind = kind_for(exercise.setup)
    token = kind.parse(request.POST)
    visitors = progress.visitors_of(request, create=True)
    if token is None:
        row = progress.rows_for(visitors, [exercise]).get(exercise.pk)
        current = item(
            game,
            exercise,
            number,
            row,
            error="Wähle zuerst aus, was du tun willst – eine Karte, einen Stapel oder einen Knopf.",
        )
    else:
        verdict = engine_judge(exercise.setup, token)
        # A browser without the cookie starts a new visitor id with each answer: a script
        # could fill the table, so new ids are counted per address (the verdict comes anyway).
        if not is_new_visitor(request) or not hit(NEW_VISITORS_PER_IP, client_ip(request)):
            progress.record(visitor_id(request), exercise, verdict.right)
        row = progress.rows_for(visitors, [exercise]).get(exercise.pk)
        current = item(game, exercise, number, row, verdict=verdict, token=token)
    context = page_context(request, game, current)
    if request.htmx:
        # The exercise, and the progress line out of band.
        html = render_to_string(
            "exercises/page.html#exercise", {"entry": current, "game": game}, request
        ) + render_to_string("exercises/page.html#progress", {**context, "oob": True}, request)
        response = HttpResponse(html)
    else:
        response = render(request, "exercises/page.html", context)
    return _per_visitor(response)


def cards_by_section(game) -> dict[str, list[dict]]:
    """The game page's compact links beside each section: kind -> exercises."""
    cards: dict[str, list[dict]] = {}
    url = reverse("exercises:practice", args=[game.slug])
    for number, exercise in enumerate(_exercises(game), start=1):
        if exercise.section:
            cards.setdefault(exercise.section, []).append(
                {"number": number, "title": exercise.title, "url": f"{url}#{anchor(number)}"}
            )
    return cards
