"""„Meine Spielegruppen“ in „Mein Bereich“ (accounts hook) and guest memberships adopted on login."""

import pytest
from django.test import Client
from django.urls import reverse

from groups import services
from groups.models import Member
from tests.groups.conftest import Person, add_member, in_days, make_group

pytestmark = pytest.mark.django_db

EMAIL, PASSWORD = "leserin@example.org", "Kartenhaus-2026!"


@pytest.fixture
def reader(django_user_model):
    return django_user_model.objects.create_user(EMAIL, email=EMAIL, password=PASSWORD)


def login(client):
    response = client.post(reverse("accounts:login"), {"username": EMAIL, "password": PASSWORD})
    assert response.status_code == 302, response.content.decode()[:500]


def test_my_area_lists_my_groups_and_next_nights(reader, games):
    group, founder = make_group("Donnerstagsrunde <b>")
    add_member(group, "Lea", user=reader)
    make_group("Fremde Runde")
    fixed = services.create_night(founder, group, starts=[in_days(3)], title="Katzenabend")
    services.fix_date(founder, fixed, fixed.options.get())
    services.create_night(founder, group, starts=[in_days(8), in_days(9)], title="Umfrage")
    client = Client()
    client.force_login(reader)
    html = client.get(reverse("accounts:my_area")).content.decode()
    assert "Meine Spielegruppen" in html
    assert "Donnerstagsrunde &lt;b&gt;" in html
    assert f'href="{group.get_absolute_url()}"' in html
    assert "Katzenabend" in html and "Umfrage" in html and "Terminabstimmung läuft" in html
    assert "Fremde Runde" not in html


def test_my_area_without_groups_invites_to_found_one(reader):
    client = Client()
    client.force_login(reader)
    html = client.get(reverse("accounts:my_area")).content.decode()
    assert "Du bist noch in keiner Spielegruppe." in html
    assert 'href="/spielegruppen/neu/"' in html


def test_login_adopts_guest_memberships_of_this_browser(reader, games):
    group, founder = make_group()
    other, other_founder = make_group("Zweite Runde")
    guest = add_member(group, "Lea")
    already = add_member(other, "Lea als Gast")
    add_member(other, "Lea mit Konto", user=reader)
    browser = Person(guest)
    browser.client.get(already.get_personal_url())
    login(browser.client)
    guest.refresh_from_db()
    already.refresh_from_db()
    assert guest.user == reader
    assert already.user is None  # the account already had its own membership there
    assert Member.objects.filter(user=reader).count() == 2
    # Another device with only the login is the same member now.
    fresh = Client()
    login(fresh)
    assert (
        'Lea <span class="member__me">(du)</span>'
        in fresh.get(group.get_absolute_url()).content.decode()
    )
