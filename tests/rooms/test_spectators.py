"""Spectators: public games listed to watch, the host's watch link, the count players see,
and no hidden card in any answer to a spectator over a whole game.

The hidden-card test plays a whole Alpaka game (Anna at random, two bots) while a
spectator polls after every change. During a round, each answer must stay the same
when the hidden cards are dealt differently: the hands and the draw pile are shuffled
together (sizes kept) and the spectator's table drawn again – a leaked card would
show up as a difference. Stream notices carry a version number and nothing else.
"""

from __future__ import annotations

import random
import re

import pytest
from django.db import transaction
from django.test import Client

from games.engines import alpaka
from games.play import definition as registry
from games.play import live
from rooms import body
from rooms.models import Room
from tests.rooms.conftest import action_value, room_of, text

pytestmark = pytest.mark.django_db


def _watch_path(room: Room) -> str:
    return f"/spiele/alpaka/zuschauen/{room.watch_code}/"


def _with_bots(anna, count: int):
    for _ in range(count):
        form = text(anna.get())
        token = re.search(r'name="token" value="([^"]+)"', form).group(1)
        anna.post("bot/", {"token": token})


def _body(html: str) -> str:
    """The body and the news read out with it (both must be free of hidden cards)."""
    start = html.find('id="room-body"')
    assert start >= 0, html[:500]
    return html[start:].strip()


def _normalised(html: str) -> str:
    """The spectator's table without what changes by itself (countdowns)."""
    return re.sub(r'data-countdown="\d+"|\d+:\d\d', "", _body(html))


def _spectator_html_for(state: dict, room: Room, since: int) -> str:
    """The spectator's body drawn from ``state`` as the watch page draws it."""
    from django.template.loader import render_to_string
    from django.test import RequestFactory

    from rooms.views import room_context

    request = RequestFactory().get("/")
    request.htmx = False
    room.state = state
    seats = list(room.seats.all())
    context = room_context(
        request, registry.get("alpaka"), room, seats, spectator=True, since=since
    )
    return render_to_string("rooms/room.html#body", context, request=request)


def _redealt(state: dict, rng: random.Random) -> dict:
    hidden = [card for hand in state["hands"] for card in hand] + list(state["draw_pile"])
    rng.shuffle(hidden)
    other = {**state, "hands": [], "draw_pile": []}
    for hand in state["hands"]:
        other["hands"].append(sorted(hidden[: len(hand)], key=alpaka.CARDS.index))
        hidden = hidden[len(hand) :]
    other["draw_pile"] = hidden
    return other


def test_public_game_is_listed_to_watch_and_the_watch_link_never_joins(players, clock):
    (anna,) = players("Anna")
    anna.create()
    anna.post("sichtbarkeit/", {"oeffentlich": "1", "version": str(room_of(anna).version)})
    _with_bots(anna, 1)
    anna.post("starten/", {})
    room = room_of(anna)
    assert room.status == Room.Status.PLAYING and room.watch_code
    listed = Client().get("/mitspieler-finden/").content.decode()
    assert _watch_path(room) in listed and "Zuschauen" in listed
    assert room.code not in listed

    spectator = Client()
    page = spectator.get(_watch_path(room))
    assert page.status_code == 200
    html = page.content.decode()
    assert "du schaust zu" in html and room.code not in html  # no invite code, no join
    assert f"/zuschauen/{room.watch_code}/status/" in html
    # The players see how many watch (with their next table).
    assert "1 Person schaut zu" in text(anna.get())
    assert spectator.post(
        f"/spiele/alpaka/raum/{room.watch_code}/beitreten/", {"name": "X"}
    ).status_code in (302, 200)
    assert not room.seats.filter(name="X").exists()


def test_private_room_is_watched_only_by_the_hosts_link(table):
    anna, ben = table
    room = room_of(anna)
    assert f"/zuschauen/{room.watch_code}/" in text(anna.get())  # the host's link
    assert f"/zuschauen/{room.watch_code}/" not in text(ben.get())
    assert "Laufende Partien" not in Client().get("/mitspieler-finden/").content.decode()
    assert Client().get("/spiele/alpaka/zuschauen/falsch/").status_code == 404


def test_a_spectator_gets_no_hidden_card_over_a_whole_game(players, clock, monkeypatch):
    monkeypatch.setattr("games.play.table.new_seed", lambda: 77)
    published, pushed, seats_seen = [], [], []
    real_view = alpaka.view

    def recording_view(state, seat):
        seats_seen.append(seat)
        return real_view(state, seat)

    def publish(channel, version, due=None, views=None):
        """What a stream would carry: the notice, and the spectators' pushed table."""
        published.append(live.notice(version, due))
        if views and body.WATCHING in views:
            seats_seen.clear()
            pushed.append((views[body.WATCHING](), list(seats_seen)))

    monkeypatch.setattr(live, "enabled", lambda: True)
    monkeypatch.setattr(live, "publish", publish)
    monkeypatch.setattr(alpaka, "view", recording_view)
    # Publish at once (the test's transaction never commits).
    monkeypatch.setattr(transaction, "on_commit", lambda callback, **kwargs: callback())
    (anna,) = players("Anna")
    anna.create(target="20")
    _with_bots(anna, 2)
    anna.post("starten/", {})
    room = room_of(anna)
    spectator = Client()
    watch = _watch_path(room)
    spectator.get(watch)
    rng = random.Random(3)
    checked = 0
    for _ in range(3000):
        room = room_of(anna)
        if room.status != Room.Status.PLAYING:
            break
        since = room.version - 1
        answer = spectator.get(f"{watch}status/", {"v": since})
        room = room_of(anna)
        html = answer.content.decode()
        if room.state["phase"] == alpaka.PLAY and answer.status_code == 200:
            answered = _normalised(html)
            for _ in range(2):
                redealt = _redealt(room.state, rng)
                other = _normalised(_spectator_html_for(redealt, room_of(anna), since))
                assert answered == other, "a spectator's answer depends on a hidden card"
            checked += 1
        if 0 in alpaka.to_act(room.state):
            choice = rng.choice(alpaka.legal_actions(room.state, 0))
            anna.post("aktion/", {"aktion": action_value(choice), "version": room.version})
        else:
            clock.advance(2)
    assert room_of(anna).status == Room.Status.FINISHED
    assert checked > 20
    # The finished game is a replay for the room's players only.
    from games.models import Replay

    replay = Replay.objects.get()
    assert replay.source == "room" and not replay.public
    assert spectator.get(replay.get_absolute_url()).status_code == 404
    assert anna.client.get(replay.get_absolute_url()).status_code == 200
    assert "Partie nachspielen" in text(anna.get())
    # What a stream tells anyone: "version" or "version|next deadline", numbers only …
    assert published and all(re.fullmatch(r"-?\d+(\|\d+\.\d+)?", notice) for notice in published)
    # … and the table pushed to spectators is drawn from the spectator's view only.
    assert len(pushed) > 20
    for html, seats in pushed:
        assert seats and set(seats) == {None}
        assert "du schaust zu" in html and room_of(anna).code not in html
