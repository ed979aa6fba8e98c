"""Unchanged room polls answered in front of Django (rooms/fast_poll.py through
site_config/asgi.py): a 204 with Django's own headers while the version a writer kept in
Redis is the poll's and no deadline is due; anything else goes through Django."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
import redis

from games import clock
from games.play import live
from rooms import fast_poll, locked
from rooms.models import Room
from tests.asgi_support import asgi_getter
from tests.live_support import REDIS_URL, play_one_move, running_room

# Django answers in a2wsgi's thread: it must see what the test committed.
pytestmark = pytest.mark.django_db(transaction=True)
PER_REQUEST = {"x-request-id", "date"}


@pytest.fixture(autouse=True)
def fresh(live_redis, monkeypatch):
    monkeypatch.setattr(live, "serves_streams", True)  # as asgi.py sets it
    fast_poll.forget()
    yield
    fast_poll.forget()


@pytest.fixture
def asgi(monkeypatch):
    """A seat's poll through site_config.asgi: (status, headers, reached Django)."""
    get = asgi_getter(monkeypatch)

    def poll(path: str, version: int):
        headers = [(b"hx-request", b"true")]
        status, found, _body, through_django = get(path, f"v={version}".encode(), headers)
        return status, found, through_django

    return poll


def _poll_path(room: Room) -> str:
    return f"/spiele/alpaka/raum/{room.code}/status/"


def test_an_unchanged_poll_is_answered_in_front_as_django_answers_it(
    alpaka_row, asgi, settings, capsys
):
    settings.ACCESS_LOG = True
    room = running_room()
    status, django_headers, through_django = asgi(_poll_path(room), room.version)
    assert (status, through_django) == (204, True)  # teaches the headers, keeps the version
    status, front_headers, through_django = asgi(_poll_path(room), room.version)
    assert (status, through_django) == (204, False)
    assert {k: v for k, v in front_headers.items() if k not in PER_REQUEST} == {
        k: v for k, v in django_headers.items() if k not in PER_REQUEST
    }
    assert "no-store" in front_headers["cache-control"]
    logged = [
        json.loads(line) for line in capsys.readouterr().out.splitlines() if '"status"' in line
    ]
    polls = [line for line in logged if line["path"].endswith("/status/")]
    assert [line["status"] for line in polls] == [204, 204]  # both logged, as by Django
    assert polls[-1]["request_id"] == front_headers["x-request-id"]


def test_a_new_version_goes_through_django(alpaka_row, asgi):
    room = running_room()
    asgi(_poll_path(room), room.version)  # learned
    new = play_one_move(room.code)  # its writer keeps the new version
    status, _headers, through_django = asgi(_poll_path(room), room.version)
    assert (status, through_django) == (200, True)  # the old page gets the table
    status, _headers, through_django = asgi(_poll_path(room), new)
    assert (status, through_django) == (204, False)


def test_a_due_deadline_goes_through_django(alpaka_row, asgi):
    room = running_room()
    asgi(_poll_path(room), room.version)
    assert room.deadline is not None  # the player on turn has a move time
    clock.set_clock(lambda: room.deadline + timedelta(seconds=1))
    try:
        status, _headers, through_django = asgi(_poll_path(room), room.version)
    finally:
        clock.set_clock(None)
    assert through_django and status == 200  # Django applied the timeout
    assert Room.objects.get(pk=room.pk).version > room.version


def test_without_a_kept_version_django_answers(alpaka_row, asgi):
    room = running_room()
    asgi(_poll_path(room), room.version)
    redis.Redis.from_url(REDIS_URL).delete(
        live.version_key(locked.room_channel("alpaka", room.code))
    )
    assert asgi(_poll_path(room), room.version)[2]  # through Django (which keeps it again)
    assert not asgi(_poll_path(room), room.version)[2]


def test_the_kept_version_never_moves_back_and_goes_with_the_room():
    channel = locked.room_channel("alpaka", "kept-version")
    key = live.version_key(channel)
    store = redis.Redis.from_url(REDIS_URL, decode_responses=True)
    live.publish(channel, 5)
    live.remember(channel, 4)  # a poll that read the row before the fifth move
    live.publish(channel, 3)  # a late writer
    assert live.parse_notice(store.get(key)) == (5, None)
    assert 0 < store.ttl(key) <= live.VERSION_SECONDS
    live.publish(channel, live.GONE)
    assert store.get(key) is None


def _script_exists_calls(store) -> int:
    return store.info("commandstats").get("cmdstat_script|exists", {}).get("calls", 0)


def test_a_publish_keeps_the_version_in_the_same_round_trip():
    """redis-py's registered scripts cost a SCRIPT EXISTS before every pipeline: the
    script goes by its digest, and one Redis forgot (restart) is sent again whole."""
    channel = locked.room_channel("alpaka", "one-trip")
    store = redis.Redis.from_url(REDIS_URL, decode_responses=True)
    live.publish(channel, 1)
    asked = _script_exists_calls(store)
    live.publish(channel, 2)
    live.remember(channel, 2)
    assert _script_exists_calls(store) == asked
    store.script_flush()
    live.publish(channel, 3)
    assert live.parse_notice(store.get(live.version_key(channel))) == (3, None)
    live.publish(channel, 4)  # loaded again by the whole script
    assert live.parse_notice(store.get(live.version_key(channel))) == (4, None)


def test_only_tables_polled_in_front_keep_a_version():
    """Nobody answers a demo's poll in front: its bot moves keep no key."""
    store = redis.Redis.from_url(REDIS_URL)
    demo = live.table_channel("demo", "the_cat", "some-reader")
    live.publish(demo, 7)
    assert store.get(live.version_key(demo)) is None
    room = locked.room_channel("the_cat", "kept")
    live.publish(room, 7)
    assert store.get(live.version_key(room)) is not None


def test_only_a_seats_poll_may_be_answered_in_front():
    scope = {"method": "GET", "path": "/spiele/alpaka/raum/abc/status/"}
    assert fast_poll.candidate(scope)
    assert not fast_poll.candidate({**scope, "method": "POST"})
    # Spectators are counted by their polls (rooms.watching): always Django.
    assert not fast_poll.candidate({**scope, "path": "/spiele/alpaka/zuschauen/abc/status/"})
    assert not fast_poll.candidate({**scope, "path": "/spiele/alpaka/raum/abc/aktion/"})


def test_a_sync_worker_keeps_no_version_for_a_front_it_does_not_have(alpaka_row, monkeypatch):
    from django.test import Client

    monkeypatch.setattr(live, "serves_streams", False)  # site_config.wsgi
    room = running_room()
    key = live.version_key(locked.room_channel("alpaka", room.code))
    store = redis.Redis.from_url(REDIS_URL)
    store.delete(key)
    response = Client().get(_poll_path(room), {"v": room.version}, headers={"HX-Request": "true"})
    assert response.status_code == 204
    assert store.get(key) is None
