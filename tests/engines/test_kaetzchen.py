"""Kätzchen-Angeln engine: the article's examples, the protocol, the fast paths.

Pure tests: no database, no Django.
"""

from __future__ import annotations

import copy
import json
import random
import re

import pytest

from games.engines import kaetzchen as k
from games.engines.base import IllegalAction
from games.play.kaetzchen.presenter import event_text, result_text

FLIP = {"type": "flip"}


def make_state(you, cat, table=(), *, turn=0, limit=5000, moves=0, starter=None):
    """A running game with hand-picked piles (top card first) and table."""
    state = k.new_game(0, options={"limit": limit})
    state.update(
        piles=[list(you), list(cat)],
        table=list(table),
        turn=turn,
        moves=moves,
        starter=turn if starter is None else starter,
    )
    return state


def step(state):
    """One flip by whoever is to act."""
    return k.apply(state, state["turn"], FLIP)


def play_by_hand(state):
    """Flip until the end through apply(); returns the final state."""
    while state["result"] is None:
        state, _ = step(state)
    return state


def all_cards(state):
    return state["piles"][0] + state["piles"][1] + state["table"]


# --------------------------------------------------------------------------
# The article's worked examples (resolve_flip)


def test_fish_example_from_the_article():
    result = k.resolve_flip(["5S", "9H", "KD", "3C"], "9C")
    assert result["kind"] == "fish"
    assert result["won"] == ["9H", "KD", "3C", "9C"]
    assert result["table"] == ["5S"]
    assert result["matched_index"] == 1


def test_jack_example_from_the_article():
    result = k.resolve_flip(["5S", "9H"], "JD")
    assert result["kind"] == "jack"
    assert result["won"] == ["5S", "9H", "JD"]
    assert result["table"] == []


def test_jack_on_empty_table_stays_and_next_jack_takes_it():
    first = k.resolve_flip([], "JD")
    assert first == {"kind": "stay", "won": [], "table": ["JD"], "matched_index": None}
    middle = k.resolve_flip(first["table"], "4H")
    assert middle["table"] == ["JD", "4H"]
    second = k.resolve_flip(middle["table"], "JS")
    assert second["kind"] == "jack"
    assert second["won"] == ["JD", "4H", "JS"]
    assert second["table"] == []


def test_jack_rule_comes_before_fishing_for_a_jack():
    # A Jack matching a Jack in the middle still clears the whole row.
    result = k.resolve_flip(["3H", "JD", "5S"], "JC")
    assert result["kind"] == "jack"
    assert result["won"] == ["3H", "JD", "5S", "JC"]


def test_fishing_matches_rank_not_suit_and_keeps_table_order():
    result = k.resolve_flip(["7S", "9H", "5D"], "7C")
    assert result["kind"] == "fish"
    assert result["won"] == ["7S", "9H", "5D", "7C"]
    assert result["table"] == []
    tail = k.resolve_flip(["7S", "9H", "5D"], "5H")
    assert tail["won"] == ["5D", "5H"]
    assert tail["table"] == ["7S", "9H"]


def test_no_match_stays_at_the_end_of_the_row():
    result = k.resolve_flip(["7S", "9H"], "QD")
    assert result == {"kind": "stay", "won": [], "table": ["7S", "9H", "QD"], "matched_index": None}


def test_resolve_flip_does_not_mutate_the_table():
    table = ["5S", "9H", "KD"]
    k.resolve_flip(table, "9C")
    k.resolve_flip(table, "JC")
    k.resolve_flip(table, "2C")
    assert table == ["5S", "9H", "KD"]


def test_resolve_flip_rejects_unknown_cards():
    with pytest.raises(ValueError):
        k.resolve_flip([], "1S")
    with pytest.raises(ValueError):
        k.resolve_flip([], "9X")


# --------------------------------------------------------------------------
# One flip inside a game (apply)


def test_won_cards_go_under_the_pile_in_table_order():
    state = make_state(["7C", "2S"], ["KH", "QH"], table=["7S", "9H", "5D"])
    new, events = step(state)
    assert new["piles"][0] == ["2S", "7S", "9H", "5D", "7C"]
    assert new["table"] == []
    fish = events[1]
    assert fish["type"] == "fish"
    assert fish["won"] == ["7S", "9H", "5D", "7C"]
    assert fish["matched_index"] == 0
    assert fish["count"] == 4
    assert event_text(fish) == "Geangelt! Du nimmst 4 Karten."


def test_no_extra_turn_after_a_win():
    state = make_state(["9C", "2S"], ["KH", "QH"], table=["5S", "9H"])
    new, _ = step(state)
    assert new["turn"] == 1
    assert k.to_act(new) == [1]
    assert k.legal_actions(new, 0) == []
    assert k.legal_actions(new, 1) == [FLIP]


def test_cat_fishing_text_and_jack_text():
    state = make_state(["2S"], ["9C", "JD", "4H"], table=["5S", "9H", "KD", "3C"], turn=1)
    new, events = step(state)
    assert [e["type"] for e in events] == ["flip", "fish"]
    assert event_text(events[0]) == "Kätzchen deckt Kreuz 9 auf."
    assert event_text(events[1]) == "Geangelt! Kätzchen nimmt 4 Karten."
    assert new["table"] == ["5S"]

    new, events = step(new)  # "you" flips 2S: stays, and "you" is now empty
    assert new["result"] == {"winner": "cat", "reason": "empty"}

    jack_state = make_state(["JD", "4S"], ["2C"], table=["5S", "9H"])
    _, events = step(jack_state)
    assert events[1]["type"] == "jack"
    assert events[1]["won"] == ["5S", "9H", "JD"]
    assert event_text(events[1]) == "Bube räumt ab! Du nimmst 3 Karten."


def test_jack_on_empty_table_has_its_own_stay_text():
    _, events = step(make_state(["JD", "2S"], ["3C"]))
    assert events[1] == {
        "type": "stay",
        "seat": 0,
        "card": "JD",
        "lone_jack": True,
    }
    assert event_text(events[1]) == "Bube auf leerem Tisch – er bleibt liegen."


def test_last_card_that_fishes_keeps_the_game_going():
    state = make_state(["9C"], ["KH", "QH"], table=["5S", "9H"])
    new, events = step(state)
    assert new["result"] is None
    assert new["piles"][0] == ["9H", "9C"]
    assert new["turn"] == 1
    assert [e["type"] for e in events] == ["flip", "fish"]


def test_last_jack_on_a_non_empty_table_keeps_the_game_going():
    new, _ = step(make_state(["JC"], ["KH"], table=["5S"]))
    assert new["result"] is None
    assert new["piles"][0] == ["5S", "JC"]


def test_last_card_that_does_not_win_loses_at_once():
    state = make_state(["2C"], ["KH", "QH"], table=["5S"])
    new, events = step(state)
    assert new["result"] == {"winner": "cat", "reason": "empty"}
    assert new["turn"] is None
    assert k.to_act(new) == []
    assert [e["type"] for e in events] == ["flip", "stay", "game_over"]
    assert events[-1]["winner"] == "cat"
    assert event_text(events[-1]) == "Dein Stapel ist leer – Kätzchen gewinnt."
    assert k.outcome(new) == {
        "winner": "cat",
        "winner_seat": 1,
        "reason": "empty",
        "moves": 1,
        "piles": [0, 2],
    }


def test_last_jack_on_empty_table_loses():
    new, _ = step(make_state(["2S"], ["JC"], turn=1))
    assert new["result"] == {"winner": "you", "reason": "empty"}
    assert result_text(k.outcome(new)) == "Kätzchens Stapel ist leer – du gewinnst!"


# --------------------------------------------------------------------------
# The move limit


def test_limit_compares_piles_and_ignores_the_table():
    # After 3 flips: you 2C, cat 6D, you 3C lie on the table; piles 2 : 1.
    state = make_state(["2C", "3C", "4C", "5C"], ["6D", "7D"], limit=3)
    end = play_by_hand(state)
    assert end["moves"] == 3
    assert end["table"] == ["2C", "6D", "3C"]
    assert end["result"] == {"winner": "you", "reason": "limit"}
    assert k.outcome(end)["piles"] == [2, 1]
    assert result_text(k.outcome(end)).startswith("Zuglimit erreicht – Kartenzahl entscheidet")
    assert k.play_out(["2C", "3C", "4C", "5C"], ["6D", "7D"], limit=3) == {
        "winner": "you",
        "reason": "limit",
        "moves": 3,
        "you": 2,
        "cat": 1,
    }


def test_limit_with_equal_piles_is_a_draw():
    # After 4 flips: table 2C 5D 3C 6D, piles 1 : 1.
    end = play_by_hand(make_state(["2C", "3C", "4C"], ["5D", "6D", "7D"], limit=4))
    assert end["table"] == ["2C", "5D", "3C", "6D"]
    assert end["result"] == {"winner": None, "reason": "limit"}
    assert k.outcome(end)["winner_seat"] is None
    assert result_text(k.outcome(end)).endswith("Unentschieden.")
    assert k.play_out(["2C", "3C", "4C"], ["5D", "6D", "7D"], limit=4)["winner"] is None


def test_limit_winner_is_the_larger_pile_even_after_putting_out_fewer_cards():
    end = play_by_hand(make_state(["2C", "3C", "4C"], ["5D", "6D", "7D"], limit=3))
    # you: 1 card left, cat: 2 cards left (table 2C 5D 3C).
    assert end["result"] == {"winner": "cat", "reason": "limit"}


def test_running_empty_on_the_last_allowed_flip_is_a_loss_not_a_limit():
    end = play_by_hand(make_state(["2C"], ["5D", "6D"], limit=1))
    assert end["result"] == {"winner": "cat", "reason": "empty"}
    assert k.play_out(["2C"], ["5D", "6D"], limit=1)["reason"] == "empty"


def test_a_win_on_the_last_allowed_flip_counts_for_the_limit():
    # Cat's flip 2 fishes 9H back: piles you 1, cat 3.
    end = play_by_hand(make_state(["9H", "AS"], ["9C", "KS"], limit=2))
    assert end["result"] == {"winner": "cat", "reason": "limit"}
    assert k.outcome(end)["piles"] == [1, 3]


# --------------------------------------------------------------------------
# Starting a game, starter, options


def test_new_game_deals_26_each_from_the_seed():
    state = k.new_game(42)
    you, cat = state["piles"]
    assert len(you) == len(cat) == 26
    assert sorted(you + cat) == sorted(k.CARDS)
    assert state["table"] == [] and state["moves"] == 0 and state["result"] is None
    assert k.new_game(42) == state
    assert k.new_game(43)["piles"] != state["piles"]
    assert json.loads(json.dumps(state)) == state


def test_deal_alternates_from_the_shuffled_deck():
    deck = list(k.CARDS)
    random.Random(7).shuffle(deck)
    assert k.deal(7) == (deck[0::2], deck[1::2])


def test_starter_cat():
    state = k.new_game(5, options={"starter": "cat"})
    assert state["turn"] == 1 and state["starter"] == 1
    assert k.to_act(state) == [1]
    assert k.legal_actions(state, 0) == []
    assert k.view(state, 0)["starter"] == "cat"
    with pytest.raises(IllegalAction, match="Warte auf den Gegner – Kätzchen ist am Zug."):
        k.apply(state, 0, FLIP)
    new, events = k.apply(state, 1, FLIP)
    assert events[0]["seat"] == 1
    assert event_text(events[0]).startswith("Kätzchen deckt ")
    assert new["piles"][1] == state["piles"][1][1:]
    assert new["table"] == state["piles"][1][:1]
    assert new["turn"] == 0


def test_new_game_rejects_bad_arguments():
    with pytest.raises(ValueError):
        k.new_game(1, players=3)
    with pytest.raises(ValueError):
        k.new_game(1, options={"starter": "dog"})
    with pytest.raises(ValueError):
        k.new_game(1, options={"limit": 0})
    with pytest.raises(ValueError):
        k.new_game(1, options={"limt": 10})


def test_state_is_compact():
    state = play_by_hand(k.new_game(3))
    assert len(json.dumps(k.new_game(3))) < 700
    assert len(json.dumps(state)) < 700


# --------------------------------------------------------------------------
# Illegal actions leave the state alone


@pytest.mark.parametrize(
    ("seat", "action", "message"),
    [
        (1, FLIP, "Kätzchen ist nicht am Zug – du bist dran."),
        (0, {"type": "draw"}, "Unbekannte Aktion."),
        (0, "flip", "Unbekannte Aktion."),
        (0, None, "Unbekannte Aktion."),
        (2, FLIP, "Unbekannter Platz."),
    ],
)
def test_illegal_actions_raise_and_change_nothing(seat, action, message):
    state = k.new_game(11)
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as error:
        k.apply(state, seat, action)
    assert str(error.value) == message
    assert state == before


def test_waiting_for_the_cat_raises_and_changes_nothing():
    state, _ = step(k.new_game(11))
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as error:
        k.apply(state, 0, FLIP)
    assert str(error.value) == "Warte auf den Gegner – Kätzchen ist am Zug."
    assert state == before


def test_finished_game_raises_and_changes_nothing():
    end = play_by_hand(k.new_game(12))
    before = copy.deepcopy(end)
    for seat in (0, 1):
        with pytest.raises(IllegalAction, match="Die Partie ist bereits beendet."):
            k.apply(end, seat, FLIP)
        assert k.legal_actions(end, seat) == []
    assert end == before


def test_apply_never_mutates_its_input():
    state = k.new_game(13)
    for _ in range(300):
        if state["result"] is not None:
            break
        before = copy.deepcopy(state)
        new, _ = step(state)
        assert state == before
        assert new is not state
        state = new


# --------------------------------------------------------------------------
# view() hides pile order


def _mentions(text: str, code: str) -> bool:
    return re.search(rf"(?<![0-9A-Za-z]){re.escape(code)}(?![0-9A-Za-z])", text) is not None


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_view_never_shows_pile_cards(seed):
    state = k.new_game(seed, options={"starter": "cat" if seed % 2 else "you"})
    checked_fish = False
    while True:
        for seat in (0, 1, None):
            shown = k.view(state, seat)
            text = json.dumps(shown, ensure_ascii=False)
            hidden = set(all_cards(state)) - set(state["table"])
            leaked = [code for code in hidden if _mentions(text, code)]
            assert leaked == [], f"view leaks pile cards {leaked}"
            assert "seed" not in shown
            assert shown["piles"] == [len(state["piles"][0]), len(state["piles"][1])]
            assert shown["table"] == state["table"]
        last = [e["type"] for e in k.view(state, 0)["last_events"]]
        checked_fish = checked_fish or "fish" in last
        if state["result"] is not None:
            break
        state, _ = step(state)
    assert checked_fish  # the interesting case (won cards in a pile) was seen
    assert k.view(state, 0)["outcome"] == k.outcome(state)


def test_view_shows_table_moves_turn_and_last_events():
    state = make_state(["9C", "2S"], ["KH"], table=["5S", "9H", "KD", "3C"])
    new, _ = step(state)
    shown = k.view(new, 0)
    assert shown["table"] == ["5S"]
    assert shown["piles"] == [5, 1]
    assert shown["moves"] == 1
    assert shown["turn"] == 1 and shown["turn_name"] == "cat"
    assert shown["outcome"] is None
    assert shown["last_events"] == [
        {
            "type": "fish",
            "seat": 0,
            "matched_index": 1,
            "count": 4,
        }
    ]


# --------------------------------------------------------------------------
# Replays and the fast paths agree with flipping by hand


def test_seed_and_action_log_replay_the_same_state():
    options = {"starter": "cat", "limit": 5000}
    state = k.new_game(99, options=options)
    log = []
    for _ in range(120):
        seat = state["turn"]
        log.append((seat, dict(FLIP)))
        state, _ = k.apply(state, seat, FLIP)
    replayed = k.new_game(99, options=options)
    for seat, action in log:
        replayed, _ = k.apply(replayed, seat, action)
    assert replayed == state
    assert json.loads(json.dumps(state)) == state


@pytest.mark.parametrize("seed", range(8))
def test_finish_equals_flipping_by_hand(seed):
    state = k.new_game(seed, options={"starter": "cat" if seed % 2 else "you"})
    for stop in (0, 1, 2, 37, 150):
        mid = state
        for _ in range(stop):
            if mid["result"] is None:
                mid, _ = step(mid)
        before = copy.deepcopy(mid)
        fast, summary = k.finish(mid)
        slow = play_by_hand(mid)
        assert mid == before
        for key in ("piles", "table", "moves", "result", "turn"):
            assert fast[key] == slow[key], key
        assert summary["winner"] == slow["result"]["winner"]
        assert summary["moves"] == slow["moves"]
        assert summary["flips"] == slow["moves"] - mid["moves"]
        assert k.outcome(fast) == k.outcome(slow)


def test_finish_with_the_limit_and_on_a_finished_game():
    state = k.new_game(4, options={"limit": 61})
    fast, summary = k.finish(state)
    slow = play_by_hand(state)
    assert fast["result"] == slow["result"] and fast["result"]["reason"] == "limit"
    assert fast["piles"] == slow["piles"] and fast["table"] == slow["table"]
    assert summary["moves"] == 61
    again, summary_again = k.finish(fast)
    assert again == fast
    assert summary_again["flips"] == 0
    assert k.view(fast, 0)["last_events"][-1]["type"] == "game_over"


def test_play_out_equals_flipping_via_apply_on_random_deals():
    rng = random.Random(2024)
    seen = set()
    for game in range(120):
        seed = rng.randrange(10**9)
        limit = rng.choice([5000, 5000, 5000, 60, 201])
        starter = "cat" if game % 2 else "you"
        state = k.new_game(seed, options={"starter": starter, "limit": limit})
        you, cat = state["piles"]
        end = play_by_hand(state)
        expected = {
            "winner": end["result"]["winner"],
            "reason": end["result"]["reason"],
            "moves": end["moves"],
            "you": len(end["piles"][0]),
            "cat": len(end["piles"][1]),
        }
        assert k.play_out(you, cat, starter=starter, limit=limit) == expected
        seen.add((expected["reason"], expected["winner"]))
    # Both ways of ending and both winners were covered.
    assert {("empty", "you"), ("empty", "cat"), ("limit", "you"), ("limit", "cat")} <= seen


def test_play_out_rejects_unknown_cards():
    with pytest.raises(ValueError):
        k.play_out(["ZZ"], ["2C"])
    with pytest.raises(ValueError):
        k.play_out(["2C"], ["2C"], starter="nobody")


def test_play_out_known_game():
    # Hand-checked: you 9H, cat 9C fishes 2 cards, you 5S (last) stays -> you lose.
    assert k.play_out(["9H", "5S"], ["9C", "KD"]) == {
        "winner": "cat",
        "reason": "empty",
        "moves": 3,
        "you": 0,
        "cat": 3,
    }
    # Cat starts: 9C stays, 9H fishes 2 cards, KD (cat's last) stays -> cat loses.
    assert k.play_out(["9H", "5S"], ["9C", "KD"], starter="cat") == {
        "winner": "you",
        "reason": "empty",
        "moves": 3,
        "you": 3,
        "cat": 0,
    }


# --------------------------------------------------------------------------
# Card names


def test_card_labels_and_symbols():
    assert k.card_label("AS") == "Pik Ass"
    assert k.card_label("10H") == "Herz 10"
    assert k.card_label("JD") == "Karo Bube"
    assert k.card_label("QC") == "Kreuz Dame"
    assert k.card_label("KC") == "Kreuz König"
    assert k.card_label("7D") == "Karo 7"
    assert k.card_symbol("AS") == "A♠"
    assert k.card_symbol("10H") == "10♥"
    assert k.card_symbol("JD") == "J♦"
    assert k.card_symbol("KC") == "K♣"
    assert len({k.card_label(c) for c in k.CARDS}) == 52
    assert len({k.card_symbol(c) for c in k.CARDS}) == 52
    with pytest.raises(ValueError):
        k.card_label("11S")


# --------------------------------------------------------------------------
# Statistics


def test_simulate_matches_play_out_on_the_same_deals():
    figures = k.simulate(60, seed=5, limit=700)
    rng = random.Random(5)
    deck = list(range(52))
    moves, starter_wins, at_limit = [], 0, 0
    for game in range(60):
        rng.shuffle(deck)
        codes = [k.CARDS[i] for i in deck]
        starter = ("you", "cat")[game % 2]
        result = k.play_out(codes[0::2], codes[1::2], starter=starter, limit=700)
        moves.append(result["moves"])
        starter_wins += result["winner"] == starter
        at_limit += result["reason"] == "limit"
    assert figures["games"] == 60
    assert figures["mean_moves"] == pytest.approx(sum(moves) / 60)
    assert figures["starter_win_rate"] == pytest.approx(starter_wins / 60)
    assert figures["share_limit"] == pytest.approx(at_limit / 60)
    assert figures["max_moves"] == max(moves) <= 700
    assert sum(b["count"] for b in figures["histogram"]) == 60
    assert figures["histogram"][-1]["to"] == 700
    for bin_ in figures["histogram"]:
        assert bin_["count"] == sum(bin_["from"] <= m <= bin_["to"] for m in moves)


def test_simulate_histogram_bins():
    figures = k.simulate(50, seed=1)
    bins = figures["histogram"]
    assert bins[0] == {"from": 1, "to": 100, "count": bins[0]["count"]}
    assert [b["to"] for b in bins[:20]] == list(range(100, 2001, 100))
    assert bins[-1]["from"] == 2001 and bins[-1]["to"] == 5000
    assert len(bins) == 21


def test_simulate_median_is_near_400_moves():
    # The article's figure. A wrong rule (reversed won cards, extra turns,
    # no Jack rule) moves the median far away from this window.
    figures = k.simulate(20000, seed=0)
    assert 370 <= figures["median_moves"] <= 430
    assert 0.45 <= figures["starter_win_rate"] <= 0.55
    assert figures["share_over_500"] > figures["share_over_1000"] > 0


def test_the_house_rule_for_the_statistics_gives_the_winner_another_flip():
    """Only the statistics play „wer gewinnt, deckt noch einmal auf“ (to measure it)."""
    from collections import deque

    from games.engines.kaetzchen import _CARD_INDEX, CARDS, _run, _run_extra_turn

    def piles():
        you = deque(_CARD_INDEX[c] for c in ["5H", "5S", "7C"])
        cat = deque(_CARD_INDEX[c] for c in ["9D", "3D", "KD"])
        return you, cat

    # 5H stays, 9D stays, 5S angles 5H 9D 5S – and with the house rule „you“ flips again.
    table = []
    loser, flips = _run_extra_turn(piles(), table, 0, 4)
    assert (loser, flips) == (None, 4) and [CARDS[c] for c in table] == ["7C"]
    table = []
    _run(piles(), table, 0, 4)
    assert [CARDS[c] for c in table] == ["3D"], "without it, the other one flips"
    figures = k.simulate(200, seed=1, extra_turn=True)
    assert figures["extra_turn"] is True and figures["games"] == 200
