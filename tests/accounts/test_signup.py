"""Sign-up, e-mail confirmation, login and password reset."""

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from accounts import services
from tests.accounts.conftest import (
    EMAIL,
    PASSWORD,
    RESET_LINK,
    link_in_last_mail,
    login,
    new_client,
    signup,
)

pytestmark = pytest.mark.django_db
User = get_user_model()


def test_signup_page_is_german_private_and_labelled(client):
    response = client.get(reverse("accounts:signup"))
    html = response.content.decode()
    assert response.status_code == 200
    assert "<h1>Konto anlegen</h1>" in html
    assert '<label for="id_email">E-Mail-Adresse</label>' in html
    assert '<label for="id_password1">Passwort</label>' in html
    assert 'name="robots" content="noindex, nofollow"' in html
    assert "no-store" in response["Cache-Control"]


def test_signup_creates_an_inactive_account_and_mails_a_confirmation_link(client):
    response = signup(client, email="  Leserin@Example.ORG ")
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:signup_done")
    user = User.objects.get()
    assert user.username == EMAIL  # lower case: one account per address, whatever the case
    assert user.email == "Leserin@example.org"  # the domain part is case-free
    assert not user.is_active
    assert user.check_password(PASSWORD)
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["Leserin@example.org"]
    assert "bestätige" in message.subject
    assert "/konto/bestaetigen/" in message.body
    page = client.get(response["Location"]).content.decode()
    assert "Fast geschafft" in page and "Leserin@Example.ORG" in page


def test_unconfirmed_account_cannot_log_in_and_is_told_why(client):
    signup(client)
    response = login(client)
    assert response.status_code == 200
    html = response.content.decode()
    assert "noch nicht bestätigt" in html
    assert reverse("accounts:resend") in html
    assert "_auth_user_id" not in client.session


def test_unconfirmed_account_with_a_wrong_password_gets_the_plain_error(client):
    signup(client)
    html = login(client, password="falsch-falsch-99").content.decode()
    assert "noch nicht bestätigt" not in html
    assert "E-Mail-Adresse oder Passwort stimmen nicht" in html


def test_confirmation_link_shows_a_button_and_the_post_confirms_and_logs_in(client):
    signup(client)
    link = link_in_last_mail()
    page = client.get(link)
    assert page.status_code == 200
    assert "Ja, Konto bestätigen" in page.content.decode()
    assert not User.objects.get().is_active  # a GET (e.g. a mail scanner) confirms nothing
    response = client.post(link)
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:my_area")
    assert User.objects.get().is_active
    assert client.session["_auth_user_id"] == str(User.objects.get().pk)
    html = client.get(reverse("accounts:my_area")).content.decode()
    assert "Dein Konto ist bestätigt" in html


def test_confirmation_link_works_once_only(client):
    signup(client)
    link = link_in_last_mail()
    client.post(link)
    other = new_client()
    response = other.get(link)
    assert response.status_code == 400
    assert "gilt nicht" in response.content.decode()
    assert other.post(link).status_code == 400


def test_forged_confirmation_links_are_refused(client):
    signup(client)
    link = link_in_last_mail()
    assert client.post(link[:-3] + "xx/").status_code == 400
    assert client.post(reverse("accounts:confirm", args=["Zm9v", "abc-def"])).status_code == 400
    assert not User.objects.get().is_active


def test_signup_with_a_known_address_creates_nothing_and_mails_the_owner(client, reader):
    response = signup(client, email="LESERIN@example.org", password="Ganz-anderes-Passwort-7")
    assert response.status_code == 302  # the same answer as for a new address
    assert User.objects.count() == 1
    reader.refresh_from_db()
    assert reader.check_password(PASSWORD)  # the password was not touched
    assert len(mail.outbox) == 1
    assert "schon ein Konto" in mail.outbox[0].subject
    assert "/konto/passwort-vergessen/" in mail.outbox[0].body


def test_signing_up_again_before_confirming_resends_the_link(client):
    signup(client)
    signup(client)
    assert User.objects.count() == 1
    assert len(mail.outbox) == 2
    assert "/konto/bestaetigen/" in mail.outbox[1].body


@pytest.mark.parametrize(
    "password, password2, error",
    [
        ("Spielabend-mit-Lama-42", "Spielabend-mit-Lama-43", "stimmen nicht überein"),
        ("12345678901", None, "komplett numerisch"),
        ("kurz", None, "zu kurz"),
    ],
)
def test_weak_or_mismatched_passwords_are_refused_in_german(client, password, password2, error):
    response = signup(client, password=password, password2=password2)
    assert response.status_code == 200
    assert error in response.content.decode()
    assert not User.objects.exists()
    assert mail.outbox == []


def test_signups_are_rate_limited_per_address(client):
    for number in range(services.SIGNUPS_PER_IP.count):
        assert signup(client, email=f"leser{number}@example.org").status_code == 302
    response = signup(client, email="noch.einer@example.org")
    assert response.status_code == 200
    assert "sehr viele Anmeldungen" in response.content.decode()
    assert User.objects.count() == services.SIGNUPS_PER_IP.count


def test_resend_answers_the_same_for_known_and_unknown_addresses(client, reader):
    signup(client, email="neu@example.org")
    mail.outbox.clear()
    for email in ("neu@example.org", EMAIL, "niemand@example.org"):
        response = client.post(reverse("accounts:resend"), {"email": email})
        assert response.status_code == 302
        assert response["Location"] == reverse("accounts:signup_done")
    # One mail each (the same work): the link, „schon bestätigt“ and „kein Konto“.
    assert [m.to for m in mail.outbox] == [
        ["neu@example.org"],
        ["Leserin@example.org"],
        ["niemand@example.org"],
    ]
    assert "/konto/bestaetigen/" in mail.outbox[0].body
    assert "schon bestätigt" in mail.outbox[1].body
    assert "kein Konto" in mail.outbox[2].body


def test_login_with_any_case_of_the_address_goes_to_my_area(client, reader):
    response = login(client, email="LeSeRiN@EXAMPLE.org")
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:my_area")
    assert client.session["_auth_user_id"] == str(reader.pk)


def test_login_follows_a_safe_next_only(client, reader):
    response = client.post(
        reverse("accounts:login"), {"username": EMAIL, "password": PASSWORD, "next": "/spiele/"}
    )
    assert response["Location"] == "/spiele/"
    client.logout()
    response = client.post(
        reverse("accounts:login"),
        {"username": EMAIL, "password": PASSWORD, "next": "https://boese.example/"},
    )
    assert response["Location"] == reverse("accounts:my_area")


def test_wrong_password_is_refused_in_german(client, reader):
    response = login(client, password="falsch")
    assert response.status_code == 200
    assert "E-Mail-Adresse oder Passwort stimmen nicht" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_logout_is_a_post_and_shows_a_german_page(client, reader):
    login(client)
    assert client.get(reverse("accounts:logout")).status_code == 405
    response = client.post(reverse("accounts:logout"))
    assert response.status_code == 200
    assert "Du bist abgemeldet" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_password_reset_mail_and_new_password(client, reader):
    page = client.get(reverse("accounts:password_reset")).content.decode()
    assert "Passwort vergessen?" in page
    response = client.post(reverse("accounts:password_reset"), {"email": "LESERIN@example.org"})
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:password_reset_done")
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["Leserin@example.org"]
    assert mail.outbox[0].subject == "Neues Passwort für Kartenregeln"
    link = link_in_last_mail(RESET_LINK)
    # Django moves the token into the session and redirects to the form.
    form_url = client.get(link)["Location"]
    page = client.get(form_url).content.decode()
    assert "Neues Passwort wählen" in page
    new = "Neues-Kartenglueck-2026"
    response = client.post(form_url, {"new_password1": new, "new_password2": new})
    assert response["Location"] == reverse("accounts:password_reset_complete")
    reader.refresh_from_db()
    assert reader.check_password(new)
    assert client.get(link, follow=True).context["validlink"] is False  # used once


def test_password_reset_for_an_unknown_address_answers_the_same_and_says_so_by_mail(client):
    response = client.post(reverse("accounts:password_reset"), {"email": "niemand@example.org"})
    assert response["Location"] == reverse("accounts:password_reset_done")
    (message,) = mail.outbox
    assert message.to == ["niemand@example.org"]
    assert message.subject == "Kein Konto mit dieser Adresse bei Kartenregeln"
    assert "ein neues Passwort angefordert" in message.body
    assert "/konto/registrieren/" in message.body


def test_password_reset_for_an_unconfirmed_account_mails_the_confirmation_link(client):
    signup(client)
    mail.outbox.clear()
    client.post(reverse("accounts:password_reset"), {"email": EMAIL})
    (message,) = mail.outbox
    assert "/konto/bestaetigen/" in message.body


def test_password_reset_mails_are_rate_limited(client, reader):
    for _ in range(services.RESET_MAILS_PER_IP.count + 2):
        client.post(reverse("accounts:password_reset"), {"email": EMAIL})
    assert len(mail.outbox) == services.RESET_MAILS_PER_IP.count


def test_password_change_needs_the_old_password(client, reader):
    login(client)
    new = "Neues-Kartenglueck-2026"
    url = reverse("accounts:password_change")
    response = client.post(
        url, {"old_password": "falsch", "new_password1": new, "new_password2": new}
    )
    assert response.status_code == 200
    assert "alte Passwort" in response.content.decode()
    response = client.post(
        url, {"old_password": PASSWORD, "new_password1": new, "new_password2": new}
    )
    assert response["Location"] == reverse("accounts:my_area")
    reader.refresh_from_db()
    assert reader.check_password(new)
