"""The Cat in a room: every table pushed to one player over a whole game shows only what
that player may see.

Three people play a short game (to 12 points) through ``rooms.playing`` while Anna's
stream is open. Every view she receives is read: no card id of another player's stacks
or of her own stacks not in hand, no removed mood before the reveal, nothing of the state.
"""

from __future__ import annotations

import asyncio
import random

import pytest

from games.engines import the_cat
from games.play import definition as registry
from games.play import streams
from rooms import body, lobby, playing, seating
from rooms.models import Room
from tests import live_support as support
from tests.factories import make_game
from tests.test_the_cat_play import CARD_ID, assert_nothing_hidden

pytestmark = pytest.mark.django_db(transaction=True)

ENGINE = registry.get("the_cat")
PLAYERS = {"anna": "Anna", "ben": "Ben", "cleo": "Cleo"}


def _form(action: dict) -> dict:
    if action["type"] == "take":
        return {"aktion": f"take:{action['stack']}"}
    if action["type"] == "swap":
        return {"gib": action["give"], "nimm": action["want"]}
    return {"aktion": action["type"]}


def _move(code: str, visitors: dict[int, str], rng: random.Random, clock) -> tuple | None:
    """A player who may act makes the move a bot would make in their place (so rounds end
    with a „Stopp!“ and the game reaches its target); returns the new version, the state
    and who acted, or None when the game is over."""
    room = Room.objects.get(code=code)
    if room.status != Room.Status.PLAYING:
        return None
    seats = ENGINE.to_act(room.state)
    rng.shuffle(seats)
    chosen = next(
        (
            (seat, action)
            for seat in seats
            if (action := the_cat.bot_action(the_cat.bot_view(room.state, seat), rng))
        ),
        None,
    )
    if chosen is None:  # everybody just watches: somebody puts a stack down or takes one
        seat = seats[0]
        legal = the_cat.legal_actions(room.state, seat)
        chosen = seat, rng.choice([a for a in legal if a["type"] in ("take", "put_back")] or legal)
    seat, action = chosen
    clock.advance(1)
    result = playing.act(ENGINE, code, visitors[seat], room.version, _form(action))
    assert result.applied, result.message
    return result.room.version, result.room.state, visitors[seat]


def _may_see(state: dict, seat: int) -> set[str]:
    """While a round is played, from the state itself (not from the engine's view, which
    is what is under test): the open middle and the stack the seat holds."""
    held = state["held"][seat]
    return set(state["middle"]) | (set(state["stacks"][seat][held]) if held is not None else set())


def test_no_pushed_table_shows_a_card_its_player_may_not_see(live_redis, clock, monkeypatch):
    monkeypatch.setattr("games.play.table.new_seed", lambda: 4242)
    make_game("the-cat", title="The Cat", demo_engine="the_cat", players_max=4)
    options = {**ENGINE.default_options(), "target": the_cat.SHORT_TARGET}
    room = lobby.create_room(ENGINE, "anna", "Anna", options)
    for visitor in ("ben", "cleo"):
        seating.join(ENGINE, room.code, visitor, PLAYERS[visitor])
    lobby.start(ENGINE, room.code, "anna")
    room = Room.objects.get(code=room.code)
    visitors = {seat.number: seat.visitor for seat in room.seats.all()}
    anna = next(number for number, visitor in visitors.items() if visitor == "anna")
    states: dict[int, dict] = {room.version: room.state}
    actors: dict[int, str] = {}
    views: list[dict] = []

    async def scenario():
        path = f"/spiele/the-cat/raum/{room.code}/live/"
        async with support.Stream(
            path, f"v={room.version}", support.visitor_headers("anna")
        ) as stream:
            ready = await stream.next_event()
            seat = await streams.in_thread(room.seats.get)(visitor="anna")
            assert ready["data"].split()[1] == body.view_key(seat)
            rng = random.Random(11)
            for _ in range(1500):
                moved = await streams.in_thread(_move)(room.code, visitors, rng, clock)
                if moved is None:
                    break
                version, states[version], actors[version] = moved
                # Every move reaches Anna before the next one (no coalescing).
                events = await stream.events_until(version)
                views.extend(event for event in events if event["event"] == "view")
            else:
                raise AssertionError("no end after 1500 moves")
        await support.hub().close()

    asyncio.run(scenario())

    final = states[max(states)]
    assert the_cat.outcome(final) is not None  # a whole game, to its end
    assert final["round"] >= 2 and len(views) >= 100, (final["round"], len(views))
    # Every move of the others came as a pushed table; Anna's own came as her answers.
    assert {int(event["id"]) for event in views} == {
        version for version, actor in actors.items() if actor != "anna"
    }
    for event in views:
        version, html = int(event["id"]), event["data"]
        for secret in ('"stacks"', '"removed"', "seed"):
            assert secret not in html
        state = states[version]
        if state["phase"] == the_cat.PLAY:  # after a round the reveal shows every stack
            shown = {match.group(0) for match in CARD_ID.finditer(html)}
            assert shown <= _may_see(state, anna), (version, shown - _may_see(state, anna))
        assert_nothing_hidden(html, state, anna)  # and no removed mood before the reveal
