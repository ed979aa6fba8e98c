"""„Mein Bereich“: only the reader's own things, escaped, and sections other apps add."""

import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts import sections, services
from accounts.models import PointEntry, VisitorLink
from feedback.models import ErrorReport, Vote
from rooms.models import Room, Seat
from tests.accounts.conftest import EMAIL, PASSWORD, login, visitor_of, vote

pytestmark = pytest.mark.django_db
URL = "/mein-bereich/"


def test_url_and_login_required(client):
    assert reverse("accounts:my_area") == URL
    response = client.get(URL)
    assert response.status_code == 302
    assert response["Location"] == "/konto/anmelden/?next=/mein-bereich/"


def test_the_header_link_is_the_same_for_everyone(client, reader, game):
    anonymous = client.get(game.get_absolute_url()).content.decode()
    link = r'<a class="nav__account" href="/mein-bereich/"{}>(?:(?!</a>).)*<span class="nav__label">Mein Bereich</span></a>'
    assert re.search(link.format(""), anonymous, re.S)
    login(client)
    html = client.get(URL).content.decode()
    assert re.search(link.format(' aria-current="page"'), html, re.S)


def test_lists_my_votes_reports_rooms_and_points(client, reader, game, other_game):
    services.adopt(reader, "meins")
    Vote.objects.create(game=game, visitor="meins", stars=4)
    ErrorReport.objects.create(
        game=other_game,
        message="Der Geber mischt vor jeder Runde.",
        page_url="http://t/",
        visitor="meins",
        status=ErrorReport.Status.IN_REVIEW,
        section_label="Ablauf",
    )
    room = Room.objects.create(code="abc123", engine="takeaway")
    Seat.objects.create(room=room, number=0, name="Lena", visitor="meins", is_host=True)
    finished = Room.objects.create(code="fertig1", engine="takeaway", status=Room.Status.FINISHED)
    Seat.objects.create(room=finished, number=0, name="Lena", visitor="meins")
    other_game.demo_engine = "takeaway"
    other_game.save()
    services.award("meins", "erste-stimme", game.pk, 5, "Sternspiel")

    login(client)
    response = client.get(URL)
    html = response.content.decode()
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    assert 'name="robots" content="noindex, nofollow"' in html
    assert "Leserin@example.org" in html  # the reader's own address
    # Votes
    assert f'href="{game.get_absolute_url()}#bewertung">Sternspiel</a>' in html
    assert "4 von 5 Sternen" in html
    # Reports with their status and private link
    report = ErrorReport.objects.get()
    assert report.get_status_url() in html
    assert "Mondspiel – Ablauf" in html and "In Prüfung" in html
    # Open rooms only
    assert "/spiele/mondspiel/raum/abc123/" in html
    assert "fertig1" not in html
    assert "als Lena (Gastgeber)" in html
    # Points
    assert '<span class="points-total__number">5</span> Punkte' in html
    assert "Erste Stimme für ein Spiel: Sternspiel" in html


def test_empty_page_explains_how_to_start(client, reader):
    login(client)
    html = client.get(URL).content.decode()
    for text in (
        "Noch keine Punkte.",
        "Gerade sitzt du in keinem Raum.",
        "Du hast noch keinen Fehler gemeldet.",
        "Noch keine Bewertungen.",
    ):
        assert text in html


def test_never_shows_what_belongs_to_others(client, reader, game, django_user_model):
    other = django_user_model.objects.create_user(
        "andere@example.org", "andere@example.org", "Anderes-Konto-77"
    )
    services.adopt(other, "fremd")
    services.adopt(reader, "meins")
    Vote.objects.create(game=game, visitor="fremd", stars=1)
    ErrorReport.objects.create(
        game=game,
        message="Fremde Meldung",
        page_url="http://t/",
        visitor="fremd",
        email="andere@example.org",
    )
    ErrorReport.objects.create(
        game=game,
        message="Meine Meldung",
        page_url="http://t/",
        visitor="meins",
        email="geheim@example.org",
    )
    services.award("fremd", "erste-stimme", game.pk, 5, "Sternspiel")
    login(client)
    html = client.get(URL).content.decode()
    assert "andere@example.org" not in html
    assert "Fremde Meldung" not in html
    assert "Meine Meldung" in html
    # Not even the address typed into one's own report is repeated.
    assert "geheim@example.org" not in html
    assert "Noch keine Punkte." in html and "Noch keine Bewertungen." in html


def test_everything_readers_typed_is_escaped(client, reader, game):
    services.adopt(reader, "meins")
    evil = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    ErrorReport.objects.create(
        game=game, message=evil, page_url="http://t/", visitor="meins", section_label=evil
    )
    room = Room.objects.create(code="abc123", engine="takeaway")
    Seat.objects.create(room=room, number=0, name="<b>Lena</b>", visitor="meins")
    game.demo_engine = "takeaway"
    game.save()
    login(client)
    html = client.get(URL).content.decode()
    assert "<script>alert" not in html and "<img src=x" not in html and "<b>Lena" not in html
    assert "&lt;script&gt;" in html and "&lt;b&gt;Lena&lt;/b&gt;" in html


def test_registered_sections_appear_with_their_data(client, reader, settings):
    templates = settings.TEMPLATES[0]
    settings.TEMPLATES = [
        {**templates, "DIRS": [*templates["DIRS"], Path(__file__).parent / "templates"]}
    ]
    sections.register(
        sections.MyAreaSection(
            key="probe",
            title="Meine Probe",
            template="accounts/tests/probe_section.html",
            context=lambda request: {"who": request.user.email, "raw": "<i>x</i>"},
            order=1,
        )
    )
    sections.register(
        sections.MyAreaSection(
            key="leer", title="Nie zu sehen", template="missing.html", context=lambda r: None
        )
    )
    try:
        login(client)
        html = client.get(URL).content.decode()
    finally:
        sections.unregister("probe")
        sections.unregister("leer")
    assert '<h2 id="bereich-probe-titel">Meine Probe</h2>' in html
    assert "Probe für Leserin@example.org: &lt;i&gt;x&lt;/i&gt;" in html
    assert "Nie zu sehen" not in html
    assert {"probe", "leer"}.isdisjoint(s.key for s in sections.registered())


def test_staff_login_through_the_reader_form_also_works(client, django_user_model):
    django_user_model.objects.create_user("chefin", password="Kartenhaus-7-Lama", is_staff=True)
    response = client.post(
        reverse("accounts:login"), {"username": "Chefin", "password": "Kartenhaus-7-Lama"}
    )
    assert response.status_code == 302
    assert EMAIL not in client.get(URL).content.decode()


def test_deleting_the_account_needs_the_password_and_keeps_votes_anonymous(client, reader, game):
    vote(client, game, 5)  # first vote: +5 waiting on this browser's id
    login(client)
    account_id = visitor_of(client)
    url = reverse("accounts:delete")
    response = client.post(url, {"password": "falsch"})
    assert response.status_code == 200
    assert "Das Passwort stimmt nicht." in response.content.decode()
    response = client.post(url, {"password": PASSWORD})
    assert response.status_code == 200
    assert "Dein Konto ist gelöscht" in response.content.decode()
    assert not get_user_model().objects.exists()
    assert not VisitorLink.objects.exists() and not PointEntry.objects.exists()
    # The vote stays for the average, under an id no browser holds.
    assert Vote.objects.get().stars == 5
    assert Vote.objects.get().visitor.startswith("geloescht-")
    assert visitor_of(client) != account_id
    assert "_auth_user_id" not in client.session
