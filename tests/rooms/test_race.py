"""Two requests on two database connections race for the same room row: exactly one applies.

Runs on SQLite (IMMEDIATE transactions queue the writers) and, in CI, on PostgreSQL
(``select_for_update``).
"""

from __future__ import annotations

import pytest

from games.engines import alpaka
from games.play import definition as engines
from rooms import lobby, locked, playing, seating
from rooms.models import Room
from tests.races import race

pytestmark = pytest.mark.django_db(transaction=True)

ENGINE = engines.get("alpaka")


def _race(*calls):
    """Run the calls at the same moment, each in its own thread with its own connection;
    none may raise."""
    results = race(list(calls))
    assert [r for r in results if isinstance(r, Exception)] == []
    return results


@pytest.fixture
def room(seed):
    room = lobby.create_room(
        ENGINE, "visitor-anna", "Anna", {"variant": "klassisch", "target": "40"}
    )
    seating.join(ENGINE, room.code, "visitor-ben", "Ben")
    lobby.start(ENGINE, room.code, "visitor-anna")
    return Room.objects.get(pk=room.pk)


def test_the_same_move_sent_twice_at_once_applies_once(room):
    version = room.version
    action = next(a for a in alpaka.legal_actions(room.state, 1) if a["type"] == "play")
    data = {"aktion": f"play:{action['card']}"}
    results = _race(
        lambda: playing.act(ENGINE, room.code, "visitor-ben", version, data),
        lambda: playing.act(ENGINE, room.code, "visitor-ben", version, data),
    )
    assert sorted(r.applied for r in results) == [False, True]
    loser = next(r for r in results if not r.applied)
    assert loser.stale and loser.message == locked.STALE
    after = Room.objects.get(pk=room.pk)
    assert after.version == version + 1
    assert len(after.state["hands"][1]) == len(room.state["hands"][1]) - 1
    assert after.state["discard"] == [*room.state["discard"], action["card"]]


def test_two_players_confirming_at_the_same_moment_never_corrupt_the_state(room):
    playing.act(ENGINE, room.code, "visitor-ben", room.version, {"aktion": "quit"})
    playing.act(ENGINE, room.code, "visitor-anna", room.version + 1, {"aktion": "quit"})
    scoring = Room.objects.get(pk=room.pk)
    assert scoring.state["phase"] == "scoring"
    results = _race(
        lambda: playing.act(
            ENGINE, room.code, "visitor-anna", scoring.version, {"aktion": "continue"}
        ),
        lambda: playing.act(
            ENGINE, room.code, "visitor-ben", scoring.version, {"aktion": "continue"}
        ),
    )
    assert sorted(r.applied for r in results) == [False, True]
    assert next(r for r in results if not r.applied).stale
    after = Room.objects.get(pk=room.pk)
    assert after.version == scoring.version + 1
    assert after.state["phase"] == "scoring" and sum(after.state["confirmed"]) == 1


def test_two_guests_racing_for_the_last_seat(seed):
    room = lobby.create_room(ENGINE, "host", "Host", {})
    for n in range(4):
        seating.join(ENGINE, room.code, f"guest-{n}", f"Gast {n}")
    results = _race(
        lambda: seating.join(ENGINE, room.code, "late-1", "Spät Eins"),
        lambda: seating.join(ENGINE, room.code, "late-2", "Spät Zwei"),
    )
    assert sorted(r.applied for r in results) == [False, True]
    assert "Der Raum ist voll" in next(r for r in results if not r.applied).message
    assert Room.objects.get(pk=room.pk).seats.count() == 6
