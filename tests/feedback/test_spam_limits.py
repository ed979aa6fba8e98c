"""Floods must not bury genuine reports; the fill-time token is single-use and expires."""

import pytest
from django.test import Client
from django.urls import reverse

from feedback.models import ErrorReport
from feedback.services import REPORTS_PER_GAME
from tests.factories import make_article, make_game
from tests.feedback.test_reports import open_form, post_report, report_url

pytestmark = pytest.mark.django_db

GENUINE = "Auf S. 4 steht, dass man nach dem Stich eine Karte nachzieht."


@pytest.fixture
def game():
    game = make_game("flutspiel", title="Flutspiel")
    make_article(game)
    return game


def latest():
    return ErrorReport.objects.order_by("-pk").first()


def test_a_flooding_address_does_not_push_another_readers_report_into_spam(game, moving_clock):
    flooder = Client(REMOTE_ADDR="198.51.100.66")
    for _ in range(65):
        post_report(flooder, game, moving_clock)
    reader = Client(REMOTE_ADDR="203.0.113.5")
    response = post_report(reader, game, moving_clock, wait=6, message=GENUINE)
    assert "Danke! Dein Hinweis ist angekommen." in response.content.decode()
    report = latest()
    assert report.message == GENUINE
    assert not report.is_spam, report.spam_reasons
    assert report.status == ErrorReport.Status.NEW


def test_spam_from_many_addresses_does_not_use_up_the_per_game_limit(game, moving_clock):
    for n in range(REPORTS_PER_GAME.count + 20):
        # Bots: too fast, from ever new addresses.
        post_report(Client(REMOTE_ADDR=f"192.0.2.{n}"), game, moving_clock, wait=0)
    assert ErrorReport.objects.filter(is_spam=True).count() == REPORTS_PER_GAME.count + 20
    post_report(Client(REMOTE_ADDR="203.0.113.5"), game, moving_clock, message=GENUINE)
    report = latest()
    assert not report.is_spam
    assert report.status == ErrorReport.Status.NEW


def test_over_the_per_game_limit_a_report_is_held_for_editors_not_spam(
    game, moving_clock, editor_client
):
    for n in range(REPORTS_PER_GAME.count):
        post_report(Client(REMOTE_ADDR=f"198.51.100.{n}"), game, moving_clock)
    reader = Client(REMOTE_ADDR="203.0.113.5")
    response = post_report(reader, game, moving_clock, htmx=False, message=GENUINE)
    report = latest()
    assert report.message == GENUINE
    assert not report.is_spam
    assert report.status == ErrorReport.Status.HELD
    assert "Zurückgehalten" in report.internal_note

    # Editors see it in the default list and on the admin index.
    changelist = editor_client.get(reverse("admin:feedback_errorreport_changelist")).content
    assert GENUINE[:40].encode() in changelist
    index = editor_client.get(reverse("admin:index")).content.decode()
    assert "1 zurückgehaltene Meldung" in index

    # The reader just sees a received report.
    status = reader.get(response["Location"]).content.decode()
    assert "eingegangen" in status
    assert "zu prüfen" not in status


def test_fill_time_token_is_single_use(game, moving_clock):
    _, token = open_form(Client(), game)
    moving_clock.advance(10)
    data = {"section_kind": "", "message": GENUINE, "t": token, "website": "", "email": ""}
    Client(REMOTE_ADDR="203.0.113.1").post(report_url(game), data)
    assert not latest().is_spam
    Client(REMOTE_ADDR="203.0.113.2").post(report_url(game), data)
    assert latest().is_spam
    assert "schon benutzt" in latest().spam_reasons


def test_fill_time_token_expires(game, moving_clock):
    response = post_report(Client(), game, moving_clock, wait=7 * 60 * 60)
    assert "Danke!" in response.content.decode()
    assert latest().is_spam
    assert "abgelaufen" in latest().spam_reasons


def test_a_form_with_errors_keeps_its_token_usable(game, moving_clock):
    client = Client()
    _, token = open_form(client, game)
    moving_clock.advance(10)
    data = {"section_kind": "", "message": "kurz", "t": token, "website": "", "email": ""}
    response = client.post(report_url(game), data, headers={"HX-Request": "true"})
    assert "Bitte prüfe die markierten Felder" in response.content.decode()
    data["message"] = GENUINE
    client.post(report_url(game), data, headers={"HX-Request": "true"})
    assert not latest().is_spam
