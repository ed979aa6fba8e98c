"""The member cap holds when many people follow the invite link at the same moment.

Thirty joins race for the last place of a group with 59 members, each request on its own
database connection (threads), through the real view. PostgreSQL only (marker
``postgresql``, left out on SQLite): the row lock is what is tested, and SQLite's in-memory
test database answers concurrent writers with "table is locked" instead of queueing them.
CI runs it with ``make test-db``.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from groups.models import Member
from groups.services import MAX_MEMBERS
from tests.groups.conftest import add_member, make_group
from tests.races import pool_for, race

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgresql]

RACERS = 30


def test_thirty_concurrent_joins_on_a_group_with_59_members_fill_exactly_one_place():
    group, _ = make_group("Volle Runde")
    for number in range(MAX_MEMBERS - 2):
        add_member(group, f"Mitglied {number}")
    assert group.members.count() == MAX_MEMBERS - 1
    url = reverse("groups:join", args=[group.slug, group.invite_token])

    def joiner(number):
        client = Client(REMOTE_ADDR=f"203.0.113.{number + 1}")
        return lambda: client.post(url, {"name": f"Gast {number}"})

    with pool_for(RACERS):
        results = race([joiner(number) for number in range(RACERS)])

    errors = [r for r in results if isinstance(r, Exception)]
    assert errors == []
    statuses = sorted(response.status_code for response in results)
    assert statuses == [302] + [429] * (RACERS - 1)
    refusals = [r.content.decode() for r in results if r.status_code == 429]
    assert all("Diese Gruppe ist voll" in page for page in refusals)
    assert Member.objects.filter(group=group).count() == MAX_MEMBERS
    print(f"members after {RACERS} concurrent joins: {group.members.count()}")
