"""/partien/<id>/: a finished game step by step, the same for every game.

The page draws step ``?zug=N`` with the game's own table template from the
spectator's view (``games.play.replays``); htmx swaps only the stage when the
reader steps, plays or uses ←/→ (``static/js/replay.js``), and every step has its
own link. After the last step „Alle Karten zeigen“ (``?karten=alle``) draws the
table once per seat, as that player saw it. „Von hier weiterspielen“ deals the
position into the reader's demo (``games.play.positions``).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from games.models import Replay
from games.play import positions, replays
from games.visitors import existing_visitor_id

STEP_PARAM = "zug"
STEP_LIST_MAX = 2000  # links in „Alle Schritte“; longer games list every n-th step


def visitors_of(request) -> set[str]:
    """The visitor ids of the reader: this browser's and, logged in, the account's."""
    ids = {existing_visitor_id(request) or ""}
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        from accounts.services import visitor_ids

        ids.update(visitor_ids(user))
    ids.discard("")
    return ids


def _replay(request, replay_id: str):
    # The keyframes are read only when this process has none (games.play.replays).
    replay = get_object_or_404(Replay.objects.defer("keyframes", "final_state"), pk=replay_id)
    definition = replays.definition_of(replay)
    if definition is None or not replays.may_view(replay, visitors_of(request), request.user):
        raise Http404("Diese Partie gibt es nicht (mehr).")
    return replay, definition


def _step(request, replay: Replay) -> int:
    try:
        return max(0, min(int(request.GET.get(STEP_PARAM, "0")), replay.steps))
    except ValueError:
        return 0


def step_url(replay: Replay, step: int, **more) -> str:
    query = f"?{STEP_PARAM}={step}" + "".join(f"&{key}={value}" for key, value in more.items())
    return replay.get_absolute_url() + query


def _step_links(replay: Replay, current: int) -> list[dict]:
    every = max(1, -(-replay.steps // STEP_LIST_MAX))
    wanted = sorted({0, replay.steps, *range(0, replay.steps + 1, every)})
    return [
        {
            "number": step,
            "label": "Ausgeteilt" if step == 0 else replays.step_label(replay.record, step),
            "url": step_url(replay, step),
            "current": step == current,
        }
        for step in wanted
    ]


def stage_context(request, replay: Replay, definition, step: int, *, all_hands: bool) -> dict:
    last = step == replay.steps
    names = replays.names(replay.record)
    seats = []
    if last and all_hands:
        seats = [
            {"name": name, "board": replays.board(definition, replay, step, seat), "seat": seat}
            for seat, name in enumerate(names)
        ]
    return {
        "replay": replay,
        "definition": definition,
        "step": step,
        "steps": replay.steps,
        "last": last,
        "board": replays.board(definition, replay, step),
        "all_hands": bool(seats),
        "seats": seats,
        "label": "Ausgeteilt" if step == 0 else replays.step_label(replay.record, step),
        "first_url": step_url(replay, 0),
        "previous_url": step_url(replay, step - 1) if step > 0 else "",
        "next_url": step_url(replay, step + 1) if not last else "",
        "last_url": step_url(replay, replay.steps),
        "hands_url": step_url(replay, replay.steps, karten="alle"),
        "public_url": step_url(replay, replay.steps),
        "share_url": request.build_absolute_uri(step_url(replay, step)),
        "continue": positions.can_continue(definition, replay, step),
        "position_reference": positions.replay_reference(replay, step),
    }


@require_safe
@vary_on_headers("HX-Request")
def replay_page(request, replay_id):
    replay, definition = _replay(request, replay_id)
    step = _step(request, replay)
    all_hands = request.GET.get("karten") == "alle"
    context = stage_context(request, replay, definition, step, all_hands=all_hands)
    if request.htmx:
        response = render(request, "play/replay.html#stage", context)
    else:
        visitors = visitors_of(request)
        user = request.user
        context.update(
            {
                "names": replays.names(replay.record),
                "step_links": _step_links(replay, step),
                "may_publish": replays.may_publish(replay, visitors),
                "may_save": user.is_authenticated,
                "saved": user.is_authenticated and replay.saved_by.filter(pk=user.pk).exists(),
                "visible_to_all": replay.public or replay.source == Replay.Source.DEMO,
                "kept_days": replays.KEPT_DAYS,
                "report_started": _form_timestamp(),
            }
        )
        response = render(request, "play/replay.html", context)
    # Private room replays must not sit in shared caches; steps are cheap to redraw.
    patch_cache_control(response, private=True, no_cache=True)
    return response


@require_POST
def publish(request, replay_id):
    """The room's host makes its replay public (or private again)."""
    replay, _ = _replay(request, replay_id)
    if not replays.may_publish(replay, visitors_of(request)):
        raise Http404("Nur der Gastgeber kann das.")
    replay.public = request.POST.get("oeffentlich") == "1"
    replay.save(update_fields=["public"])
    messages.success(
        request,
        "Die Partie ist jetzt öffentlich: Jeder mit dem Link kann sie ansehen."
        if replay.public
        else "Die Partie ist wieder nur für die Mitspieler sichtbar.",
    )
    return redirect(replay.get_absolute_url())


@require_POST
def save(request, replay_id):
    """„Merken“: an account keeps the replay past the 90 days (listed in „Meine Partien“)."""
    replay, _ = _replay(request, replay_id)
    if not request.user.is_authenticated:
        login = reverse("accounts:login")
        return redirect(f"{login}?next={replay.get_absolute_url()}")
    if request.POST.get("merken") == "0":
        replay.saved_by.remove(request.user)
        messages.success(request, "Die Partie ist nicht mehr gemerkt.")
    else:
        replay.saved_by.add(request.user)
        messages.success(
            request, "Gemerkt: Die Partie steht unter „Meine Partien“ in deinem Bereich."
        )
    return redirect(replay.get_absolute_url())


@require_POST
def play_on(request, replay_id):
    """„Von hier weiterspielen“: the position becomes the reader's demo against bots."""
    replay, definition = _replay(request, replay_id)
    step = _step_from_post(request, replay)
    if not positions.can_continue(definition, replay, step):
        raise Http404("Von dieser Stellung aus lässt sich nicht weiterspielen.")
    at = replays.position(replay, definition, step)
    outcome = positions.continue_in_demo(request, definition, replay, at)
    if outcome.error:
        messages.warning(request, outcome.error)
        return redirect(step_url(replay, step))
    demo = reverse("games:demo", kwargs={"slug": definition.slug})
    return redirect(f"{demo}#{definition.demo.anchor or definition.key + '-demo'}")


def _form_timestamp() -> str:
    """The report form's fill-time stamp (the spam check reads it, as on game pages)."""
    from feedback.services import form_timestamp

    return form_timestamp()


def _step_from_post(request, replay: Replay) -> int:
    try:
        return max(0, min(int(request.POST.get(STEP_PARAM, "0")), replay.steps))
    except ValueError:
        return 0
