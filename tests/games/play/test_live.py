"""games.play.live: notices are published only once the change is committed."""

from __future__ import annotations

import contextlib

import pytest
import redis
from django.db import transaction

from games.play import live
from tests import live_support as support

pytestmark = pytest.mark.django_db(transaction=True)


def test_notices_are_published_only_after_the_commit(live_redis):
    client = redis.Redis.from_url(support.REDIS_URL, decode_responses=True)
    pubsub = client.pubsub()
    pubsub.subscribe(live.full_channel("room:alpaka:x"))
    assert pubsub.get_message(timeout=support.WAIT)["type"] == "subscribe"

    with contextlib.suppress(RuntimeError), transaction.atomic():
        live.publish_on_commit("room:alpaka:x", 1)
        raise RuntimeError("rolled back")
    with transaction.atomic():
        live.publish_on_commit("room:alpaka:x", 2)

    message = pubsub.get_message(ignore_subscribe_messages=True, timeout=support.WAIT)
    assert message["data"] == "2"
    pubsub.close()


def _numsub_calls(store) -> int:
    return store.info("commandstats").get("cmdstat_pubsub|numsub", {}).get("calls", 0)


def test_a_view_is_drawn_only_for_a_viewer_somebody_listens_to(live_redis):
    store = redis.Redis.from_url(support.REDIS_URL, decode_responses=True)
    channel = live.table_channel("demo", "alpaka", "listened")
    pubsub = store.pubsub()
    pubsub.subscribe(live.full_channel(live.viewer_channel(channel, "reader")))
    assert pubsub.get_message(timeout=support.WAIT)["type"] == "subscribe"
    drawn = []

    def view(name):
        return lambda: drawn.append(name) or f"<p>{name}</p>"

    live.publish(channel, 3, views={"reader": view("reader"), "nobody": view("nobody")})
    assert drawn == ["reader"]
    message = pubsub.get_message(ignore_subscribe_messages=True, timeout=support.WAIT)
    assert message["data"] == live.view_message(3, "<p>reader</p>")
    pubsub.close()


def test_a_viewer_listened_to_in_this_process_is_drawn_without_asking_redis(live_redis):
    """The deadline loop publishes for tables its own process's streams watch: asking
    Redis who listens (PUBSUB NUMSUB) would be a round trip per bot move for nothing."""
    store = redis.Redis.from_url(support.REDIS_URL, decode_responses=True)
    channel = live.table_channel("demo", "alpaka", "here")
    here = live.viewer_channel(channel, "reader")
    drawn = []
    asked = _numsub_calls(store)
    with live.listened_here([channel, here]):
        live.publish(channel, 4, views={"reader": lambda: drawn.append(1) or "<p>x</p>"})
    assert drawn == [1]
    assert _numsub_calls(store) == asked
    # Outside, or for a viewer not known here, Redis is asked (and nobody listens).
    with live.listened_here([channel]):
        live.publish(channel, 5, views={"reader": lambda: drawn.append(2) or "<p>x</p>"})
    assert drawn == [1]
    assert _numsub_calls(store) == asked + 1
