"""Sign-up, confirmation mail, adoption of a visitor's history, and points.

Adoption: a browser's visitor id (games/visitors.py) carries that browser's votes,
error reports, demo games and room seats. On login the account takes the id over:
the first id an account sees becomes its primary id; an id from another browser
is merged into the primary one, and the browser switches to the primary id. So
every device the reader logs in with continues the same history.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import Q, Sum
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts.models import PointEntry, VisitorLink
from accounts.tokens import confirmation_token
from feedback.models import ErrorReport, Vote
from games.models import DemoGame, Game
from rooms.models import Room, Seat
from site_config.ratelimit import HOUR, Limit, client_ip, hit

logger = logging.getLogger(__name__)

FIRST_VOTE_POINTS = 5
REPORT_ACCEPTED_POINTS = 10

SIGNUPS_PER_IP = Limit("signup-ip", 5, HOUR)
CONFIRMATION_MAILS_PER_IP = Limit("confirm-mail-ip", 5, HOUR)
RESET_MAILS_PER_IP = Limit("reset-mail-ip", 5, HOUR)

# Django's username field holds the e-mail in lower case (max_length 150).
EMAIL_MAX_LENGTH = 150


def normalize_email(email: str) -> str:
    return email.strip().lower()


def account_for_email(email: str):
    """The account registered with this address (any case), or None."""
    email = normalize_email(email)
    User = get_user_model()
    return User.objects.filter(Q(username__iexact=email) | Q(email__iexact=email)).first()


# Sign-up and confirmation -----------------------------------------------------


def register(request, email: str, password: str) -> None:
    """Create an inactive account and mail the confirmation link.

    The answer never tells whether the address was already registered: an existing
    account gets a mail saying so (with the login and reset links) instead. Both
    ways do the same work – one password hash, one mail – so the time to answer
    tells nothing either.
    """
    existing = account_for_email(email)
    if existing is None:
        User = get_user_model()
        try:
            with transaction.atomic():
                user = User.objects.create_user(
                    username=normalize_email(email),
                    email=email.strip(),
                    password=password,
                    is_active=False,
                )
        except IntegrityError:  # the same address signed up a moment ago
            existing = account_for_email(email)
        else:
            send_confirmation_mail(request, user)
            return
    make_password(password)  # what create_user() costs a new address
    if existing is not None and not existing.is_active:
        send_confirmation_mail(request, existing)
    elif existing is not None and existing.email:
        send_already_registered_mail(request, existing)
    else:  # an account without an address (an editor named like this address)
        send_no_account_mail(request, email, NO_ACCOUNT_SIGNUP)


def resend_confirmation(request, email: str) -> None:
    """„Link noch einmal schicken“: one lookup and one mail, whatever the address."""
    user = account_for_email(email)
    if user is not None and user.email and not user.is_active:
        send_confirmation_mail(request, user)
    elif user is not None and user.email:
        send_already_registered_mail(request, user, asked=NO_ACCOUNT_RESEND)
    else:
        send_no_account_mail(request, email, NO_ACCOUNT_RESEND)


def send_already_registered_mail(request, user, asked: str = "") -> None:
    _send(
        request,
        user.email,
        "accounts/mail/already_registered_subject.txt",
        "accounts/mail/already_registered.txt",
        {
            "asked": asked,
            "login_url": request.build_absolute_uri(reverse("accounts:login")),
            "reset_url": request.build_absolute_uri(reverse("accounts:password_reset")),
        },
    )


# What was asked for, in the note that no account uses an address.
NO_ACCOUNT_SIGNUP = "ein neues Konto"
NO_ACCOUNT_RESET = "ein neues Passwort"
NO_ACCOUNT_RESEND = "ein neuer Bestätigungslink"


def send_no_account_mail(request, email: str, asked: str) -> None:
    """The answer to a reset or a new confirmation link for an address without an account:
    a mail as well, so a stranger cannot tell the cases apart by the time the page takes."""
    _send(
        request,
        email.strip(),
        "accounts/mail/no_account_subject.txt",
        "accounts/mail/no_account.txt",
        {
            "asked": asked,
            "signup_url": request.build_absolute_uri(reverse("accounts:signup")),
        },
    )


def confirmation_url(request, user) -> str:
    path = reverse(
        "accounts:confirm",
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
            "token": confirmation_token.make_token(user),
        },
    )
    return request.build_absolute_uri(path)


def send_confirmation_mail(request, user) -> None:
    _send(
        request,
        user.email,
        "accounts/mail/confirm_subject.txt",
        "accounts/mail/confirm.txt",
        {"confirm_url": confirmation_url(request, user)},
    )


def _send(request, to: str, subject_template: str, body_template: str, context: dict) -> None:
    # Rendered without the request, as Django renders its reset mail: every account mail
    # costs the same (context processors would read the session for some of them only).
    context = {**context, "email": to}
    subject = "".join(render_to_string(subject_template, context).splitlines())
    body = render_to_string(body_template, context)
    try:
        send_mail(subject, body, None, [to])
    except Exception:  # a mail server problem shows the same page; it is logged
        logger.exception("Account mail to a reader could not be sent")


def mail_allowed(request, limit: Limit) -> bool:
    return not hit(limit, client_ip(request))


# Adoption ---------------------------------------------------------------------


@dataclass
class Adoption:
    """What logging in took over from the browser's visitor id."""

    visitor: str  # the id the browser uses from now on
    votes: int = 0
    reports: int = 0
    demos: int = 0
    seats: int = 0
    points: int = 0
    # Games on which the account and the browser had both voted: the newer vote stays.
    vote_conflicts: list[tuple[str, int]] = field(default_factory=list)
    # What other apps moved (``register_mover``), by key.
    moved: dict[str, int] = field(default_factory=dict)

    @property
    def anything(self) -> bool:
        return bool(self.votes or self.reports or self.demos or self.seats or self.points)


def visitor_ids(user) -> list[str]:
    """Every visitor id the account adopted (primary first)."""
    return list(
        VisitorLink.objects.filter(user=user)
        .order_by("-is_primary", "linked_at")
        .values_list("visitor", flat=True)
    )


def primary_visitor(user) -> str | None:
    return (
        VisitorLink.objects.filter(user=user, is_primary=True)
        .values_list("visitor", flat=True)
        .first()
    )


_movers: dict[str, Callable[[str, str], int]] = {}


def register_mover(key: str, move: Callable[[str, str], int]) -> None:
    """Another app's rows keyed by visitor id: ``move(old, primary)`` moves them when a
    login merges a browser's id into the account's (returns how many moved)."""
    _movers[key] = move


@transaction.atomic
def adopt(user, current: str | None) -> Adoption:
    """Link the browser's visitor id ``current`` to ``user`` and return the id to use now.

    - The account's first login makes ``current`` its primary id (nothing moves).
    - A later login from another browser merges ``current`` into the primary id.
    - An id that already belongs to another account is never taken over.
    """
    primary = primary_visitor(user)
    owner = (
        VisitorLink.objects.filter(visitor=current).values_list("user_id", flat=True).first()
        if current
        else None
    )
    free = bool(current) and owner is None
    if primary is None:
        primary = current if free else _fresh_visitor_id()
        VisitorLink.objects.create(user=user, visitor=primary, is_primary=True)
        adoption = Adoption(visitor=primary)
        if free:
            adoption.points = _credit_pending_points(user, [primary])
            adoption.votes = Vote.objects.filter(visitor=primary).count()
            adoption.reports = ErrorReport.objects.filter(visitor=primary).count()
            adoption.demos = DemoGame.objects.filter(visitor=primary).count()
            adoption.seats = Seat.objects.filter(visitor=primary).count()
        return adoption
    adoption = Adoption(visitor=primary)
    if not free or current == primary:
        return adoption
    VisitorLink.objects.create(user=user, visitor=current, is_primary=False)
    _merge_votes(current, primary, adoption)
    adoption.reports = ErrorReport.objects.filter(visitor=current).update(visitor=primary)
    _merge_demos(current, primary, adoption)
    _merge_seats(current, primary, adoption)
    for key, move in _movers.items():
        adoption.moved[key] = move(current, primary)
    adoption.points = _credit_pending_points(user, [current])
    return adoption


def _fresh_visitor_id() -> str:
    return secrets.token_urlsafe(18)  # as games.visitors.visitor_id invents one


def _merge_votes(old: str, primary: str, adoption: Adoption) -> None:
    """One vote per game and person: where both ids voted, the newer vote stays."""
    mine = {vote.game_id: vote for vote in Vote.objects.filter(visitor=primary)}
    for vote in Vote.objects.filter(visitor=old).select_related("game"):
        other = mine.get(vote.game_id)
        if other is None:
            Vote.objects.filter(pk=vote.pk).update(visitor=primary)
            adoption.votes += 1
            continue
        newer, older = (vote, other) if vote.updated_at >= other.updated_at else (other, vote)
        older.delete()
        if newer is vote:
            # update(): the kept vote keeps its own date (save() would touch updated_at).
            Vote.objects.filter(pk=vote.pk).update(visitor=primary)
            adoption.votes += 1
        adoption.vote_conflicts.append((vote.game.title, newer.stars))


def _merge_demos(old: str, primary: str, adoption: Adoption) -> None:
    """One demo per game and visitor: where both exist, the one played last stays."""
    mine = {demo.engine: demo for demo in DemoGame.objects.filter(visitor=primary)}
    for demo in DemoGame.objects.filter(visitor=old):
        other = mine.get(demo.engine)
        if other is not None:
            if other.updated_at >= demo.updated_at:
                demo.delete()
                continue
            other.delete()
        DemoGame.objects.filter(pk=demo.pk).update(visitor=primary)
        adoption.demos += 1


def _merge_seats(old: str, primary: str, adoption: Adoption) -> None:
    """Seats move to the primary id unless that id sits in the same room already
    (then the old seat stays where it is; „Mein Bereich“ still lists it)."""
    taken = Seat.objects.filter(visitor=primary).values("room_id")
    adoption.seats = (
        Seat.objects.filter(visitor=old).exclude(room_id__in=taken).update(visitor=primary)
    )


def _credit_pending_points(user, visitors: list[str]) -> int:
    pending = PointEntry.objects.filter(visitor__in=visitors, user__isnull=True)
    total = pending.aggregate(total=Sum("points"))["total"] or 0
    pending.update(user=user)
    return total


# Points -------------------------------------------------------------------------


def award(visitor: str, reason: str, object_id: int, points: int, note: str = "") -> int:
    """Book points for ``visitor`` (its account, if any); 0 when already booked."""
    if not visitor:
        return 0
    user_id = VisitorLink.objects.filter(visitor=visitor).values_list("user_id", flat=True).first()
    try:
        with transaction.atomic():
            PointEntry.objects.create(
                user_id=user_id,
                visitor=visitor,
                reason=reason,
                object_id=object_id,
                points=points,
                note=note[:200],
            )
    except IntegrityError:  # this game's first vote / this report was booked before
        return 0
    return points


def award_first_vote(vote) -> int:
    """+5 for the vote that ends „Noch keine Stimmen“ on a game."""
    if Vote.objects.filter(game_id=vote.game_id).exclude(pk=vote.pk).exists():
        return 0
    title = Game.objects.filter(pk=vote.game_id).values_list("title", flat=True).first() or ""
    return award(vote.visitor, PointEntry.Reason.FIRST_VOTE, vote.game_id, FIRST_VOTE_POINTS, title)


def award_accepted_reports(report_ids) -> int:
    """+10 for each report the editors marked „korrigiert“ (spam never counts)."""
    total = 0
    reports = ErrorReport.objects.filter(
        pk__in=report_ids, status=ErrorReport.Status.CORRECTED, is_spam=False
    ).select_related("game")
    for report in reports:
        total += award(
            report.visitor,
            PointEntry.Reason.REPORT_ACCEPTED,
            report.pk,
            REPORT_ACCEPTED_POINTS,
            report.game.title,
        )
    return total


def points_total(user) -> int:
    return PointEntry.objects.filter(user=user).aggregate(total=Sum("points"))["total"] or 0


# „Mein Bereich“ -------------------------------------------------------------------


def my_area(user) -> dict:
    """Everything the page lists, for this account's visitor ids only."""
    ids = visitor_ids(user)
    votes = list(
        Vote.objects.filter(visitor__in=ids).select_related("game").order_by("-updated_at")
    )
    reports = list(
        ErrorReport.objects.filter(visitor__in=ids).select_related("game").order_by("-created_at")
    )
    seats = list(
        Seat.objects.filter(
            visitor__in=ids,
            is_bot=False,
            left=False,
            room__status__in=[Room.Status.LOBBY, Room.Status.PLAYING],
        )
        .select_related("room")
        .order_by("-room__last_activity")
    )
    games = {
        game.demo_engine: game
        for game in Game.objects.filter(demo_engine__in={seat.room.engine for seat in seats})
    }
    rooms = [
        {"seat": seat, "room": seat.room, "game": games[seat.room.engine]}
        for seat in seats
        if seat.room.engine in games
    ]
    entries = list(PointEntry.objects.filter(user=user))
    return {
        "votes": votes,
        "reports": reports,
        "rooms": rooms,
        "point_entries": entries,
        "points": sum(entry.points for entry in entries),
    }
