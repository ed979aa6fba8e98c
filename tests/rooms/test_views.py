"""Every room action over HTTP, and every way it can be refused."""

from __future__ import annotations

import pytest
from django.test import Client

from games.engines import alpaka
from rooms import locked
from rooms.models import Room, Seat
from tests.rooms.conftest import action_value, legal, room_of, text

pytestmark = pytest.mark.django_db


# --- Creating a room -------------------------------------------------------------------


def test_create_form_offers_rule_set_and_target(alpaka_game, client):
    html = text(client.get("/spiele/alpaka/raum/neu/"))
    assert "Raum eröffnen" in html
    for label in (
        "Klassisch",
        "Englert-Zusatzregel",
        "20 Punkte",
        "40 Punkte",
        "60 Punkte",
        "80 Punkte",
    ):
        assert label in html


def test_create_makes_a_lobby_with_the_host_and_an_unguessable_code(players, clock):
    (anna,) = players("Anna")
    code = anna.create(variant="englert", target="60")
    room = Room.objects.get(code=code)
    assert room.status == Room.Status.LOBBY
    assert room.options == {"variant": "englert", "target": 60}
    assert len(code) >= 16  # token_urlsafe(12): 96 random bits
    host = room.seats.get()
    assert (host.name, host.is_host, host.is_bot, host.number) == ("Anna", True, False, 0)
    html = text(anna.get())
    assert "Einladen" in html and f"/spiele/alpaka/raum/{code}/" in html
    assert "Link kopieren" in html


def test_codes_differ_between_rooms(players, clock):
    anna, ben = players("Anna", "Ben")
    assert anna.create() != ben.create()


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "Bitte gib einen Namen ein"),
        ("   ", "Bitte gib einen Namen ein"),
        ("x" * 25, "Der Name ist zu lang: höchstens 24 Zeichen"),
        ("Anna\u0007", "unzulässige Zeichen"),
    ],
)
def test_create_refuses_bad_names(alpaka_game, client, name, message):
    response = client.post(
        "/spiele/alpaka/raum/neu/", {"name": name, "variant": "klassisch", "target": "40"}
    )
    assert response.status_code == 200
    assert message in text(response)
    assert not Room.objects.exists()


@pytest.mark.parametrize(("field", "value"), [("variant", "schnell"), ("target", "50")])
def test_create_refuses_unknown_options(alpaka_game, client, field, value):
    data = {"name": "Anna", "variant": "klassisch", "target": "40", field: value}
    response = client.post("/spiele/alpaka/raum/neu/", data)
    assert "Ungültige Auswahl" in text(response)
    assert not Room.objects.exists()


def test_create_trims_and_collapses_whitespace(players, clock):
    (anna,) = players("  Anna   Maria ")
    anna.create()
    assert Seat.objects.get().name == "Anna Maria"


def test_games_without_rooms_have_no_room_pages(alpaka_game, client):
    assert client.get("/spiele/kaetzchen-angeln/raum/neu/").status_code == 404


# --- The room page ----------------------------------------------------------------------


def test_unknown_room_is_a_german_404(alpaka_game, client):
    response = client.get("/spiele/alpaka/raum/gibtesnichtxxxxx/")
    assert response.status_code == 404
    assert "Diesen Raum gibt es nicht" in text(response)
    assert "Neuen Raum eröffnen" in text(response)


def test_actions_on_an_unknown_room_say_so(alpaka_game, client):
    response = client.post(
        "/spiele/alpaka/raum/gibtesnichtxxxxx/beitreten/",
        {"name": "Ben"},
        headers={"HX-Request": "true"},
    )
    assert "Diesen Raum gibt es nicht" in text(response)


def test_room_pages_are_not_indexed_and_not_cached(players, clock):
    (anna,) = players("Anna")
    anna.create()
    response = anna.get()
    assert 'name="robots" content="noindex' in text(response)
    assert "no-cache" in response["Cache-Control"] or "no-store" in response["Cache-Control"]


# --- Joining ---------------------------------------------------------------------------------


def test_guest_sees_the_join_form_and_joins(players, clock):
    anna, ben = players("Anna", "Ben")
    anna.create()
    ben.code = anna.code
    assert "Mitspielen" in text(ben.get())
    version = room_of(anna).version
    html = text(ben.post("beitreten/", {"name": "Ben"}))
    assert "Ben" in html and "Warte, bis Anna die Partie startet" in html
    assert room_of(anna).version == version + 1
    assert list(room_of(anna).seats.values_list("name", "number")) == [("Anna", 0), ("Ben", 1)]
    # Everyone sees who is there.
    assert "Ben" in text(anna.get())


def test_reload_and_a_new_tab_rejoin_the_same_seat(players, clock):
    anna, ben = players("Anna", "Ben")
    anna.create()
    ben.code = anna.code
    ben.post("beitreten/", {"name": "Ben"})
    second_tab = Client()
    second_tab.cookies = ben.client.cookies  # same browser, same cookies
    html = text(second_tab.get(ben.url()))
    assert "Mitspielen" not in html
    assert "player--me" in html and "Warte, bis Anna" in html
    assert "Du sitzt schon an diesem Tisch" in text(ben.post("beitreten/", {"name": "Benjamin"}))
    assert room_of(anna).seats.count() == 2


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("anna", "Den Namen „anna“ gibt es in diesem Raum schon"),
        ("", "Bitte gib einen Namen ein"),
        ("B" * 30, "Der Name ist zu lang"),
    ],
)
def test_join_refuses_bad_or_taken_names(players, clock, name, message):
    anna, ben = players("Anna", "Ben")
    anna.create()
    ben.code = anna.code
    version = room_of(anna).version
    assert message in text(ben.post("beitreten/", {"name": name}))
    assert room_of(anna).seats.count() == 1
    assert room_of(anna).version == version


def test_join_refuses_a_full_room(players, clock):
    host, *guests = players("Anna", "B", "C", "D", "E", "F", "Gert")
    host.create()
    for guest in guests:
        guest.code = host.code
    for guest in guests[:5]:
        guest.post("beitreten/", {"name": guest.name})
    assert room_of(host).seats.count() == 6
    html = text(guests[5].post("beitreten/", {"name": "Gert"}))
    assert "Der Raum ist voll" in html
    assert room_of(host).seats.count() == 6
    assert "Der Raum ist voll" in text(guests[5].get())


def test_join_refuses_a_started_game_and_offers_watching(table, players):
    anna, _ben = table
    (cara,) = players("Cara")
    cara.code = anna.code
    html = text(cara.post("beitreten/", {"name": "Cara"}))
    assert "Die Partie läuft bereits" in html
    assert room_of(anna).seats.count() == 2
    page = text(cara.get())
    assert "du schaust zu" in page
    assert "Deine Hand" not in page


# --- Lobby settings and bots ------------------------------------------------------------------


def test_host_changes_rule_set_and_target(players, clock):
    anna, ben = players("Anna", "Ben")
    anna.create()
    ben.code = anna.code
    ben.post("beitreten/", {"name": "Ben"})
    html = text(anna.post("einstellungen/", {"variant": "englert", "target": "80"}))
    assert "Einstellungen übernommen" in html
    assert room_of(anna).options == {"variant": "englert", "target": 80}
    assert "Englert-Zusatzregel" in text(ben.get()) and "80 Punkte" in text(ben.get())


def test_only_the_host_changes_settings(players, clock):
    anna, ben = players("Anna", "Ben")
    anna.create()
    ben.code = anna.code
    ben.post("beitreten/", {"name": "Ben"})
    assert "Das kann nur der Gastgeber" in text(ben.post("einstellungen/", {"target": "20"}))
    assert room_of(anna).options["target"] == 40


def test_settings_refuse_unknown_values(players, clock):
    (anna,) = players("Anna")
    anna.create()
    assert "Ungültige Auswahl" in text(anna.post("einstellungen/", {"target": "1000"}))
    assert room_of(anna).options["target"] == 40


def test_settings_are_fixed_once_the_game_runs(table):
    anna, _ben = table
    assert "Das geht nur in der Lobby" in text(anna.post("einstellungen/", {"target": "20"}))
    assert room_of(anna).options["target"] == 40


def test_host_adds_and_removes_bots(players, clock):
    (anna,) = players("Anna")
    anna.create()
    anna.post("bot/", {"token": "t1"})
    anna.post("bot/", {"token": "t2"})
    bots = list(room_of(anna).seats.filter(is_bot=True))
    assert [b.name for b in bots] == ["Flocke", "Paco"]
    html = text(anna.get())
    assert "Flocke" in html and "Bot" in html
    anna.post("bot/entfernen/", {"platz": bots[0].pk})
    assert list(room_of(anna).seats.filter(is_bot=True).values_list("name", flat=True)) == ["Paco"]


def test_a_repeated_add_bot_request_adds_one_bot(players, clock):
    (anna,) = players("Anna")
    anna.create()
    anna.post("bot/", {"token": "same"})
    anna.post("bot/", {"token": "same"})
    assert room_of(anna).seats.filter(is_bot=True).count() == 1


def test_bots_never_take_a_human_name(players, clock):
    anna, flocke = players("Anna", "flocke")
    anna.create()
    flocke.code = anna.code
    flocke.post("beitreten/", {"name": "flocke"})
    anna.post("bot/", {"token": "a"})
    assert room_of(anna).seats.get(is_bot=True).name == "Paco"


def test_bot_controls_are_for_the_host_only(players, clock):
    anna, ben = players("Anna", "Ben")
    anna.create()
    ben.code = anna.code
    ben.post("beitreten/", {"name": "Ben"})
    assert "Das kann nur der Gastgeber" in text(ben.post("bot/", {"token": "x"}))
    anna.post("bot/", {"token": "y"})
    bot = room_of(anna).seats.get(is_bot=True)
    assert "Das kann nur der Gastgeber" in text(ben.post("bot/entfernen/", {"platz": bot.pk}))
    assert room_of(anna).seats.count() == 3


def test_only_bots_can_be_removed_and_only_existing_ones(players, clock):
    anna, ben = players("Anna", "Ben")
    anna.create()
    ben.code = anna.code
    ben.post("beitreten/", {"name": "Ben"})
    human = room_of(anna).seats.get(name="Ben")
    assert "Nur Bots" in text(anna.post("bot/entfernen/", {"platz": human.pk}))
    assert "gibt es nicht" in text(anna.post("bot/entfernen/", {"platz": "999999"}))
    assert room_of(anna).seats.count() == 2


def test_no_bot_beyond_six_seats(players, clock):
    (anna,) = players("Anna")
    anna.create()
    for n in range(5):
        anna.post("bot/", {"token": f"t{n}"})
    assert "Der Raum ist voll" in text(anna.post("bot/", {"token": "t9"}))
    assert room_of(anna).seats.count() == 6
    assert "Der Tisch ist voll." in text(anna.get())


# --- Starting -----------------------------------------------------------------------------------


def test_start_needs_two_players(players, clock):
    (anna,) = players("Anna")
    anna.create()
    page = text(anna.get())
    assert "mindestens 2 Spieler" in page and "disabled" in page
    assert "mindestens 2 Spieler" in text(anna.post("starten/", {}))
    assert room_of(anna).status == Room.Status.LOBBY


def test_host_starts_with_a_bot(players, clock, seed):
    (anna,) = players("Anna")
    anna.create(variant="englert", target="20")
    anna.post("bot/", {"token": "b"})
    html = text(anna.post("starten/", {}))
    room = room_of(anna)
    assert room.status == Room.Status.PLAYING
    assert room.state["variant"] == "englert" and room.state["target"] == 20
    assert room.state["names"] == ["Anna", "Flocke"]
    assert "Deine Hand" in html and "Englert-Zusatzregel" in html
    # Seat 1 (the bot) starts: its move is due about a second later, no human deadline.
    assert room.deadline is None
    assert room.bot_due is not None


def test_only_the_host_starts_and_a_repeated_start_changes_nothing(players, clock, seed):
    anna, ben = players("Anna", "Ben")
    anna.create()
    ben.code = anna.code
    ben.post("beitreten/", {"name": "Ben"})
    assert "Das kann nur der Gastgeber" in text(ben.post("starten/", {}))
    assert room_of(anna).status == Room.Status.LOBBY
    anna.post("starten/", {})
    version = room_of(anna).version
    state = room_of(anna).state
    assert "Die Partie läuft bereits" in text(anna.post("starten/", {}))
    assert room_of(anna).version == version and room_of(anna).state == state


def test_start_shows_the_turn_and_a_90_second_clock(table):
    anna, ben = table
    ben_html = text(ben.get())
    assert "Deine Zugzeit" in ben_html and 'data-countdown="90"' in ben_html and "1:30" in ben_html
    assert "Du bist am Zug" in ben_html
    anna_html = text(anna.get())
    assert "Zugzeit von Ben" in anna_html and "Ben ist am Zug" in anna_html


# --- Playing ------------------------------------------------------------------------------------------


def test_a_legal_play_applies_once(table):
    anna, ben = table
    room = room_of(ben)
    action = next(a for a in legal(ben, 1) if a["type"] == "play")
    html = text(ben.post("aktion/", {"version": room.version, "aktion": action_value(action)}))
    after = room_of(ben)
    assert after.version == room.version + 1
    assert after.state["discard"][-1] == action["card"]
    assert after.state["turn"] == 0
    assert (
        f"Du legst {'ein Alpaka' if action['card'] == 'A' else 'eine ' + action['card']}." in html
    )
    # The very same request again (double click, resent form) changes nothing.
    again = text(ben.post("aktion/", {"version": room.version, "aktion": action_value(action)}))
    assert locked.STALE in again
    assert room_of(ben).version == after.version and room_of(ben).state == after.state


def test_drawing_and_quitting(table):
    anna, ben = table
    room = room_of(ben)
    ben.post("aktion/", {"version": room.version, "aktion": "draw"})
    room = room_of(ben)
    assert len(room.state["hands"][1]) == 7 and room.state["turn"] == 0
    html = text(anna.post("aktion/", {"version": room.version, "aktion": "quit"}))
    assert "Du steigst aus." in html
    room = room_of(anna)
    assert room.state["quit"][0] is True


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"aktion": "dance"}, "Unbekannte Aktion"),
        ({"aktion": "play:9"}, "Unbekannte Aktion"),
        ({"aktion": "continue"}, "bestätigen kannst du erst bei der Wertung"),
    ],
)
def test_unknown_or_untimely_actions_change_nothing(table, data, message):
    _anna, ben = table
    room = room_of(ben)
    assert message in text(ben.post("aktion/", {"version": room.version, **data}))
    assert room_of(ben).version == room.version and room_of(ben).state == room.state


def test_a_card_that_does_not_fit_or_is_not_in_hand_is_refused(table):
    _anna, ben = table
    room = room_of(ben)
    state = room.state
    top = state["discard"][-1]
    hand = state["hands"][1]
    unfit = next((c for c in hand if not alpaka.can_play(c, top)), None)
    if unfit is not None:
        assert "passt nicht auf" in text(
            ben.post("aktion/", {"version": room.version, "aktion": f"play:{unfit}"})
        )
    missing = next(c for c in alpaka.CARDS if c not in hand)
    assert "nicht auf der Hand" in text(
        ben.post("aktion/", {"version": room.version, "aktion": f"play:{missing}"})
    )
    assert room_of(ben).state == state


def test_acting_out_of_turn_is_refused(table):
    anna, _ben = table
    room = room_of(anna)
    assert "Du bist nicht am Zug" in text(
        anna.post("aktion/", {"version": room.version, "aktion": "draw"})
    )
    assert room_of(anna).state == room.state


def test_a_stale_or_missing_version_changes_nothing(table):
    _anna, ben = table
    room = room_of(ben)
    for data in (
        {"version": room.version - 1, "aktion": "draw"},
        {"aktion": "draw"},
        {"version": "x", "aktion": "draw"},
    ):
        assert "Zu spät" in text(ben.post("aktion/", data))
    assert room_of(ben).version == room.version and room_of(ben).state == room.state


def test_forged_seats_do_not_work(table, players):
    anna, ben = table
    room = room_of(ben)
    (mallory,) = players("Mallory")
    mallory.code = anna.code
    # Not seated: no form field can make a visitor act for a seat.
    for data in ({"aktion": "draw"}, {"aktion": "draw", "seat": 1, "platz": 1}):
        html = text(mallory.post("aktion/", {"version": room.version, **data}))
        assert locked.NOT_SEATED in html
    # A seated player cannot act for another seat either: the seat comes from the cookie.
    html = text(
        anna.post("aktion/", {"version": room.version, "aktion": "draw", "seat": 1, "platz": 1})
    )
    assert "Du bist nicht am Zug" in html
    # A forged visitor cookie is rejected by its signature and counts as a new visitor.
    forged = Client()
    forged.cookies["besucher"] = "a-visitor-id-without-signature"
    response = forged.post(
        ben.url("aktion/"),
        {"version": room.version, "aktion": "draw"},
        headers={"HX-Request": "true"},
    )
    assert locked.NOT_SEATED in text(response)
    assert room_of(ben).state == room.state


def test_actions_before_the_start_are_refused(players, clock):
    anna, ben = players("Anna", "Ben")
    anna.create()
    assert "noch nicht begonnen" in text(anna.post("aktion/", {"version": 1, "aktion": "draw"}))


def test_score_table_and_continue(table):
    anna, ben = table
    room = room_of(ben)
    ben.post("aktion/", {"version": room.version, "aktion": "quit"})
    room = room_of(ben)
    anna_html = text(anna.post("aktion/", {"version": room.version, "aktion": "quit"}))
    room = room_of(anna)
    assert room.state["phase"] == "scoring"
    assert "Wertung – Runde 1" in anna_html and "Weiter" in anna_html
    assert 'data-countdown="45"' in anna_html and "0:45" in anna_html
    ben.post("aktion/", {"version": room.version, "aktion": "continue"})
    room = room_of(anna)
    assert room.state["confirmed"] == [False, True]
    html = text(ben.get())
    assert "Du bist bereit" in html
    # Confirming twice is refused; the other one's click deals the next round.
    assert "schon bestätigt" in text(
        ben.post("aktion/", {"version": room.version, "aktion": "continue"})
    )
    assert room_of(anna).version == room.version
    anna.post("aktion/", {"version": room.version, "aktion": "continue"})
    assert room_of(anna).state["round"] == 2 and room_of(anna).state["phase"] == "play"


def test_without_javascript_actions_redirect_back_with_a_message(table):
    _anna, ben = table
    room = room_of(ben)
    response = ben.post("aktion/", {"version": room.version - 1, "aktion": "draw"}, htmx=False)
    assert response.status_code == 302 and response["Location"] == ben.url()
    assert "Zu spät" in text(ben.get())
    response = ben.post("aktion/", {"version": room.version, "aktion": "draw"}, htmx=False)
    assert response.status_code == 302
    assert room_of(ben).version == room.version + 1


# --- Live updates -------------------------------------------------------------------------------------


def test_poll_answers_204_while_nothing_changed_and_the_table_when_it_did(table):
    anna, ben = table
    room = room_of(anna)
    response = anna.get("status/", v=room.version)
    assert response.status_code == 204 and response.content == b""
    ben.post("aktion/", {"version": room.version, "aktion": "draw"})
    response = anna.get("status/", v=room.version)
    assert response.status_code == 200
    assert response["X-Room-Version"] == str(room.version + 1)
    html = text(response)
    assert 'id="room-body"' in html and "Ben zieht eine Karte." in html
    assert "hx-swap-oob" in html  # the news goes to the aria-live region
    assert "Du bist am Zug" in html


def test_poll_of_a_closed_room_stops_polling(alpaka_game, client):
    response = client.get("/spiele/alpaka/raum/gibtesnichtxxxxx/status/?v=3")
    assert response.status_code == 286
    assert "Diesen Raum gibt es nicht" in text(response)


# --- Leaving, rematch, back to the lobby -----------------------------------------------------------------


def test_leave_confirmation_page_without_javascript(table):
    anna, _ben = table
    html = text(anna.get("verlassen/"))
    assert "Raum wirklich verlassen?" in html and "Ja, verlassen" in html


def test_guest_leaves_the_lobby(players, clock):
    anna, ben = players("Anna", "Ben")
    anna.create()
    ben.code = anna.code
    ben.post("beitreten/", {"name": "Ben"})
    html = text(ben.post("verlassen/"))
    assert "Du hast den Raum verlassen" in html and "Mitspielen" in html
    assert "unten wieder beitreten" in html and "Offene Räume ansehen" in html
    assert list(room_of(anna).seats.values_list("name", flat=True)) == ["Anna"]
    assert "Du hast den Raum schon verlassen" not in text(ben.post("verlassen/"))
    assert locked.NOT_SEATED in text(ben.post("verlassen/"))


def test_the_host_passes_to_the_next_player(players, clock):
    anna, ben, cara = players("Anna", "Ben", "Cara")
    anna.create()
    for p in (ben, cara):
        p.code = anna.code
        p.post("beitreten/", {"name": p.name})
    anna.post("verlassen/")
    room = room_of(ben)
    assert room.seats.get(is_host=True).name == "Ben"
    assert "Partie starten" in text(ben.get())


def test_leaving_mid_game_the_others_play_on(players, clock, seed):
    anna, ben, cara = players("Anna", "Ben", "Cara")
    anna.create()
    for p in (ben, cara):
        p.code = anna.code
        p.post("beitreten/", {"name": p.name})
    anna.post("starten/", {})
    html = text(anna.post("verlassen/"))
    # It says so, and offers the ways back: open rooms, a new room, the game's page.
    assert "Du hast den Raum verlassen" in html and "läuft ohne dich weiter" in html
    for way in ('href="/mitspieler-finden/"', "Neuen Raum eröffnen", "Zur Spielseite"):
        assert way in html, way
    room = room_of(ben)
    assert room.status == Room.Status.PLAYING
    assert room.state["left"] == [True, False, False]
    assert room.seats.get(name="Anna").left and room.seats.get(is_host=True).name == "Ben"
    assert "Anna verlässt den Raum und scheidet aus." in text(ben.get())
    assert "Du sitzt nicht an diesem Tisch" in text(
        anna.post("aktion/", {"version": room.version, "aktion": "draw"})
    )
    assert "Du hast den Raum schon verlassen" in text(anna.post("verlassen/"))


def test_below_two_players_the_game_ends_with_the_standings(table):
    anna, ben = table
    html = text(ben.post("verlassen/"))
    room = room_of(anna)
    assert room.status == Room.Status.FINISHED
    assert room.state["outcome"]["reason"] == "abandoned"
    anna_html = text(anna.get())
    assert "Es sind zu wenige Spieler übrig" in anna_html and "Du gewinnst" in anna_html
    assert "Neue Partie" in anna_html
    assert "Du hast den Raum verlassen" in html and "Zur Spielseite" in html


def test_the_last_human_leaving_closes_the_room(players, clock, seed):
    (anna,) = players("Anna")
    anna.create()
    anna.post("bot/", {"token": "b"})
    anna.post("starten/", {})
    html = text(anna.post("verlassen/"))
    assert "ist er jetzt geschlossen" in html
    assert not Room.objects.exists() and not Seat.objects.exists()


def _finish_by_points(anna, ben):
    """Anna stands at 39; both quit, Anna pays and reaches 40: the game is over."""
    room = room_of(anna)
    room.state["chips"][0] = alpaka.chips_for(39)
    room.save()
    ben.post("aktion/", {"version": room.version, "aktion": "quit"})
    anna.post("aktion/", {"version": room.version + 1, "aktion": "quit"})
    room = room_of(anna)
    assert room.status == Room.Status.FINISHED
    return room


def test_final_standings_and_new_game_with_the_same_people(table, seed):
    anna, ben = table
    room = _finish_by_points(anna, ben)
    html = text(ben.get())
    assert "Partie vorbei" in html and "Gewonnen!" in html and "Sieg" in html
    assert "Neue Partie" in html and "Zurück in die Lobby" not in html  # Ben is not the host
    ben.post("neue-partie/", {"version": room.version})
    new = room_of(anna)
    assert new.status == Room.Status.PLAYING and new.games_played == 2
    assert new.state["names"] == ["Anna", "Ben"] and new.state["round"] == 1
    assert all(chips == {"black": 0, "white": 0} for chips in new.state["chips"])
    # Anna's click with the old version comes too late and deals nothing new.
    assert "Die Partie läuft noch" in text(anna.post("neue-partie/", {"version": room.version}))
    assert room_of(anna).version == new.version


def test_rematch_without_enough_players_goes_back_to_the_lobby(players, clock, seed):
    anna, ben, cara = players("Anna", "Ben", "Cara")
    anna.create()
    for p in (ben, cara):
        p.code = anna.code
        p.post("beitreten/", {"name": p.name})
    anna.post("starten/", {})
    ben.post("verlassen/")
    cara.post("verlassen/")
    room = room_of(anna)
    assert room.status == Room.Status.FINISHED
    html = text(anna.post("neue-partie/", {"version": room.version}))
    assert "fehlen Mitspieler" in html
    room = room_of(anna)
    assert room.status == Room.Status.LOBBY
    assert list(room.seats.values_list("name", "number")) == [("Anna", 0)]


def test_rematch_is_for_seated_players_after_the_game(table, players):
    anna, ben = table
    room = room_of(anna)
    assert "Die Partie läuft noch" in text(anna.post("neue-partie/", {"version": room.version}))
    (mallory,) = players("Mallory")
    mallory.code = anna.code
    assert locked.NOT_SEATED in text(mallory.post("neue-partie/", {"version": room.version}))


def test_host_goes_back_to_the_lobby_after_the_game(table, players):
    anna, ben = table
    room = _finish_by_points(anna, ben)
    assert "Das kann nur der Gastgeber" in text(ben.post("lobby/", {"version": room.version}))
    html = text(anna.post("lobby/", {"version": room.version}))
    room = room_of(anna)
    assert room.status == Room.Status.LOBBY and room.state is None
    assert "Partie starten" in html
    # New people can join again.
    (cara,) = players("Cara")
    cara.code = anna.code
    cara.post("beitreten/", {"name": "Cara"})
    assert room_of(anna).seats.count() == 3


def test_back_to_the_lobby_only_after_the_game(table):
    anna, _ben = table
    room = room_of(anna)
    assert "erst, wenn die Partie vorbei ist" in text(
        anna.post("lobby/", {"version": room.version})
    )


def test_room_creation_is_rate_limited_per_address(alpaka_game, client):
    from rooms.views import ROOMS_PER_IP

    url = "/spiele/alpaka/raum/neu/"
    data = {"name": "Anna", "variant": "klassisch", "target": "40"}
    for _ in range(ROOMS_PER_IP.count):
        assert client.post(url, data).status_code == 302
    response = client.post(url, data)
    assert response.status_code == 200
    assert "sehr viele Räume" in response.content.decode()
    assert Room.objects.count() == ROOMS_PER_IP.count
