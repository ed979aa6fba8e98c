"""Property tests for Kätzchen-Angeln over thousands of random deals."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines import kaetzchen as k
from tests.hypothesis_profiles import examples

pytestmark = pytest.mark.slow  # long property runs: once in CI, not again on PostgreSQL

FLIP = {"type": "flip"}

decks = st.permutations(k.CARDS)
starters = st.sampled_from(["you", "cat"])
limits = st.one_of(st.just(5000), st.integers(min_value=1, max_value=1200))

fast = settings(
    max_examples=examples(3000), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
stepwise = settings(
    max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def game_from(deck, starter, limit):
    state = k.new_game(0, options={"starter": starter, "limit": limit})
    state["piles"] = [list(deck[0::2]), list(deck[1::2])]
    return state


def rank(code):
    return code[:-1]


def check_invariants(state):
    cards = state["piles"][0] + state["piles"][1] + state["table"]
    assert sorted(cards) == sorted(k.CARDS), "52 cards must be conserved"
    table_ranks = [rank(code) for code in state["table"]]
    assert len(set(table_ranks)) == len(table_ranks), f"two equal ranks: {state['table']}"
    assert len(state["table"]) <= 13
    # A Jack only stays on an empty table, so it can only lie first.
    assert all(rank(code) != "J" for code in state["table"][1:])
    assert 0 <= state["moves"] <= state["limit"]


def check_end(state):
    result = state["result"]
    assert result is not None
    you, cat = (len(pile) for pile in state["piles"])
    if result["reason"] == "empty":
        loser = 1 if result["winner"] == "you" else 0
        assert len(state["piles"][loser]) == 0
        assert len(state["piles"][loser ^ 1]) > 0
        assert state["moves"] <= state["limit"]
    else:
        assert result["reason"] == "limit"
        assert state["moves"] == state["limit"]
        assert you > 0 and cat > 0
        expected = None if you == cat else ("you" if you > cat else "cat")
        assert result["winner"] == expected


@fast
@given(deck=decks, starter=starters, limit=limits)
def test_finished_games_keep_every_invariant(deck, starter, limit):
    state = game_from(deck, starter, limit)
    end, summary = k.finish(state)
    check_invariants(end)
    check_end(end)
    assert summary["moves"] == end["moves"] >= 1
    assert (summary["you"], summary["cat"]) == tuple(len(p) for p in end["piles"])
    # play_out on the same piles must agree with finish().
    result = k.play_out(state["piles"][0], state["piles"][1], starter=starter, limit=limit)
    assert result == {key: summary[key] for key in result}


@stepwise
@given(deck=decks, starter=starters, limit=limits)
def test_every_flip_keeps_every_invariant(deck, starter, limit):
    state = game_from(deck, starter, limit)
    expected_turn = state["turn"]
    while state["result"] is None:
        seat = state["turn"]
        assert seat == expected_turn, "turns must alternate, also after a win"
        new, events = k.apply(state, seat, FLIP)
        check_invariants(new)
        assert new["moves"] == state["moves"] + 1
        # Only the flipper's pile changes: top card gone, won cards at the bottom.
        assert new["piles"][seat ^ 1] == state["piles"][seat ^ 1]
        flipped = state["piles"][seat][0]
        assert (events[0]["type"], events[0]["seat"], events[0]["card"]) == ("flip", seat, flipped)
        won = events[1].get("won", [])
        assert new["piles"][seat] == state["piles"][seat][1:] + won
        assert new["table"] + won == state["table"] + [flipped]
        if events[1]["type"] == "stay":
            assert new["table"] == state["table"] + [flipped]
        state = new
        expected_turn = seat ^ 1
    check_end(state)
    # finish() from the very start ends in the same state.
    end, _ = k.finish(game_from(deck, starter, limit))
    assert (end["piles"], end["table"], end["moves"], end["result"]) == (
        state["piles"],
        state["table"],
        state["moves"],
        state["result"],
    )


table_and_card = st.lists(st.sampled_from(k.CARDS), max_size=13, unique_by=rank).flatmap(
    lambda table: st.tuples(st.just(table), st.sampled_from([c for c in k.CARDS if c not in table]))
)


@settings(max_examples=examples(1000), deadline=None)
@given(table_and_card)
def test_resolve_flip_follows_the_rule_order(table_card):
    table, card = table_card
    result = k.resolve_flip(table, card)
    # Cards are only moved, never lost or invented, and keep their order.
    assert result["table"] + result["won"] == table + [card]
    ranks_after = [rank(c) for c in result["table"]]
    assert len(set(ranks_after)) == len(ranks_after)
    table_ranks = [rank(c) for c in table]
    if rank(card) == "J" and table:
        assert result["kind"] == "jack" and result["table"] == []
    elif rank(card) in table_ranks:
        index = table_ranks.index(rank(card))
        assert result["kind"] == "fish"
        assert result["matched_index"] == index
        assert result["won"][0] == table[index]
        assert result["won"][-1] == card
    else:
        assert result["kind"] == "stay" and result["won"] == []
