"""games.play.streams with a real Redis: the hub's pub/sub, and the SSE stream of a table
(a room's, through the ASGI handler): ready, notices, heartbeats, resume, no Redis."""

from __future__ import annotations

import asyncio

import pytest
import redis
from asgiref.sync import sync_to_async
from django.test import AsyncClient

from games.play import live, streams
from tests import live_support as support

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_notice_reaches_every_subscriber_of_its_channel_and_no_other(live_redis):
    async def scenario():
        # Two hubs: two connections to Redis, as two worker processes have.
        first = streams.Hub(support.REDIS_URL, live_redis.LIVE_CHANNEL_PREFIX).start()
        second = streams.Hub(support.REDIS_URL, live_redis.LIVE_CHANNEL_PREFIX).start()
        try:
            a = await first.subscribe("room:alpaka:one")
            b = await second.subscribe("room:alpaka:one")
            other = await first.subscribe("room:alpaka:two")
            await sync_to_async(live.publish)("room:alpaka:one", 7)
            await sync_to_async(live.publish)("room:alpaka:two", 3)
            assert await a.wait(support.WAIT) and a.latest == 7
            assert await b.wait(support.WAIT) and b.latest == 7
            # Redis keeps the order of one publisher: had "one" reached it, latest would be 7.
            assert await other.wait(support.WAIT) and other.latest == 3
            first.unsubscribe(a)
            assert first.listener_count() == 1
        finally:
            await first.close()
            await second.close()

    asyncio.run(scenario())


def test_a_lost_redis_connection_ends_the_streams_and_the_hub_comes_back(live_redis):
    async def scenario():
        hub = streams.Hub(support.REDIS_URL, live_redis.LIVE_CHANNEL_PREFIX).start()
        try:
            sub = await hub.subscribe("room:alpaka:one")
            killer = redis.Redis.from_url(support.REDIS_URL, decode_responses=True)
            name = f"{live_redis.LIVE_CHANNEL_PREFIX}:hub"
            ours = [c["id"] for c in killer.client_list() if c.get("name") == name]
            assert ours, "the hub's connection carries its name"
            for client_id in ours:
                killer.client_kill_filter(_id=client_id)
            # Its stream ends; the browser reconnects.
            assert await sub.wait(support.WAIT) and sub.closed
            hub.unsubscribe(sub)
            again = await hub.subscribe("room:alpaka:one", timeout=support.WAIT)
            await sync_to_async(live.publish)("room:alpaka:one", 5)
            assert await again.wait(support.WAIT) and again.latest == 5
        finally:
            await hub.close()

    asyncio.run(scenario())


def test_the_stream_sends_the_table_after_a_move_and_closes_on_disconnect(
    live_redis, alpaka_row, seeded
):
    """A spectator's stream (no seat): the move comes as the table drawn for spectators."""
    room = support.running_room()
    path = f"/spiele/alpaka/raum/{room.code}/live/"

    async def scenario():
        async with support.Stream(path, f"v={room.version}") as stream:
            first = await stream.next_event()
            assert stream.start["status"] == 200
            headers = stream.headers()
            assert headers["content-type"] == "text/event-stream"
            assert headers["cache-control"] == "no-store"
            assert headers["x-accel-buffering"] == "no"
            assert first == {
                "id": str(room.version),
                "event": "ready",
                "data": f"{room.version} watch",
            }

            version = await streams.in_thread(support.play_one_move)(room.code)
            view = await stream.next_event()
            assert (view["event"], view["id"]) == ("view", str(version))
            assert f'data-version="{version}"' in view["data"]
            assert 'data-viewer="watch"' in view["data"] and "du schaust zu" in view["data"]
            assert "Deine Hand" not in view["data"]
            # A spectator's table polls by the watch code and never names the invite code
            # (rooms.watching); no placeholder of the pushing process is left in it.
            watch_code = await streams.in_thread(support.watch_code_of)(room.code)
            assert f"/zuschauen/{watch_code}/status/" in view["data"]
            assert room.code not in view["data"]
            assert "push-origin" not in view["data"]
            assert support.hub().listener_count() == 1
        # The client went away: the stream ended and left its channels.
        assert stream.task.done()
        assert support.hub().listener_count() == 0
        assert support.hub().watched() == []
        await support.hub().close()

    asyncio.run(scenario())


def test_the_watch_link_streams_the_spectators_table(live_redis, alpaka_row, seeded):
    """/zuschauen/<code>/live/: the room's own channel, seen as a spectator."""
    room = support.running_room()
    path = f"/spiele/alpaka/zuschauen/{room.watch_code}/live/"

    async def scenario():
        async with support.Stream(path, f"v={room.version}") as stream:
            first = await stream.next_event()
            assert first["event"] == "ready" and first["data"] == f"{room.version} watch"
            version = await streams.in_thread(support.play_one_move)(room.code)
            view = await stream.next_event()
            assert (view["event"], view["id"]) == ("view", str(version))
            assert "du schaust zu" in view["data"] and room.code not in view["data"]
        await support.hub().close()

    asyncio.run(scenario())


def test_a_change_nobody_drew_for_the_viewer_comes_as_a_notice(live_redis, alpaka_row):
    """In the lobby who sits where still changes: pages fetch it themselves."""
    room = support.lobby.create_room(support.ENGINE, "visitor-anna", "Anna", support.OPTIONS)
    path = f"/spiele/alpaka/raum/{room.code}/live/"

    async def scenario():
        async with support.Stream(path, f"v={room.version}") as stream:
            assert (await stream.next_event())["event"] == "ready"
            join = streams.in_thread(support.seating.join)
            result = await join(support.ENGINE, room.code, "visitor-ben", "Ben")
            notice = await stream.next_event()
            version = str(result.room.version)
            assert notice == {"id": version, "event": "changed", "data": version}
        await support.hub().close()

    asyncio.run(scenario())


def test_a_reconnect_with_last_event_id_gets_what_it_missed_at_once(live_redis, alpaka_row, seeded):
    room = support.running_room()
    seen = room.version
    support.play_one_move(room.code)
    newest = support.play_one_move(room.code)

    async def scenario():
        client = AsyncClient()
        response = await client.get(
            f"/spiele/alpaka/raum/{room.code}/live/", headers={"Last-Event-ID": str(seen)}
        )
        assert response.status_code == 200
        assert response["Cache-Control"] == "no-store"
        content = response.streaming_content
        text = ""
        while "event: changed" not in text:
            text += (await asyncio.wait_for(anext(content), support.WAIT)).decode()
        # The ready event repeats the id the browser had; the notice names the newest version.
        assert f"id: {seen}\nevent: ready\ndata: {newest} watch\n\n" in text
        assert text.endswith(f"id: {newest}\nevent: changed\ndata: {newest}\n\n")
        await content.aclose()
        await support.hub().close()

    asyncio.run(scenario())


def test_an_up_to_date_reconnect_waits_and_sends_heartbeats(live_redis, alpaka_row, seeded):
    live_redis.LIVE_HEARTBEAT_SECONDS = 0.05
    room = support.running_room()

    async def scenario():
        headers = {"Last-Event-ID": str(room.version)}
        async with support.Stream(
            f"/spiele/alpaka/raum/{room.code}/live/", headers=headers
        ) as stream:
            assert (await stream.next_event())["event"] == "ready"
            assert await stream.next_block() == ": ping"  # nothing new: only a comment
        await support.hub().close()

    asyncio.run(scenario())


def test_without_redis_the_stream_answers_204_and_the_page_polls(settings, alpaka_row, seeded):
    settings.LIVE_REDIS_URL = ""
    room = support.running_room()

    async def scenario():
        response = await AsyncClient().get(f"/spiele/alpaka/raum/{room.code}/live/")
        assert response.status_code == 204
        assert response["Cache-Control"] == "no-store"

    asyncio.run(scenario())
