"""„Meine Spielegruppen“ in the accounts app's „Mein Bereich“ (accounts.sections), and the
account's memberships in its „Meine Daten“ download (accounts.personal_data)."""

from django.utils import timezone

from groups.models import Answer, Member, Rsvp
from groups.selectors import groups_of_user

NIGHTS_SHOWN = 3


def my_groups(request) -> dict:
    memberships = groups_of_user(request.user)
    for membership in memberships:
        membership.next_nights = membership.next_nights[:NIGHTS_SHOWN]
    return {"memberships": memberships}


def _when(moment) -> str | None:
    return timezone.localtime(moment).isoformat(timespec="seconds") if moment else None


def personal_data(user, link) -> list[dict]:
    """Each membership with the group, the name and role in it, answers and Zusagen."""
    memberships = Member.objects.filter(user=user).select_related("group").order_by("joined_at")
    answers = Answer.objects.filter(member__user=user).select_related("option__night")
    rsvps = Rsvp.objects.filter(member__user=user).select_related("night__fixed_option")
    return [
        {
            "gruppe": member.group.name,
            "adresse": link(member.group.get_absolute_url()),
            "name_in_der_gruppe": member.name,
            "rolle": member.get_role_display(),
            "beigetreten_am": _when(member.joined_at),
            "persoenlicher_link": link(member.get_personal_url()),
            "antworten": [
                {
                    "abend": answer.option.night.title,
                    "termin": _when(answer.option.starts_at),
                    "antwort": answer.get_value_display(),
                    "geantwortet_am": _when(answer.answered_at),
                }
                for answer in answers
                if answer.member_id == member.pk
            ],
            "zusagen": [
                {
                    "abend": rsvp.night.title,
                    "termin": _when(rsvp.night.starts_at),
                    "kommt": rsvp.attending,
                    "geantwortet_am": _when(rsvp.answered_at),
                }
                for rsvp in rsvps
                if rsvp.member_id == member.pk
            ],
        }
        for member in memberships
    ]
