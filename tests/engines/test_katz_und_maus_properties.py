"""Katz und Maus playouts: whole games with bots and random players over every
player count and team layout (plus hints, timeouts and players leaving),
checking the invariants after every step."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# The site hooks and replay through the module, as the site calls them.
from games.engines import katz_und_maus as km
from games.engines.katz_und_maus import (
    DECK,
    MAX_TURNS,
    IllegalAction,
    apply,
    bot_action,
    bot_continue,
    card_count,
    new_game,
    outcome,
    random_action,
    to_act,
    view,
)
from games.engines.katz_und_maus.rules import round_points

FULL_DECK = Counter({card: 2 for card in DECK})
MAX_STEPS = 60_000  # far beyond any real game; reaching it means the game hangs
POLICIES = {"bot": bot_action, "random": random_action}
LAYOUTS = [(n, False) for n in range(2, 7)] + [(4, True), (6, True)]


def check_invariants(state: dict) -> None:
    assert card_count(state) == FULL_DECK, "all 104 cards, wherever they lie"
    assert json.loads(json.dumps(state)) == state, "plain JSON data"
    for seat in range(state["players"]):
        assert len(state["hands"][seat]) <= 5
        if state["out"][seat] and state["phase"] == "play":
            assert not state["stocks"][seat] and not state["hands"][seat]
    for pile in state["build"]:
        assert len(pile) < 12, "complete piles leave the table at once"
    assert state["turns"] <= MAX_TURNS + 1
    if state["teams"]:
        for a, b in state["sides"]:
            assert state["scores"][a] == state["scores"][b], "partners share their points"
    assert sum(state["scores"]) == sum(sum(row) for row in state["score_sheet"])


def check_round_result(state: dict) -> None:
    result = state["round_result"]
    if result is None or result["reason"] == "abandoned":
        return
    winners, points = result["winners"], result["points"]
    if result["draw"]:
        assert points == [0] * state["players"]
        return
    losers_cards = sum(result["stocks"][s] for s in range(state["players"]) if s not in winners)
    for seat in range(state["players"]):
        expected = round_points(losers_cards) if seat in winners else 0
        assert points[seat] == expected
    if result["reason"] == "stock":
        assert all(result["stocks"][s] == 0 for s in winners)
    elif result["reason"] == "exhausted":
        stocks = result["stocks"]
        sides = [side for side in state["sides"] if not any(state["out"][s] for s in side)]
        fewest = min(sum(stocks[s] for s in side) for side in sides)
        for side in sides:
            assert (sum(stocks[s] for s in side) == fewest) == (side[0] in winners)


def play_out(seed, players, options, policy_names, *, hooks=False, check_every=1):
    state = new_game(seed, players, options)
    rng = random.Random(seed)
    policies = [POLICIES[name] for name in policy_names]
    log = []
    steps = 0
    while outcome(state) is None:
        steps += 1
        assert steps < MAX_STEPS, "the game does not end"
        roll = rng.random()
        if hooks and roll < 0.01:
            entry = {"op": "timeout"}
            state, events = km.timeout(state)
        elif hooks and roll < 0.012:
            seat = rng.randrange(players)
            if state["left"][seat]:
                continue
            entry = {"op": "remove_player", "seat": seat}
            state, events = km.remove_player(state, seat)
        elif hooks and state["teams"] and roll < 0.03:
            seat = rng.randrange(players)
            action = {"type": "hint", "rank": rng.choice(["A", "5", "K"]), "pile": rng.randrange(4)}
            try:
                state, events = apply(state, seat, action)
            except IllegalAction:
                continue
            entry = {"seat": seat, "action": action}
        elif state["phase"] == "scoring":
            seat = to_act(state)[0]
            action = bot_continue(view(state, seat))
            entry = {"seat": seat, "action": action}
            state, events = apply(state, seat, action)
        else:
            seat = to_act(state)[0]
            before = copy.deepcopy(state) if steps % 50 == 0 else None
            frozen = json.dumps(state) if before is not None else None
            action = policies[seat](view(state, seat), rng)
            new, events = apply(state, seat, action)
            if before is not None:
                assert json.dumps(state) == frozen, "apply never mutates its input"
            state = new
            entry = {"seat": seat, "action": action}
        log.append(entry)
        if steps % check_every == 0:
            check_invariants(state)
        if any(event["type"] == "round_end" for event in events):
            check_round_result(state)
    check_invariants(state)
    return state, log


@pytest.mark.parametrize(("players", "teams"), LAYOUTS)
def test_bot_games_end_with_every_card_accounted_for(players, teams):
    for seed in range(3):
        state, log = play_out(seed, players, {"teams": teams}, ["bot"] * players)
        assert state["phase"] == "over"
        assert km.replay(seed, players, {"teams": teams}, log) == state


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    layout=st.sampled_from(LAYOUTS),
    policies=st.lists(st.sampled_from(["bot", "random"]), min_size=6, max_size=6),
    completed=st.sampled_from(["shuffle", "remove"]),
    empty_draw=st.sampled_from(["recycle", "end"]),
    stock_size=st.sampled_from([None, 8, 12]),
)
def test_playouts_keep_the_invariants(seed, layout, policies, completed, empty_draw, stock_size):
    players, teams = layout
    options = {
        "teams": teams,
        "completed": completed,
        "empty_draw": empty_draw,
        "stock_size": stock_size,
    }
    state, log = play_out(seed, players, options, policies[:players], hooks=True)
    assert outcome(state)["reason"] in {"stock", "exhausted", "stuck", "limit", "abandoned"}
    assert km.replay(seed, players, options, log) == state


@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    layout=st.sampled_from(LAYOUTS),
    kartenlos_all=st.booleans(),
)
def test_matches_to_500_and_kartenlos_for_all(seed, layout, kartenlos_all):
    players, teams = layout
    options = {"teams": teams, "match": "500", "kartenlos_all": kartenlos_all}
    state, _ = play_out(seed, players, options, ["bot"] * players, hooks=True, check_every=7)
    result = outcome(state)
    if result["reason"] == "target":
        assert max(state["scores"]) >= 500
        assert all(state["scores"][s] == max(state["scores"]) for s in result["winners"])


def test_force_continue_deals_the_next_game():
    state, _ = play_out(3, 2, {"match": "500"}, ["bot", "bot"], check_every=5)
    assert state["round"] >= 2
    assert len(state["score_sheet"]) == state["round"]


def test_random_players_finish_too():
    for seed in range(3):
        state, _ = play_out(seed, 3, {}, ["random"] * 3, check_every=3)
        assert state["phase"] == "over"


def test_force_continue_is_a_no_op_while_playing():
    state = new_game(1, 2)
    new, events = km.force_continue(state)
    assert new == state and events == []
