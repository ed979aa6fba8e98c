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
