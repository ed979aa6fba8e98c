"""The live update stays cheap: an unchanged poll is one query and no template."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.rooms.conftest import room_of

pytestmark = pytest.mark.django_db


def test_an_unchanged_poll_costs_at_most_two_queries_and_no_template(table):
    anna, _ben = table
    room = room_of(anna)
    anna.get("status/", v=room.version)  # warm up (cookies, URL resolver)
    with CaptureQueriesContext(connection) as queries:
        response = anna.get("status/", v=room.version)
    assert response.status_code == 204
    assert len(queries) <= 2, [q["sql"] for q in queries]
    assert response.templates == []


def test_a_changed_poll_renders_the_table(table):
    anna, ben = table
    room = room_of(anna)
    ben.post("aktion/", {"version": room.version, "aktion": "draw"})
    response = anna.get("status/", v=room.version)
    assert response.status_code == 200
    assert response.templates and "Ben zieht eine Karte." in response.content.decode()


def test_a_pushed_move_reads_the_seats_once(live_redis, django_capture_on_commit_callbacks):
    """The seats read under the lock serve the answer and every pushed view."""
    import redis

    from games.play import live
    from rooms import body, locked
    from tests.live_support import REDIS_URL, play_one_move, running_room

    room = running_room()
    ben = room.seats.get(name="Ben")
    listener = redis.Redis.from_url(REDIS_URL).pubsub()
    channel = live.viewer_channel(locked.room_channel(room.engine, room.code), body.view_key(ben))
    listener.subscribe(live.full_channel(channel))
    listener.get_message(timeout=5)  # the subscription's confirmation
    if room.state["turn"] == ben.number:  # Anna moves, Ben gets her move pushed
        play_one_move(room.code)
    with (
        CaptureQueriesContext(connection) as queries,
        django_capture_on_commit_callbacks(execute=True),
    ):
        version = play_one_move(room.code)
    pushed = listener.get_message(timeout=5)
    listener.close()
    seat_reads = [q["sql"] for q in queries if 'FROM "rooms_seat"' in q["sql"]]
    # play_one_move itself reads the mover's seat once to find who moves.
    assert len(seat_reads) == 2, seat_reads
    assert pushed is not None and live.parse_view(pushed["data"].decode())[0] == version


def test_a_move_needs_no_savepoint_but_a_refused_move_still_changes_nothing():
    """A move refuses only before it writes a row, so it runs without the savepoint that
    would undo such writes; a refusal leaves the room as it was."""
    from rooms import playing
    from tests.live_support import ENGINE, play_one_move, running_room

    room = running_room()
    with CaptureQueriesContext(connection) as queries:
        play_one_move(room.code)
    savepoints = [q["sql"] for q in queries if q["sql"].startswith("SAVEPOINT")]
    # The one of the test's own transaction around the move's (its BEGIN in production).
    assert len(savepoints) == 1, savepoints

    room.refresh_from_db()
    before = (room.state, room.version, room.log)
    waiting = next(s for s in room.seats.all() if s.number not in ENGINE.to_act(room.state))
    result = playing.act(ENGINE, room.code, waiting.visitor, room.version, {"aktion": "draw"})
    assert not result.applied and result.message
    room.refresh_from_db()
    assert (room.state, room.version, room.log) == before


def test_the_pushes_and_the_movers_answer_share_one_read_of_the_watchers(
    live_redis, alpaka_row, django_capture_on_commit_callbacks, monkeypatch
):
    """The parts every viewer's body shares (URLs, watcher count, replay link) are drawn
    once per change, for the pushed views and the mover's own answer alike."""
    import redis
    from django.test import Client

    from games.play import live
    from games.visitors import COOKIE_NAME
    from rooms import body, locked, watching
    from tests.factories import visitor_cookie
    from tests.live_support import ENGINE, REDIS_URL, running_room

    room = running_room()
    mover = room.seats.get(number=ENGINE.to_act(room.state)[0])
    other = room.seats.exclude(pk=mover.pk).get()
    listener = redis.Redis.from_url(REDIS_URL).pubsub()
    channel = live.viewer_channel(locked.room_channel(room.engine, room.code), body.view_key(other))
    listener.subscribe(live.full_channel(channel))
    listener.get_message(timeout=5)  # the subscription's confirmation
    counted = []
    original = watching.count
    monkeypatch.setattr(watching, "count", lambda r: counted.append(r.version) or original(r))
    client = Client()
    client.cookies[COOKIE_NAME] = visitor_cookie(mover.visitor)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/spiele/alpaka/raum/{room.code}/aktion/",
            {"version": room.version, "aktion": "draw"},
            headers={"HX-Request": "true"},
        )
    pushed = listener.get_message(timeout=5)
    listener.close()
    assert response.status_code == 200 and response["X-Room-Version"] == str(room.version + 1)
    assert pushed is not None  # the other player's view was drawn and pushed
    assert counted == [room.version + 1]
