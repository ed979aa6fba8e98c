"""NUL bytes, German error pages (400, 403, CSRF, 405) and their htmx-friendly message."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_article, make_game

pytestmark = pytest.mark.django_db

ERROR_MESSAGE_MARK = "data-error-message"


def assert_german_error_page(response, status):
    assert response.status_code == status
    html = response.content.decode()
    assert '<html lang="de">' in html
    assert "/static/css/site.css" in html
    assert ERROR_MESSAGE_MARK in html
    assert "Bad Request" not in html and "Forbidden" not in html
    # The strict CSP blocks inline styles: the page must not rely on any.
    assert "<style" not in html and " style=" not in html
    return html


# NUL bytes ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "/sleeve-finder/?q=a%00b",
        "/sleeve-finder/?spiele=the-cat%00",
        "/meldung/%00/",
        "/spiele/%00/",
        "/?q=%00",
        "/?spieler=%00",
    ],
)
def test_nul_in_path_or_query_is_a_german_400(client, url):
    html = assert_german_error_page(client.get(url), 400)
    assert "Nullbyte" in html


def test_nul_in_admin_section_filter_is_rejected(editor_client):
    url = reverse("admin:feedback_errorreport_changelist")
    response = editor_client.get(url, {"abschnitt": "\x00"})
    assert response.status_code == 400


def test_nul_in_form_data_is_rejected(client):
    game = make_game("nullspiel")
    make_article(game)
    url = reverse("feedback:report", args=[game.slug])
    response = client.post(url, {"message": "Fehler\x00 im Text, bitte prüfen", "t": ""})
    assert_german_error_page(response, 400)


def test_nul_in_a_cookie_never_reaches_the_session_query(client):
    client.cookies["sessionid"] = "abcdefgh\x00ijkl"
    assert client.get("/").status_code == 400


def test_ordinary_requests_pass(client):
    assert client.get("/sleeve-finder/?q=katze").status_code == 200
    assert client.get("/?q=100%25").status_code == 200


# Error pages -------------------------------------------------------------------------------


def test_bad_host_gets_the_german_400(client):
    response = client.get("/", headers={"host": "evil.example"})
    assert_german_error_page(response, 400)


def test_bad_host_writes_one_short_log_line_without_traceback(client, capsys):
    capsys.readouterr()
    for path in ("/", "/spielegruppen/", "/konto/anmelden/"):
        assert client.get(path, headers={"host": "evil.example"}).status_code == 400
    lines = capsys.readouterr().err.splitlines()
    assert lines == ["bad Host header refused: 'evil.example'"] * 3


def test_a_long_bad_host_is_shortened_in_the_log(client, capsys):
    capsys.readouterr()
    client.get("/", headers={"host": "x" * 5000 + ".example"})
    (line,) = capsys.readouterr().err.splitlines()
    assert len(line) < 150 and "Traceback" not in line


def test_too_many_fields_log_one_line(client, settings, capsys):
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 100
    capsys.readouterr()
    data = "&".join(f"f{n}=x" for n in range(5000))
    client.post("/spiele/x/bewerten/", data, content_type="application/x-www-form-urlencoded")
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("TooManyFieldsSent refused: ")


def test_too_many_fields_get_the_german_400(client, settings):
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 100
    data = "&".join(f"f{n}=x" for n in range(5000))
    response = client.post(
        "/spiele/x/bewerten/", data, content_type="application/x-www-form-urlencoded"
    )
    assert_german_error_page(response, 400)


def test_too_big_body_gets_the_german_400(client):
    body = "message=" + "x" * (5 * 1024 * 1024)
    response = client.post(
        "/spiele/x/bewerten/", body, content_type="application/x-www-form-urlencoded"
    )
    assert_german_error_page(response, 400)


def test_method_not_allowed_has_a_german_body_and_keeps_allow(client):
    response = client.post("/meldung/irgendwas/")
    html = assert_german_error_page(response, 405)
    assert "Nicht möglich" in html
    assert response["Allow"]


def test_csrf_failure_is_a_german_page_without_inline_style(db):
    game = make_game("csrfspiel")
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("feedback:vote", args=[game.slug]), {"sterne": "3"})
    html = assert_german_error_page(response, 403)
    assert "Seite neu" in html
    assert "Content-Security-Policy" in response


def test_permission_denied_is_german(client):
    from site_config.urls import handler403

    assert handler403 == "site_config.views.permission_denied"
    response = client.get("/admin/feedback/errorreport/", follow=False)
    assert response.status_code == 302  # anonymous: the login, not a bare 403
    from django.test import RequestFactory

    from site_config import views

    request = RequestFactory().get("/")
    response = views.permission_denied(request)
    assert_german_error_page(response, 403)
    assert "Kein Zugriff" in response.content.decode()
