"""„Meine Daten“: the download holds everything linked to the account, nothing of anyone
else; deleting the account removes or anonymises all of it."""

from __future__ import annotations

import json

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts import services
from accounts.models import PointEntry, VisitorLink
from feedback.models import ErrorReport, Vote
from games.models import DemoGame
from games.play import definition as engines
from groups import services as groups
from groups.models import Answer, Member, PlayGroup, Rsvp
from rooms import lobby, seating
from rooms.models import Room, Seat
from tests.accounts.conftest import EMAIL, PASSWORD, login
from tests.factories import make_game
from tests.groups.conftest import in_days

pytestmark = pytest.mark.django_db
URL = "/mein-bereich/meine-daten.json"


@pytest.fixture
def life(reader, game, other_game):
    """A reader who did one of everything, on two visitor ids, and a stranger who did too."""
    services.adopt(reader, "meins-1")
    services.adopt(reader, "meins-2")
    make_game("takeaway", title="Mitnehmen", demo_engine="takeaway")
    Vote.objects.create(game=game, visitor="meins-1", stars=4)  # first votes: +5 each
    Vote.objects.create(game=other_game, visitor="meins-2", stars=2)
    Vote.objects.create(game=game, visitor="fremd", stars=1)
    ErrorReport.objects.create(
        game=game,
        message="Der Geber mischt vor jeder Runde.",
        email="antwort@example.org",
        page_url="http://testserver/spiele/sternspiel/",
        visitor="meins-2",
    )
    ErrorReport.objects.create(
        game=game, message="Fremde Meldung.", page_url="http://t/", visitor="fremd"
    )
    DemoGame.objects.create(visitor="meins-1", engine="takeaway", settings={"bots": 2})
    DemoGame.objects.create(visitor="fremd", engine="takeaway")
    engine = engines.get("takeaway")
    waiting = lobby.create_room(engine, "fremd", "Gastgeberin", {})
    seating.join(engine, waiting.code, "meins-1", "Lena")
    playing = lobby.create_room(engine, "meins-2", "Lena", {})
    seating.join(engine, playing.code, "fremd", "Ben")
    lobby.start(engine, playing.code, "meins-2")
    group, founder = groups.create_group(
        user=reader, founder_name="Lena", name="Donnerstagsrunde", is_public=False
    )
    ben = Member.objects.create(group=group, name="Ben")
    night = groups.create_night(
        founder, group, starts=[in_days(3), in_days(4)], title="Katzenabend"
    )
    first = night.options.first()
    groups.answer(founder, first, "ja")
    groups.answer(ben, first, "ja")
    groups.fix_date(founder, night, first)
    return {"group": group, "ben": ben, "lobby": waiting, "playing": playing}


def download(client) -> dict:
    response = client.get(URL)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].startswith(
        'attachment; filename="kartenregeln-meine-daten-'
    )
    assert "no-store" in response["Cache-Control"]
    return json.loads(response.content)


def test_the_download_needs_a_login(client):
    response = client.get(URL)
    assert response.status_code == 302
    assert response["Location"].startswith("/konto/anmelden/")


def test_my_area_offers_the_download_and_the_deletion(client, reader):
    login(client)
    html = client.get(reverse("accounts:my_area")).content.decode()
    assert '<h2 id="daten-titel">Meine Daten</h2>' in html
    assert f'href="{URL}" download>Meine Daten herunterladen</a>' in html
    assert reverse("accounts:delete") in html


def test_the_download_holds_everything_linked_and_nothing_else(client, reader, life):
    login(client)
    data = download(client)
    assert data["konto"]["email"] == reader.email and data["konto"]["bestaetigt"] is True
    assert {item["id"] for item in data["besucher_ids"]} >= {"meins-1", "meins-2"}
    assert sorted((v["spiel"], v["sterne"]) for v in data["bewertungen"]) == [
        ("Mondspiel", 2),
        ("Sternspiel", 4),
    ]
    (report,) = data["fehlermeldungen"]
    assert report["text"] == "Der Geber mischt vor jeder Runde."
    assert report["email_fuer_antwort"] == "antwort@example.org"
    assert report["statusseite"].startswith("http://testserver/meldung/")
    assert sorted((p["punkte"], p["beschreibung"]) for p in data["punkte"]) == [
        (5, "Mondspiel"),
        (5, "Sternspiel"),
    ]
    assert sorted((r["name_am_tisch"], r["status"]) for r in data["raeume"]) == [
        ("Lena", "Lobby"),
        ("Lena", "Partie läuft"),
    ]
    (demo,) = data["demo_partien"]
    assert demo["spiel"] == "Mitnehmen" and demo["einstellungen"] == {"bots": 2}
    (membership,) = data["spielegruppen"]
    assert membership["gruppe"] == "Donnerstagsrunde"
    assert membership["rolle"] == "Leitung" and membership["name_in_der_gruppe"] == "Lena"
    assert [a["antwort"] for a in membership["antworten"]] == ["ja"]
    assert [z["kommt"] for z in membership["zusagen"]] == [True]
    assert membership["persoenlicher_link"].startswith("http://testserver/spielegruppen/")
    text = json.dumps(data)
    assert "fremd" not in text and "Fremde Meldung" not in text and "Ben" not in text


def test_deleting_the_account_removes_or_anonymises_everything(client, reader, life):
    ids = services.visitor_ids(reader)
    AccessAttempt.objects.create(
        user_agent="x", ip_address="198.51.100.1", username=EMAIL, http_accept="*/*",
        path_info="/konto/anmelden/", get_data="", post_data="", failures_since_start=1,
    )  # fmt: skip
    report = ErrorReport.objects.get(visitor="meins-2")
    old_status_url = report.get_status_url()
    login(client)
    response = client.post(reverse("accounts:delete"), {"password": PASSWORD})
    assert response.status_code == 200
    assert not get_user_model().objects.exists()
    assert not VisitorLink.objects.exists() and not PointEntry.objects.exists()
    # Gone: demos, seats (the lobby seat left, the running game goes on without it).
    assert list(DemoGame.objects.values_list("visitor", flat=True)) == ["fremd"]
    assert not Seat.objects.filter(visitor__in=ids).exists()
    assert not Seat.objects.filter(room=life["lobby"], name="Lena").exists()
    playing = Room.objects.get(pk=life["playing"].pk)
    assert playing.seats.get(name="Lena").left
    assert playing.seats.get(name="Ben").is_host
    # Kept without the link: the stars and the report text.
    assert Vote.objects.count() == 3
    assert not Vote.objects.filter(visitor__in=ids).exists()
    assert sorted(Vote.objects.values_list("stars", flat=True)) == [1, 2, 4]
    report.refresh_from_db()
    assert report.visitor == "" and report.email == ""
    assert report.message == "Der Geber mischt vor jeder Runde."
    assert Client().get(old_status_url).status_code == 404
    # The group: membership, answers and Zusagen gone; Ben leads it now.
    group = PlayGroup.objects.get(pk=life["group"].pk)
    assert list(group.members.values_list("name", "role")) == [("Ben", Member.Role.FOUNDER)]
    assert list(Answer.objects.values_list("member__name", flat=True)) == ["Ben"]
    assert list(Rsvp.objects.values_list("member__name", flat=True)) == ["Ben"]
    assert not AccessAttempt.objects.exists()
    # Nothing else of the stranger changed.
    assert Vote.objects.filter(visitor="fremd").exists()
    assert ErrorReport.objects.filter(visitor="fremd").exists()
