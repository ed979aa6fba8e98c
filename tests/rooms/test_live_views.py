"""A room's live stream (rooms.live_views) and what a room publishes: numbers only,
„gone“ when it closes, and a stream link only on pages an ASGI server renders."""

from __future__ import annotations

import asyncio
import re

import pytest
import redis
from asgiref.sync import sync_to_async
from django.db import connection
from django.test import AsyncClient

from games.play import live, streams
from rooms import lobby, seating
from tests import live_support as support

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_notice_carries_nothing_but_the_version(live_redis, alpaka_row, seeded):
    """Whoever listens to a room hears only numbers: no cards, no names, no events."""
    room = support.running_room()
    client = redis.Redis.from_url(support.REDIS_URL, decode_responses=True)
    pubsub = client.pubsub()
    pubsub.psubscribe(live.full_channel("*"))
    assert pubsub.get_message(timeout=support.WAIT)["type"] == "psubscribe"
    version = support.play_one_move(room.code)
    messages = []
    while (message := pubsub.get_message(ignore_subscribe_messages=True, timeout=2)) is not None:
        messages.append(message)
    assert messages, "a move publishes a notice"
    assert {m["channel"] for m in messages} == {live.full_channel(f"room:alpaka:{room.code}")}
    # The version and the moment of the next deadline (the turn timer), nothing else.
    [notice] = [m["data"] for m in messages]
    room.refresh_from_db()
    assert live.parse_notice(notice) == (version, round(room.deadline.timestamp(), 3))
    assert re.fullmatch(r"\d+\|\d+\.\d{3}", notice)
    pubsub.close()


def test_a_closed_room_says_gone_and_ends_the_stream(live_redis, alpaka_row, seeded):
    room = lobby.create_room(support.ENGINE, "visitor-anna", "Anna", support.OPTIONS)

    async def scenario():
        async with support.Stream(f"/spiele/alpaka/raum/{room.code}/live/", "v=1") as stream:
            assert (await stream.next_event())["event"] == "ready"
            await streams.in_thread(seating.leave)(support.ENGINE, room.code, "visitor-anna")
            assert await stream.next_event() == {"event": "changed", "data": "gone"}
            assert await stream.next_event() == {"event": "gone", "data": "gone"}
            await asyncio.wait_for(stream.task, support.WAIT)
            assert stream.done
        await support.hub().close()

    asyncio.run(scenario())


def test_the_room_page_connects_only_when_served_by_asgi(live_redis, alpaka_row, seeded, client):
    room = support.running_room()
    url = f"/spiele/alpaka/raum/{room.code}/"
    wsgi_page = client.get(url).content.decode()
    assert "sse-connect" not in wsgi_page  # runserver / sync workers: the page polls

    async def scenario():
        page = (await AsyncClient().get(url)).content.decode()
        # The test client keeps Django from closing the view thread's connection after the
        # request; left checked out of the pool, it kept the test database from being dropped.
        await sync_to_async(lambda: connection.close())()
        return page

    asgi_page = asyncio.run(scenario())
    assert f'sse-connect="/spiele/alpaka/raum/{room.code}/live/?v={room.version}"' in asgi_page
    assert 'hx-trigger="every 1000ms, live-stale"' in asgi_page
    assert "htmx-ext-sse-2.2.4.min.js" in asgi_page
