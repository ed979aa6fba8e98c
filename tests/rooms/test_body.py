"""rooms.body: what each viewer sees, drawn by whoever changed the table and pushed.

A whole Alpaka game is played with Anna's and a spectator's streams open. Every
event they receive is read: each pushed table shows the viewer's own hand and the
discard pile, never another hand while a round runs, and nothing of the state.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections import Counter

import pytest

from games.engines import alpaka
from games.play import streams
from rooms import body, lobby, playing, seating
from rooms.models import Room
from tests import live_support as support

pytestmark = pytest.mark.django_db(transaction=True)


def _faces(html: str) -> Counter:
    return Counter(re.findall(r"alp-card--(\w)\b", html))


def _move(code: str, visitors: dict[int, str], rng: random.Random) -> tuple | None:
    """The seat on turn acts (plays when it can, else mostly draws, so rounds last);
    returns the new version, the state and who acted, or None when the game is over."""
    room = Room.objects.get(code=code)
    if alpaka.outcome(room.state) is not None:
        return None
    seat = alpaka.to_act(room.state)[0]
    legal = alpaka.legal_actions(room.state, seat)
    plays = [a for a in legal if a["type"] == "play"]
    draws = [a for a in legal if a["type"] == "draw"] if rng.random() < 0.8 else []
    action = rng.choice(plays or draws or legal)
    value = f"play:{action['card']}" if action["type"] == "play" else action["type"]
    result = playing.act(support.ENGINE, code, visitors[seat], room.version, {"aktion": value})
    assert result.applied, result.message
    return result.room.version, result.room.state, visitors[seat]


def test_every_pushed_table_shows_only_what_its_viewer_may_see(live_redis, alpaka_row, seeded):
    room = lobby.create_room(
        support.ENGINE, "anna", "Anna", {"variant": "klassisch", "target": "20"}
    )
    seating.join(support.ENGINE, room.code, "ben", "Ben")
    lobby.start(support.ENGINE, room.code, "anna")
    room = Room.objects.get(code=room.code)
    visitors = {s.number: s.visitor for s in room.seats.all()}
    anna_seat = next(number for number, visitor in visitors.items() if visitor == "anna")
    path = f"/spiele/alpaka/raum/{room.code}/live/"
    states: dict[int, dict] = {}
    actors: dict[int, str] = {}
    received: dict[str, list[dict]] = {"anna": [], "watch": []}

    async def scenario():
        async with (
            support.Stream(path, f"v={room.version}", support.visitor_headers("anna")) as anna,
            support.Stream(path, f"v={room.version}") as spectator,
        ):
            ready = [await anna.next_event(), await spectator.next_event()]
            anna_view = body.view_key(await streams.in_thread(room.seats.get)(visitor="anna"))
            assert [event["data"].split()[1] for event in ready] == [anna_view, "watch"]
            rng = random.Random(7)
            for _ in range(400):
                moved = await streams.in_thread(_move)(room.code, visitors, rng)
                if moved is None:
                    break
                version, states[version], actors[version] = moved
                # Each stream hears of every move before the next one (no coalescing).
                for name, stream in (("anna", anna), ("watch", spectator)):
                    received[name] += await stream.events_until(version)
            else:
                raise AssertionError("no end after 400 moves")
        await support.hub().close()

    asyncio.run(scenario())

    for name, events in received.items():
        views = [event for event in events if event["event"] == "view"]
        # The spectator gets every move pushed; Anna every move but her own (those come as
        # the answers to her requests, and her stream as a notice).
        pushed = {int(event["id"]) for event in views}
        expected = {v for v, actor in actors.items() if name == "watch" or actor != "anna"}
        assert pushed == expected
        assert len(expected) >= 10, len(expected)  # a known deal (seeded): a game of some length
        for event in views:
            version, html = int(event["id"]), event["data"]
            state = states[version]
            for secret in ("draw_pile", '"hands"', "seed"):
                assert secret not in html
            if state["phase"] != alpaka.PLAY:
                continue  # after a round every hand is shown on the score sheet
            own = state["hands"][anna_seat] if name == "anna" else []
            top = state["discard"][-1:]
            assert _faces(html) == Counter(card.lower() for card in own + top), (name, version)


def test_drawing_a_table_searches_no_template_tree_for_blocks(alpaka_row, seeded, monkeypatch):
    """Every game's table extends play/table_frame.html, which extends a root of one block:
    Django searches the node tree of the topmost parent for its blocks on every render, and
    the frame's whole tree made a table draw about 10 % slower."""
    from django.template.base import NodeList

    room = support.running_room()
    seats = list(room.seats.all())
    draw = body.pushed_views(support.ENGINE, room, seats, since=room.version, skip=None)["watch"]
    assert "alp-card" in draw()  # templates loaded, the table drawn once
    searched = []
    search = NodeList.get_nodes_by_type

    def counting(nodelist, nodetype):
        searched.append(nodelist)
        return search(nodelist, nodetype)

    monkeypatch.setattr(NodeList, "get_nodes_by_type", counting)
    assert "alp-card" in draw()
    assert len(searched) <= 3, len(searched)  # the root and its block; the frame has dozens


def test_kept_url_shapes_give_what_reverse_gives():
    from django.urls import reverse

    from games.play import definition as registry

    for game in registry.all_definitions():
        for code in ("AbC-12_x", "z"):
            room_urls = body.urls(game, code)
            assert set(room_urls) == set(body.ROOM_URLS)
            for key, name in body.ROOM_URLS.items():
                assert room_urls[key] == reverse(
                    f"rooms:{name}", kwargs={"slug": game.slug, "code": code}
                )
            for key, name in body.WATCH_URLS.items():
                assert body.watch_urls(game, code)[key] == reverse(
                    f"rooms:{name}", kwargs={"slug": game.slug, "watch_code": code}
                )
