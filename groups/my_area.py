"""„Meine Spielegruppen“ in the accounts app's „Mein Bereich“ (accounts.sections)."""

from groups.selectors import groups_of_user

NIGHTS_SHOWN = 3


def my_groups(request) -> dict:
    memberships = groups_of_user(request.user)
    for membership in memberships:
        membership.next_nights = membership.next_nights[:NIGHTS_SHOWN]
    return {"memberships": memberships}
