"""The pieces the engines share (games.engines.base)."""

from __future__ import annotations

import pytest

from games.engines import base


def _counter(seed, players, options, *, now=0.0):
    return {"seed": seed, "calls": [], "now": now}


def _add(state, seat, action, now=None):
    return {**state, "calls": [*state["calls"], ("apply", seat, action["n"], now)]}, []


def timeout(state, now=None):
    return {**state, "calls": [*state["calls"], ("timeout", now)]}, []


def remove_player(state, seat):
    return {**state, "calls": [*state["calls"], ("remove_player", seat)]}, []


def test_replayer_calls_apply_and_the_site_hooks_by_name():
    replay = base.replayer(_counter, _add, timeout, remove_player)
    log = [
        {"seat": 1, "action": {"n": 3}},
        {"op": "timeout", "now": 12.5},
        {"seat": 0, "action": {"n": 1}, "now": 13.0},
        {"op": "remove_player", "seat": 1},
    ]
    state = replay(7, 2, None, log, now=10.0)
    assert state["now"] == 10.0
    assert state["calls"] == [
        ("apply", 1, 3, None),
        ("timeout", 12.5),
        ("apply", 0, 1, 13.0),
        ("remove_player", 1),
    ]


def test_replayer_refuses_an_unknown_entry():
    replay = base.replayer(_counter, _add, timeout)
    with pytest.raises(ValueError, match="Protokolleintrag"):
        replay(7, 2, None, [{"op": "force_continue"}])


def test_next_deal_skips_seats_no_longer_playing():
    state = {"round": 0, "dealer": None, "players": 4}
    assert base.next_deal(state, 0, lambda seat: seat != 1) == 0
    assert base.next_deal(state, 0, lambda seat: seat != 1) == 2
    assert state["round"] == 2
