"""The Cat under any interleaving: several seats swap at once (also with actions
chosen on an outdated view, as racing clients do), bots act on the clock, rounds
end and restart. After every step the cards are conserved and every stack and
the middle hold four."""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines import the_cat as tc
from games.engines.the_cat import IllegalAction


def expected_deck(state: dict) -> Counter:
    dealt = sum(state["in_round"])
    removed = set(state["removed"] or []) if dealt == 2 else set()
    return Counter(card for card in tc.CARDS if tc.mood_of(card) not in removed)


def check_invariants(state: dict) -> None:
    cards = Counter(state["middle"])
    for seat, own in enumerate(state["stacks"]):
        if state["in_round"][seat]:
            assert len(own) == tc.stacks_per_player(sum(state["in_round"]))
        for stack in own:
            assert len(stack) == 4
            cards.update(stack)
        held = state["held"][seat]
        assert held is None or (0 <= held < len(own) and state["phase"] == tc.PLAY)
    assert len(state["middle"]) == 4
    assert cards == expected_deck(state), "every card exactly once"
    assert sum(cards.values()) == (36 if sum(state["in_round"]) == 2 else 52)
    assert len(state["score_sheet"]) == state["round"] - (state["phase"] == tc.PLAY)
    assert state["scores"] == [
        sum(row[seat] or 0 for row in state["score_sheet"]) for seat in range(state["players"])
    ]
    json.dumps(state)


STEP = st.tuples(
    st.integers(0, 3),  # seat
    st.integers(0, 10_000),  # which action
    st.floats(0.0, 4.0, allow_nan=False),  # seconds until this step
    st.sampled_from(["fresh", "fresh", "fresh", "stale", "advance"]),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 4),
    bot_mask=st.integers(0, 15),
    steps=st.lists(STEP, min_size=1, max_size=120),
)
def test_cards_are_conserved_under_any_interleaving(seed, players, bot_mask, steps):
    bots = {str(s): "flink" for s in range(1, players) if bot_mask >> s & 1}
    state = tc.new_game(seed, players, {"bots": bots, "round_seconds": 90}, now=100.0)
    check_invariants(state)
    now = 100.0
    older = state
    for seat, pick, delay, mode in steps:
        now += delay
        seat %= players
        if mode == "advance":
            state, _ = tc.advance(state, now)
            check_invariants(state)
            continue
        source = older if mode == "stale" else state
        legal = tc.legal_actions(source, seat)
        if not legal:
            continue
        # Keep rounds going: calls and votes are rare.
        choices = legal
        if pick % 40:
            choices = [a for a in legal if a["type"] not in ("stop", "give_up")] or legal
        action = choices[pick % len(choices)]
        before = json.dumps(state, sort_keys=True)
        older = state
        try:
            state, events = tc.apply(state, seat, action, now=now)
        except IllegalAction as refused:
            assert json.dumps(state, sort_keys=True) == before  # nothing changed
            assert str(refused)
            continue
        for event in events:
            assert "text" not in event
        check_invariants(state)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4))
def test_two_seats_racing_for_every_middle_card(seed, players):
    state = tc.new_game(seed, players)
    for seat in range(players):
        state, _ = tc.apply(state, seat, {"type": "take", "stack": 0})
    for slot in range(4):
        wanted = state["middle"][slot]
        requests = [
            (seat, {"type": "swap", "give": state["stacks"][seat][0][slot], "want": wanted})
            for seat in range(players)
        ]
        winners = 0
        for seat, action in requests:
            try:
                state, _ = tc.apply(state, seat, action)
                winners += 1
            except IllegalAction as refused:
                assert str(refused) == tc.TOO_LATE
            check_invariants(state)
        assert winners == 1
