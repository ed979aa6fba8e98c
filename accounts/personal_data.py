"""„Meine Daten“: everything linked to an account, as one JSON file, and its erasure.

Linked means: the account itself, its visitor ids, and what those ids did – votes,
error reports, points, room seats, demo games – plus what other apps register here
(Spielegruppen), the way they add sections to „Mein Bereich“::

    from accounts.personal_data import register
    register("spielegruppen", lambda user, link: [...])  # JSON-ready data, or None
    # link(path) makes a path absolute (the request's host)

Erasure (``erase``) removes what belongs to the person alone and cuts the link where
the site keeps the contribution: a vote's stars stay in the averages, a report stays
with the editors – both under an id nobody holds.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from django.db import transaction
from django.utils import timezone

from accounts.models import PointEntry, VisitorLink
from feedback.models import ErrorReport, Vote, new_status_token
from games.models import DemoGame, Game
from rooms.models import Seat

_exports: dict[str, Callable] = {}
_erasers: dict[str, Callable] = {}


def register(key: str, export: Callable, erase: Callable | None = None) -> None:
    """Add (or replace, by key) a part of the download; ``export(user, link)`` returns its data.
    ``erase(visitor_ids)`` (optional) deletes that part when the account is deleted."""
    _exports[key] = export
    if erase is not None:
        _erasers[key] = erase
    else:
        _erasers.pop(key, None)


def _when(moment) -> str | None:
    return timezone.localtime(moment).isoformat(timespec="seconds") if moment else None


def export(user, request=None) -> dict:
    """Everything linked to ``user``; ``request`` makes the links absolute."""
    from accounts.services import visitor_ids

    ids = visitor_ids(user)
    link = request.build_absolute_uri if request is not None else (lambda path: path)
    titles = dict(Game.objects.values_list("demo_engine", "title"))
    data = {
        "erstellt_am": _when(timezone.now()),
        "hinweis": "Alles, was bei Kartenregeln mit deinem Konto verknüpft ist.",
        "konto": {
            "email": user.email,
            "registriert_am": _when(user.date_joined),
            "letzte_anmeldung": _when(user.last_login),
            "bestaetigt": user.is_active,
        },
        "besucher_ids": [
            {
                "id": item.visitor,
                "haupt_id": item.is_primary,
                "verknuepft_am": _when(item.linked_at),
            }
            for item in VisitorLink.objects.filter(user=user).order_by("linked_at")
        ],
        "bewertungen": [
            {
                "spiel": vote.game.title,
                "sterne": vote.stars,
                "abgegeben_am": _when(vote.created_at),
                "geaendert_am": _when(vote.updated_at),
            }
            for vote in Vote.objects.filter(visitor__in=ids).select_related("game")
        ],
        "fehlermeldungen": [
            {
                "spiel": report.game.title,
                "abschnitt": report.section_label,
                "text": report.message,
                "laut_regelheft": report.rulebook_reference,
                "email_fuer_antwort": report.email,
                "seite": report.page_url,
                "status": report.reader_status_label,
                "antwort_der_redaktion": report.public_answer,
                "eingegangen_am": _when(report.created_at),
                "statusseite": link(report.get_status_url()),
            }
            for report in ErrorReport.objects.filter(visitor__in=ids).select_related("game")
        ],
        "punkte": [
            {
                "grund": entry.get_reason_display(),
                "punkte": entry.points,
                "beschreibung": entry.note,
                "verdient_am": _when(entry.created_at),
            }
            for entry in PointEntry.objects.filter(user=user)
        ],
        "raeume": [
            {
                "spiel": titles.get(seat.room.engine, seat.room.engine),
                "status": seat.room.get_status_display(),
                "name_am_tisch": seat.name,
                "gastgeber": seat.is_host,
                "verlassen": seat.left,
                "beigetreten_am": _when(seat.joined_at),
                "zuletzt_aktiv": _when(seat.room.last_activity),
            }
            for seat in Seat.objects.filter(visitor__in=ids, is_bot=False).select_related("room")
        ],
        "demo_partien": [
            {
                "spiel": titles.get(demo.engine, demo.engine),
                "angelegt_am": _when(demo.created_at),
                "zuletzt_gespielt": _when(demo.updated_at),
                "einstellungen": demo.settings,
                "profil": demo.profile,
                "spielstand": demo.state,
            }
            for demo in DemoGame.objects.filter(visitor__in=ids).order_by("engine")
        ],
    }
    for key, part in _exports.items():
        value = part(user, link)
        if value is not None:
            data[key] = value
    return data


def _anonymous_id() -> str:
    # Not a visitor id any browser holds: the contribution stays, the person does not.
    return "geloescht-" + secrets.token_urlsafe(12)


def leave_rooms(ids: list[str]) -> None:
    """Out of every room (the public entry point: a running game goes on without the seat,
    a lobby seat goes), then no seat carries the ids any more."""
    from games.play import definition
    from rooms import seating

    seats = Seat.objects.filter(visitor__in=ids, is_bot=False, left=False).select_related("room")
    for seat in seats:
        engine = definition.get(seat.room.engine)
        if engine is not None:
            seating.leave(engine, seat.room.code, seat.visitor)
    Seat.objects.filter(visitor__in=ids).update(visitor="")


@transaction.atomic
def erase(user) -> None:
    """Delete the account and everything that is the person's alone; keep votes and
    reports without the link to them. Group memberships go with the account (their
    receiver hands a led group over)."""
    from accounts.services import visitor_ids

    ids = visitor_ids(user)
    PointEntry.objects.filter(visitor__in=ids).delete()
    DemoGame.objects.filter(visitor__in=ids).delete()
    for erase_part in _erasers.values():
        erase_part(ids)
    leave_rooms(ids)
    for vote_id in Vote.objects.filter(visitor__in=ids).values_list("pk", flat=True):
        Vote.objects.filter(pk=vote_id).update(visitor=_anonymous_id())
    for report_id in ErrorReport.objects.filter(visitor__in=ids).values_list("pk", flat=True):
        # A new token: the old status link would still lead to the report.
        ErrorReport.objects.filter(pk=report_id).update(
            visitor="", email="", token=new_status_token()
        )
    _forget_login_attempts(user)
    user.delete()


def _forget_login_attempts(user) -> None:
    from axes.models import AccessAttempt, AccessFailureLog, AccessLog

    names = {name for name in (user.get_username(), user.email) if name}
    for model in (AccessAttempt, AccessFailureLog, AccessLog):
        model.objects.filter(username__in=names).delete()
