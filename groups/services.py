"""Every state change of a group, its members and game nights, with the rules that guard it.

Views check who asks (identity.current_member) and hand over; the rules about who may
do what live here, so a view cannot forget one. A refusal raises ``Refused`` with a
German message for the page.
"""

from django.db import IntegrityError, transaction
from django.utils.text import slugify

from games import clock
from groups.models import (
    RESERVED_SLUGS,
    Answer,
    DateOption,
    GameNight,
    Member,
    PlayGroup,
    Rsvp,
    new_token,
)
from site_config.ratelimit import DAY, HOUR, Limit, client_ip, hit

# A group costs rows and could carry spam text: few per address and per account a day.
GROUPS_PER_IP = Limit("group-create-ip", 5, DAY)
GROUPS_PER_ACCOUNT = Limit("group-create-account", 5, DAY)
# Invite links get shared; a script must not fill a group with guests.
JOINS_PER_IP = Limit("group-join-ip", 30, HOUR)
NIGHTS_PER_GROUP = Limit("group-nights", 20, DAY)
MAX_MEMBERS = 60
MAX_OPTIONS = 10


def _upsert(model, keys: dict, **values):
    """update_or_create that survives a double click: two inserts at once meet the unique
    constraint, and the loser updates the winner's row."""
    try:
        with transaction.atomic():
            row, _ = model.objects.update_or_create(**keys, defaults=values)
    except IntegrityError:
        model.objects.filter(**keys).update(**values)
        row = model.objects.get(**keys)
    return row


class Refused(Exception):
    """An action the rules do not allow; str(error) is the German reason."""


def creation_refused(request) -> str:
    """Count one attempt to found a group; the reason when it is over a limit, else ""."""
    over_ip = hit(GROUPS_PER_IP, client_ip(request))
    over_account = request.user.is_authenticated and hit(GROUPS_PER_ACCOUNT, request.user.pk)
    if over_ip or over_account:
        return (
            "Von deinem Anschluss wurden heute schon einige Spielegruppen gegründet. "
            "Bitte versuch es morgen noch einmal."
        )
    return ""


# slugify drops umlauts („Süd“ → „sud“); German readers expect „sued“.
GERMAN_LETTERS = str.maketrans(
    {"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss"}
)


def _unique_slug(name: str) -> str:
    base = slugify(name.translate(GERMAN_LETTERS))[:80].strip("-") or "gruppe"
    if base in RESERVED_SLUGS:
        base = f"{base}-gruppe"
    slug, number = base, 2
    while PlayGroup.objects.filter(slug=slug).exists():
        slug = f"{base}-{number}"
        number += 1
    return slug


def create_group(*, user, founder_name: str, games=(), **fields) -> tuple[PlayGroup, Member]:
    for attempt in range(3):
        try:
            return _create_group(user, founder_name, games, fields)
        except IntegrityError:  # someone took the same slug a moment ago
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


@transaction.atomic
def _create_group(user, founder_name, games, fields):
    group = PlayGroup.objects.create(slug=_unique_slug(fields["name"]), **fields)
    group.games.set(games)
    founder = Member.objects.create(
        group=group,
        user=user if getattr(user, "is_authenticated", False) else None,
        name=founder_name,
        role=Member.Role.FOUNDER,
    )
    return group, founder


def join(request, group: PlayGroup, *, name: str) -> Member:
    """Join by invite link; an account that is already a member keeps its membership."""
    user = request.user if request.user.is_authenticated else None
    if user is not None:
        existing = Member.objects.filter(group=group, user=user).first()
        if existing:
            return existing
    if hit(JOINS_PER_IP, client_ip(request)):
        raise Refused(
            "Von deinem Anschluss kamen gerade sehr viele Beitritte. "
            "Bitte versuch es in einer Stunde noch einmal."
        )
    try:
        with transaction.atomic():
            # Count and insert under the group's row lock: joins at the same moment queue
            # here, so the cap holds (SQLite's IMMEDIATE transactions queue them anyway).
            if not PlayGroup.objects.select_for_update().filter(pk=group.pk).exists():
                raise Refused("Diese Spielegruppe gibt es nicht mehr.")
            if user is not None:
                existing = Member.objects.filter(group=group, user=user).first()
                if existing:
                    return existing
            if Member.objects.filter(group=group).count() >= MAX_MEMBERS:
                raise Refused(f"Diese Gruppe ist voll (höchstens {MAX_MEMBERS} Mitglieder).")
            return Member.objects.create(group=group, user=user, name=name)
    except IntegrityError:  # the same account joined twice at once
        return Member.objects.get(group=group, user=user)


def _require_manager(actor: Member):
    if actor is None or not actor.can_manage:
        raise Refused("Das dürfen nur die Organisatoren der Gruppe.")


def update_group(actor: Member, group: PlayGroup, *, games=(), **fields):
    _require_manager(actor)
    for key, value in fields.items():
        setattr(group, key, value)
    group.save(update_fields=list(fields))
    group.games.set(games)


def renew_invite(actor: Member, group: PlayGroup):
    """The old invite link stops working at once; members stay members."""
    _require_manager(actor)
    group.invite_token = new_token()
    group.save(update_fields=["invite_token"])


def renew_calendar(actor: Member, group: PlayGroup):
    _require_manager(actor)
    group.calendar_token = new_token()
    group.save(update_fields=["calendar_token"])


def set_organiser(actor: Member, member: Member, organiser: bool):
    _require_manager(actor)
    if member.group_id != actor.group_id:
        raise Refused("Dieses Mitglied gehört nicht zur Gruppe.")
    if member.is_founder:
        raise Refused("Wer die Gruppe leitet, bleibt Organisator.")
    member.role = Member.Role.ORGANISER if organiser else Member.Role.MEMBER
    member.save(update_fields=["role"])


def remove_member(actor: Member, member: Member):
    """Organisers remove others; everyone may leave (actor == member), the leader too:
    the group passes on (``hand_over``). Nobody removes the leader."""
    if member.group_id != actor.group_id:
        raise Refused("Dieses Mitglied gehört nicht zur Gruppe.")
    if actor.pk != member.pk:
        _require_manager(actor)
        if member.is_founder:
            raise Refused("Wer die Gruppe leitet, kann nicht entfernt werden.")
    # Answers and Zusagen go with the membership (on_delete=CASCADE); a leader's role
    # passes on through the post_delete receiver (groups.receivers).
    member.delete()


def successor(group: PlayGroup, leaving: Member | None = None) -> Member | None:
    """Who leads the group after ``leaving``: the longest-standing organiser, else the
    longest-standing member; None when nobody else is left."""
    members = Member.objects.filter(group=group).exclude(role=Member.Role.FOUNDER)
    if leaving is not None:
        members = members.exclude(pk=leaving.pk)
    members = members.order_by("joined_at", "pk")
    return members.filter(role=Member.Role.ORGANISER).first() or members.first()


def hand_over(group_id: int) -> Member | None:
    """A group always has a leader: after the leader left (or deleted their account),
    the successor takes over; a group nobody is left in is deleted. Returns the new
    leader, or None when nothing changed or the group is gone."""
    with transaction.atomic():
        group = PlayGroup.objects.select_for_update().filter(pk=group_id).first()
        if group is None or group.members.filter(role=Member.Role.FOUNDER).exists():
            return None
        leader = successor(group)
        if leader is None:
            group.delete()
            return None
        leader.role = Member.Role.FOUNDER
        leader.save(update_fields=["role"])
        return leader


def rename(member: Member, name: str):
    """Members choose the name the others see."""
    member.name = name
    member.save(update_fields=["name"])


def delete_group(actor: Member, group: PlayGroup):
    if actor is None or not actor.is_founder:
        raise Refused("Nur wer die Gruppe leitet, kann sie löschen.")
    group.delete()


# Game nights ---------------------------------------------------------------


@transaction.atomic
def create_night(actor: Member, group: PlayGroup, *, starts, games=(), **fields) -> GameNight:
    _require_manager(actor)
    starts = sorted(set(starts))
    if not starts:
        raise Refused("Bitte schlag mindestens einen Termin vor.")
    if len(starts) > MAX_OPTIONS:
        raise Refused(f"Höchstens {MAX_OPTIONS} Terminvorschläge je Abend.")
    if hit(NIGHTS_PER_GROUP, group.pk):
        raise Refused("Heute wurden in dieser Gruppe schon sehr viele Abende geplant.")
    night = GameNight.objects.create(group=group, created_by=actor, **fields)
    night.games.set(games)
    DateOption.objects.bulk_create(DateOption(night=night, starts_at=start) for start in starts)
    return night


def add_option(actor: Member, night: GameNight, start) -> DateOption:
    """One more proposed time while the poll is open."""
    _require_manager(actor)
    if night.fixed_option_id:
        raise Refused("Der Termin steht schon fest.")
    if start < clock.now():
        raise Refused("Dieser Termin liegt in der Vergangenheit.")
    if night.options.count() >= MAX_OPTIONS:
        raise Refused(f"Höchstens {MAX_OPTIONS} Terminvorschläge je Abend.")
    option, created = DateOption.objects.get_or_create(night=night, starts_at=start)
    if not created:
        raise Refused("Diesen Termin gibt es schon.")
    return option


def update_night(actor: Member, night: GameNight, *, games=(), **fields):
    _require_manager(actor)
    for key, value in fields.items():
        setattr(night, key, value)
    night.sequence += 1
    night.updated_at = clock.now()
    night.save(update_fields=[*fields, "sequence", "updated_at"])
    night.games.set(games)


def delete_night(actor: Member, night: GameNight):
    _require_manager(actor)
    night.delete()


def answer(member: Member, option: DateOption, value: str) -> Answer:
    if option.night.group_id != member.group_id:
        raise Refused("Dieser Termin gehört nicht zu deiner Gruppe.")
    if value not in Answer.Value.values:
        raise Refused("Bitte antworte mit ja, vielleicht oder nein.")
    if option.night.fixed_option_id:
        raise Refused("Der Termin steht schon fest – sag stattdessen zu oder ab.")
    return _upsert(
        Answer, {"option": option, "member": member}, value=value, answered_at=clock.now()
    )


@transaction.atomic
def fix_date(actor: Member, night: GameNight, option: DateOption | None):
    """Fix one option (or reopen the poll with ``None``).

    Whoever answered „ja“ to the fixed option counts as zugesagt, „nein“ as abgesagt,
    unless they already said something else for this night.
    """
    _require_manager(actor)
    if option is not None and option.night_id != night.pk:
        raise Refused("Dieser Termin gehört nicht zu diesem Abend.")
    night.fixed_option = option
    night.sequence += 1
    night.updated_at = clock.now()
    night.save(update_fields=["fixed_option", "sequence", "updated_at"])
    if option is None:
        return
    decided = set(night.rsvps.values_list("member_id", flat=True))
    Rsvp.objects.bulk_create(
        Rsvp(night=night, member_id=a.member_id, attending=a.value == Answer.Value.YES)
        for a in option.answers.exclude(value=Answer.Value.MAYBE)
        if a.member_id not in decided
    )


def rsvp(member: Member, night: GameNight, attending: bool) -> Rsvp:
    if night.group_id != member.group_id:
        raise Refused("Dieser Abend gehört nicht zu deiner Gruppe.")
    if not night.fixed_option_id:
        raise Refused("Für diesen Abend steht noch kein Termin fest.")
    return _upsert(
        Rsvp, {"night": night, "member": member}, attending=attending, answered_at=clock.now()
    )
