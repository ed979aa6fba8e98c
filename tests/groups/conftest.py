from datetime import timedelta

import pytest
from django.test import Client

from games import clock
from groups import services
from groups.models import Member
from tests.factories import make_game


class Person:
    """A browser of one member: a client whose cookie holds the personal link."""

    def __init__(self, member: Member | None = None, client: Client | None = None):
        self.client = client or Client()
        self.member = member
        if member is not None and member.user_id is None:
            response = self.client.get(member.get_personal_url())
            assert response.status_code == 302


def make_group(name="Donnerstagsrunde", *, public=True, hidden=False, games=(), founder="Mia"):
    group, founder_member = services.create_group(
        user=None,
        founder_name=founder,
        games=games,
        name=name,
        description="Wir spielen donnerstags.",
        region="Leipzig-Süd",
        is_public=public,
    )
    if hidden:
        group.is_hidden = True
        group.save()
    return group, founder_member


def add_member(group, name="Ben", role=Member.Role.MEMBER, user=None):
    return Member.objects.create(group=group, name=name, role=role, user=user)


def in_days(days, hour=19):
    start = clock.now() + timedelta(days=days)
    return start.replace(hour=hour, minute=0, second=0, microsecond=0)


@pytest.fixture
def games(db):
    return [
        make_game("the-cat", title="The Cat", demo_engine=""),
        make_game("alpaka", title="Alpaka"),
    ]


@pytest.fixture
def group(db, games):
    return make_group(games=games[:1])
