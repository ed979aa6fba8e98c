"""The Cat engine: the seed's example, fixed positions and the real-time rules."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest

from games.engines import the_cat as tc
from games.engines.the_cat import IllegalAction

FOUR = ["grimmig", "frech", "stolz", "albern"]


def same(mood: str) -> list[str]:
    return [mood] * 4


def mixed(*moods: str) -> list[str]:
    return list(moods)


def brad_and_jack() -> dict:
    """Seed example: Brad (seat 0) has four finished stacks, Jack (seat 1) two."""
    return tc.arranged(
        3,
        [
            [same(m) for m in FOUR],
            [same("traurig"), same("hungrig"), None, None],
            [None, None, None, None],
        ],
        options={"names": ["Brad", "Jack", "Mia"]},
    )


def all_cards(state: dict) -> Counter:
    cards = Counter(state["middle"])
    for own in state["stacks"]:
        for stack in own:
            cards.update(stack)
    return cards


# --- The seed's example and scoring -----------------------------------------------


def test_seed_example_brad_5_points_jack_2():
    state, events = tc.apply(brad_and_jack(), 0, {"type": "stop"})
    result = state["round_result"]
    assert result["caller"] == 0 and result["caller_right"] is True
    assert [row["points"] for row in result["rows"]][:2] == [5, 2]
    assert result["rows"][1]["finished"] == 2
    end = next(e for e in events if e["type"] == "round_end")
    assert end["points"][:2] == [5, 2] and end["reason"] == "stop"
    assert state["scores"][:2] == [5, 2]
    assert state["score_sheet"] == [[5, 2, state["scores"][2]]]


def test_wrong_stop_gives_the_caller_nothing():
    state = tc.arranged(
        3,
        [
            [
                same("grimmig"),
                same("frech"),
                same("stolz"),
                mixed("albern", "albern", "albern", "traurig"),
            ],
            [same("hungrig"), None, None, None],
            [None, None, None, None],
        ],
    )
    state, _ = tc.apply(state, 0, {"type": "stop"})
    result = state["round_result"]
    assert result["caller_right"] is False
    assert result["rows"][0]["points"] == 0  # three right stacks count for nothing
    assert result["rows"][0]["finished"] == 3
    assert result["rows"][1]["points"] == 1  # the others still score
    assert [s["finished"] for s in result["rows"][0]["stacks"]] == [True, True, True, False]


def test_round_points_rule():
    done = [["a-1", "a-2", "a-3", "a-4"]]
    assert tc.round_points([done * 3, done * 2, []], caller=0) == [4, 2, 0]
    assert tc.round_points([done * 3, done * 2, []], caller=None) == [3, 2, 0]


def test_four_players_at_most_four_points():
    state = tc.arranged(4, [[same(m) for m in FOUR[:3]], [None] * 3, [None] * 3, [None] * 3])
    state, _ = tc.apply(state, 0, {"type": "stop"})
    assert state["round_result"]["rows"][0]["points"] == 4


def test_a_stack_finished_from_the_deal_counts_without_being_looked_at():
    state = tc.arranged(3, [[same("grimmig"), None, None, None], [None] * 4, [None] * 4])
    assert state["seen"][0] == [False] * 4
    state, _ = tc.apply(state, 1, {"type": "stop"})
    assert state["round_result"]["rows"][0]["points"] == 1
    assert state["round_result"]["rows"][0]["stacks"][0]["finished"] is True
    # A deal that is already complete: calling at once is right.
    state = tc.arranged(4, [[same(m) for m in FOUR[:3]], [None] * 3, [None] * 3, [None] * 3])
    state, _ = tc.apply(state, 0, {"type": "stop"})
    assert state["round_result"]["caller_right"] is True


def test_several_players_past_20_tie_and_win_together():
    state = tc.arranged(
        3,
        [
            [same(m) for m in FOUR],
            [same(m) for m in ("traurig", "hungrig", "verliebt", "verwirrt")],
            [None] * 4,
        ],
        scores=[18, 19, 5],
    )
    state, events = tc.apply(state, 0, {"type": "stop"})
    assert state["scores"][:2] == [23, 23]
    assert state["phase"] == tc.OVER
    assert tc.outcome(state) == {"winners": [0, 1], "points": [23, 23, 5], "reason": "target"}
    assert events[-1]["type"] == "game_over" and events[-1]["winners"] == [0, 1]


def test_short_game_ends_at_12():
    state = tc.arranged(
        3,
        [[same(m) for m in FOUR], [None] * 4, [None] * 4],
        options={"target": 12},
        scores=[7, 0, 0],
    )
    state, _ = tc.apply(state, 0, {"type": "stop"})
    assert tc.outcome(state)["winners"] == [0]


def test_the_caller_deals_next_and_the_round_restarts_after_everyone_confirms():
    state = brad_and_jack()
    assert state["dealer"] == 0
    state, _ = tc.apply(state, 1, {"type": "stop"}, now=5.0)
    assert state["dealer"] == 1 and state["phase"] == tc.REVEAL
    state, _ = tc.apply(state, 0, {"type": "continue"}, now=6.0)
    state, _ = tc.apply(state, 1, {"type": "continue"}, now=7.0)
    assert state["phase"] == tc.REVEAL
    with pytest.raises(IllegalAction, match="schon bereit"):
        tc.apply(state, 1, {"type": "continue"})
    state, events = tc.apply(state, 2, {"type": "continue"}, now=8.0)
    assert state["phase"] == tc.PLAY and state["round"] == 2
    deal = events[-1]
    assert deal == {**deal, "type": "deal", "round": 2, "dealer": 1, "at": 8.0}
    assert state["scores"][:2] == [4, 0]  # Jack called wrongly, Brad scored his four stacks


# --- Deal --------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "cards", "stacks"), [(2, 36, 4), (3, 52, 4), (4, 52, 3)])
def test_card_counts(players, cards, stacks):
    for seed in range(5):
        state = tc.new_game(seed, players)
        assert sum(all_cards(state).values()) == cards
        assert max(all_cards(state).values()) == 1  # every physical card once
        assert len(state["middle"]) == 4
        assert [len(own) for own in state["stacks"]] == [stacks] * players
        assert all(len(stack) == 4 for own in state["stacks"] for stack in own)
        moods = Counter(tc.mood_of(card) for card in all_cards(state))
        assert set(moods.values()) == {4}
        assert len(moods) == (9 if players == 2 else 13)
        if players == 2:
            assert set(state["removed"]).isdisjoint(moods)


def test_two_players_the_host_chooses_the_removed_moods_for_the_whole_game():
    options = {"removed": ["albern", "stolz", "frech", "grimmig"]}
    state = tc.new_game(3, 2, options)
    assert state["removed"] == ["grimmig", "frech", "stolz", "albern"]
    assert not {tc.mood_of(c) for c in all_cards(state)} & set(FOUR)
    state, _ = tc.apply(state, 0, {"type": "stop"})
    state, _ = tc.timeout(state)
    assert state["round"] == 2 and state["removed"] == ["grimmig", "frech", "stolz", "albern"]
    assert not {tc.mood_of(c) for c in all_cards(state)} & set(FOUR)
    with pytest.raises(ValueError):
        tc.new_game(3, 2, {"removed": ["grimmig", "grimmig", "frech", "stolz"]})


def test_by_chance_the_removed_moods_stay_for_the_whole_game():
    state = tc.new_game(11, 2)
    first = state["removed"]
    assert len(first) == 4
    state, _ = tc.apply(state, 0, {"type": "stop"})
    state, _ = tc.timeout(state)
    assert state["removed"] == first


def test_bad_setups_are_refused():
    for players in (1, 5):
        with pytest.raises(ValueError):
            tc.new_game(0, players)
    with pytest.raises(ValueError):
        tc.new_game(0, 3, {"target": 30})
    with pytest.raises(ValueError):
        tc.new_game(0, 3, {"bots": {"1": "rasant"}})
    with pytest.raises(ValueError):
        tc.new_game(0, 3, {"cheater": [1]})  # not a bot


# --- Actions ------------------------------------------------------------------------


def test_only_one_stack_in_hand():
    state = tc.new_game(1, 3)
    state, events = tc.apply(state, 0, {"type": "take", "stack": 2})
    assert events == [{"type": "take", "seat": 0, "stack": 2, "at": 0.0}]
    with pytest.raises(IllegalAction, match="schon einen Stapel"):
        tc.apply(state, 0, {"type": "take", "stack": 1})
    state, _ = tc.apply(state, 0, {"type": "put_back"})
    with pytest.raises(IllegalAction, match="keinen Stapel"):
        tc.apply(state, 0, {"type": "put_back"})
    # Taking back the stack just put down is allowed.
    state, _ = tc.apply(state, 0, {"type": "take", "stack": 2})
    assert state["held"][0] == 2
    with pytest.raises(IllegalAction, match="Diesen Stapel"):
        tc.apply(state, 1, {"type": "take", "stack": 4})


def test_swap_is_atomic_and_keeps_the_slot():
    state = tc.new_game(2, 3)
    state, _ = tc.apply(state, 0, {"type": "take", "stack": 0})
    give, want = state["stacks"][0][0][1], state["middle"][2]
    state, events = tc.apply(state, 0, {"type": "swap", "give": give, "want": want}, now=1.5)
    assert state["middle"][2] == give and state["stacks"][0][0][1] == want
    assert events == [
        {"type": "swap", "seat": 0, "stack": 0, "gave": give, "took": want, "slot": 2, "at": 1.5}
    ]
    assert len(state["middle"]) == 4 and all(len(s) == 4 for s in state["stacks"][0])


def test_no_swap_between_own_stacks():
    state = tc.new_game(2, 3)
    state, _ = tc.apply(state, 0, {"type": "take", "stack": 0})
    other = state["stacks"][0][1][0]
    mine = state["stacks"][0][0][0]
    with pytest.raises(IllegalAction, match="nie zwischen deinen eigenen Stapeln"):
        tc.apply(state, 0, {"type": "swap", "give": mine, "want": other})
    with pytest.raises(IllegalAction, match="nie zwischen deinen eigenen Stapeln"):
        tc.apply(state, 0, {"type": "swap", "give": other, "want": state["middle"][0]})
    with pytest.raises(IllegalAction, match="schon auf der Hand"):
        tc.apply(state, 0, {"type": "swap", "give": mine, "want": state["stacks"][0][0][1]})
    with pytest.raises(IllegalAction, match="Unbekannte Karte"):
        tc.apply(state, 0, {"type": "swap", "give": mine, "want": "einhorn-1"})
    state, _ = tc.apply(state, 0, {"type": "put_back"})
    with pytest.raises(IllegalAction, match="Nimm erst"):
        tc.apply(state, 0, {"type": "swap", "give": mine, "want": state["middle"][0]})


def test_contention_on_one_middle_card_exactly_one_gets_it():
    state = tc.new_game(4, 3)
    state, _ = tc.apply(state, 0, {"type": "take", "stack": 0})
    state, _ = tc.apply(state, 1, {"type": "take", "stack": 0})
    wanted = state["middle"][1]
    first = {"type": "swap", "give": state["stacks"][0][0][0], "want": wanted}
    second = {"type": "swap", "give": state["stacks"][1][0][0], "want": wanted}
    after_first, _ = tc.apply(state, 0, first, now=2.0)
    before = copy.deepcopy(after_first)
    with pytest.raises(IllegalAction) as refused:
        tc.apply(after_first, 1, second, now=2.0)
    assert str(refused.value) == "Zu spät – die Karte hat gerade jemand genommen."
    assert after_first == before  # nothing changed
    assert wanted in after_first["stacks"][0][0] and wanted not in after_first["stacks"][1][0]
    # The card the first player gave is still there and can be had.
    again = {"type": "swap", "give": state["stacks"][1][0][0], "want": first["give"]}
    after_second, _ = tc.apply(after_first, 1, again, now=2.1)
    assert first["give"] in after_second["stacks"][1][0]


def test_stop_while_holding_puts_the_stack_down_and_it_counts_as_it_is():
    state = tc.arranged(
        3,
        [
            [same(m) for m in FOUR[:3]] + [mixed("albern", "albern", "albern", "traurig")],
            [None] * 4,
            [None] * 4,
        ],
        middle=["albern", "traurig", "traurig", "traurig"],
    )
    state, _ = tc.apply(state, 0, {"type": "take", "stack": 3})
    state, _ = tc.apply(state, 0, {"type": "swap", "give": "traurig-1", "want": "albern-4"})
    state, events = tc.apply(state, 0, {"type": "stop"})
    assert events[0] == {"type": "stop", "seat": 0, "put_down": 3, "at": 0.0}
    assert state["held"] == [None, None, None]
    assert state["round_result"]["rows"][0]["points"] == 5
    assert state["round_result"]["middle"] == ["traurig-1", "traurig-2", "traurig-3", "traurig-4"]


def test_apply_never_mutates_its_input():
    state = tc.new_game(5, 4, {"bots": {"1": "flink", "2": "normal", "3": "gemuetlich"}})
    frozen = json.dumps(state, sort_keys=True)
    tc.apply(state, 0, {"type": "take", "stack": 0}, now=20.0)
    tc.advance(state, 40.0)
    tc.timeout(state, 10.0)
    tc.remove_player(state, 1, now=3.0)
    with pytest.raises(IllegalAction):
        tc.apply(state, 0, {"type": "put_back"}, now=10.0)
    assert json.dumps(state, sort_keys=True) == frozen


def test_unknown_and_late_actions():
    state = tc.new_game(6, 2)
    for action in ({}, {"type": "fly"}, "stop", {"type": "continue"}):
        with pytest.raises(IllegalAction):
            tc.apply(state, 0, action)
    with pytest.raises(IllegalAction):
        tc.apply(state, 7, {"type": "stop"})
    state, _ = tc.apply(state, 1, {"type": "stop"})
    with pytest.raises(IllegalAction, match="Runde ist vorbei"):
        tc.apply(state, 0, {"type": "take", "stack": 0})


def test_the_same_swap_twice_is_too_late_the_second_time():
    state = tc.new_game(5, 2)
    state, _ = tc.apply(state, 0, {"type": "take", "stack": 0})
    swap = {"type": "swap", "give": state["stacks"][0][0][0], "want": state["middle"][0]}
    state, _ = tc.apply(state, 0, swap)
    with pytest.raises(IllegalAction) as refused:
        tc.apply(state, 0, swap)
    assert str(refused.value) == tc.ALREADY_SWAPPED and str(refused.value).startswith("Zu spät")


def test_a_stopp_after_the_round_ended_is_too_late_and_names_the_caller():
    state = tc.new_game(6, 3, {"names": ["Anna", "Ben", "Cem"]})
    state, _ = tc.apply(state, 1, {"type": "stop"})
    for seat, message in (
        (0, "Zu spät – Ben hat schon „Stopp!“ gerufen."),
        (1, "Zu spät – du hast schon „Stopp!“ gerufen."),
        (2, "Zu spät – Ben hat schon „Stopp!“ gerufen."),
    ):
        with pytest.raises(IllegalAction) as refused:
            tc.apply(state, seat, {"type": "stop"})
        assert str(refused.value) == message
    timed_out = tc.new_game(6, 2, {"round_seconds": 10}, now=0.0)
    timed_out, _ = tc.advance(timed_out, 11.0)
    with pytest.raises(IllegalAction, match="Zu spät – die Runde ist schon vorbei."):
        tc.apply(timed_out, 0, {"type": "stop"}, now=11.5)


def test_legal_actions_and_to_act():
    state = tc.new_game(7, 3)
    assert tc.to_act(state) == [0, 1, 2]
    assert [a["type"] for a in tc.legal_actions(state, 0)] == ["take"] * 4 + ["stop", "give_up"]
    state, _ = tc.apply(state, 0, {"type": "take", "stack": 1})
    kinds = Counter(a["type"] for a in tc.legal_actions(state, 0))
    assert kinds == {"swap": 16, "put_back": 1, "stop": 1, "give_up": 1}
    for action in tc.legal_actions(state, 0):
        tc.apply(state, 0, action)  # every offered action is accepted
    state, _ = tc.apply(state, 2, {"type": "stop"})
    assert tc.to_act(state) == [0, 1, 2]
    assert tc.legal_actions(state, 1) == [{"type": "continue"}]


# --- Rounds nobody ends -------------------------------------------------------------


def test_round_timer_ends_the_round_without_a_caller():
    state = tc.arranged(
        3,
        [[same("grimmig"), None, None, None], [None] * 4, [None] * 4],
        options={"round_seconds": 300},
    )
    assert state["deadline"] == 300.0 and tc.next_due(state) == 300.0
    state, events = tc.advance(state, 299.9)
    assert state["phase"] == tc.PLAY and events == []
    state, events = tc.advance(state, 301.0)
    end = events[0]
    assert end["type"] == "round_end" and end["reason"] == "time" and end["caller"] is None
    assert end["at"] == 300.0
    assert end["points"] == [1, 0, 0]  # finished stacks count, no bonus
    assert state["dealer"] == 0  # nobody called: the same dealer deals again
    with pytest.raises(IllegalAction):
        tc.apply(state, 0, {"type": "take", "stack": 0}, now=302.0)


def test_timeout_hook_ends_a_running_round_and_deals_after_the_reveal():
    state = tc.new_game(8, 3, {"round_seconds": None})
    assert state["deadline"] is None and tc.next_due(state) is None
    state, events = tc.timeout(state, 50.0)
    assert events[-1]["reason"] == "time" and state["phase"] == tc.REVEAL
    state, events = tc.timeout(state, 70.0)
    assert [e["type"] for e in events] == ["continue_forced", "deal"]
    assert state["round"] == 2 and state["round_started"] == 70.0


def test_everyone_giving_up_ends_the_round_bots_agree():
    state = tc.new_game(
        9, 4, {"bots": {"2": "gemuetlich", "3": "gemuetlich"}, "round_seconds": None}
    )
    state, events = tc.apply(state, 0, {"type": "give_up"}, now=0.1)
    assert state["phase"] == tc.PLAY and events[-1] == {"type": "give_up", "seat": 0, "at": 0.1}
    with pytest.raises(IllegalAction, match="schon dafür gestimmt"):
        tc.apply(state, 0, {"type": "give_up"}, now=0.1)
    state, events = tc.apply(state, 1, {"type": "give_up"}, now=0.2)
    assert events[-1]["type"] == "round_end" and events[-1]["reason"] == "given_up"
    assert state["round_result"]["caller"] is None


def test_leaving_ends_the_round_and_the_leaver_cannot_win():
    state = tc.arranged(3, [[same(m) for m in FOUR], [None] * 4, [None] * 4], scores=[15, 1, 1])
    state, _ = tc.apply(state, 0, {"type": "take", "stack": 0})
    state, events = tc.remove_player(state, 0, now=4.0)
    assert [e["type"] for e in events] == ["leave", "round_end"]
    assert events[1]["reason"] == "left" and state["held"][0] is None
    assert state["score_sheet"][-1][0] is None and state["scores"][0] == 15
    assert tc.to_act(state) == [1, 2]
    for seat in (1, 2):
        state, events = tc.apply(state, seat, {"type": "continue"})
    # Two players are left: the next deal removes four moods.
    assert state["round"] == 2 and state["stacks"][0] == []
    assert sum(all_cards(state).values()) == 36 and state["dealer"] == 1
    state, events = tc.remove_player(state, 1)
    assert tc.outcome(state) == {"winners": [2], "points": state["scores"], "reason": "abandoned"}
    with pytest.raises(IllegalAction):
        tc.remove_player(state, 1)


# --- Views --------------------------------------------------------------------------


def test_view_hides_stacks_and_removed_moods():
    state = tc.new_game(10, 2, {"bots": {"1": "normal"}})
    state, _ = tc.apply(state, 0, {"type": "take", "stack": 1})
    seen = set(state["middle"]) | set(state["stacks"][0][1])
    for seat in (0, None):
        shown = json.dumps(tc.view(state, seat))
        cards = {card for card in tc.CARDS if f'"{card}"' in shown}
        assert cards == (seen if seat == 0 else set(state["middle"]))
        assert all(f'"{mood}"' not in shown for mood in state["removed"])
        assert '"seed"' not in shown
    mine = tc.view(state, 0)
    assert mine["hand"] == state["stacks"][0][1] and mine["held"] == 1 and mine["my_stacks"] == 4
    assert mine["seats"][1] == {**mine["seats"][1], "stacks": 4, "holding": False, "bot": "normal"}
    assert mine["round_result"] is None and mine["removed"] is None
    other = tc.view(state, 1)
    assert other["hand"] is None and other["seats"][0]["holding"] is True
    # After the round everything is revealed.
    state, _ = tc.apply(state, 1, {"type": "stop"})
    revealed = tc.view(state, 1)
    assert revealed["removed"] == state["removed"]
    assert revealed["round_result"]["rows"][0]["stacks"][1]["cards"] == state["stacks"][0][1]
    assert revealed["round_result"]["removed"] == state["removed"]


def test_a_host_chosen_set_of_removed_moods_is_public_from_the_start():
    """Chance keeps the four moods secret until the reveal; the host's choice was made
    in the open (like at the table), so every view names it during play too."""
    chosen = ["verwirrt", "frech", "traurig", "albern"]
    state = tc.new_game(10, 2, {"removed": chosen})
    for seat in (0, 1, None):
        assert tc.view(state, seat)["removed"] == [m for m in tc.MOOD_KEYS if m in chosen]
    assert tc.view(tc.new_game(10, 2, {"removed": "zufall"}), 0)["removed"] is None


def test_events_carry_data_only():
    state = tc.new_game(12, 4, {"bots": {str(s): "flink" for s in range(1, 4)}})
    state, events = tc.advance(state, 200.0)
    assert events
    for event in events:
        assert "text" not in event and isinstance(event["at"], float)
        json.dumps(event)


# --- Bots and time --------------------------------------------------------------------


def bot_game(seed: int = 21) -> dict:
    return tc.new_game(
        seed,
        4,
        {"bots": {"1": "normal", "2": "flink", "3": "gemuetlich"}, "cheater": [3]},
        now=1000.0,
    )


def test_bots_act_on_the_given_clock_only():
    state = bot_game()
    due = tc.next_due(state)
    assert 1000.0 < due < 1002.0
    quiet, events = tc.advance(state, due - 0.01)
    assert events == [] and quiet["bot_due"] == state["bot_due"]
    state, events = tc.advance(state, due)
    assert len(events) == 1 and events[0]["at"] == due and events[0]["type"] == "take"


def test_bot_actions_do_not_depend_on_how_often_the_server_polls():
    once, events_once = tc.advance(bot_game(), 1060.0)
    polled, events_polled = bot_game(), []
    now = 1000.0
    while now < 1060.0:
        now = round(now + 0.37, 2)
        polled, events = tc.advance(polled, min(now, 1060.0))
        events_polled += events
    assert events_once == events_polled
    assert once == polled


def test_replay_from_the_seed_repeats_the_bots_exactly():
    state = bot_game()
    log = []
    now = 1000.0
    for step in range(40):
        now += 1.3
        legal = tc.legal_actions(state, 0)
        if not legal:
            break
        action = legal[(step * 7) % len(legal)]
        if action["type"] in ("stop", "give_up") and step < 35:
            action = legal[0]
        try:
            state, _ = tc.apply(state, 0, action, now=now)
        except IllegalAction:
            continue
        log.append({"seat": 0, "action": action, "now": now})
    log.append({"op": "advance", "now": now + 30})
    state, _ = tc.advance(state, now + 30)
    options = {"bots": {"1": "normal", "2": "flink", "3": "gemuetlich"}, "cheater": [3]}
    again = tc.replay(21, 4, options, log, start=1000.0)
    assert again == state
    assert sum(state["bot_steps"]) > 0 or state["round"] > 1


def test_honest_bots_only_call_when_right_and_rounds_end():
    for seed in range(6):
        for players in (2, 3, 4):
            bots = {str(s): "flink" for s in range(players)}
            state = tc.new_game(seed, players, {"bots": bots})
            state, events = tc.advance(state, 150.0)
            ends = [e for e in events if e["type"] == "round_end"]
            assert ends, "a bot round must end"
            for end in ends:
                assert end["reason"] == "stop" and end["caller_right"] is True


def test_the_cheater_sometimes_calls_too_early():
    wrong = 0
    for seed in range(12):
        options = {"bots": {str(s): "normal" for s in range(4)}, "cheater": [0]}
        state = tc.new_game(seed, 4, options)
        state, events = tc.advance(state, 200.0)
        first = next(e for e in events if e["type"] == "round_end")
        wrong += first["caller_right"] is False
        assert first["caller_right"] or first["caller"] == 0
    assert wrong > 0


def test_a_human_action_first_lets_the_bots_catch_up():
    state = tc.new_game(13, 2, {"bots": {"1": "flink"}}, now=0.0)
    state, events = tc.apply(state, 0, {"type": "take", "stack": 0}, now=5.0)
    assert events[-1] == {"type": "take", "seat": 0, "stack": 0, "at": 5.0}
    assert all(e["seat"] == 1 and e["at"] <= 5.0 for e in events[:-1]) and len(events) > 1
    assert state["now"] == 5.0
    # Time never runs backwards: an older "now" acts at the state's time.
    state, events = tc.apply(state, 0, {"type": "put_back"}, now=1.0)
    assert events[-1]["at"] == 5.0


def test_a_whole_game_with_one_human_and_bots_reaches_the_target():
    options = {"bots": {"1": "flink", "2": "flink"}, "target": 12}
    state = tc.new_game(31, 3, options, now=0.0)
    rng = random.Random(31)
    for _ in range(3000):
        if tc.outcome(state):
            break
        now = state["now"] + 1.5
        # The human plays like a (slow) bot and confirms every reveal.
        action = tc.bot_action(tc.bot_view(state, 0), rng)
        if action is None:
            state, _ = tc.advance(state, now)
            continue
        try:
            state, _ = tc.apply(state, 0, action, now=now)
        except IllegalAction:
            # The bots moved first (the card is gone, or the round ended):
            # the server still lets their steps happen.
            state, _ = tc.advance(state, now)
    result = tc.outcome(state)
    assert result and result["reason"] == "target" and max(result["points"]) >= 12
    best = max(result["points"])
    assert result["winners"] == [s for s in range(3) if result["points"][s] == best]
    assert [sum(row[s] for row in state["score_sheet"]) for s in range(3)] == result["points"]
    assert tc.next_due(state) is None and tc.to_act(state) == []
    with pytest.raises(IllegalAction, match="vorbei"):
        tc.apply(state, 0, {"type": "stop"})


def test_try_apply_keeps_the_bot_steps_when_the_click_comes_too_late():
    state = tc.new_game(13, 2, {"bots": {"1": "flink"}}, now=0.0)
    state, _ = tc.apply(state, 0, {"type": "take", "stack": 0}, now=0.1)
    # Find the first bot swap and name its card a moment too late.
    later, events = tc.advance(state, 120.0)
    swap = next(e for e in events if e["type"] == "swap" and e["seat"] == 1)
    late = {"type": "swap", "give": state["stacks"][0][0][0], "want": swap["took"]}
    new, events, refused = tc.try_apply(state, 0, late, now=swap["at"] + 0.01)
    assert refused == tc.TOO_LATE
    assert events[-1] == swap and new["now"] == swap["at"] + 0.01
    assert new["stacks"][0] == state["stacks"][0]
    new, events, refused = tc.try_apply(new, 0, {"type": "put_back"}, now=swap["at"] + 0.02)
    assert refused is None and events[-1]["type"] == "put_back"
