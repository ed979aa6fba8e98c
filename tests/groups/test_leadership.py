"""A group always has a leader: whoever leads it may leave or delete their account, and the
group passes on – to the longest-standing organiser, else the longest-standing member; a
group nobody is left in is deleted. Leaving removes one's answers and Zusagen."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games import clock
from groups import services
from groups.models import Answer, GameNight, Member, PlayGroup, Rsvp
from tests.groups.conftest import Person, add_member, in_days, make_group

pytestmark = pytest.mark.django_db
PASSWORD = "Spielabend-mit-Lama-42"


def joined(group, name, days_ago, role=Member.Role.MEMBER, user=None):
    member = add_member(group, name, role=role, user=user)
    Member.objects.filter(pk=member.pk).update(joined_at=clock.now() - timedelta(days=days_ago))
    member.refresh_from_db()
    return member


def leader_of(group) -> Member:
    return Member.objects.get(group=group, role=Member.Role.FOUNDER)


def test_the_leader_leaves_and_the_longest_organiser_takes_over(group):
    group, founder = group
    joined(group, "Ben", days_ago=30)  # the longest member, but no organiser
    joined(group, "Cem", days_ago=10, role=Member.Role.ORGANISER)
    joined(group, "Dana", days_ago=20, role=Member.Role.ORGANISER)
    mia = Person(founder)
    page = mia.client.get(group.get_absolute_url()).content.decode()
    assert "Die Leitung übernimmt dann Dana." in page
    response = mia.client.post(reverse("groups:leave", args=[group.slug]))
    assert response.status_code == 302
    assert leader_of(group).name == "Dana"
    assert not Member.objects.filter(pk=founder.pk).exists()


def test_without_organisers_the_longest_member_takes_over_and_may_do_everything(group):
    group, founder = group
    ben = joined(group, "Ben", days_ago=30)
    joined(group, "Cem", days_ago=1)
    Person(founder).client.post(reverse("groups:leave", args=[group.slug]))
    ben.refresh_from_db()
    assert ben.is_founder
    browser = Person(ben)
    old_token = group.invite_token
    browser.client.post(reverse("groups:renew_invite", args=[group.slug]))
    group.refresh_from_db()
    assert group.invite_token != old_token
    assert browser.client.get(reverse("groups:night_create", args=[group.slug])).status_code == 200
    page = browser.client.get(group.get_absolute_url()).content.decode()
    assert "leitet die Gruppe" in page and "Gruppe löschen" in page
    browser.client.post(reverse("groups:delete", args=[group.slug]), {"bestaetigt": group.slug})
    assert not PlayGroup.objects.exists()


def test_the_last_member_leaving_deletes_the_group(group):
    group, founder = group
    mia = Person(founder)
    page = mia.client.get(group.get_absolute_url()).content.decode()
    assert "Weil niemand sonst in der Gruppe ist, wird sie dabei gelöscht." in page
    mia.client.post(reverse("groups:leave", args=[group.slug]))
    assert not PlayGroup.objects.exists()


def test_a_leader_deleting_the_account_hands_the_group_over(client, games):
    user = get_user_model().objects.create_user("mia@example.org", "mia@example.org", PASSWORD)
    group, founder = services.create_group(
        user=user, founder_name="Mia", games=games[:1], name="Freitagsrunde", is_public=False
    )
    alone, _ = services.create_group(user=user, founder_name="Mia", name="Nur ich")
    ben = joined(group, "Ben", days_ago=3)
    client.force_login(user)
    response = client.post(reverse("accounts:delete"), {"password": PASSWORD})
    assert response.status_code == 200
    ben.refresh_from_db()
    assert ben.is_founder
    assert list(PlayGroup.objects.all()) == [group]  # the group with nobody left is gone


def test_nobody_removes_the_leader(group):
    group, founder = group
    dana = Person(joined(group, "Dana", days_ago=5, role=Member.Role.ORGANISER))
    response = dana.client.post(reverse("groups:remove_member", args=[group.slug, founder.pk]))
    assert response.status_code == 403
    assert "leitet" in response.content.decode()
    assert leader_of(group) == founder


def test_deleting_groups_with_their_members_hands_nothing_over(group):
    group, founder = group
    joined(group, "Ben", days_ago=3)
    other, _ = make_group("Zweite Runde")
    joined(other, "Cem", days_ago=3)
    group.delete()
    PlayGroup.objects.filter(pk=other.pk).delete()
    assert not PlayGroup.objects.exists() and not Member.objects.exists()


def test_a_guest_leaves_by_the_personal_link_and_the_answers_go_too(group):
    group, founder = group
    ben = joined(group, "Ben", days_ago=3)
    night = services.create_night(founder, group, starts=[in_days(3), in_days(4)])
    first, second = night.options.all()
    services.answer(ben, first, "ja")
    services.answer(founder, first, "ja")
    services.fix_date(founder, night, first)
    assert Rsvp.objects.filter(member=ben).exists()
    # Another device: only the personal link.
    browser = Client()
    browser.get(ben.get_personal_url())
    page = browser.get(group.get_absolute_url()).content.decode()
    assert "Austreten löscht deinen Namen in der Gruppe, deine Antworten" in page
    browser.post(reverse("groups:leave", args=[group.slug]))
    assert not Member.objects.filter(pk=ben.pk).exists()
    assert not Answer.objects.filter(member_id=ben.pk).exists()
    assert not Rsvp.objects.filter(member_id=ben.pk).exists()
    assert Answer.objects.filter(member=founder).count() == 1
    assert GameNight.objects.filter(pk=night.pk).exists()
    assert browser.get(ben.get_personal_url()).status_code == 404
