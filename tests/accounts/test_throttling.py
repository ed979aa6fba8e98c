"""The reader login is throttled by django-axes exactly like the admin login."""

import pytest

from tests.accounts.conftest import EMAIL, PASSWORD, login, new_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def axes_on(settings):
    settings.AXES_ENABLED = True
    yield settings
    from axes.utils import reset

    reset()


def test_wrong_passwords_lock_the_address_out_even_with_the_right_one(axes_on, reader):
    client = new_client("198.51.100.70")
    for _ in range(axes_on.AXES_FAILURE_LIMIT):
        assert login(client, password="falsch").status_code in (200, 429)
    response = login(client)
    assert response.status_code == 429
    assert response["Retry-After"] == "900"
    assert "Zu viele Anmeldeversuche" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_lockout_counts_admin_and_reader_login_together(axes_on, reader, client):
    # Same backend, same counter: switching the form does not buy more guesses.
    attacker = new_client("198.51.100.71")
    for _ in range(axes_on.AXES_FAILURE_LIMIT):
        attacker.post("/admin/login/", {"username": EMAIL, "password": "falsch", "next": "/admin/"})
    assert login(attacker).status_code == 429


def test_another_address_still_logs_in(axes_on, reader):
    attacker = new_client("198.51.100.72")
    for _ in range(axes_on.AXES_FAILURE_LIMIT + 1):
        login(attacker, password="falsch")
    other = new_client("203.0.113.72")
    response = login(other, password=PASSWORD)
    assert response.status_code == 302
    assert other.session["_auth_user_id"] == str(reader.pk)
