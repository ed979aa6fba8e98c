"""Every engine's ``bot_choice``: the move ``bot_action`` makes plus a reason code with
plain data, in positions built so that each code has exactly one right answer."""

from __future__ import annotations

import json
import random

import pytest

from games.engines import alpaka, kaetzchen, the_cat
from games.engines import katz_und_maus as km
from games.engines.base import SCORING

# --- Kätzchen-Angeln -------------------------------------------------------------------


def test_kaetzchen_has_one_move_and_names_the_ranks_on_the_table():
    state = kaetzchen.new_game(7)
    action, reason = kaetzchen.bot_choice(kaetzchen.view(state, 1), random.Random(1))
    assert action == {"type": "flip"}
    assert reason == {"code": "only_move", "seat": 1, "fishing": [], "table": 0}
    state["table"] = ["7H", "KD", "7S", "2C"]
    _, reason = kaetzchen.bot_choice(kaetzchen.view(state, 1), random.Random(1))
    assert reason["fishing"] == ["2", "7", "K"] and reason["table"] == 4


# --- Alpaka ----------------------------------------------------------------------------


def alpaka_turn(hand, top, others=(6, 6), draw=20, variant=alpaka.CLASSIC):
    """Seat 0 on turn with ``hand`` against ``others`` (hand sizes) and ``top`` open."""
    state = alpaka.new_game(3, 1 + len(others), {"variant": variant})
    state["hands"] = [sorted(hand)] + [["1"] * size for size in others]
    state["discard"] = [top]
    state["draw_pile"] = ["2"] * draw
    state["turn"] = 0
    return alpaka.view(state, 0)


def alpaka_choice(view):
    return alpaka.bot_choice(view, random.Random(0))


def test_alpaka_plays_the_card_that_empties_the_hand():
    action, reason = alpaka_choice(alpaka_turn(["3", "4", "5"], "3"))
    assert action == {"type": "play", "card": "3"}
    assert reason["code"] == "play_out" and reason["card"] == "3" and reason["seat"] == 0


def test_alpaka_with_one_fitting_value_says_so():
    action, reason = alpaka_choice(alpaka_turn(["4", "6", "A"], "3"))
    assert action == {"type": "play", "card": "4"} and reason["code"] == "play_only"


def test_alpaka_picks_the_card_that_sheds_most():
    action, reason = alpaka_choice(alpaka_turn(["1", "4", "4", "5", "6", "A"], "4"))
    # 4 → 5 → 6 → Alpaka → 1: the run sheds everything but a second 4.
    assert action == {"type": "play", "card": "4"}
    assert reason["code"] == "play_out" and reason["chain"] == 5


def test_alpaka_draws_with_an_expensive_hand_and_time_left():
    action, reason = alpaka_choice(alpaka_turn(["A", "6", "5"], "1", others=(6, 6)))
    assert action == {"type": "draw"} and reason["code"] == "draw"
    assert reason["score"] == 21 and reason["shortest"] == 6


def test_alpaka_quits_a_cheap_hand():
    action, reason = alpaka_choice(alpaka_turn(["4"], "1", others=(2, 2)))
    assert action == {"type": "quit"} and reason["code"] == "quit_cheap"
    assert reason["score"] == 4


def test_alpaka_quits_when_drawing_is_impossible():
    action, reason = alpaka_choice(alpaka_turn(["A", "6"], "1", draw=0))
    assert action == {"type": "quit"} and reason == {"code": "quit_no_draw", "seat": 0, "score": 16}


def test_alpaka_englert_quits_a_hand_far_below_the_others():
    view = alpaka_turn(["3"], "A", others=(6, 6), variant=alpaka.ENGLERT)
    assert alpaka_choice(view)[1]["code"] == "quit_safe"


def test_alpaka_confirms_the_score_table():
    state = alpaka.new_game(3, 2)
    state["phase"], state["turn"], state["confirmed"] = SCORING, None, [False, False]
    assert alpaka_choice(alpaka.view(state, 1)) == (
        {"type": "continue"},
        {"code": "confirm", "seat": 1},
    )


# --- Katz und Maus -----------------------------------------------------------------------


def km_choice(state, seat=0):
    return km.bot_choice(km.view(state, seat), random.Random(0))


def test_katz_und_maus_plays_a_fitting_stock_card_first():
    state = km.arrange(2, stocks=[["9S", "AH"], ["5C"]], hands=[["3D", "7C"], ["2S"]])
    action, reason = km_choice(state)
    assert action == {"type": "play", "source": "stock", "pile": 0}
    assert reason == {"code": "stock_play", "seat": 0, "pile": 0}


def test_katz_und_maus_builds_towards_the_stock_card():
    state = km.arrange(
        2,
        stocks=[["3H"], ["9C"]],
        hands=[["AD", "2S", "8C", "9D", "QH"], ["5S"]],
    )
    action, reason = km_choice(state)
    assert action["source"] == "hand" and action["card"] == "AD"
    assert reason["code"] == "chain" and reason["target"] == 3 and reason["source"] == "hand"


def test_katz_und_maus_ends_the_turn_with_a_discard():
    state = km.arrange(2, stocks=[["9H"], ["9C"]], hands=[["5D", "6S", "8C", "10D", "QH"], ["5S"]])
    action, reason = km_choice(state)
    assert action["type"] == "discard"
    assert reason == {"code": "discard", "seat": 0, "card": action["card"], "pile": action["pile"]}


# --- The Cat ------------------------------------------------------------------------------


def cat_state(own, middle):
    """Two players; seat 0's stacks ``own`` (mood keys), seat 1's filled."""
    return the_cat.arranged(2, [own, [None] * 4], middle)


def cat_choice(state, seat=0):
    return the_cat.bot_choice(the_cat.bot_view(state, seat), random.Random(0))


def test_the_cat_looks_at_an_unseen_stack_first():
    state = cat_state(
        [["grimmig"] * 4, ["frech"] * 4, ["stolz"] * 4, ["albern"] * 3 + ["traurig"]],
        ["albern", "verwirrt", "hungrig", "verliebt"],
    )
    action, reason = cat_choice(state)
    assert action == {"type": "take", "stack": 0}
    assert (reason["code"], reason["seat"], reason["stack"]) == ("look_at_stack", 0, 0)


def test_the_cat_swaps_towards_four_of_a_kind_and_calls_stop_when_done():
    state = cat_state(
        [["grimmig"] * 4, ["frech"] * 4, ["stolz"] * 4, ["albern"] * 3 + ["traurig"]],
        ["albern", "verwirrt", "hungrig", "verliebt"],
    )
    for stack in range(4):
        state["seen"][0][stack] = True
    state["held"][0] = 3
    action, reason = cat_choice(state)
    assert action["type"] == "swap" and the_cat.mood_of(action["want"]) == "albern"
    assert {key: reason[key] for key in ("code", "seat", "mood", "gave", "count")} == {
        "code": "finish_stack",
        "seat": 0,
        "mood": "albern",
        "gave": "traurig",
        "count": 4,
    }
    state, _ = the_cat.apply(state, 0, action)
    action, reason = cat_choice(state)
    assert action == {"type": "stop"}
    assert (reason["code"], reason["seat"], reason["stacks"]) == ("call_stop", 0, 4)


def test_the_cat_puts_a_finished_stack_back():
    state = cat_state(
        [["grimmig"] * 4, ["frech"] * 3 + ["albern"], ["stolz"] * 4, ["albern"] * 3 + ["frech"]],
        ["verwirrt", "hungrig", "verliebt", "traurig"],
    )
    state["seen"][0][0], state["held"][0] = True, 0
    action, reason = cat_choice(state)
    assert action == {"type": "put_back"}
    assert (reason["code"], reason["seat"], reason["stack"]) == ("stack_done", 0, 0)


# --- All engines -----------------------------------------------------------------------------


def _plain(reason):
    """A reason is plain JSON data with a snake_case code."""
    assert json.loads(json.dumps(reason)) == reason
    assert reason["code"].replace("_", "").isalpha() and reason["code"].islower()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_bot_action_is_the_first_half_of_bot_choice_in_whole_games(seed):
    for module, players in ((alpaka, 3), (km, 3)):
        state = module.new_game(seed, players)
        for step in range(300):
            if module.outcome(state) is not None:
                break
            seat = module.to_act(state)[0]
            view = module.view(state, seat)
            action, reason = module.bot_choice(view, random.Random(step))
            assert module.bot_action(view, random.Random(step)) == action
            _plain(reason)
            state, _ = module.apply(state, seat, action)
    cat = the_cat.new_game(seed, 3, {"bots": {"1": "flink", "2": "flink"}})
    for step in range(60):
        view = the_cat.bot_view(cat, 1)
        action, reason = the_cat.bot_choice(view, random.Random(step))
        assert the_cat.bot_action(view, random.Random(step)) == action
        _plain(reason)
        cat, _ = the_cat.advance(cat, cat["now"] + 1.0)


def test_the_cat_bot_moves_carry_their_reason_in_the_first_event():
    state = the_cat.new_game(5, 3, {"bots": {"1": "flink", "2": "flink"}})
    state, events = the_cat.advance(state, 30.0)
    moves = [event for event in events if event["type"] in ("take", "swap", "put_back", "stop")]
    assert moves and all(event["why"]["seat"] == event["seat"] for event in moves)
