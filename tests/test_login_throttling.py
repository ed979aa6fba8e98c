"""Admin login throttling with django-axes: wrong passwords lock the address out."""

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "Kartenhaus-7-Lama"


@pytest.fixture
def axes_on(settings):
    settings.AXES_ENABLED = True
    yield settings
    from axes.utils import reset

    reset()


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user("chefin", password=PASSWORD, is_staff=True)


def attempt(client, password):
    return client.post(
        reverse("admin:login"),
        {"username": "chefin", "password": password, "next": "/admin/"},
    )


def test_wrong_passwords_lock_out_even_the_right_one(axes_on, staff):
    client = Client(REMOTE_ADDR="198.51.100.7")
    for _ in range(axes_on.AXES_FAILURE_LIMIT):
        response = attempt(client, "falsch")
        assert response.status_code in (200, 429)
    response = attempt(client, PASSWORD)
    assert response.status_code == 429
    html = response.content.decode()
    assert "Zu viele Anmeldeversuche" in html
    assert "15 Minuten" in html
    assert '<html lang="de">' in html
    assert response["Retry-After"] == "900"
    assert "_auth_user_id" not in client.session


def test_another_address_can_still_log_in(axes_on, staff):
    attacker = Client(REMOTE_ADDR="198.51.100.7")
    for _ in range(axes_on.AXES_FAILURE_LIMIT + 2):
        attempt(attacker, "falsch")
    editor = Client(REMOTE_ADDR="203.0.113.20")
    response = attempt(editor, PASSWORD)
    assert response.status_code == 302
    assert editor.session["_auth_user_id"] == str(staff.pk)


def test_a_few_typos_do_not_lock_out(axes_on, staff):
    client = Client(REMOTE_ADDR="198.51.100.8")
    for _ in range(axes_on.AXES_FAILURE_LIMIT - 1):
        attempt(client, "falsch")
    assert attempt(client, PASSWORD).status_code == 302
