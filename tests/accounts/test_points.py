"""Points: +5 for a game's first vote, +10 for an accepted report; each only once."""

import pytest
from django.contrib.admin.sites import site
from django.test import RequestFactory
from django.urls import reverse

from accounts import services
from accounts.models import PointEntry
from feedback.admin import ErrorReportAdmin
from feedback.models import ErrorReport
from tests.accounts.conftest import login, new_client, vote
from tests.feedback.formdata import form_data

pytestmark = pytest.mark.django_db


def test_the_vote_box_promises_points_while_a_game_has_no_votes(client, game):
    html = client.get(game.get_absolute_url()).content.decode()
    assert "Noch keine Stimmen – Sei der Erste!" in html
    assert "Die erste Stimme bringt +5 Punkte." in html


def test_first_vote_earns_five_points_and_says_so_at_the_vote_box(client, reader, game):
    login(client)
    response = vote(client, game, 4)
    assert "bringt sie dir +5 Punkte – zu sehen in „Mein Bereich“" in response.content.decode()
    entry = PointEntry.objects.get()
    assert (entry.user, entry.points, entry.reason, entry.object_id) == (
        reader,
        5,
        PointEntry.Reason.FIRST_VOTE,
        game.pk,
    )
    assert entry.note == "Sternspiel"


def test_without_an_account_the_points_wait_and_the_box_says_how_to_keep_them(client, game):
    html = vote(client, game, 4).content.decode()
    assert "mit einem Konto sammelst du sie in „Mein Bereich“" in html
    assert PointEntry.objects.get().user is None


def test_changing_the_vote_or_a_later_vote_earns_nothing(client, reader, game):
    login(client)
    vote(client, game, 4)
    html = vote(client, game, 2).content.decode()
    assert "Punkte" not in html.split("bewertung-meldung")[-1]
    second = new_client("198.51.100.99")
    assert "+5" not in vote(second, game, 3).content.decode()
    assert PointEntry.objects.count() == 1
    assert services.points_total(reader) == 5


def test_the_first_vote_earns_once_even_after_all_votes_are_gone(client, game):
    vote(client, game, 4)
    game.votes.all().delete()
    vote(new_client("198.51.100.98"), game, 5)
    assert PointEntry.objects.count() == 1


def accepted_report(game, visitor, **fields):
    return ErrorReport.objects.create(
        game=game,
        message="Die Karte zählt doppelt.",
        page_url="http://t/",
        visitor=visitor,
        **fields,
    )


def set_status_in_admin(editor_client, report, status):
    url = reverse("admin:feedback_errorreport_change", args=[report.pk])
    data = form_data(editor_client.get(url).content.decode(), "errorreport_form")
    data["status"] = status
    data.pop("notify_reader", None)
    assert editor_client.post(url, data).status_code == 302


def test_report_points_only_once_the_editors_accept_it(editor_client, reader, game):
    services.adopt(reader, "leser-id")
    report = accepted_report(game, "leser-id")
    assert services.points_total(reader) == 0  # a report alone earns nothing
    set_status_in_admin(editor_client, report, ErrorReport.Status.IN_REVIEW)
    assert services.points_total(reader) == 0
    set_status_in_admin(editor_client, report, ErrorReport.Status.CORRECTED)
    assert services.points_total(reader) == 10
    # Back and forth does not count twice.
    set_status_in_admin(editor_client, report, ErrorReport.Status.IN_REVIEW)
    set_status_in_admin(editor_client, report, ErrorReport.Status.CORRECTED)
    assert services.points_total(reader) == 10
    assert PointEntry.objects.get().reason == PointEntry.Reason.REPORT_ACCEPTED


def test_rejected_and_spam_reports_earn_nothing(editor_client, reader, game):
    services.adopt(reader, "leser-id")
    rejected = accepted_report(game, "leser-id")
    set_status_in_admin(editor_client, rejected, ErrorReport.Status.REJECTED)
    spam = accepted_report(game, "leser-id", is_spam=True)
    services.award_accepted_reports([spam.pk])
    ErrorReport.objects.filter(pk=spam.pk).update(status=ErrorReport.Status.CORRECTED)
    services.award_accepted_reports([spam.pk])
    assert PointEntry.objects.count() == 0


def test_the_bulk_action_accepts_and_books_points(editor, reader, game):
    services.adopt(reader, "leser-id")
    reports = [accepted_report(game, "leser-id"), accepted_report(game, "fremd")]
    request = RequestFactory().post("/")
    request.user = editor
    admin = ErrorReportAdmin(ErrorReport, site)
    admin.message_user = lambda *args, **kwargs: None
    admin.mark_corrected(request, ErrorReport.objects.filter(pk__in=[r.pk for r in reports]))
    assert services.points_total(reader) == 10
    pending = PointEntry.objects.get(user__isnull=True)
    assert (pending.visitor, pending.points) == ("fremd", 10)
    # Running the action again books nothing more.
    admin.mark_corrected(request, ErrorReport.objects.all())
    assert PointEntry.objects.count() == 2


def test_a_report_sent_from_the_page_carries_the_browser_id(client, reader, game, settings):
    from tests.accounts.conftest import visitor_of

    settings.FEEDBACK_MIN_FILL_SECONDS = 0
    login(client)
    page = client.get(reverse("feedback:report", args=[game.slug]), headers={"HX-Request": "true"})
    data = form_data(page.content.decode(), None)
    data["message"] = "Im Regelheft steht etwas anderes über den Stich."
    client.post(reverse("feedback:report", args=[game.slug]), data)
    assert ErrorReport.objects.get().visitor == visitor_of(client)
