"""The Kätzchen-Angeln demo: the visitor (seat 0) against the computer Kätzchen (seat 1).

The state lives in the visitor's ``DemoGame`` row (see ``demo_service``). The
browser only ever receives what ``kaetzchen.view`` shows plus the cards of
the flip it has just asked for – all of them lie on the table or have just
been won in front of everybody. Pile order and seed never leave the server.

Every state-changing request carries the version it expects, so a double
click, a repeated request or a stale tab changes nothing. Kätzchen flips only
when the client asks for it on Kätzchen's turn (after a short visible pause);
a visitor's flip on Kätzchen's turn is refused.
"""

from __future__ import annotations

import secrets

from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from games import demo_service
from games.demos import Demo, expected_version, register, return_path
from games.engines import kaetzchen as engine
from games.engines.base import IllegalAction
from games.visitors import remember_visitor, visitor_id

ENGINE = "kaetzchen"
GAME_SLUG = "kaetzchen-angeln"
YOU, CAT = 0, 1
FLIP = {"type": "flip"}
LOW_PILE = 5  # a pile this small is highlighted
TEMPLATE = "games/kaetzchen/demo.html"

# Short notes for the no-JavaScript round trip (POST → redirect → GET ?hinweis=…).
NOTES = {
    "warten": "Warte auf den Gegner – Kätzchen ist am Zug.",
    "du": "Du bist am Zug – Kätzchen wartet auf dich.",
    "beendet": "Die Partie ist bereits beendet.",
    "veraltet": "Die Partie hat sich inzwischen geändert – hier ist der aktuelle Stand.",
}
_NOTE_FOR_ERROR = {text: code for code, text in NOTES.items()}
_NOTE_FOR_ERROR["Kätzchen ist nicht am Zug – du bist dran."] = "du"

_WHO = ("Du", "Kätzchen")
_FLIPS = ("deckst", "deckt")


def new_seed() -> int:
    """Seed of a new deal; tests replace this to get known deals."""
    return secrets.randbits(62)


def _deal(games_started: int) -> dict:
    """Game number ``games_started + 1``: the visitor starts the 1st, 3rd, 5th … game."""
    starter = "you" if games_started % 2 == 0 else "cat"
    return engine.new_game(new_seed(), options={"starter": starter})


def _create() -> tuple[dict, dict]:
    return _deal(0), {"games": 1, "auto": False}


# --------------------------------------------------------------------------
# Actions (run by demo_service.perform inside the locked transaction)


def _flip_for(seat: int):
    def action(row):
        row.state, events = engine.apply(row.state, seat, FLIP)
        return {"events": events}

    return action


def _finish(row):
    if row.state["result"] is not None:
        raise IllegalAction(NOTES["beendet"])
    row.state, summary = engine.finish(row.state)
    return {"summary": summary}


def _new_game(row):
    # A row created just now stands for game 1, which the visitor has seen dealt.
    games = row.profile.get("games", 1)
    row.state = _deal(games)
    row.profile = {**row.profile, "games": games + 1}
    return {"dealt": True}


def _auto_to(enabled: bool):
    def action(row):
        row.profile = {**row.profile, "auto": enabled}

    return action


# --------------------------------------------------------------------------
# Presentation


def card_context(code: str, mark: str = "") -> dict:
    rank = code[:-1]
    return {
        "code": code,
        "rank": rank,
        "suit": engine.card_symbol(code)[len(rank) :],
        "label": engine.card_label(code),
        "red": code[-1] in "HD",
        "mark": mark,
    }


def _seat(name: str, count: int, active: bool, before: int | None = None) -> dict:
    return {
        "name": name,
        "count": count,
        "count_text": "1 Karte" if count == 1 else f"{count} Karten",
        "low": count <= LOW_PILE,
        "active": active,
        # The count shown while the won cards are still on their way to the pile.
        "before": count if before is None else before,
    }


def _turn_text(view: dict) -> str:
    if view["turn"] == YOU:
        return "Du bist dran."
    if view["turn"] == CAT:
        return "Kätzchen ist dran."
    return ""


def _event_text(event: dict, card_code: str | None) -> str:
    if event["type"] in ("fish", "jack"):
        return event["text"] + "."
    if card_code and not event["text"].startswith("Bube auf leerem Tisch"):
        seat = event["seat"]
        return f"{_WHO[seat]} {_FLIPS[seat]} {engine.card_label(card_code)} auf."
    return event["text"]


def _result(view: dict, summary: dict | None) -> dict | None:
    outcome = view["outcome"]
    if outcome is None:
        return None
    winner = outcome["winner"]
    if outcome["reason"] == "limit":
        reason = "Zuglimit erreicht – Kartenzahl entscheidet"
    elif winner == "you":
        reason = "Kätzchens Stapel ist leer."
    else:
        reason = "Dein Stapel ist leer."
    return {
        "kind": {"you": "sieg", "cat": "niederlage", None: "unentschieden"}[winner],
        "title": {"you": "Sieg!", "cat": "Niederlage", None: "Unentschieden"}[winner],
        "reason": reason,
        "text": outcome["text"],
        "you": outcome["piles"][YOU],
        "cat": outcome["piles"][CAT],
        "table": len(view["table"]),
        "moves": outcome["moves"],
        "jumped": summary["flips"] if summary else 0,
    }


def board(row, *, back: str, result=None, note: str = "") -> dict:
    """Everything the demo template shows, from ``view()`` and the flip just made.

    ``result`` is what the applied action returned (the flip's events, the
    summary of „Zum Ergebnis“); None when the page is simply (re)loaded.
    """
    view = engine.view(row.state, YOU)
    result = result or {}
    events = result.get("events") or []
    flip = next((e for e in events if e["type"] in ("fish", "jack", "stay")), None)
    flip_card = next((e["card"] for e in events if e["type"] == "flip"), None)
    piles = view["piles"]
    before = [None, None]

    table = view["table"]
    cards = [card_context(code) for code in table]
    animate = None
    if flip is not None:
        # The row as it was the moment the card landed: the won cards are still
        # there (they lay on the table a moment ago, so they are public).
        won = flip.get("won", [])
        if won:
            cards = [card_context(code) for code in table] + [
                card_context(code, "won") for code in won[:-1]
            ]
            cards.append(card_context(won[-1], "new won"))
            if flip["type"] == "fish":
                cards[len(table)]["mark"] = "won match"
                cards[-1]["mark"] = "new won match"
            before[flip["seat"]] = piles[flip["seat"]] - len(won)
        elif cards:
            cards[-1]["mark"] = "new"
        animate = {"seat": flip["seat"], "kind": flip["type"], "count": len(won)}
    elif cards:
        cards[-1]["mark"] = "last"

    last = next((e for e in view["last_events"] if e["type"] != "game_over"), None)
    outcome = _result(view, result.get("summary"))
    starter_is_cat = view["starter"] == "cat"
    games = row.profile.get("games", 1)
    if note:
        status = note
    elif outcome:
        status = outcome["text"]
    elif view["moves"] == 0:
        status = (
            "In diesem Spiel deckt der Gegner zuerst auf."
            if starter_is_cat
            else "Neue Partie: Du deckst zuerst auf."
        )
    elif last is not None:
        status = f"{_event_text(last, flip_card or last.get('card'))} {_turn_text(view)}"
    else:
        status = _turn_text(view)

    return {
        "version": row.version,
        "back": back,
        "phase": "over" if outcome else ("deal" if view["moves"] == 0 else "play"),
        "turn": view["turn_name"] or "",
        "moves": view["moves"],
        "limit": view["limit"],
        "you": _seat("Du", piles[YOU], view["turn"] == YOU, before[YOU]),
        "cat": _seat("Kätzchen", piles[CAT], view["turn"] == CAT, before[CAT]),
        "cards": cards,
        "table_count": len(table),
        "animate": animate,
        "status": status,
        "note": note,
        "result": outcome,
        "auto": bool(row.profile.get("auto")),
        "first_game": games == 1,
        "tap_hint": games == 1 and view["moves"] == 0 and view["turn"] == YOU,
        "cat_starts": starter_is_cat and view["moves"] <= 1 and not outcome,
        "mid_game": view["moves"] > 0 and not outcome,
        "urls": _urls(),
    }


def _urls() -> dict:
    return {
        "flip": reverse("games:kaetzchen:flip"),
        "cat": reverse("games:kaetzchen:cat"),
        "finish": reverse("games:kaetzchen:finish"),
        "new": reverse("games:kaetzchen:new"),
        "auto": reverse("games:kaetzchen:auto"),
    }


def demo_context(request, game) -> dict:
    """The demo region on the game page and the full-screen page."""
    row = demo_service.saved_row(request, ENGINE)
    if row is None:
        row = demo_service.unsaved(visitor_id(request), ENGINE, _create)
    return board(row, back=request.path, note=NOTES.get(request.GET.get("hinweis", ""), ""))


register(Demo(engine=ENGINE, template_name=TEMPLATE, context=demo_context))


# --------------------------------------------------------------------------
# Views


def _act(request, action, *, show_refusal: bool = True):
    back = return_path(request, GAME_SLUG)
    outcome = demo_service.perform(
        visitor_id(request),
        ENGINE,
        action,
        create=_create,
        expected_version=expected_version(request),
    )
    if request.htmx:
        note = outcome.error if show_refusal else ""
        context = {"demo": board(outcome.row, back=back, result=outcome.result, note=note)}
        response = render(request, f"{TEMPLATE}#game", context)
    else:
        code = _NOTE_FOR_ERROR.get(outcome.error, "") if show_refusal else ""
        code = code or ("veraltet" if outcome.stale else "")
        response = redirect(back + (f"?hinweis={code}" if code else "") + "#kz-demo")
    return remember_visitor(request, response)


@require_POST
@vary_on_headers("HX-Request")
def flip(request):
    return _act(request, _flip_for(YOU))


@require_POST
@vary_on_headers("HX-Request")
def cat_turn(request):
    # Refused only when the client is out of step; it then simply gets the current state.
    return _act(request, _flip_for(CAT), show_refusal=False)


def _confirm_page(request, kind: str):
    """The no-JavaScript confirmation step (with JavaScript a <dialog> asks)."""
    row = demo_service.saved_row(request, ENGINE)
    row = row or demo_service.unsaved(visitor_id(request), ENGINE, _create)
    context = {"demo": board(row, back=return_path(request, GAME_SLUG)), "kind": kind}
    return render(request, "games/kaetzchen/confirm.html", context)


@never_cache
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def finish(request):
    if request.method == "GET":
        return _confirm_page(request, "finish")
    return _act(request, _finish)


@never_cache
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def new_game(request):
    if request.method == "GET":
        return _confirm_page(request, "new")
    return _act(request, _new_game)


@require_POST
@vary_on_headers("HX-Request")
def auto(request):
    """Remember the Auto switch; it never touches the game or its version."""
    enabled = request.POST.get("an") == "1"
    demo_service.perform(
        visitor_id(request),
        ENGINE,
        _auto_to(enabled),
        create=_create,
        expected_version=None,
        bump_version=False,
    )
    response = (
        HttpResponse(status=204)
        if request.htmx
        else redirect(return_path(request, GAME_SLUG) + "#kz-demo")
    )
    return remember_visitor(request, response)


urlpatterns = [
    path("aufdecken/", flip, name="flip"),
    path("kaetzchen-zug/", cat_turn, name="cat"),
    path("ergebnis/", finish, name="finish"),
    path("neues-spiel/", new_game, name="new"),
    path("auto/", auto, name="auto"),
]
