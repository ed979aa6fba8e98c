"""„Mitspieler finden“: the host lists a room, strangers see it on the game page and
site-wide and take a seat by its public code – never by the invite code."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from rooms import public
from rooms.models import Room, Seat
from rooms.public_views import PUBLIC_JOINS_PER_IP
from tests.factories import make_game
from tests.rooms.conftest import Player, room_of, text

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
BOX = "/spiele/alpaka/mitspieler/"


def make_public(player: Player) -> Room:
    room = room_of(player)
    response = player.post("sichtbarkeit/", {"oeffentlich": "1", "version": room.version})
    assert response.status_code == 200
    room.refresh_from_db()
    assert room.is_public
    return room


def box(client: Client, **params):
    return client.get(BOX, params, headers=HX)


def join_url(room: Room) -> str:
    return f"/spiele/alpaka/mitspieler/{room.public_code}/"


@pytest.fixture
def hosted(players, clock):
    """Anna hosts a public Alpaka room; Ben and Cleo are strangers."""
    anna, ben, cleo = players("Anna", "Ben", "Cleo")
    anna.create(variant="englert", target="60")
    return anna, ben, cleo, make_public(anna)


# --- The host's switch ---------------------------------------------------------------------


def test_rooms_are_private_by_default_and_the_host_sees_the_switch(players, clock):
    (anna,) = players("Anna")
    anna.create()
    room = room_of(anna)
    assert not room.is_public and room.public_code is None
    html = text(anna.get())
    assert "Privat:" in html and "Öffentlich machen" in html


def test_the_host_makes_the_room_public_and_private_again(players, clock):
    (anna,) = players("Anna")
    anna.create()
    room = make_public(anna)
    first_code = room.public_code
    assert first_code and first_code != room.code
    assert "Wieder privat machen" in text(anna.get())
    response = anna.post("sichtbarkeit/", {"oeffentlich": "0", "version": room.version})
    assert "Der Raum ist jetzt privat" in text(response)
    room.refresh_from_db()
    assert (room.is_public, room.public_code) == (False, None)
    # Public again: a new public code, so an old list cannot reach the room.
    room = make_public(anna)
    assert room.public_code not in (None, first_code)


def test_only_the_host_may_switch(hosted):
    anna, ben, _cleo, room = hosted
    ben.code = anna.code
    ben.post("beitreten/", {"name": "Ben"})
    room.refresh_from_db()
    response = ben.post("sichtbarkeit/", {"oeffentlich": "0", "version": room.version})
    assert "Das kann nur der Gastgeber." in text(response)
    assert room_of(anna).is_public
    assert "Wieder privat machen" not in text(ben.get())
    assert "Der Raum steht unter „Mitspieler finden“" in text(ben.get())


def test_the_switch_names_the_version_the_host_saw(hosted):
    anna, ben, _cleo, room = hosted
    seen = room.version
    ben.code = anna.code
    ben.post("beitreten/", {"name": "Ben"})  # the room changed since the host's page
    response = anna.post("sichtbarkeit/", {"oeffentlich": "0", "version": seen})
    assert "Inzwischen hat sich im Raum etwas geändert" in text(response)
    assert room_of(anna).is_public
    response = anna.post("sichtbarkeit/", {"oeffentlich": "0"})  # no version at all
    assert room_of(anna).is_public
    current = room_of(anna).version
    anna.post("sichtbarkeit/", {"oeffentlich": "0", "version": current})
    assert not room_of(anna).is_public


def test_the_switch_works_only_in_the_lobby(hosted, seed):
    anna, _ben, _cleo, room = hosted
    anna.post("bot/", {"token": "t1"})
    anna.post("starten/")
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING
    response = anna.post("sichtbarkeit/", {"oeffentlich": "0", "version": room.version})
    assert "Das geht nur in der Lobby" in text(response)


def test_the_switch_without_javascript_redirects_back(hosted):
    anna, _ben, _cleo, room = hosted
    response = anna.post("sichtbarkeit/", {"oeffentlich": "0", "version": room.version}, htmx=False)
    assert response.status_code == 302 and response["Location"].endswith(f"/raum/{anna.code}/")


# --- The list ------------------------------------------------------------------------------


def test_the_box_lists_public_rooms_without_invite_codes(hosted):
    anna, _ben, cleo, room = hosted
    response = box(cleo.client)
    html = text(response)
    assert response.status_code == 200
    assert "bei <strong>Anna</strong>" in html
    assert "1 von 6 Plätzen besetzt, 5 frei" in html
    assert "Regelwerk: Englert-Zusatzregel" in html and "Zielpunktzahl: 60 Punkte" in html
    assert "seit gerade eben" in html
    assert f'action="{join_url(room)}"' in html
    assert room.code not in html
    assert "private" in response["Cache-Control"] and "no-store" in response["Cache-Control"]


def test_private_rooms_are_never_listed(players, clock):
    anna, cleo = players("Anna", "Cleo")
    anna.create()
    html = text(box(cleo.client))
    assert "Gerade wartet kein öffentlicher Raum" in html
    assert "Anna" not in html and anna.code not in html
    assert "Anna" not in text(cleo.client.get("/mitspieler-finden/"))


def test_started_and_full_rooms_are_not_listed(hosted, seed):
    anna, _ben, cleo, room = hosted
    for token in "abcde":  # Alpaka seats six: the host and five bots fill the table
        anna.post("bot/", {"token": token})
    assert Seat.objects.filter(room=room).count() == 6
    assert "bei <strong>Anna</strong>" not in text(box(cleo.client))
    anna.post("bot/entfernen/", {"platz": Seat.objects.filter(is_bot=True).first().pk})
    assert "1 frei" in text(box(cleo.client))
    anna.post("starten/")
    assert room_of(anna).status == Room.Status.PLAYING
    assert "bei <strong>Anna</strong>" not in text(box(cleo.client))
    # No seat to take any more; the running game is listed to watch (rooms.watching).
    page = text(cleo.client.get("/mitspieler-finden/"))
    assert "bei <strong>Anna</strong>" not in page and 'open-room__action" method="post' not in page
    assert f"/zuschauen/{room_of(anna).watch_code}/" in page


def test_rooms_idle_for_an_hour_leave_the_list(hosted, clock):
    _anna, _ben, cleo, _room = hosted
    clock.advance(59 * 60)
    assert "seit 59 Min." in text(box(cleo.client))
    clock.advance(2 * 60)
    assert "bei <strong>Anna</strong>" not in text(box(cleo.client))


def test_the_host_sees_the_own_room_with_a_way_back_instead_of_joining(hosted):
    anna, _ben, _cleo, room = hosted
    html = text(box(anna.client))
    assert "Zu deinem Raum" in html and "Mitspielen<span" not in html
    response = anna.client.get(join_url(room))
    assert response.status_code == 302 and response["Location"].endswith(f"/raum/{anna.code}/")


def test_rooms_of_unpublished_games_are_not_listed(hosted):
    anna, _ben, cleo, room = hosted
    game = make_game("nimm-drei", demo_engine="takeaway", published=False)
    takeaway = Room.objects.create(
        code="geheimgeheimgeh1", engine="takeaway", is_public=True, public_code="oeffi123",
        public_since=room.public_since, last_activity=room.last_activity,
    )  # fmt: skip
    Seat.objects.create(room=takeaway, number=0, name="Zora", visitor="z", is_host=True)
    html = text(cleo.client.get("/mitspieler-finden/"))
    assert "bei <strong>Anna</strong>" in html and "Zora" not in html
    assert cleo.client.get("/spiele/nimm-drei/mitspieler/").status_code == 404
    game.is_published = True
    game.save()
    html = text(cleo.client.get("/mitspieler-finden/"))
    assert "Zora" in html and "Nimm drei" in html


def test_the_game_box_offers_a_new_room_and_the_site_wide_list(hosted):
    _anna, _ben, cleo, _room = hosted
    html = text(box(cleo.client))
    assert 'href="/spiele/alpaka/raum/neu/"' in html
    assert 'href="/mitspieler-finden/"' in html


def test_without_javascript_the_box_is_a_page_of_its_own(hosted):
    _anna, _ben, cleo, room = hosted
    response = cleo.client.get(BOX)
    html = text(response)
    assert "<h1>Mitspieler finden: Alpaka</h1>" in html
    assert "bei <strong>Anna</strong>" in html and room.code not in html
    assert 'content="noindex' in html


def test_the_site_wide_page_lists_every_game(hosted):
    _anna, _ben, cleo, room = hosted
    response = cleo.client.get("/mitspieler-finden/")
    html = text(response)
    assert response.status_code == 200
    assert 'href="/spiele/alpaka/"' in html and "bei <strong>Anna</strong>" in html
    assert room.code not in html
    assert "Selbst einen Raum eröffnen" in html


def test_games_without_rooms_have_no_box(alpaka_game, client):
    make_game("kaetzchen-angeln", demo_engine="kaetzchen")
    assert client.get("/spiele/kaetzchen-angeln/mitspieler/", headers=HX).status_code == 404


def test_the_game_page_loads_the_box_as_a_fragment(alpaka_game, client):
    html = text(client.get("/spiele/alpaka/"))
    assert 'id="mitspieler"' in html
    assert 'hx-get="/spiele/alpaka/mitspieler/" hx-trigger="load"' in html
    # The fallback without JavaScript is a plain link to the same address.
    assert 'href="/spiele/alpaka/mitspieler/"' in html


# --- Polling -------------------------------------------------------------------------------


def version_in(html: str) -> str:
    return re.search(r'data-version="(\w+)"', html).group(1)


def test_an_unchanged_list_answers_204_in_one_query(hosted):
    _anna, _ben, cleo, _room = hosted
    version = version_in(text(box(cleo.client)))
    box(cleo.client, v=version)  # warm up
    with CaptureQueriesContext(connection) as queries:
        response = box(cleo.client, v=version)
    assert response.status_code == 204
    assert len(queries) == 1, [q["sql"] for q in queries]
    assert response.templates == []
    with CaptureQueriesContext(connection) as queries:
        response = cleo.client.get("/mitspieler-finden/", {"v": version}, headers=HX)
    assert response.status_code == 204 and len(queries) == 1


def test_the_list_changes_when_someone_joins_or_time_passes(hosted, clock):
    anna, ben, cleo, _room = hosted
    version = version_in(text(box(cleo.client)))
    ben.code = anna.code
    ben.post("beitreten/", {"name": "Ben"})
    response = box(cleo.client, v=version)
    assert response.status_code == 200
    assert "2 von 6 Plätzen besetzt" in text(response)
    assert "Spielegruppen" not in text(response)  # a poll brings the list alone
    version = version_in(text(response))
    clock.advance(120)
    response = box(cleo.client, v=version)
    assert response.status_code == 200 and "seit 2 Min." in text(response)


def test_the_list_query_uses_the_partial_index(hosted):
    if connection.vendor != "sqlite":
        pytest.skip("EXPLAIN QUERY PLAN is SQLite's")
    definitions = public.room_definitions()
    with CaptureQueriesContext(connection) as queries:
        public.open_rooms(definitions)
    sql = queries[0]["sql"]
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN QUERY PLAN " + sql)
        plan = " ".join(str(row) for row in cursor.fetchall())
    assert "room_public_lobby" in plan, plan


# --- Joining from the list -----------------------------------------------------------------


def test_a_stranger_joins_by_the_public_code(hosted):
    anna, _ben, cleo, room = hosted
    response = cleo.client.post(join_url(room), {"name": "Cleo"})
    assert response.status_code == 302
    assert response["Location"] == f"/spiele/alpaka/raum/{anna.code}/"
    assert [s.name for s in Seat.objects.filter(room=room)] == ["Anna", "Cleo"]
    cleo.code = anna.code
    assert "Cleo" in text(anna.get()) and "Warte, bis Anna die Partie startet" in text(cleo.get())


def test_the_quick_button_asks_for_a_name_once(hosted, players):
    anna, ben, cleo, room = hosted
    response = cleo.client.post(join_url(room))  # „Mitspielen“ without a name
    assert response.status_code == 200
    assert "Dein Name am Tisch" in text(response) and room.code not in text(response)
    assert Seat.objects.filter(room=room).count() == 1
    cleo.client.post(join_url(room), {"name": "Cleo"})
    # Her next room: one click, the remembered name.
    (dora,) = players("Dora")
    dora.create()
    other = make_public(dora)
    assert "Du trittst als „Cleo“ bei." in text(box(cleo.client))
    response = cleo.client.post(join_url(other))
    assert response.status_code == 302
    assert Seat.objects.filter(room=other, name="Cleo").exists()


def test_joining_keeps_the_seat_and_name_rules(hosted):
    anna, ben, cleo, room = hosted
    response = cleo.client.post(join_url(room), {"name": "anna"})
    assert response.status_code == 409
    assert "Den Namen „anna“ gibt es in diesem Raum schon" in text(response)
    assert room.code not in text(response)
    response = cleo.client.post(join_url(room), {"name": "Du"})
    assert "verwenden wir am Tisch selbst" in text(response)
    for token in "abcd":
        anna.post("bot/", {"token": token})
    ben.client.post(join_url(room), {"name": "Ben"})  # the sixth and last seat
    response = cleo.client.post(join_url(room), {"name": "Cleo"})
    assert response.status_code == 409
    assert "Der Raum ist voll" in text(response) and room.code not in text(response)
    assert Seat.objects.filter(room=room).count() == 6


def test_a_private_room_cannot_be_joined_by_an_old_public_code(hosted):
    anna, _ben, cleo, room = hosted
    anna.post("sichtbarkeit/", {"oeffentlich": "0", "version": room.version})
    response = cleo.client.post(join_url(room), {"name": "Cleo"})
    assert response.status_code == 409
    assert "nicht (mehr) öffentlich" in text(response) and room.code not in text(response)
    assert Seat.objects.filter(room=room).count() == 1
    assert cleo.client.get(join_url(room)).status_code == 404


def test_the_invite_code_is_no_public_code(hosted):
    anna, _ben, cleo, room = hosted
    response = cleo.client.post(f"/spiele/alpaka/mitspieler/{room.code}/", {"name": "Cleo"})
    assert response.status_code == 409
    assert Seat.objects.filter(room=room).count() == 1


def test_a_started_room_cannot_be_joined_from_the_list(hosted, seed):
    anna, _ben, cleo, room = hosted
    anna.post("bot/", {"token": "t"})
    anna.post("starten/")
    response = cleo.client.post(join_url(room), {"name": "Cleo"})
    assert response.status_code == 409 and "Die Partie läuft bereits" in text(response)
    assert room.code not in text(response)


def test_public_joins_are_rate_limited(hosted, settings):
    _anna, _ben, cleo, room = hosted
    for _ in range(PUBLIC_JOINS_PER_IP.count):
        cleo.client.post(join_url(room), {"name": "x" * 30})  # refused names still count
    response = cleo.client.post(join_url(room), {"name": "Cleo"})
    assert response.status_code == 429
    assert Seat.objects.filter(room=room).count() == 1


def test_the_join_page_describes_the_room(hosted):
    _anna, _ben, cleo, room = hosted
    html = text(cleo.client.get(join_url(room)))
    assert "Raum von Anna" in html and "Englert-Zusatzregel" in html
    assert room.code not in html


def test_public_since_is_renewed_when_the_room_is_back_in_the_lobby(hosted, seed, clock):
    anna, _ben, _cleo, room = hosted
    anna.post("bot/", {"token": "t"})
    anna.post("starten/")
    clock.advance(600)
    room.refresh_from_db()
    room.status = Room.Status.FINISHED
    room.save()
    anna.post("lobby/", {"version": room.version})
    room.refresh_from_db()
    assert room.status == Room.Status.LOBBY
    assert room.public_since == clock.now
    assert public.waiting_label(room.public_since, clock.now + timedelta(minutes=3)) == (
        "seit 3 Min."
    )


# --- Spielegruppen -------------------------------------------------------------------------


def test_the_box_names_public_groups_that_play_the_game(alpaka_game, client):
    from groups.models import PlayGroup

    listed = PlayGroup.objects.create(
        name="Alpakarunde Süd", slug="alpakarunde-sued", region="Leipzig", is_public=True
    )
    listed.games.add(alpaka_game)
    private = PlayGroup.objects.create(name="Geheimrunde", slug="geheimrunde", is_public=False)
    private.games.add(alpaka_game)
    hidden = PlayGroup.objects.create(
        name="Versteckt", slug="versteckt", is_public=True, is_hidden=True
    )
    hidden.games.add(alpaka_game)
    other = PlayGroup.objects.create(name="Andere", slug="andere", is_public=True)
    html = text(box(client))
    assert "Spielegruppen, die Alpaka spielen" in html
    assert 'href="/spielegruppen/alpakarunde-sued/">Alpakarunde Süd</a>' in html
    assert "Leipzig" in html
    for name in ("Geheimrunde", "Versteckt", other.name):
        assert name not in html
    assert 'href="/spielegruppen/neu/"' in html
