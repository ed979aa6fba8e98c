"""games.play.deadline_loop: due moves of every registered kind of table are made on
time, once, and pushed – a room's bot move and a demo's."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
import redis

from games.engines import alpaka
from games.play import deadline_loop, live
from games.play import definition as engines
from tests import live_support as support

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_deadline_loop_pushes_a_bot_move_when_it_falls_due(live_redis, alpaka_row, seeded):
    """Nobody loads the page: the loop in the worker makes the bot's move and pushes it."""
    live_redis.LIVE_DEADLINE_LOOP = True
    room = support.running_room(bot=True)
    if room.bot_due is None:  # Anna begins: after her move the bot is due
        support.play_one_move(room.code)
        room.refresh_from_db()
    assert room.bot_due is not None
    shown = room.version

    async def scenario():
        async with support.Stream(f"/spiele/alpaka/raum/{room.code}/live/", f"v={shown}") as stream:
            assert (await stream.next_event())["event"] == "ready"
            view = await stream.next_event()  # a spectator's: the table drawn for spectators
            assert view["event"] == "view" and int(view["id"]) > shown
            assert f'data-version="{view["id"]}"' in view["data"]
        await support.hub().close()

    asyncio.run(scenario())
    room.refresh_from_db()
    assert room.version > shown
    assert any(entry["v"] > shown for entry in room.log)  # the bot's move is in the log


def test_the_loop_makes_a_demos_due_bot_move_and_pushes_it_to_the_reader(
    live_redis, alpaka_row, frozen, seeded
):
    """The reader's page only listens: the bots' move is made by the loop and announced."""
    from django.utils import timezone

    from games.models import DemoGame
    from games.play import demo_service, driver

    frozen["now"] = timezone.now().replace(microsecond=0)
    definition = engines.get("alpaka")
    visitor = "reader-live"
    create = driver.creator(definition)

    def perform(action):
        return demo_service.perform(
            visitor, "alpaka", action, create=create, expected_version=None, bump_version=False
        )

    perform(driver.start_action(definition, {"bots": "1", "variant": "klassisch", "target": "40"}))
    row = DemoGame.objects.get(visitor=visitor)
    while row.bot_due is None:  # the reader begins: a move, then the bot is due
        legal = alpaka.legal_actions(row.state, driver.YOU)
        action = next((a for a in legal if a["type"] in ("play", "draw")), legal[0])
        value = f"play:{action['card']}" if action["type"] == "play" else action["type"]
        perform(driver.act_action(definition, {"aktion": value}))
        row.refresh_from_db()

    # What the reader's stream listens to: the demo's channel and the reader's view.
    channel = driver.channel(definition, visitor)
    client = redis.Redis.from_url(support.REDIS_URL, decode_responses=True)
    pubsub = client.pubsub()
    pubsub.subscribe(
        live.full_channel(channel),
        live.full_channel(live.viewer_channel(channel, driver.READER_VIEW)),
    )
    for _ in range(2):
        assert pubsub.get_message(timeout=support.WAIT)["type"] == "subscribe"

    frozen["now"] = row.bot_due
    before = row.version
    support.race(lambda: deadline_loop.run_round([channel], None)[0])  # two loops, one move
    row.refresh_from_db()
    assert row.version == before + 1
    # First the reader's table, drawn after the move, then the version notice.
    view = pubsub.get_message(ignore_subscribe_messages=True, timeout=support.WAIT)
    version, html = live.parse_view(view["data"])
    assert version == row.version
    assert f'data-version="{row.version}"' in html and "Deine Hand" in html
    notice = pubsub.get_message(ignore_subscribe_messages=True, timeout=support.WAIT)
    assert live.parse_notice(notice["data"])[0] == row.version
    pubsub.close()


def test_the_loop_knows_rooms_and_demos_only_by_their_registration():
    assert {source.kind for source in deadline_loop.sources()} == {"demo", "room"}


def test_with_nothing_watched_a_round_does_no_work(django_assert_num_queries):
    with django_assert_num_queries(0):
        assert deadline_loop.run_round([], None)[0] is None


def test_a_round_applies_every_sources_due_tables_and_sleeps_until_the_earliest_next(
    monkeypatch, frozen
):
    from datetime import timedelta

    now = frozen["now"] = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
    applied = []

    def source(kind, tables, after_apply):
        """``tables``: (engine key, key, seconds from now to its deadline); applying one
        leaves it with a deadline ``after_apply`` seconds from now."""

        def pending(moment, keys):
            assert moment == now
            return [
                (engine_key, key, now + timedelta(seconds=seconds))
                for engine_key, key, seconds in tables
                if (engine_key, key) in keys  # only watched tables
            ]

        def apply(definition, key):
            applied.append((kind, definition.key, key))
            return deadline_loop.Applied(now + timedelta(seconds=after_apply))

        return deadline_loop.DueSource(kind, pending=pending, apply=apply)

    monkeypatch.setattr(
        deadline_loop,
        "_SOURCES",
        {
            "a": source("a", [("alpaka", "1", 0), ("the_cat", "2", -3), ("alpaka", "4", 9)], 7),
            # A table of a game that is no longer registered is left alone.
            "b": source("b", [("gibt-es-nicht", "x", -1), ("alpaka", "3", 0)], 2),
            "c": source("c", [], 1),
        },
    )
    watched = [
        "a:alpaka:1",
        "a:the_cat:2",
        "a:alpaka:4",
        "b:gibt-es-nicht:x",
        "b:alpaka:3",
        "c:alpaka:9",
    ]
    assert deadline_loop.run_round(watched, None)[0] == (now + timedelta(seconds=2)).timestamp()
    assert applied == [("a", "alpaka", "1"), ("a", "the_cat", "2"), ("b", "alpaka", "3")]
    # Only what this process's streams watch: table 2 is not, and "b" has nothing watched.
    applied.clear()
    assert (
        deadline_loop.run_round(["a:alpaka:1", "a:alpaka:4", "other"], None)[0]
        == (now + timedelta(seconds=7)).timestamp()
    )
    assert applied == [("a", "alpaka", "1")]
    # Nothing due: the earliest pending deadline, nothing applied.
    applied.clear()
    assert (
        deadline_loop.run_round(["a:alpaka:4"], None)[0] == (now + timedelta(seconds=9)).timestamp()
    )
    assert applied == []


class _QuietHub:
    """A hub with one watched demo; ``announce`` plays a notice heard from Redis."""

    stopping = False

    def on_due(self, callback):
        self.announce = callback

    def on_watch(self, callback):
        pass

    def on_close(self, callback):
        pass

    def watched(self):
        return ["demo:the_cat:reader"]


def test_a_deadline_announced_during_a_round_joins_its_plan_instead_of_another_round():
    """A round's own change comes back as a notice while the round still runs: it must not
    start a second round at once (that round would only read the same deadlines again)."""
    import time

    async def scenario():
        hub = _QuietHub()
        loop = deadline_loop.DeadlineLoop(hub)
        first_round_done = asyncio.Event()
        later = time.time() + 60

        async def one_round(watched, plan):
            await asyncio.sleep(0)  # the round's work runs in a thread
            hub.announce(later)  # the notice of the round's own change
            first_round_done.set()
            return _planned(later)

        loop._run_round = one_round
        task = asyncio.get_running_loop().create_task(loop._rounds())
        await asyncio.wait_for(first_round_done.wait(), 10)
        await asyncio.sleep(0.3)
        rounds_after_own_notice = loop.rounds
        hub.announce(time.time())  # another writer's deadline, due now: wakes the loop
        for _ in range(100):
            if loop.rounds > rounds_after_own_notice:
                break
            await asyncio.sleep(0.05)
        hub.stopping = True
        task.cancel()
        return rounds_after_own_notice, loop.rounds

    rounds_after_own_notice, rounds = asyncio.run(scenario())
    assert rounds_after_own_notice == 1
    assert rounds == 2


def _planned(moment: float):
    """What a round returns when the watched demo's next deadline is ``moment``."""
    return moment, {("demo", "the_cat", "reader"): datetime.fromtimestamp(moment, UTC)}


def _run_rounds(one_round, until):
    """Run the loop's rounds with ``one_round(hub, loop, plan given)`` as a round's work
    until ``until(loop)``, on uvloop as in the production server (its timers count whole
    milliseconds)."""
    import uvloop

    async def scenario():
        hub = _QuietHub()
        loop = deadline_loop.DeadlineLoop(hub)
        loop._run_round = lambda watched, plan: one_round(hub, loop, plan)
        task = asyncio.get_running_loop().create_task(loop._rounds())
        for _ in range(200):
            if until(loop):
                break
            await asyncio.sleep(0.01)
        hub.stopping = True
        task.cancel()
        return loop

    return uvloop.run(scenario())


def test_the_notice_of_the_rounds_own_change_heard_after_it_wakes_no_round():
    """The notice names the deadline in milliseconds, so it may read a little earlier
    than the deadline the round planned for: that is the same deadline, not a new one."""
    import math
    import time

    planned = []

    async def one_round(hub, loop, plan):
        if not planned:  # 0.4 ms past a millisecond: the notice reads 0.4 ms earlier
            planned.append(math.floor(time.time() * 1000) / 1000 + 5.0004)
            asyncio.get_running_loop().call_later(0.05, hub.announce, round(planned[0], 3))
        return _planned(planned[0])

    started = time.monotonic()
    loop = _run_rounds(one_round, until=lambda loop: time.monotonic() - started > 0.4)
    assert loop.rounds == 1


def test_a_round_begins_after_its_deadline_not_a_moment_before():
    """A timer may fire a millisecond early; the round then found nothing due yet."""
    import time

    deadlines, started = [], []

    async def one_round(hub, loop, plan):
        started.append(time.time())
        deadlines.append(time.time() + 0.03)
        return _planned(deadlines[-1])

    _run_rounds(one_round, until=lambda loop: loop.rounds >= 6)
    later_rounds = started[1:6]
    assert len(later_rounds) == 5
    assert all(start >= deadline for start, deadline in zip(later_rounds, deadlines, strict=False))


def _closes(monkeypatch) -> list[bool]:
    """Counts the loop's hand-backs of its connection (SQLite's in-memory test database
    never really closes, so the call is what is seen)."""
    from django.db import connection

    closes = []
    monkeypatch.setattr(connection, "close", lambda: closes.append(True))
    return closes


@pytest.mark.parametrize(
    ("next_in_seconds", "kept"), [(1.0, True), (deadline_loop.KEEP_CONNECTION_SECONDS + 5, False)]
)
def test_the_loop_keeps_its_connection_only_while_the_next_round_is_near(
    monkeypatch, next_in_seconds, kept
):
    """Bots moving every second: no hand-back and check-out (a round trip) per round."""
    import time

    closes = _closes(monkeypatch)
    monkeypatch.setattr(
        deadline_loop, "_apply_due", lambda watched, plan: (time.time() + next_in_seconds, None)
    )
    deadline_loop.run_round(["demo:the_cat:reader"], None)[0]
    assert closes == ([] if kept else [True])


def test_a_failed_round_gives_its_connection_back(monkeypatch):
    closes = _closes(monkeypatch)

    def failing(watched, plan):
        raise RuntimeError("round failed")

    monkeypatch.setattr(deadline_loop, "_apply_due", failing)
    with pytest.raises(RuntimeError):
        deadline_loop.run_round(["demo:the_cat:reader"], None)[0]
    assert closes == [True]


def _counting_source(monkeypatch, frozen, deadlines: dict[str, float], after_apply=None):
    """One kind "demo" whose watched tables have ``deadlines`` (seconds from now); counts
    the loop's questions to the database (``pending``) and applications."""
    from datetime import timedelta

    now = frozen["now"] = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
    asked, applied = [], []

    def pending(moment, keys):
        asked.append(sorted(keys))
        return [
            ("alpaka", key, now + timedelta(seconds=seconds))
            for key, seconds in deadlines.items()
            if ("alpaka", key) in keys
        ]

    def apply(definition, key):
        applied.append(key)
        if after_apply is None:
            return None  # another writer was first
        return deadline_loop.Applied(now + timedelta(seconds=after_apply))

    source = deadline_loop.DueSource("demo", pending=pending, apply=apply)
    monkeypatch.setattr(deadline_loop, "_SOURCES", {"demo": source})
    return now, asked, applied


def test_a_round_with_a_plan_applies_what_is_due_without_asking_the_database(monkeypatch, frozen):
    from datetime import timedelta

    now, asked, applied = _counting_source(monkeypatch, frozen, {"1": 0, "2": 5}, after_apply=1)
    watched = ["demo:alpaka:1", "demo:alpaka:2"]
    upcoming, plan = deadline_loop.run_round(watched, None)  # nothing known yet: read
    assert asked == [[("alpaka", "1"), ("alpaka", "2")]] and applied == ["1"]
    assert plan == {
        ("demo", "alpaka", "1"): now + timedelta(seconds=1),
        ("demo", "alpaka", "2"): now + timedelta(seconds=5),
    }
    assert upcoming == (now + timedelta(seconds=1)).timestamp()
    frozen["now"] = now + timedelta(seconds=1)
    upcoming, plan = deadline_loop.run_round(watched, plan)
    assert len(asked) == 1  # not asked again
    assert applied == ["1", "1"]
    assert plan[("demo", "alpaka", "1")] == now + timedelta(seconds=1)  # as Applied said
    # A table nobody watches any more leaves the plan.
    _upcoming, plan = deadline_loop.run_round(["demo:alpaka:2"], plan)
    assert list(plan) == [("demo", "alpaka", "2")] and len(asked) == 1


def test_a_planned_deadline_that_was_not_due_after_all_has_the_next_round_read_them(
    monkeypatch, frozen
):
    _now, asked, applied = _counting_source(monkeypatch, frozen, {"1": 0})
    upcoming, plan = deadline_loop.run_round(["demo:alpaka:1"], None)
    assert applied == ["1"] and plan is None  # apply found nothing due: read again
    assert upcoming is not None  # soon (MIN_SLEEP)


class _PlanningHub(_QuietHub):
    def on_watch(self, callback):
        self.watch = callback


def test_the_loop_reads_the_deadlines_again_only_after_news_the_plan_does_not_know(monkeypatch):
    """The round's own notice names a deadline of the plan: no reading. A deadline the plan
    does not name, a new table, or IDLE_SLEEP since the last reading: the next round reads."""
    import time

    plans_given = []

    async def scenario():
        hub = _PlanningHub()
        loop = deadline_loop.DeadlineLoop(hub)

        async def one_round(watched, plan):
            plans_given.append(plan)
            return _planned(time.time() + 0.05)

        loop._run_round = one_round
        task = asyncio.get_running_loop().create_task(loop._rounds())

        async def rounds_after(count):
            for _ in range(300):
                if loop.rounds >= count:
                    return
                await asyncio.sleep(0.005)
            raise AssertionError("no round")

        await rounds_after(3)
        known = next(iter(loop._plan.values())).timestamp()
        hub.announce(round(known, 3))  # the plan's own deadline, as a notice names it
        await rounds_after(loop.rounds + 2)
        hub.announce(time.time() + 0.5)  # news: a deadline the plan does not name
        await rounds_after(loop.rounds + 2)
        hub.watch()  # a new table
        await rounds_after(loop.rounds + 2)
        hub.stopping = True
        task.cancel()

    asyncio.run(scenario())
    read = [plan is None for plan in plans_given]
    assert read[0] and not any(read[1:3])
    assert read.count(True) == 3  # first, after the unknown deadline, after the new table


def test_the_loop_reads_the_deadlines_at_least_every_idle_sleep(monkeypatch):
    import time

    monkeypatch.setattr(deadline_loop, "IDLE_SLEEP", 0.1)
    plans_given = []

    async def one_round(hub, loop, plan):
        plans_given.append(plan)
        return _planned(time.time() + 0.02)

    started = time.monotonic()
    _run_rounds(one_round, until=lambda loop: time.monotonic() - started > 0.5)
    assert len(plans_given) >= 6
    assert 2 <= sum(plan is None for plan in plans_given) < len(plans_given) / 2
