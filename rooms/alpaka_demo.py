"""The Alpaka in-page demo: the reader (seat 0) against 1–5 bots.

Same table as the online rooms (``rooms/alpaka/table.html``), same bot
deadlines (``rooms.scheduler``), but the state lives in the visitor's
``DemoGame`` row (``games.demo_service``) and there is no turn timer: a reader
may stop to look something up in the rules. Bots move one after another with
a short visible delay; the page asks for their moves only while one is due.
"""

from __future__ import annotations

from datetime import datetime

from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from games import clock, demo_service
from games.demos import Demo, expected_version, register, return_path
from games.engines.base import IllegalAction
from games.visitors import remember_visitor, visitor_id
from rooms import scheduler, services
from rooms.alpaka_table import ENGINE

YOU = 0
TEMPLATE = "rooms/alpaka/demo.html"
BODY = f"{TEMPLATE}#body"
BOT_CHOICES = (1, 2, 3, 4, 5)
DEFAULTS = {"bots": 2, "variant": "klassisch", "target": 20}


def _create() -> tuple[dict, dict]:
    return {"stage": "setup", "settings": dict(DEFAULTS)}, {}


def _dt(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def _settings(data, current: dict) -> dict:
    settings = dict(current)
    try:
        bots = int(data.get("bots", settings["bots"]))
    except (TypeError, ValueError):
        raise IllegalAction("Wähle 1 bis 5 Bots.") from None
    if bots not in BOT_CHOICES:
        raise IllegalAction("Wähle 1 bis 5 Bots.")
    try:
        options = ENGINE.clean_options(
            data, current={k: settings[k] for k in ("variant", "target")}
        )
    except ValueError as error:
        raise IllegalAction(str(error)) from None
    return {**settings, **options, "bots": bots}


# --- Actions (run by demo_service.perform in the locked transaction) -------------------------


def _log(state: dict, version: int, events: list[dict]) -> None:
    state["log"] = (state["log"] + [{"v": version, "event": e} for e in events])[
        -services.LOG_MAX :
    ]


def _advance(row, now: datetime) -> int:
    """Let every bot whose move is due act; returns the number of steps."""
    state = row.state
    if state.get("stage") != "play":
        return 0
    timers = scheduler.Timers(None, _dt(state.get("bot_due")))
    if not timers.overdue(now):
        return 0
    seed = state["game"]["seed"]
    base = row.version
    game, timers, steps = scheduler.advance(
        ENGINE,
        state["game"],
        set(state["bots"]),
        timers,
        now,
        key=lambda index: f"demo:{seed}:{base + index}",
        timed=False,
    )
    state = {**state, "game": game, "bot_due": _iso(timers.bot_due)}
    for step in steps:
        row.version += 1
        _log(state, row.version, step.events)
    row.state = state
    return len(steps)


def _start(data):
    def action(row):
        settings = _settings(data, row.state.get("settings", DEFAULTS))
        bots = list(range(1, settings["bots"] + 1))
        names = ["Du", *ENGINE.bot_names[: len(bots)]]
        game = ENGINE.new_game(
            services.new_seed(),
            names,
            {"variant": settings["variant"], "target": settings["target"]},
        )
        row.version += 1
        state = {"stage": "play", "settings": settings, "game": game, "bots": bots, "log": []}
        _log(state, row.version, ENGINE.opening_events(game))
        _plan(state, clock.now(), before=None, actors=set(), version=row.version)
        row.state = state

    return action


def _plan(state: dict, at: datetime, *, before, actors, version: int) -> None:
    timers = scheduler.plan(
        ENGINE,
        state["game"],
        set(state["bots"]),
        at=at,
        before=before,
        actors=actors,
        timers=scheduler.Timers(),
        key=f"demo:{state['game']['seed']}:{version}",
        timed=False,
    )
    state["bot_due"] = _iso(timers.bot_due)


def _act(data):
    def action(row):
        now = clock.now()
        if _advance(row, now):
            return {"note": "Die Bots waren inzwischen am Zug – hier ist der aktuelle Stand."}
        if row.state.get("stage") != "play":
            raise IllegalAction("Starte zuerst ein Spiel.")
        parsed = ENGINE.parse_action(data)
        if parsed is None:
            raise IllegalAction("Unbekannte Aktion.")
        game = row.state["game"]
        before = ENGINE.to_act(game)
        game, events = ENGINE.apply(game, YOU, parsed)
        row.version += 1
        state = {**row.state, "game": game}
        _log(state, row.version, events)
        _plan(state, now, before=before, actors={YOU}, version=row.version)
        row.state = state
        return None

    return action


def _poll(row):
    _advance(row, clock.now())


def _new(row):
    row.version += 1
    row.state = {"stage": "setup", "settings": row.state.get("settings", dict(DEFAULTS))}


# --- Presentation --------------------------------------------------------------------------


def _urls() -> dict:
    return {
        name: reverse(f"rooms:alpaka_demo:{name}") for name in ("start", "act", "poll", "new")
    } | {"create_room": reverse("rooms:create", kwargs={"slug": ENGINE.game_slug})}


def board(row, *, back: str, note: str = "", since: int | None = None) -> dict:
    state = row.state
    settings = state.get("settings", DEFAULTS)
    context = {
        "stage": state.get("stage", "setup"),
        "version": row.version,
        "back": back,
        "note": note,
        "urls": _urls(),
        "table_template": ENGINE.table_template,
        "end_template": "rooms/alpaka/_demo_end.html",
        "target_id": "alpaka-demo-body",
        "settings": settings,
        "bot_choices": [{"value": n, "checked": settings["bots"] == n} for n in BOT_CHOICES],
        "options": ENGINE.option_choices(settings),
        "table": None,
        "poll_delay": None,
        "live": "",
    }
    if context["stage"] == "play":
        game = state["game"]
        table = ENGINE.present(
            ENGINE.view(game, YOU),
            bots=set(state["bots"]),
            log=state["log"],
            since=since,
        )
        context["table"] = table
        context["mid_game"] = table["phase"] != "over"
        due = _dt(state.get("bot_due"))
        if due is not None:
            delay = (due - clock.now()).total_seconds()
            context["poll_delay"] = max(50, min(2000, round(delay * 1000) + 30))
        live = [note] if note else []
        if since is not None:
            live += table["news"]
            if table["news"] and (table["my_turn"] or table["actions"]["continue"]):
                live.append(table["status"])
        context["live"] = " ".join(live)
    return context


def demo_context(request, game) -> dict:
    """The demo region on the game page and the full-screen page."""
    visitor = visitor_id(request)
    row = demo_service.saved_row(request, ENGINE.key)
    if row is not None and _due(row):
        row = demo_service.perform(
            visitor,
            ENGINE.key,
            _poll,
            create=_create,
            expected_version=None,
            bump_version=False,
        ).row
    if row is None:
        row = demo_service.unsaved(visitor, ENGINE.key, _create)
    return board(row, back=request.path)


def _due(row) -> bool:
    state = row.state
    due = _dt(state.get("bot_due")) if state.get("stage") == "play" else None
    return due is not None and due <= clock.now()


register(Demo(engine=ENGINE.key, template_name=TEMPLATE, context=demo_context))


# --- Views -----------------------------------------------------------------------------------


def _respond(request, outcome, *, since=None):
    note = outcome.error
    if not note and isinstance(outcome.result, dict):
        note = outcome.result.get("note", "")
    if outcome.stale:
        note = "Das Spiel hat sich inzwischen geändert – hier ist der aktuelle Stand."
    back = return_path(request, ENGINE.game_slug)
    if request.htmx:
        context = {"demo": board(outcome.row, back=back, note=note or "", since=since)}
        response = render(request, BODY, context)
        patch_cache_control(response, no_store=True)
    else:
        response = redirect(back + "#alpaka-demo")
    return remember_visitor(request, response)


def _perform(request, action):
    return demo_service.perform(
        visitor_id(request),
        ENGINE.key,
        action,
        create=_create,
        expected_version=expected_version(request),
        bump_version=False,
    )


@require_POST
@vary_on_headers("HX-Request")
def start(request):
    return _respond(
        request, _perform(request, _start(request.POST)), since=expected_version(request)
    )


@require_POST
@vary_on_headers("HX-Request")
def act(request):
    return _respond(request, _perform(request, _act(request.POST)), since=expected_version(request))


@require_POST
@vary_on_headers("HX-Request")
def new(request):
    # No version needed: going back to the setup is the same however often it is asked.
    outcome = demo_service.perform(
        visitor_id(request),
        ENGINE.key,
        _new,
        create=_create,
        expected_version=None,
        bump_version=False,
    )
    return _respond(request, outcome)


@require_safe
def poll(request):
    """Asked only while a bot's move is due: 204 until it is, then the new table."""
    try:
        since = int(request.GET.get("v", ""))
    except ValueError:
        since = None
    visitor = visitor_id(request)
    row = demo_service.saved_row(request, ENGINE.key)
    if row is not None and row.version == since and not _due(row):
        response = HttpResponse(status=204)
        patch_cache_control(response, no_store=True)
        return response
    if row is None:
        row = demo_service.unsaved(visitor, ENGINE.key, _create)
    else:
        row = demo_service.perform(
            visitor, ENGINE.key, _poll, create=_create, expected_version=None, bump_version=False
        ).row
    context = {"demo": board(row, back=return_path(request, ENGINE.game_slug), since=since)}
    response = render(request, BODY, context)
    patch_cache_control(response, no_store=True)
    return remember_visitor(request, response)


urlpatterns = [
    path("start/", start, name="start"),
    path("aktion/", act, name="act"),
    path("status/", poll, name="poll"),
    path("neu/", new, name="new"),
]
