"""Reader error reports: form, spam rules, thank-you and the private status page."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from feedback import services
from feedback.models import ErrorReport
from feedback.services import REPORTS_PER_GAME, REPORTS_PER_IP, REPORTS_PER_IP_AND_GAME
from tests.factories import make_article, make_game

pytestmark = pytest.mark.django_db

XSS = ['<script>alert("x")</script>', '"><img src=x onerror=alert(1)>']


@pytest.fixture
def game():
    game = make_game("fehlerspiel", title="Fehlerspiel")
    make_article(game)
    return game


def report_url(game):
    return reverse("feedback:report", args=[game.slug])


def open_form(client, game, **params):
    """GET the form as htmx does; returns the rendered form's fields."""
    response = client.get(report_url(game), params, headers={"HX-Request": "true"})
    assert response.status_code == 200
    html = response.content.decode()
    timestamp = re.search(r'name="t" value="([^"]+)"', html).group(1)
    return html, timestamp


def post_report(client, game, moving_clock, wait=10, htmx=True, **fields):
    _, timestamp = open_form(client, game)
    moving_clock.advance(wait)
    data = {
        "section_kind": "ziel",
        "message": "Auf S. 2 steht, dass der Rufer null Punkte bekommt.",
        "rulebook_reference": "S. 2",
        "email": "",
        "website": "",
        "t": timestamp,
        "fassung": "1",
    }
    data.update(fields)
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(report_url(game), data, headers=headers)


# The form -------------------------------------------------------------------


def test_game_page_has_report_box_and_a_link_per_section(client, game):
    html = client.get(game.get_absolute_url()).content.decode()
    assert "Fehler entdeckt?" in html
    assert 'id="fehler-melden"' in html
    # Each section heading (and the glance box) offers a pre-filled form, with and without JS.
    for kind in ("ziel", "ablauf", "beispiel", "irrtuemer", "auf-einen-blick"):
        assert f'href="?abschnitt={kind}#fehler-melden"' in html
        assert f'{report_url(game)}?abschnitt={kind}"' in html
    assert "im Abschnitt „Ziel des Spiels“" in html  # accessible name names the section
    assert '<form id="fehler-melden-inhalt"' not in html  # closed until asked for


def test_form_opens_on_the_game_page_without_javascript(client, game):
    html = client.get(game.get_absolute_url(), {"abschnitt": "ablauf"}).content.decode()
    assert '<form id="fehler-melden-inhalt"' in html
    assert '<option value="ablauf" selected>' in html
    assert 'name="fassung" value="1"' in html  # the article version goes along


def test_htmx_get_returns_only_the_prefilled_form(client, game):
    html, _ = open_form(client, game, abschnitt="irrtuemer")
    assert html.lstrip().startswith('<form id="fehler-melden-inhalt"')
    assert "<html" not in html
    assert '<option value="irrtuemer" selected>' in html
    # Honeypot: off-screen, hidden from assistive technology, not focusable, no autofill.
    hp = re.search(r'<div class="report-form__hp" aria-hidden="true">.*?</div>', html, re.S)
    assert hp and 'tabindex="-1"' in hp.group(0) and 'autocomplete="off"' in hp.group(0)


def test_plain_get_of_the_form_url_redirects_to_the_open_form_on_the_page(client, game):
    response = client.get(report_url(game), {"abschnitt": "ziel"})
    assert response.status_code == 302
    assert response["Location"] == "/spiele/fehlerspiel/?abschnitt=ziel#fehler-melden"


def test_unknown_section_in_the_link_is_ignored(client, game):
    html, _ = open_form(client, game, abschnitt="<script>")
    assert 'value="" selected' in html
    assert "<script>" not in html


def test_unpublished_game_has_no_form_for_the_public(client):
    draft = make_game("geheim", published=False)
    assert client.get(report_url(draft), headers={"HX-Request": "true"}).status_code == 404


@pytest.mark.parametrize(
    ("fields", "error"),
    [
        ({"message": ""}, "Bitte schreib uns, was nicht stimmt."),
        ({"message": "kurz"}, "etwas genauer"),
        ({"message": "x" * 2001}, "höchstens 2000 Zeichen"),
        ({"rulebook_reference": "y" * 301}, "Höchstens 300 Zeichen"),
        ({"email": "keine-adresse"}, "nicht gültig"),
        ({"section_kind": "erfunden"}, "Abschnitt aus der Liste"),
    ],
)
def test_validation_errors_are_shown_in_place_and_nothing_is_stored(
    client, game, moving_clock, fields, error
):
    response = post_report(client, game, moving_clock, **fields)
    html = response.content.decode()
    assert response.status_code == 200
    assert error in html
    assert 'aria-invalid="true"' in html or "Abschnitt" in error
    assert "Bitte prüfe die markierten Felder." in html
    assert ErrorReport.objects.count() == 0


def test_validation_errors_without_javascript_render_a_page_keeping_the_text(
    client, game, moving_clock
):
    response = post_report(
        client, game, moving_clock, htmx=False, message="kurz", rulebook_reference="S. 7"
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "<h1" in html and "Fehler melden: Fehlerspiel" in html
    assert 'value="S. 7"' in html
    assert ">kurz</textarea>" in html


# Sending ---------------------------------------------------------------------


def test_htmx_send_thanks_in_place_with_private_status_link(client, game, moving_clock):
    response = post_report(client, game, moving_clock, email="leser@example.org")
    html = response.content.decode()
    report = ErrorReport.objects.get()
    assert "Danke! Dein Hinweis ist angekommen." in html
    assert 'role="status"' in html and "autofocus" in html
    assert f"http://testserver/meldung/{report.token}/" in html
    assert "schreiben wir dir außerdem eine E-Mail" in html
    assert not report.is_spam, report.spam_reasons
    assert report.section_kind == "ziel" and report.section_label == "Ziel des Spiels"
    assert report.page_url == "http://testserver/spiele/fehlerspiel/#ziel"
    assert report.article_version == 1
    assert report.email == "leser@example.org"
    assert report.fill_seconds == 10


def test_send_without_javascript_redirects_to_the_status_page_with_thanks(
    client, game, moving_clock
):
    response = post_report(client, game, moving_clock, htmx=False)
    report = ErrorReport.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/meldung/{report.token}/?neu=1"
    html = client.get(response["Location"]).content.decode()
    assert "Danke! Dein Hinweis ist angekommen." in html
    assert "Eingegangen" in html


def test_tampered_article_version_does_not_lose_the_report(client, game, moving_clock):
    post_report(client, game, moving_clock, fassung="drei")
    assert ErrorReport.objects.get().article_version is None


# Spam rules: stored as spam, the sender sees exactly the same thanks ----------


def _assert_silent_spam(response, reason):
    html = response.content.decode()
    assert "Danke! Dein Hinweis ist angekommen." in html
    report = ErrorReport.objects.order_by("-pk").first()
    assert report.is_spam
    assert reason in report.spam_reasons
    assert "Spam" not in html and reason not in html


def test_honeypot_marks_spam_silently(client, game, moving_clock):
    response = post_report(client, game, moving_clock, website="https://billig.example")
    _assert_silent_spam(response, "Honeypot")


def test_too_fast_marks_spam_silently(client, game, moving_clock):
    response = post_report(client, game, moving_clock, wait=1)
    _assert_silent_spam(response, "zu schnell")


def test_minimum_fill_time_is_configurable(client, game, moving_clock, settings):
    settings.FEEDBACK_MIN_FILL_SECONDS = 0.5
    post_report(client, game, moving_clock, wait=1)
    assert not ErrorReport.objects.get().is_spam


@pytest.mark.parametrize("timestamp", ["", "1700000000", "gefälscht:abc"])
def test_missing_or_forged_timestamp_marks_spam(client, game, moving_clock, timestamp):
    response = post_report(client, game, moving_clock, t=timestamp)
    _assert_silent_spam(response, "Zeitstempel")


@pytest.mark.parametrize(
    "text",
    [
        "Siehe https://a.example/x und https://b.example/y für Details",
        "Kauf hier www.billig.example oder bei [url=http://x.example]x[/url]",
        'Klick <a href="http://x.example">hier</a> oder spam.xyz',
    ],
)
def test_more_than_one_link_marks_spam(client, game, moving_clock, text):
    response = post_report(client, game, moving_clock, message=text)
    _assert_silent_spam(response, "Links")


def test_one_link_is_fine(client, game, moving_clock):
    post_report(
        client,
        game,
        moving_clock,
        message="Die Verlags-PDF sagt es anders: https://amigo.example/regel.pdf",
    )
    assert not ErrorReport.objects.get().is_spam


def test_links_in_the_rulebook_field_are_counted_too(client, game, moving_clock):
    post_report(
        client,
        game,
        moving_clock,
        message="Siehe https://a.example",
        rulebook_reference="und https://b.example",
    )
    assert ErrorReport.objects.get().is_spam


def test_count_links():
    assert services.count_links("https://www.x.com/a?b=c") == 1
    assert services.count_links("S. 2, Absatz 3 – z. B. so.") == 0
    assert services.count_links("a.com b.ru", "http://c") == 3


def test_rate_limit_per_ip_and_game(client, game, moving_clock):
    for _ in range(REPORTS_PER_IP_AND_GAME.count):
        post_report(client, game, moving_clock)
    assert not ErrorReport.objects.filter(is_spam=True).exists()
    response = post_report(client, game, moving_clock)
    _assert_silent_spam(response, "Ratenlimit je IP und Spiel")
    # Another reader (another IP) is not affected.
    other = Client(REMOTE_ADDR="203.0.113.9")
    post_report(other, game, moving_clock)
    assert not ErrorReport.objects.order_by("-pk").first().is_spam


def test_rate_limit_per_ip_across_games(client, moving_clock):
    games = [make_game(f"spiel-{n}") for n in range(4)]
    for n in range(REPORTS_PER_IP.count):
        post_report(client, games[n % 4], moving_clock, section_kind="")
    assert ErrorReport.objects.filter(is_spam=False).count() == REPORTS_PER_IP.count
    response = post_report(client, games[0], moving_clock, section_kind="")
    _assert_silent_spam(response, "Ratenlimit je IP")


def test_rate_limit_per_game_across_ips_holds_for_review(game, moving_clock):
    for n in range(REPORTS_PER_GAME.count):
        post_report(Client(REMOTE_ADDR=f"198.51.100.{n}"), game, moving_clock)
    assert not ErrorReport.objects.filter(is_spam=True).exists()
    response = post_report(Client(REMOTE_ADDR="198.51.100.250"), game, moving_clock)
    assert "Danke! Dein Hinweis ist angekommen." in response.content.decode()
    report = ErrorReport.objects.order_by("-pk").first()
    # Not buried as spam: held for an editor (tests/feedback/test_spam_limits.py has more).
    assert not report.is_spam
    assert report.status == ErrorReport.Status.HELD


def test_a_flood_is_not_even_stored_but_looks_the_same(client, moving_clock, monkeypatch):
    monkeypatch.setattr(services, "REPORTS_FLOOD_PER_IP", services.Limit("report-flood", 3, 3600))
    game = make_game("flut")
    for _ in range(3):
        post_report(client, game, moving_clock, section_kind="")
    response = post_report(client, game, moving_clock, section_kind="")
    assert ErrorReport.objects.count() == 3
    html = response.content.decode()
    assert "Danke! Dein Hinweis ist angekommen." in html
    assert "/meldung/" in html


# Status page -------------------------------------------------------------------


def test_status_token_is_long_random_and_unique(client, game, moving_clock):
    tokens = {services_token() for _ in range(200)}
    assert len(tokens) == 200
    assert all(len(token) >= 43 for token in tokens)  # 32 random bytes, base64url


def services_token():
    from feedback.models import new_status_token

    return new_status_token()


def test_status_page_needs_the_exact_token(client, game, moving_clock):
    post_report(client, game, moving_clock)
    report = ErrorReport.objects.get()
    assert client.get(f"/meldung/{report.token[:-1]}/").status_code == 404
    assert client.get(f"/meldung/{report.token}x/").status_code == 404
    assert client.get(f"/meldung/{report.pk}/").status_code == 404
    response = client.get(f"/meldung/{report.token}/")
    assert response.status_code == 200
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]
    assert '<meta name="robots" content="noindex, nofollow">' in response.content.decode()


@pytest.mark.parametrize(
    ("status", "label"),
    [
        (ErrorReport.Status.NEW, "eingegangen"),
        (ErrorReport.Status.IN_REVIEW, "in Prüfung"),
        (ErrorReport.Status.CORRECTED, "korrigiert"),
        (ErrorReport.Status.REJECTED, "abgelehnt"),
    ],
)
def test_status_page_shows_status_and_public_answer_but_not_internal_note(
    client, game, status, label
):
    report = ErrorReport.objects.create(
        game=game,
        message="Die Punkte stimmen nicht.",
        page_url="http://testserver/spiele/fehlerspiel/",
        email="leser@example.org",
        status=status,
        public_answer="Danke, ist korrigiert." if status != ErrorReport.Status.NEW else "",
        internal_note="Nur intern: Regelheft S. 2 geprüft.",
    )
    html = client.get(report.get_status_url()).content.decode()
    assert f"Aktueller Stand: <strong>{label}</strong>" in html
    assert 'aria-current="step"' in html
    if report.public_answer:
        assert "Antwort der Redaktion" in html and "Danke, ist korrigiert." in html
    assert "Nur intern" not in html
    assert "leser@example.org" not in html  # the address is never shown back


@pytest.mark.parametrize("payload", XSS)
def test_reader_text_is_escaped_on_thanks_and_status_page(client, game, moving_clock, payload):
    response = post_report(
        client,
        game,
        moving_clock,
        message=f"Falsch: {payload}",
        rulebook_reference=payload,
        email="",
    )
    assert "<script>alert" not in response.content.decode()
    report = ErrorReport.objects.get()
    report.public_answer = f"Antwort {payload}"
    report.section_label = payload  # even a label from our own list is escaped
    report.save()
    html = client.get(report.get_status_url()).content.decode()
    assert "<script>alert" not in html
    assert "<img src=x" not in html
    assert "&lt;script&gt;" in html or "&lt;img" in html
    assert html.count("&lt;") >= 4  # message, reference, answer, section label


def test_status_page_steps_for_rejected_end_in_rejected(client, game):
    report = ErrorReport.objects.create(
        game=game, message="x" * 10, page_url="http://t/", status=ErrorReport.Status.REJECTED
    )
    html = client.get(report.get_status_url()).content.decode()
    assert "Abgelehnt" in html and "Korrigiert" not in html
