import re

import pytest
from django.core import mail
from django.http import HttpRequest
from django.test import Client
from django.urls import reverse

from games import visitors
from tests.factories import make_article, make_game

PASSWORD = "Spielabend-mit-Lama-42"
EMAIL = "leserin@example.org"
CONFIRM_LINK = re.compile(r"https?://[^\s]+/konto/bestaetigen/[^\s]+/")
RESET_LINK = re.compile(r"https?://[^\s]+/konto/passwort-neu/[^\s]+/")


@pytest.fixture
def game(db):
    game = make_game("sternspiel", title="Sternspiel")
    make_article(game)
    return game


@pytest.fixture
def other_game(db):
    game = make_game("mondspiel", title="Mondspiel")
    make_article(game)
    return game


@pytest.fixture
def reader(django_user_model):
    """A confirmed account (the e-mail, lower case, is the user name)."""
    return django_user_model.objects.create_user(
        EMAIL, email="Leserin@Example.org", password=PASSWORD
    )


def signup(client, email=EMAIL, password=PASSWORD, password2=None):
    return client.post(
        reverse("accounts:signup"),
        {"email": email, "password1": password, "password2": password2 or password},
    )


def login(client, email=EMAIL, password=PASSWORD):
    return client.post(reverse("accounts:login"), {"username": email, "password": password})


def vote(client, game, stars, htmx=True):
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(
        reverse("feedback:vote", args=[game.slug]), {"sterne": stars}, headers=headers
    )


def visitor_of(client) -> str | None:
    """The visitor id in the client's signed cookie."""
    request = HttpRequest()
    request.COOKIES = {key: morsel.value for key, morsel in client.cookies.items()}
    return visitors.existing_visitor_id(request)


def link_in_last_mail(pattern=CONFIRM_LINK) -> str:
    match = pattern.search(mail.outbox[-1].body)
    assert match, mail.outbox[-1].body
    return match.group(0)


def new_client(address="198.51.100.20") -> Client:
    return Client(REMOTE_ADDR=address)
