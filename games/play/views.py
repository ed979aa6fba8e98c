"""The demo driver's pages and requests, the same for every game.

``demo_context`` fills the demo region on the game page and the full-screen
page; the request views change the visitor's row through ``demo_service`` and
answer htmx with the demo's partial, everything else with a redirect back to
the page (the note then travels as a Django message, like in rooms).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_cache_control
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from games import availability
from games.play import board, coach, demo_service, driver, streams
from games.play import definition as registry
from games.visitors import existing_visitor_id, visitor_id
from site_config.ratelimit import HOUR, Limit, client_ip, hit

STALE = "Das Spiel hat sich inzwischen geändert – hier ist der aktuelle Stand."


def return_path(request, game_slug: str) -> str:
    """Where a demo action redirects without JavaScript: the page it was sent from
    (game page or full-screen page) if it is a local path, else the full-screen page."""
    back = request.POST.get("zurueck") or request.GET.get("zurueck") or ""
    if back.startswith("/") and url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return back
    return board.demo_page_path(game_slug)


def expected_version(request) -> int:
    """The state version a demo request names; a request without one never applies."""
    try:
        return int(request.POST.get("version", ""))
    except ValueError:
        return -1


def _definition(slug: str, request=None):
    definition = registry.for_slug(slug)
    if definition is None or definition.demo is None:
        raise Http404("Für dieses Spiel gibt es keine Demo.")
    if request is not None and not availability.is_open(request, slug):
        raise Http404("Dieses Spiel gibt es nicht.")
    return definition


def _notes(request) -> str:
    """Notes of a no-JavaScript request, shown once in the demo after the redirect."""
    return " ".join(str(note) for note in messages.get_messages(request))


def demo_context(request, definition, back: str | None = None) -> dict:
    """The demo region of the game page and the full-screen page.

    ``back``: where no-JavaScript forms return (default: the page asked for).
    """
    row = demo_service.saved_row(request, definition.key)
    if row is None or driver.due(definition, row):
        row = _caught_up(request, definition, row)
    return board.draw(definition, row, back=back or request.path, note=_notes(request))


def _caught_up(request, definition, row):
    """The visitor's row with the bots' due moves made (and announced); a visitor
    without a stored game gets the row a first request would create (unsaved)."""
    visitor = visitor_id(request)
    create = driver.creator(definition)
    if row is None:
        return demo_service.unsaved(visitor, definition.key, create)
    outcome = demo_service.perform(
        visitor,
        definition.key,
        driver.poll_action(definition),
        create=create,
        expected_version=None,
        bump_version=False,
    )
    _announce(definition, outcome)
    return outcome.row


# A script without cookies would store one demo row per request.
NEW_DEMOS_PER_IP = Limit("demo-create-ip", 60, HOUR)


def _announce(definition, outcome) -> None:
    """A saved change reaches the reader's other open pages by push (games.play.live)."""
    if outcome.applied:
        driver.announce(definition, outcome.row)


def _perform(request, definition, action, expected):
    outcome = demo_service.perform(
        visitor_id(request),
        definition.key,
        action,
        create=driver.creator(definition),
        expected_version=expected,
        bump_version=False,
        may_create=lambda: not hit(NEW_DEMOS_PER_IP, client_ip(request)),
    )
    _announce(definition, outcome)
    return outcome


def _respond(request, definition, outcome, *, since=None, show_refusal=True, status=200):
    note = outcome.error if show_refusal else ""
    result = outcome.result if isinstance(outcome.result, dict) else {}
    note = note or result.get("note", "")
    back = return_path(request, definition.slug)
    if request.htmx:
        if status == 204:
            return HttpResponse(status=204)
        context = {
            "demo": board.draw(
                definition,
                outcome.row,
                back=back,
                note=note,
                result=result,
                since=since,
                stale=outcome.stale,
            ),
            "partial": True,  # an answer swapped into the page: out-of-band parts may come along
        }
        response = render(request, f"{definition.demo.template}#{definition.demo.partial}", context)
        # rooms.js never swaps an older table over a newer one (the same guard as rooms).
        response["X-Room-Version"] = str(outcome.row.version)
    else:
        if outcome.stale and show_refusal:
            note = note or STALE
        if note:
            level = messages.WARNING if outcome.error or outcome.stale else messages.INFO
            messages.add_message(request, level, note)
        response = redirect(f"{back}#{definition.demo.anchor or definition.key + '-demo'}")
    patch_cache_control(response, no_store=True)
    return response


def _versioned(request, slug, make_action, *, show_refusal: bool = True):
    """A game request naming the version it expects; the answer announces what is new."""
    definition = _definition(slug, request)
    expected = expected_version(request)
    outcome = _perform(request, definition, make_action(definition), expected)
    return _respond(request, definition, outcome, since=expected, show_refusal=show_refusal)


@require_POST
@vary_on_headers("HX-Request")
def start(request, slug):
    return _versioned(request, slug, lambda game: driver.start_action(game, request.POST))


@require_POST
@vary_on_headers("HX-Request")
def act(request, slug):
    definition = _definition(slug, request)
    if not definition.simultaneous:
        return _versioned(request, slug, lambda game: driver.act_action(game, request.POST))
    # Everyone acts at once: no whole-table version check (the engine checks the move
    # against the current table); the version the page showed still marks what is new.
    shown = expected_version(request)
    outcome = _perform(request, definition, driver.act_action(definition, request.POST), None)
    return _respond(request, definition, outcome, since=shown if shown >= 0 else None)


@require_POST
@vary_on_headers("HX-Request")
def bot(request, slug):
    """The next bot move, asked for by the client (it is refused silently when out of step)."""
    return _versioned(request, slug, driver.bot_action, show_refusal=False)


def _confirm_page(request, definition, kind: str, template: str):
    """The no-JavaScript confirmation step (with JavaScript a <dialog> asks)."""
    row = demo_service.saved_row(request, definition.key)
    row = row or demo_service.unsaved(
        visitor_id(request), definition.key, driver.creator(definition)
    )
    context = {
        "demo": board.draw(definition, row, back=return_path(request, definition.slug)),
        "kind": kind,
        "game_definition": definition,
    }
    return render(request, template, context)


@never_cache
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def new(request, slug):
    definition = _definition(slug, request)
    if request.method == "GET":
        if not definition.demo.confirm_new:
            raise Http404("Nichts zu bestätigen.")
        return _confirm_page(request, definition, "new", definition.demo.confirm_new)
    # Back to the setup form is the same however often it is asked; a new deal is not.
    expected = None if definition.demo.setup else expected_version(request)
    outcome = _perform(request, definition, driver.new_action(definition), expected)
    return _respond(request, definition, outcome)


@never_cache
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def extra(request, slug, name):
    definition = _definition(slug, request)
    spec = definition.demo.extras.get(name)
    if spec is None:
        raise Http404("Unbekannte Aktion.")
    if request.method == "GET":
        if not spec.confirm:
            return HttpResponse(status=405, headers={"Allow": "POST"})
        return _confirm_page(request, definition, name, spec.confirm)
    expected = expected_version(request) if spec.versioned else None

    def action(row):
        return spec.run(row, request.POST)

    outcome = _perform(request, definition, action, expected)
    return _respond(request, definition, outcome, status=spec.htmx_status)


NO_TIP = "Gerade gibt es für dich nichts zu entscheiden – warte auf die anderen."
COACH_ON = "Erklärungen sind an."
COACH_OFF = "Erklärungen sind aus."


@require_POST
@vary_on_headers("HX-Request")
def tip(request, slug):
    """„Tipp“: the move a strong bot would make for the reader now, and why. Computed
    from the reader's own knowledge only (``coach.tip_for``); nothing is stored."""
    definition = _definition(slug, request)
    if definition.coach is None:
        raise Http404("Für dieses Spiel gibt es keine Tipps.")
    row = demo_service.saved_row(request, definition.key)
    if row is None or driver.due(definition, row):
        row = _caught_up(request, definition, row)
    found = coach.tip_for(definition, row.state) if row.state is not None else None
    note = NO_TIP if found is None else f"Tipp: {found['move']} {found['why']}"
    outcome = demo_service.Outcome(row=row, result={"tip": found} if found else {"note": note})
    if request.htmx:
        return _respond(request, definition, outcome)
    # Without JavaScript the tip travels to the page as a note.
    outcome.result = {"note": note}
    return _respond(request, definition, outcome)


@require_POST
@vary_on_headers("HX-Request")
def coach_switch(request, slug):
    """„Erklärungen an/aus“: kept in the visitor's demo row; never touches the version."""
    definition = _definition(slug, request)
    if definition.coach is None:
        raise Http404("Für dieses Spiel gibt es keine Erklärungen.")
    on = request.POST.get("an") == "1"

    def action(row):
        coach.switch(row, on)
        driver.settle_hold(definition, row)
        return {"note": COACH_ON if on else COACH_OFF}

    outcome = _perform(request, definition, action, None)
    return _respond(request, definition, outcome)


@require_safe
def poll(request, slug):
    """Asked only while a bot's move is due: 204 until it is, then the new table."""
    definition = _definition(slug, request)
    try:
        since = int(request.GET.get("v", ""))
    except ValueError:
        since = None
    row = demo_service.saved_row(request, definition.key)
    if row is not None and row.version == since and not driver.due(definition, row):
        response = HttpResponse(status=204)
        patch_cache_control(response, no_store=True)
        return response
    row = _caught_up(request, definition, row)
    back = return_path(request, definition.slug)
    context = {"demo": board.draw(definition, row, back=back, since=since), "partial": True}
    response = render(request, f"{definition.demo.template}#{definition.demo.partial}", context)
    response["X-Room-Version"] = str(row.version)
    patch_cache_control(response, no_store=True)
    return response


@require_safe
async def live(request, slug):
    """/spiele/<slug>/demo/live/: the reader's own demo table (bots moving on their clock).

    A stream of version notices (``games.play.streams``); the page answers each
    by fetching its table from ``poll``.
    """
    definition = await streams.in_thread(_definition)(slug, request)
    # Only an existing visitor can have a stored game; a new one would get a fresh id per request.
    visitor = existing_visitor_id(request)
    if visitor is None:
        raise Http404("Noch keine Demo-Partie.")

    def read_version():
        return demo_service.stored_version(visitor, definition.key)

    channel = driver.channel(definition, visitor)
    return await streams.respond(request, channel, read_version, viewer=driver.READER_VIEW)
