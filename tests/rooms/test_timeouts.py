"""Deadlines with the injected clock: 90-second turns, 45-second score tables,
bots' visible delay, several overdue deadlines at once, and the 24-hour cleanup."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command

from games.engines import alpaka
from rooms import cleanup
from rooms.models import Room
from tests.rooms.conftest import START, room_of, text

pytestmark = pytest.mark.django_db


def test_a_turn_times_out_after_90_seconds(table, clock):
    anna, ben = table
    room = room_of(ben)
    assert room.deadline == START + timedelta(seconds=90)
    clock.advance(89)
    assert ben.get("status/", v=room.version).status_code == 204
    assert room_of(ben).state["quit"] == [False, False]
    clock.advance(1)
    response = ben.get("status/", v=room.version)
    assert response.status_code == 200
    assert "Du hast zu lange nicht reagiert und steigst automatisch aus." in text(response)
    after = room_of(ben)
    assert after.state["quit"] == [False, True] and after.state["turn"] == 0
    assert after.version == room.version + 1
    # Anna's fresh 90 seconds start when Ben's ran out.
    assert after.deadline == START + timedelta(seconds=180)
    assert "Ben hat zu lange nicht reagiert und steigt automatisch aus." in text(anna.get())


def test_every_action_starts_a_fresh_turn_clock(table, clock):
    anna, ben = table
    clock.advance(60)
    room = room_of(ben)
    ben.post("aktion/", {"version": room.version, "aktion": "draw"})
    assert room_of(anna).deadline == START + timedelta(seconds=150)
    html = text(anna.get())
    assert 'data-countdown="90"' in html


def test_the_countdown_shows_the_seconds_left(table, clock):
    _anna, ben = table
    clock.advance(30.4)
    html = text(ben.get())
    assert 'data-countdown="60"' in html and "1:00" in html


def test_nobody_polling_still_applies_every_overdue_deadline_in_order(table, clock):
    anna, ben = table
    clock.advance(400)  # nobody asked for 400 seconds
    html = text(anna.get())
    room = room_of(anna)
    state = room.state
    # Ben timed out at 90 s, Anna at 180 s (round over), the score table waited 45 s (225 s),
    # round 2 began with Anna (dealer Ben), who timed out at 315 s; Ben has until 405 s.
    assert state["round"] == 2 and state["dealer"] == 1
    assert state["quit"] == [True, False] and state["turn"] == 1
    assert room.deadline == START + timedelta(seconds=405)
    assert len(state["score_sheet"]) == 1
    events = [entry["event"]["type"] for entry in room.log]
    assert events.count("quit") == 3 and "continue_forced" in events
    assert "Du hast zu lange nicht reagiert" in html
    # The same overdue deadlines are never applied twice.
    version = room.version
    anna.get()
    assert room_of(anna).version == version


def test_the_score_table_moves_on_after_45_seconds(table, clock):
    anna, ben = table
    room = room_of(ben)
    ben.post("aktion/", {"version": room.version, "aktion": "quit"})
    anna.post("aktion/", {"version": room.version + 1, "aktion": "quit"})
    room = room_of(anna)
    assert room.state["phase"] == "scoring"
    assert room.deadline == START + timedelta(seconds=45)
    clock.advance(10)
    ben.post("aktion/", {"version": room.version, "aktion": "continue"})  # one confirms …
    assert room_of(anna).deadline == START + timedelta(seconds=45)  # … the wait stays 45 s
    clock.advance(34)
    assert anna.get("status/", v=room.version + 1).status_code == 204
    clock.advance(1)
    html = text(anna.get("status/", v=room.version + 1))
    assert "Es geht ohne weitere Bestätigung weiter." in html
    room = room_of(anna)
    assert room.state["round"] == 2 and room.state["phase"] == "play"
    assert room.deadline == START + timedelta(seconds=45 + 90)


def test_bots_move_after_a_short_visible_delay(players, clock, seed):
    (anna,) = players("Anna")
    anna.create()
    anna.post("bot/", {"token": "b"})
    anna.post("bot/", {"token": "c"})
    anna.post("starten/", {})
    room = room_of(anna)
    assert room.state["turn"] == 1  # Flocke starts
    assert START + timedelta(seconds=0.8) <= room.bot_due <= START + timedelta(seconds=1.2)
    clock.advance(0.7)
    assert anna.get("status/", v=room.version).status_code == 204
    clock.advance(0.6)
    html = text(anna.get("status/", v=room.version))
    before, room = room, room_of(anna)
    # One bot moved; the second bot's move waits for its own delay after the first one.
    assert room.version == before.version + 1 and room.state["turn"] == 2
    assert "Flocke" in html and "Paco überlegt" in html
    clock.advance(1.3)
    anna.get()
    room = room_of(anna)
    assert room.state["turn"] == 0 and room.deadline is not None and room.bot_due is None
    # Bots and timeouts are no human activity.
    assert room.last_activity == START


def test_bots_confirm_the_score_table_by_themselves(players, clock, seed):
    (anna,) = players("Anna")
    anna.create()
    anna.post("bot/", {"token": "b"})
    anna.post("starten/", {})
    for _ in range(200):
        clock.advance(2)
        anna.get()
        room = room_of(anna)
        if room.state["phase"] == "scoring" and room.state["turn"] is None:
            break
        if 0 in alpaka.to_act(room.state):
            anna.post("aktion/", {"version": room.version, "aktion": "quit"})
    room = room_of(anna)
    assert room.state["phase"] == "scoring"
    clock.advance(1.3)
    anna.get()
    assert room_of(anna).state["confirmed"] == [False, True]
    html = text(anna.get())
    assert "Weiter" in html and "Flocke" in html


def test_idle_rooms_disappear_after_24_hours(players, clock):
    anna, ben = players("Anna", "Ben")
    anna.create()
    ben.code = anna.code
    ben.post("beitreten/", {"name": "Ben"})
    clock.advance(23 * 3600)
    anna.post("einstellungen/", {"target": "20"})  # human activity
    clock.advance(23 * 3600)
    assert anna.get().status_code == 200
    clock.advance(3600 + 1)
    response = anna.get()
    assert response.status_code == 404 and "Diesen Raum gibt es nicht" in text(response)
    assert not Room.objects.filter(code=anna.code).exists()
    assert anna.get("status/", v=1).status_code == 286


def test_a_game_left_alone_plays_out_by_timeouts_and_is_then_removed(table, clock):
    anna, ben = table
    clock.advance(23 * 3600)
    html = text(anna.get())
    room = room_of(anna)
    # Turn after turn timed out until someone reached 40: nobody blocks the table for ever.
    assert room.status == Room.Status.FINISHED and "Partie vorbei" in html
    refused = text(ben.post("aktion/", {"version": room.version, "aktion": "quit"}))
    assert "Die Partie ist vorbei" in refused  # refused requests are no activity either
    clock.advance(3600 + 1)
    assert anna.get().status_code == 404


def test_idle_polls_do_not_keep_a_room_alive(players, clock):
    anna, ben = players("Anna", "Ben")
    anna.create()
    for _ in range(4):
        clock.advance(5 * 3600)
        assert anna.get("status/", v=1).status_code == 204
    clock.advance(5 * 3600)
    assert anna.get("status/", v=1).status_code == 286


def test_creating_a_room_cleans_up_idle_rooms(players, clock):
    anna, ben = players("Anna", "Ben")
    old = anna.create()
    clock.advance(24 * 3600 + 1)
    fresh = ben.create()
    assert list(Room.objects.values_list("code", flat=True)) == [fresh]
    assert old != fresh


def test_cleanup_command(players, clock):
    anna, ben = players("Anna", "Ben")
    anna.create()
    clock.advance(12 * 3600)
    ben.create()
    clock.advance(12 * 3600 + 1)
    out = StringIO()
    call_command("cleanup_rooms", stdout=out)
    assert "1 Raum ohne Aktivität entfernt." in out.getvalue()
    assert list(Room.objects.values_list("code", flat=True)) == [ben.code]
    assert cleanup.cleanup() == 0
