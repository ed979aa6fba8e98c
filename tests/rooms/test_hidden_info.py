"""Hidden information: every response to a seat is built from that seat's view.

The deal is rigged so that the cards Anna must never see are recognisable:
Ben holds six of the eight Alpakas, the other two lie at the bottom of the
draw pile, and the next two cards Ben draws are the only Sixes outside the
pile. Every response Anna (and a spectator) gets while the round runs is
scanned for them.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from games.engines import alpaka
from games.models import DemoGame
from tests.rooms.conftest import room_of, text

pytestmark = pytest.mark.django_db

ANNA_HAND = ["1", "1", "2", "2", "3", "3"]
BEN_HAND = ["A"] * 6
TOP = "4"


def _rig(room):
    pool = Counter({card: 8 for card in alpaka.CARDS})
    pool.subtract(ANNA_HAND + BEN_HAND + [TOP])
    pool.subtract(["6", "5", "6", "A", "A"])
    rest = sorted(pool.elements(), key=alpaka.CARDS.index)
    state = room.state
    state["hands"] = [list(ANNA_HAND), list(BEN_HAND)]
    state["discard"] = [TOP]
    # The top of the pile is the last element: Ben draws 6, Anna 5, Ben 6; Alpakas at the bottom.
    state["draw_pile"] = ["A", "A", *rest, "6", "5", "6"]
    assert sum(len(h) for h in state["hands"]) + len(state["draw_pile"]) + 1 == 56
    room.log = []  # the real deal's opening card is no longer on the table
    room.save()


def _body(html: str) -> str:
    """The part of a page that shows the room (the page title names the game „Alpaka“)."""
    start = html.find('id="room-body"')
    end = html.find('id="leave-dialog"')
    assert start >= 0
    return html[start : end if end > start else None]


def _cards_shown(body: str) -> Counter:
    return Counter(re.findall(r"alp-card--(\w)\b", body))


def _assert_nothing_hidden(body: str, own_hand: list[str] | None):
    # No Alpaka anywhere and no Six (Ben's drawn cards): neither as a card nor in words or data.
    assert "alp-card--a" not in body
    assert "Alpaka" not in body
    assert "alp-card--6" not in body
    for secret in ("draw_pile", "hands", "4242", "seed"):
        assert secret not in body
    shown = _cards_shown(body)
    expected = Counter(own_hand or []) + Counter({TOP: 1})
    # Exactly the own hand plus the discard top – nothing else is drawn as a card face.
    assert shown == expected


def test_a_scripted_round_never_shows_other_hands_or_the_draw_pile(table, players):
    anna, ben = table
    _rig(room_of(anna))
    (cara,) = players("Cara")
    cara.code = anna.code

    responses = []

    def watch(hand):
        room = room_of(anna)
        responses.append((text(anna.get()), hand))
        responses.append((text(anna.get("status/", v=room.version - 1)), hand))
        responses.append((text(cara.get()), None))
        responses.append((text(cara.get("status/", v=room.version - 1)), None))

    watch(ANNA_HAND)
    room = room_of(anna)
    ben.post("aktion/", {"version": room.version, "aktion": "draw"})  # Ben draws a 6
    watch(ANNA_HAND)
    room = room_of(anna)
    response = anna.post("aktion/", {"version": room.version, "aktion": "draw"})  # Anna draws the 5
    anna_hand = sorted([*ANNA_HAND, "5"], key=alpaka.CARDS.index)
    responses.append((text(response), anna_hand))
    watch(anna_hand)
    room = room_of(anna)
    ben.post("aktion/", {"version": room.version, "aktion": "draw"})  # Ben draws the other 6
    watch(anna_hand)
    assert room_of(anna).state["hands"][1] == ["6", "6", "A", "A", "A", "A", "A", "A"]
    assert (
        "Ben zieht eine Karte." in responses[-1][0] or "Ben zieht eine Karte." in responses[-4][0]
    )

    for html, hand in responses:
        _assert_nothing_hidden(_body(html), hand)
    # Ben's own page does show his Alpakas – the scan would notice them.
    assert "alp-card--a" in _body(text(ben.get()))

    # When the round ends, the hands are turned up for everyone: that is the rule.
    room = room_of(anna)
    anna.post("aktion/", {"version": room.version, "aktion": "quit"})
    room = room_of(anna)
    assert room.state["phase"] == "scoring"
    assert "Alpaka" in _body(text(anna.get()))


def test_the_demo_never_shows_the_bots_hands(client, alpaka_game, seed, clock):
    client.post(
        "/spiele/alpaka/demo/start/",
        {"version": "0", "bots": "1", "variant": "klassisch", "target": "20"},
    )
    row = DemoGame.objects.get(engine="alpaka")
    game = row.state
    pool = Counter({card: 8 for card in alpaka.CARDS})
    pool.subtract(ANNA_HAND + BEN_HAND + [TOP])
    game["hands"] = [list(ANNA_HAND), list(BEN_HAND)]
    game["discard"] = [TOP]
    pool.subtract(["A", "A"])
    game["draw_pile"] = ["A", "A", *sorted(pool.elements(), key=alpaka.CARDS.index)]
    game["turn"] = 0
    row.state, row.bot_due, row.log = game, None, []
    row.save()
    for html in (
        # The game page loads its demo region after itself (htmx); the full-screen page.
        text(
            client.get(
                "/spiele/alpaka/demo/?zurueck=/spiele/alpaka/", headers={"HX-Request": "true"}
            )
        ),
        text(client.get("/spiele/alpaka/demo/")),
        text(
            client.post(
                "/spiele/alpaka/demo/aktion/",
                {"version": row.version, "aktion": "draw"},
                headers={"HX-Request": "true"},
            )
        ),
    ):
        start = html.find('id="alpaka-demo-body"')
        body = html[start : html.find('id="alpaka-demo-new"')]
        assert start >= 0
        assert "alp-card--a" not in body
        assert "Alpaka ablegen" not in body
