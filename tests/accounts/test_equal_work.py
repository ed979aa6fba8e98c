"""Sign-up, login, reset and „Link noch einmal schicken“ do the same work for a registered
address as for a new one – one password hash, one mail – so neither the answer nor the
time it takes tells a stranger which addresses have accounts.

The timing tests use a real PBKDF2 hasher (fewer rounds than production, so the suite
stays quick): its cost dominates a request the way the production hasher's does. Each
case is measured in turns with the others by the CPU time of the thread that answers
(what the server spends on the request; other processes on a busy machine do not add to
it, as they add to the wall clock), and their lower quartiles may differ by less than 20 %.
"""

from __future__ import annotations

import itertools
import statistics
import time

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.accounts.conftest import PASSWORD

pytestmark = pytest.mark.django_db
User = get_user_model()

TOLERANCE = 0.20
WRONG = "Falsches-Passwort-123"
_addresses = itertools.count(1)


class CountingHasher(PBKDF2PasswordHasher):
    """PBKDF2 with about 40 ms per hash here; counts every hash it computes."""

    iterations = 150_000
    calls = 0

    def encode(self, password, salt, iterations=None):
        type(self).calls += 1
        return super().encode(password, salt, iterations)


@pytest.fixture
def hasher(settings):
    settings.PASSWORD_HASHERS = [f"{__name__}.CountingHasher"]
    CountingHasher.calls = 0
    return CountingHasher


@pytest.fixture
def accounts(hasher):
    """A confirmed and an unconfirmed account, hashed with the counting hasher."""
    confirmed = User.objects.create_user(
        "bestaetigt@example.org", email="bestaetigt@example.org", password=PASSWORD
    )
    pending = User.objects.create_user(
        "wartet@example.org", email="wartet@example.org", password=PASSWORD, is_active=False
    )
    hasher.calls = 0
    return confirmed, pending


def fresh_client() -> Client:
    # Each request from its own address: the per-address mail limits must not bite.
    number = next(_addresses)
    return Client(REMOTE_ADDR=f"198.51.{number // 250}.{number % 250 + 1}")


def new_address() -> str:
    return f"neu-{next(_addresses)}@example.org"


def sign_up(email: str):
    return fresh_client().post(
        reverse("accounts:signup"), {"email": email, "password1": PASSWORD, "password2": PASSWORD}
    )


def log_in(email: str, password: str):
    return fresh_client().post(reverse("accounts:login"), {"username": email, "password": password})


def reset(email: str):
    return fresh_client().post(reverse("accounts:password_reset"), {"email": email})


def resend(email: str):
    return fresh_client().post(reverse("accounts:resend"), {"email": email})


def work(call, hasher) -> tuple[int, int, int]:
    """(status, password hashes, mails) of one request."""
    hasher.calls, sent = 0, len(mail.outbox)
    response = call()
    return response.status_code, hasher.calls, len(mail.outbox) - sent


# --- The same work -----------------------------------------------------------------------------


def test_sign_up_hashes_once_and_mails_once_for_new_registered_and_unconfirmed(accounts, hasher):
    new = work(lambda: sign_up(new_address()), hasher)
    registered = work(lambda: sign_up("bestaetigt@example.org"), hasher)
    unconfirmed = work(lambda: sign_up("wartet@example.org"), hasher)
    assert new == registered == unconfirmed == (302, 1, 1)


def test_every_failed_login_costs_exactly_one_hash(accounts, hasher):
    unknown = work(lambda: log_in("niemand@example.org", WRONG), hasher)
    wrong = work(lambda: log_in("bestaetigt@example.org", WRONG), hasher)
    unconfirmed_wrong = work(lambda: log_in("wartet@example.org", WRONG), hasher)
    unconfirmed_right = work(lambda: log_in("wartet@example.org", PASSWORD), hasher)
    assert unknown == wrong == unconfirmed_wrong == unconfirmed_right == (200, 1, 0)
    assert work(lambda: log_in("bestaetigt@example.org", PASSWORD), hasher) == (302, 1, 0)


def test_failed_logins_answer_alike_except_to_who_knows_the_password(accounts):
    pages = [
        log_in(email, password).content.decode()
        for email, password in (
            ("niemand@example.org", WRONG),
            ("bestaetigt@example.org", WRONG),
            ("wartet@example.org", WRONG),
        )
    ]
    assert all("E-Mail-Adresse oder Passwort stimmen nicht" in page for page in pages)
    assert "noch nicht bestätigt" in log_in("wartet@example.org", PASSWORD).content.decode()


def test_reset_and_resend_mail_once_whatever_the_address(accounts, hasher):
    for call in (reset, resend):
        results = {
            email: work(lambda email=email, call=call: call(email), hasher)
            for email in ("niemand@example.org", "bestaetigt@example.org", "wartet@example.org")
        }
        assert set(results.values()) == {(302, 0, 1)}, (call.__name__, results)


def test_a_deactivated_account_stays_logged_out(accounts, client):
    confirmed, _ = accounts
    client.post(reverse("accounts:login"), {"username": confirmed.username, "password": PASSWORD})
    assert client.get(reverse("accounts:my_area")).status_code == 200
    confirmed.is_active = False
    confirmed.save()
    assert client.get(reverse("accounts:my_area")).status_code == 302


# --- The same time -----------------------------------------------------------------------------


def quartiles(cases: dict, rounds: int) -> dict[str, float]:
    """The lower quartile of each case's CPU seconds, measured in turns (each round in a new
    order)."""
    samples: dict[str, list[float]] = {name: [] for name in cases}
    names = list(cases)
    for round_number in range(rounds):
        shift = round_number % len(names)
        for name in names[shift:] + names[:shift]:
            started = time.thread_time()
            cases[name]()
            samples[name].append(time.thread_time() - started)
    return {name: statistics.quantiles(values, n=4)[0] for name, values in samples.items()}


def assert_alike(timings: dict[str, float], reference: str) -> None:
    base = timings[reference]
    report = ", ".join(f"{name} {seconds * 1000:.1f} ms" for name, seconds in timings.items())
    for name, seconds in timings.items():
        difference = abs(seconds - base) / max(seconds, base)
        assert difference < TOLERANCE, f"{name} vs {reference}: {difference:.0%} ({report})"
    print(report)


def test_sign_up_takes_as_long_for_a_registered_address_as_for_a_new_one(accounts):
    timings = quartiles(
        {
            "new": lambda: sign_up(new_address()),
            "registered": lambda: sign_up("bestaetigt@example.org"),
            "unconfirmed": lambda: sign_up("wartet@example.org"),
        },
        # More rounds than the logins: a sign-up for a new address also writes a row, and on
        # a machine busy with other tests 11 rounds left its quartile 20 % off once.
        rounds=21,
    )
    assert_alike(timings, "new")


def test_failed_logins_take_equally_long(accounts):
    timings = quartiles(
        {
            "unknown": lambda: log_in("niemand@example.org", WRONG),
            "wrong password": lambda: log_in("bestaetigt@example.org", WRONG),
            "unconfirmed, wrong": lambda: log_in("wartet@example.org", WRONG),
            "unconfirmed, right": lambda: log_in("wartet@example.org", PASSWORD),
        },
        rounds=11,
    )
    assert_alike(timings, "unknown")


def test_reset_takes_as_long_for_a_registered_address_as_for_an_unknown_one(accounts):
    # No hash here: short requests, so more rounds (25 left a quartile 20.5 % off once,
    # with the other tests running beside it on a slow day).
    timings = quartiles(
        {
            "unknown": lambda: reset("niemand@example.org"),
            "registered": lambda: reset("bestaetigt@example.org"),
            "unconfirmed": lambda: reset("wartet@example.org"),
        },
        rounds=41,
    )
    assert_alike(timings, "unknown")
