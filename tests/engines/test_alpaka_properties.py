"""Alpaka playouts: thousands of whole games with bots and random players (plus
timeouts, forced continues and players leaving), checking the invariants after
every step."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.alpaka import (
    CARDS,
    TARGETS,
    IllegalAction,
    apply,
    bot_action,
    force_continue,
    legal_actions,
    new_game,
    outcome,
    points,
    random_action,
    remove_player,
    replay,
    timeout,
    to_act,
    view,
)
from games.engines.alpaka.rules import hand_score, sort_cards
from games.play.alpaka.presenter import describe
from tests.hypothesis_profiles import examples

pytestmark = pytest.mark.slow  # long property runs: once in CI, not again on PostgreSQL

FULL_DECK = Counter({card: 8 for card in CARDS})
MAX_STEPS = 20_000  # far beyond any real game; reaching it means the game hangs
POLICIES = {"bot": bot_action, "random": random_action}

PROBES = [{"type": "draw"}, {"type": "quit"}, {"type": "continue"}, {"type": "play", "card": "1"}]


def check_invariants(state: dict) -> None:
    n = state["players"]
    cards = Counter(state["draw_pile"]) + Counter(state["discard"])
    for hand in state["hands"]:
        cards.update(hand)
    assert cards == FULL_DECK, "all 56 cards, counting quit hands"
    for chips in state["chips"]:
        assert chips["black"] >= 0 and 0 <= chips["white"] < 10
    assert min(points(state)) >= 0
    scored_rounds = len(state["score_sheet"])
    if state["phase"] == "over":  # leaving may end the game before a round is scored
        assert scored_rounds in (state["round"], state["round"] - 1)
    else:
        assert scored_rounds == state["round"] - (state["phase"] == "play")
    for seat in range(n):
        if not state["in_round"][seat]:
            assert state["hands"][seat] == []
        if state["left"][seat] and state["phase"] == "play" and state["in_round"][seat]:
            assert state["quit"][seat]
    acting = to_act(state)
    phase = state["phase"]
    if phase == "play":
        turn = state["turn"]
        assert acting == [turn]
        assert state["in_round"][turn] and not state["quit"][turn] and not state["left"][turn]
        assert state["hands"][turn], "a player without cards would have ended the round"
        actions = legal_actions(state, turn)
        active = [
            s
            for s in range(n)
            if state["in_round"][s] and not state["quit"][s] and not state["left"][s]
        ]
        if len(active) == 1:
            assert {"type": "draw"} not in actions
            assert any(a["type"] == "play" for a in actions), "a stuck lone player ends the round"
        if not state["draw_pile"]:
            assert {"type": "draw"} not in actions
    elif phase == "scoring":
        assert acting and all(not state["left"][s] for s in acting)
        assert outcome(state) is None
    else:
        assert acting == []
        result = outcome(state)
        remaining = [s for s in range(n) if not state["left"][s]]
        best = min(result["points"][s] for s in remaining)
        assert result["winners"] == [s for s in remaining if result["points"][s] == best]
        if result["reason"] == "target":
            assert max(result["points"][s] for s in remaining) >= state["target"]
        else:
            assert len(remaining) < 2
    for seat in range(n):
        if seat not in acting:
            assert legal_actions(state, seat) == []


def check_out_of_turn_refused(state: dict, rng: random.Random) -> None:
    idle = [seat for seat in range(state["players"]) if seat not in to_act(state)]
    if idle:
        seat = rng.choice(idle)
        probe = rng.choice(PROBES)
        try:
            apply(state, seat, probe)
        except IllegalAction:
            return
        raise AssertionError(f"seat {seat} acted out of turn with {probe}")


def check_view_hides(state: dict, seat: int, rng: random.Random) -> None:
    """Reshuffling everything ``seat`` cannot see must not change its view."""
    other = copy.deepcopy(state)
    hidden_seats = [s for s in range(state["players"]) if s != seat]
    if state["phase"] != "play":
        hidden_seats = []  # the round's hands are public in the score table
    pool = other["draw_pile"] + [c for s in hidden_seats for c in other["hands"][s]]
    rng.shuffle(pool)
    for s in hidden_seats:
        size = len(other["hands"][s])
        other["hands"][s], pool = sort_cards(pool[:size]), pool[size:]
    other["draw_pile"] = pool
    assert json.dumps(view(state, seat)) == json.dumps(view(other, seat))


def play_out(seed, players, variant, target, kinds, chaos, checks=True):
    options = {"variant": variant, "target": target}
    state = new_game(seed, players, options)
    rng = random.Random(seed)
    log = []
    for step in range(MAX_STEPS):
        if outcome(state) is not None:
            return state, log
        roll = rng.random() if chaos else 1.0
        if roll < 0.01:
            entry = {"op": "timeout"}
            state, _ = timeout(state)
        elif roll < 0.015:
            entry = {"op": "force_continue"}
            state, _ = force_continue(state)
        elif roll < 0.017:
            seat = rng.choice([s for s in range(players) if not state["left"][s]])
            entry = {"op": "remove_player", "seat": seat}
            state, _ = remove_player(state, seat)
        else:
            seat = rng.choice(to_act(state))
            seen = view(state, seat)
            action = POLICIES[kinds[seat]](seen, rng)
            assert action in seen["legal_actions"]
            entry = {"seat": seat, "action": action}
            state, events = apply(state, seat, action)
            names = state["names"]
            assert all(describe(event, None, names, state["target"]) for event in events)
        log.append(entry)
        if checks:
            check_invariants(state)
            check_out_of_turn_refused(state, rng)
            if step % 40 == 0:
                check_view_hides(state, rng.randrange(players), rng)
    raise AssertionError("the game did not end")


games = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 2**32),
        "players": st.integers(2, 6),
        "variant": st.sampled_from(["klassisch", "englert"]),
        "target": st.sampled_from(TARGETS),
        "chaos": st.booleans(),
    }
).flatmap(
    lambda game: st.lists(
        st.sampled_from(sorted(POLICIES)), min_size=game["players"], max_size=game["players"]
    ).map(lambda kinds: {**game, "kinds": kinds})
)

FAST = settings(
    max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@settings(max_examples=examples(600), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games)
def test_playouts_keep_every_invariant(game):
    state, log = play_out(**game)
    assert outcome(state) is not None
    assert json.loads(json.dumps(state)) == state
    options = {"variant": game["variant"], "target": game["target"]}
    assert replay(game["seed"], game["players"], options, log) == state


@pytest.mark.slow
@settings(max_examples=examples(1500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 6),
    variant=st.sampled_from(["klassisch", "englert"]),
    target=st.sampled_from(TARGETS),
    kinds=st.sampled_from([("bot",), ("random",), ("bot", "random")]),
)
def test_many_games_always_end_with_sane_results(seed, players, variant, target, kinds):
    # Lighter checks, many more games: cards and points at the end only.
    seats = [kinds[seat % len(kinds)] for seat in range(players)]
    state, _ = play_out(seed, players, variant, target, seats, chaos=False, checks=False)
    check_invariants(state)
    result = outcome(state)
    assert result["reason"] == "target"
    assert max(result["points"]) >= target
    assert all(p >= 0 for p in result["points"])


@FAST
@given(
    seed=st.integers(0, 2**16),
    steps=st.integers(0, 120),
    seat=st.integers(-1, 6),
    action=st.one_of(
        st.fixed_dictionaries(
            {
                "type": st.sampled_from(["play", "draw", "quit", "continue", "pass"]),
                "card": st.sampled_from([*CARDS, "7", "", None, 4]),
            }
        ),
        st.none(),
        st.text(max_size=5),
    ),
)
def test_apply_either_succeeds_or_leaves_the_state_untouched(seed, steps, seat, action):
    state = new_game(seed, 4)
    rng = random.Random(seed)
    for _ in range(steps):
        if outcome(state) is not None:
            break
        acting = to_act(state)[0]
        state, _ = apply(state, acting, bot_action(view(state, acting), rng))
    before = copy.deepcopy(state)
    try:
        new, _ = apply(state, seat, action)
    except IllegalAction as error:
        assert str(error)
        assert state == before
        return
    assert state == before
    assert 0 <= seat < 4 and seat in to_act(before)
    check_invariants(new)


def test_hand_score_never_exceeds_the_sum_of_all_values():
    rng = random.Random(0)
    for _ in range(2000):
        cards = [rng.choice(CARDS) for _ in range(rng.randrange(0, 20))]
        assert 0 <= hand_score(cards) <= 31
