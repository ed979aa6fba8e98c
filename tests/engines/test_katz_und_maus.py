"""Katz und Maus engine: the rules from fixed positions (seed 003 and the
article's decisions)."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest

from games.engines.katz_und_maus import (
    DECK,
    DEFAULT_STOCK,
    IllegalAction,
    apply,
    arrange,
    bot_action,
    card_count,
    legal_actions,
    new_game,
    outcome,
    remove_player,
    timeout,
    to_act,
    view,
)

FULL_DECK = Counter({card: 2 for card in DECK})
RUN = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS"]  # values 1–11


def play(state, seat, source, pile, **extra):
    return apply(state, seat, {"type": "play", "source": source, "pile": pile, **extra})


def discard(state, seat, card, pile):
    return apply(state, seat, {"type": "discard", "card": card, "pile": pile})


def types(events):
    return [event["type"] for event in events]


# --- Dealing ---------------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 7))
def test_the_deal_follows_the_article(players):
    state = new_game(5, players)
    size = DEFAULT_STOCK[players]
    assert [len(stock) for stock in state["stocks"]] == [size] * players
    assert state["dealer"] == 0 and state["turn"] == 1
    assert len(state["hands"][1]) == 5, "the starting player fills the hand"
    assert all(not hand for seat, hand in enumerate(state["hands"]) if seat != 1)
    assert len(state["draw_pile"]) == 104 - players * size - 5
    assert card_count(state) == FULL_DECK


def test_stock_size_is_an_option():
    assert len(new_game(1, 2, {"stock_size": 30})["stocks"][0]) == 30
    assert len(new_game(1, 6, {"stock_size": 12})["stocks"][0]) == 12
    for wrong in (7, 31, "20"):
        with pytest.raises(ValueError):
            new_game(1, 2, {"stock_size": wrong})
    with pytest.raises(ValueError):
        new_game(1, 3, {"teams": True})


def test_same_seed_same_game():
    assert new_game(9, 4) == new_game(9, 4)
    assert new_game(9, 4)["stocks"] != new_game(10, 4)["stocks"]


# --- Build piles and Kings ------------------------------------------------------------


def test_a_king_stands_for_the_value_where_it_lies():
    state = arrange(
        2, stocks=[["9H"], ["9D"]], hands=[["4C", "KD", "5C"], []], build=[["AS", "2H", "KD"]]
    )
    me = view(state, 0)
    assert me["build"][0] == {"top": "KD", "value": 3, "size": 3}
    assert {"type": "play", "source": "hand", "card": "4C", "pile": 0} in legal_actions(state, 0)
    assert {"type": "play", "source": "hand", "card": "5C", "pile": 0} not in legal_actions(
        state, 0
    )
    state, events = play(state, 0, "hand", 0, card="4C")
    assert events[0]["value"] == 4
    assert state["build"][0] == ["AS", "2H", "KD", "4C"], "the King stays a King"


def test_a_new_pile_starts_with_an_ace_or_a_king():
    state = arrange(2, stocks=[["9H"], ["9D"]], hands=[["2C", "KD", "AH"], []])
    with pytest.raises(IllegalAction, match="Ass oder einem König"):
        play(state, 0, "hand", 2, card="2C")
    state, events = play(state, 0, "hand", 2, card="KD")
    assert events[0]["value"] == 1


def test_a_king_on_the_jack_completes_the_pile_and_it_goes_under_the_draw_pile():
    state = arrange(2, stocks=[["9H"], ["9D"]], hands=[["KC", "7D"], []], build=[[], RUN])
    top_before = state["draw_pile"][-5:]
    state, events = play(state, 0, "hand", 1, card="KC")
    assert types(events)[:2] == ["play", "complete"]
    assert events[0]["value"] == 12
    assert events[1] == {"type": "complete", "pile": 1, "to": "draw_pile"}
    assert state["build"][1] == []
    assert Counter(state["draw_pile"][:12]) == Counter([*RUN, "KC"]), "under the draw pile"
    assert state["draw_pile"][-5:] == top_before, "the next cards drawn stay the same"
    assert card_count(state) == FULL_DECK


def test_a_queen_on_a_king_standing_for_the_jack_completes():
    state = arrange(2, stocks=[["9H"], ["9D"]], hands=[["QC", "7D"], []], build=[[*RUN[:10], "KH"]])
    state, events = play(state, 0, "hand", 0, card="QC")
    assert "complete" in types(events) and state["build"][0] == []


def test_completed_piles_can_be_removed_instead():
    state = arrange(
        2,
        stocks=[["9H"], ["9D"]],
        hands=[["QC", "7D"], []],
        build=[RUN],
        options={"completed": "remove"},
    )
    size = len(state["draw_pile"])
    state, events = play(state, 0, "hand", 0, card="QC")
    assert events[1]["to"] == "gone"
    assert len(state["draw_pile"]) == size and len(state["gone"]) == 12


def test_only_tops_play_and_discards_are_face_up():
    state = arrange(
        2,
        stocks=[["9H", "AD"], ["9D"]],
        hands=[["7D"], []],
        discards=[[["AC", "8C"], [], [], []], [[], [], [], []]],
    )
    actions = legal_actions(state, 0)
    assert {"type": "play", "source": "stock", "pile": 0} in actions
    assert not any(a.get("source") == "discard" for a in actions), "the Ace lies under the 8"
    assert view(state, 1)["seats"][0]["discards"][0] == ["AC", "8C"], "fanned, face up"


# --- A turn -------------------------------------------------------------------------------


def test_an_emptied_hand_draws_five_at_once_and_the_turn_goes_on():
    state = arrange(
        2, stocks=[["9H"], ["9D"]], hands=[["AC"], []], draw_top=["2C", "3C", "4C", "5C", "6C"]
    )
    state, events = play(state, 0, "hand", 0, card="AC")
    assert events[-1] == {
        "type": "draw",
        "seat": 0,
        "count": 5,
        "wanted": 5,
        "reason": "empty_hand",
    }
    assert state["hands"][0] == ["2C", "3C", "4C", "5C", "6C"] and state["turn"] == 0


def test_a_pile_completed_by_the_last_hand_card_goes_under_before_the_refill():
    state = arrange(
        2,
        stocks=[["9H"], ["9D"]],
        hands=[["QC"], []],
        build=[RUN],
        draw_top=["2C", "3C"],
        draw_size=2,
    )
    state, events = play(state, 0, "hand", 0, card="QC")
    assert types(events) == ["play", "complete", "draw"]
    assert events[-1]["count"] == 5, "two from before plus three of the completed pile"
    assert {"2C", "3C"} <= set(state["hands"][0])
    assert len(state["draw_pile"]) == 9


def test_the_turn_ends_with_a_hand_card_on_an_own_discard_pile():
    state = arrange(2, stocks=[["9H", "3D"], ["9D", "5D"]], hands=[["7D", "8C"], ["2C"]])
    with pytest.raises(IllegalAction, match="Ablagestapel"):
        apply(state, 0, {"type": "end"})
    state, events = discard(state, 0, "8C", 2)
    assert state["discards"][0][2] == ["8C"]
    assert types(events) == ["discard", "turn", "draw"]
    assert events[-1] == {"type": "draw", "seat": 1, "count": 4, "wanted": 4, "reason": "turn"}
    assert state["turn"] == 1 and len(state["hands"][1]) == 5


def test_a_short_draw_pile_gives_what_it_has():
    state = arrange(
        2,
        stocks=[["9H", "3D"], ["9D", "5D"]],
        hands=[["7D", "8C"], []],
        draw_top=["2C", "3C"],
        draw_size=2,
        options={"empty_draw": "end"},
    )
    state, events = discard(state, 0, "8C", 0)
    assert events[-1] == {"type": "draw", "seat": 1, "count": 2, "wanted": 5, "reason": "turn"}
    assert state["hands"][1] == ["2C", "3C"] and state["draw_pile"] == []


# --- When the draw pile is used up: the source's end (default) and our variant -------------

RESHUFFLE = {"empty_draw": "recycle"}


def test_by_default_the_source_rule_ends_the_game_when_the_draw_pile_is_used_up():
    """Seed 003: „Ist der Kartenstock gänzlich aufgebraucht …“ – no new draw pile is made
    from the build piles, even with build piles on the table."""
    assert new_game(1, 2)["empty_draw"] == "end"
    state = arrange(
        2,
        stocks=[["9H", "3D"], ["9D", "5D", "6D"]],
        hands=[["7D", "8C"], []],
        draw_size=0,
        build=[["AH", "2H", "3H"], ["AD"]],
    )
    assert state["empty_draw"] == "end"
    before = copy.deepcopy(state)
    state, events = discard(state, 0, "8C", 0)
    assert "recycle" not in types(events)
    assert types(events)[-2:] == ["round_end", "game_over"]
    result = outcome(state)
    assert result["reason"] == "exhausted" and result["winners"] == [0], "2 stock cards beat 3"
    assert state["build"] == before["build"], "the build piles stay where they are"


def test_by_default_a_short_draw_pile_gives_what_it_has_and_the_game_goes_on():
    state = arrange(
        2,
        stocks=[["9H", "3D"], ["9D", "5D"]],
        hands=[["7D", "8C"], ["8D"]],
        draw_top=["2C", "3C"],
        draw_size=2,
        build=[["AH", "2H", "3H"], ["AD"]],
    )
    state, events = discard(state, 0, "8C", 0)
    assert types(events) == ["discard", "turn", "draw"]
    assert events[-1]["count"] == 2 and events[-1]["wanted"] == 4
    assert outcome(state) is None and state["draw_pile"] == []
    assert [len(pile) for pile in state["build"]] == [3, 1, 0, 0]


def test_by_default_an_emptied_hand_with_nothing_left_to_draw_ends_the_game():
    # The last hand card goes on a build pile; five new cards are due but none is left.
    state = arrange(
        2,
        stocks=[["9H", "3D"], ["9D", "5D", "6D"]],
        hands=[["4C"], []],
        draw_size=0,
        build=[["AH", "2H", "3H"]],
    )
    state, events = play(state, 0, "hand", 0, card="4C")
    assert types(events)[-2:] == ["round_end", "game_over"]
    assert outcome(state)["reason"] == "exhausted"


def test_the_variant_option_is_checked():
    with pytest.raises(ValueError, match="leeren Kartenstock"):
        new_game(1, 2, {"empty_draw": "weiter"})
    assert new_game(1, 2, RESHUFFLE)["empty_draw"] == "recycle"


def test_variant_an_empty_draw_pile_is_refilled_from_the_build_piles_once():
    state = arrange(
        2,
        stocks=[["9H", "3D"], ["9D", "5D"]],
        hands=[["7D", "8C"], []],
        draw_top=["2C", "3C"],
        draw_size=2,
        build=[["AH", "2H", "3H"], ["AD"]],
        options=RESHUFFLE,
    )
    state, events = discard(state, 0, "8C", 0)
    assert types(events) == ["discard", "turn", "recycle", "draw"]
    assert events[2]["count"] == 4
    assert events[-1]["count"] == 5 and {"2C", "3C"} <= set(state["hands"][1])
    assert state["build"] == [[], [], [], []] and len(state["draw_pile"]) == 1
    # Empty again without a stock card played since: the game ends.
    state["build"][0] = state["draw_pile"]  # the last card, wherever it came from
    state["draw_pile"] = []
    state, events = discard(state, 1, state["hands"][1][0], 0)
    assert "recycle" not in types(events)
    assert outcome(state)["reason"] == "exhausted"


# --- Winning -------------------------------------------------------------------------------


def test_emptying_the_stock_wins_at_once_even_mid_turn():
    state = arrange(2, stocks=[["2D"], ["9D", "5D", "7C"]], hands=[["AC", "9C", "10C"], []])
    state, events = play(state, 0, "hand", 0, card="AC")
    assert outcome(state) is None
    state, events = play(state, 0, "stock", 0)
    assert types(events) == ["play", "stock_empty", "round_end", "game_over"]
    result = outcome(state)
    assert result == {"winners": [0], "reason": "stock", "draw": False, "points": [40, 0]}
    assert state["round_result"]["points"] == [40, 0], "25 + 5 × 3 stock cards"
    assert legal_actions(state, 0) == [] and to_act(state) == []
    with pytest.raises(IllegalAction, match="vorbei"):
        discard(state, 0, "9C", 0)


def exhausted(stocks, draw_size=0):
    state = arrange(
        len(stocks),
        stocks=stocks,
        hands=[["7D", "8C"]] + [[] for _ in stocks[1:]],
        draw_size=draw_size,
        options={"empty_draw": "end"},
    )
    state, events = discard(state, 0, "8C", 0)
    return state, events


def test_an_empty_draw_pile_ends_the_game_fewest_stock_cards_win():
    state, events = exhausted([["9H", "3D", "4D"], ["9D", "5D"], ["2C", "3C", "4C", "5C"]])
    assert types(events)[-2:] == ["round_end", "game_over"]
    result = outcome(state)
    assert result["reason"] == "exhausted" and result["winners"] == [1]
    assert state["round_result"]["points"] == [0, 25 + 5 * 7, 0]


def test_an_empty_draw_pile_with_a_tie_is_a_draw():
    state, _ = exhausted([["9H", "3D"], ["9D", "5D"]])
    result = outcome(state)
    assert result["draw"] is True and result["winners"] == [0, 1]
    assert state["round_result"]["points"] == [0, 0]


# --- Match to 500 ---------------------------------------------------------------------------


def test_points_add_up_over_a_match_to_500():
    state = arrange(
        2, stocks=[["AD"], ["9D"] * 1 + ["5D"] * 1], hands=[["7C"], []], options={"match": "500"}
    )
    state["scores"] = [430, 100]
    state, events = play(state, 0, "stock", 0)
    assert state["phase"] == "scoring" and state["scores"] == [465, 100]
    assert to_act(state) == [0, 1]
    state, _ = apply(state, 0, {"type": "continue"})
    state, events = apply(state, 1, {"type": "continue"})
    assert types(events)[1:3] == ["deal", "turn"]
    assert state["round"] == 2 and state["dealer"] == 1 and state["turn"] == 0
    assert card_count(state) == FULL_DECK

    state = arrange(2, stocks=[["AD"], ["9D", "5D"]], hands=[["7C"], []], options={"match": "500"})
    state["scores"] = [470, 480]
    state, _ = play(state, 0, "stock", 0)
    assert outcome(state) == {
        "winners": [0],
        "reason": "target",
        "draw": False,
        "points": [505, 480],
    }


def test_timeout_in_the_scoring_wait_deals_on():
    state = arrange(2, stocks=[["AD"], ["9D"]], hands=[["7C"], []], options={"match": "500"})
    state, _ = play(state, 0, "stock", 0)
    state, events = timeout(state)
    assert events[0] == {"type": "continue_forced"} and state["phase"] == "play"


# --- Teams, kartenlos, hints -------------------------------------------------------------------


def team_game(**kwargs):
    stocks = kwargs.pop("stocks", [["AD"], ["9D"], ["9C", "2H"], ["9S"]])
    hands = kwargs.pop("hands", [["7C", "3C"], [], [], []])
    return arrange(4, stocks=stocks, hands=hands, options={"teams": True}, **kwargs)


def test_partners_sit_opposite():
    state = new_game(1, 6, {"teams": True})
    assert state["sides"] == [[0, 3], [1, 4], [2, 5]]
    assert view(state, 0)["seats"][4]["partner"] == 1


def test_a_team_wins_only_when_both_stocks_are_empty_and_plays_on_kartenlos():
    state = team_game(
        stocks=[["AD"], ["9D"], ["9C", "2H"], ["9S"]],
        hands=[["7C", "2C"], [], [], []],
        build=[[], RUN[:8]],
    )
    state, events = play(state, 0, "stock", 0)
    assert types(events) == ["play", "stock_empty", "finished"]
    assert outcome(state) is None and state["turn"] == 0
    actions = legal_actions(state, 0)
    assert {"type": "end"} in actions and not any(a["type"] == "discard" for a in actions)
    with pytest.raises(IllegalAction, match="nichts mehr ab"):
        discard(state, 0, "7C", 0)
    state, events = apply(state, 0, {"type": "end"})
    assert state["turn"] == 1 and state["hands"][0] == ["2C", "7C"], "kartenlos: no drawing"
    state, _ = discard(state, 1, state["hands"][1][0], 0)
    assert state["turn"] == 2
    state, _ = play(state, 2, "stock", 0)  # the 2 on the Ace
    assert outcome(state) is None
    state, _ = play(state, 2, "stock", 1)  # the 9 empties the partner's stock too
    result = outcome(state)
    assert result["winners"] == [0, 2] and result["reason"] == "stock"
    assert state["round_result"]["points"] == [35, 0, 35, 0], "25 + 5 × (1 + 1)"


def test_a_kartenlos_player_who_can_play_nothing_is_skipped():
    state = team_game(stocks=[[], ["9D"], ["9C", "2H"], ["9S"]], hands=[["7C"], [], [], ["8D"]])
    state["turn"] = 3
    state, events = discard(state, 3, "8D", 0)
    assert types(events)[:3] == ["discard", "skip", "turn"]
    assert state["turn"] == 1


def test_hints_go_to_the_partner_and_the_bot_follows_a_legal_one():
    state = team_game(
        stocks=[["9D"], ["9D"], ["9C"], ["9S"]],
        hands=[["2C", "5H", "JD", "QH", "4D"], [], [], []],
        build=[["AH"], ["AS", "2S", "3S", "4S"]],
    )
    before = copy.deepcopy(state)
    state, events = apply(state, 2, {"type": "hint", "rank": "5", "pile": 1})
    assert events == [{"type": "hint", "seat": 2, "to": 0, "rank": "5", "pile": 1}]
    assert state["turn"] == 0, "a hint changes no turn"
    assert view(state, 0)["seats"][0]["hint"] == {"from": 2, "rank": "5", "pile": 1}
    action = bot_action(view(state, 0), random.Random(1))
    assert action == {"type": "play", "source": "hand", "card": "5H", "pile": 1}
    state, events = apply(state, 0, action)
    assert types(events) == ["play", "hint_followed"] and state["hints"][0] is None
    assert before["hints"] == [None] * 4
    # Without the hint the bot would have played the 2 on the Ace first.
    assert bot_action(view(before, 0), random.Random(1))["card"] == "2C"


def test_an_illegal_hint_is_ignored_by_the_bot():
    state = team_game(
        stocks=[["9D"], ["9D"], ["9C"], ["9S"]], hands=[["2C", "6H"], [], [], []], build=[["AH"]]
    )
    state, _ = apply(state, 2, {"type": "hint", "rank": "6", "pile": 0})
    assert bot_action(view(state, 0), random.Random(1))["card"] == "2C"


def test_hints_only_in_team_play():
    state = arrange(2, stocks=[["9H"], ["9D"]], hands=[["7C"], []])
    with pytest.raises(IllegalAction, match="Teamspiel"):
        apply(state, 1, {"type": "hint", "rank": "7", "pile": 0})


# --- Illegal requests ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "action", "message"),
    [
        (1, {"type": "discard", "card": "7C", "pile": 0}, "nicht am Zug"),
        (0, {"type": "play", "source": "hand", "card": "7C", "pile": 0}, "Ass oder einem König"),
        (0, {"type": "play", "source": "hand", "card": "9S", "pile": 0}, "nicht auf der Hand"),
        (0, {"type": "play", "source": "hand", "card": "XX", "pile": 0}, "Unbekannte Karte"),
        (0, {"type": "play", "source": "discard", "index": 2, "pile": 0}, "leer"),
        (0, {"type": "play", "source": "stock", "pile": 7}, "1 bis 4"),
        (0, {"type": "play", "source": "deck", "pile": 0}, "Spielerstapel"),
        (0, {"type": "play", "source": "stock", "pile": 1}, "gehört jetzt eine 3"),
        (0, {"type": "discard", "card": "9H", "pile": 0}, "nur eine Karte von deiner Hand"),
        (0, {"type": "discard", "card": "7C", "pile": 4}, "Ablagestapel"),
        (0, {"type": "draw"}, "Unbekannte Aktion"),
        (0, {"type": "continue"}, "läuft noch"),
        (0, "play", "Ungültige Aktion"),
    ],
)
def test_illegal_requests_get_a_german_message_and_change_nothing(seat, action, message):
    state = arrange(2, stocks=[["9H"], ["9D"]], hands=[["7C", "8C"], []], build=[[], ["AS", "2S"]])
    frozen = json.dumps(state)
    with pytest.raises(IllegalAction, match=message):
        apply(state, seat, action)
    assert json.dumps(state) == frozen


# --- View ---------------------------------------------------------------------------------------------


def test_the_view_hides_other_hands_the_draw_pile_and_the_seed():
    state = new_game(424242, 3, {"names": ["Anna", "Ben", "Cara"]})
    seat = state["turn"]
    text = json.dumps(view(state, (seat + 1) % 3))
    mine = view(state, seat)
    assert mine["hand"] == state["hands"][seat]
    assert "424242" not in text and "seed" not in text
    for card in state["hands"][seat]:
        assert f'"{card}"' not in text or any(
            card in (s["stock_top"], *sum(s["discards"], [])) for s in mine["seats"]
        )
    assert mine["draw_size"] == len(state["draw_pile"])
    assert "draw_pile" not in text and "stocks" not in text
    for s in mine["seats"]:
        assert s["stock_top"] == state["stocks"][s["seat"]][-1]
        assert s["stock_count"] == len(state["stocks"][s["seat"]])
    spectator = view(state, None)
    assert spectator["hand"] is None and spectator["legal_actions"] == []
    hidden_stock = state["stocks"][0][:-1]
    assert set(hidden_stock) <= set(state["draw_pile"]) | set(hidden_stock)


def test_the_view_never_shows_hidden_cards_of_a_running_game():
    state = new_game(7, 2)
    seat = state["turn"]
    other_view = view(state, 1 - seat)
    assert other_view["hand"] == [] and other_view["seats"][seat]["hand_size"] == 5
    keys = set(other_view) | set(other_view["seats"][0])
    assert not keys & {"draw_pile", "stocks", "hands", "seed", "gone"}


# --- Site hooks ---------------------------------------------------------------------------------------


def test_a_timeout_discards_the_highest_card_that_is_not_a_king():
    state = arrange(
        2,
        stocks=[["9H"], ["9D"]],
        hands=[["3C", "KD", "JC"], []],
        discards=[[["5C"], ["QD"], [], []], [[], [], [], []]],
    )
    state, events = timeout(state)
    assert events[0] == {"type": "discard", "seat": 0, "card": "JC", "pile": 2, "forced": True}
    state["discards"][1] = [["5C"], ["QD"], ["2C"], ["7H"]]
    state["hands"][1] = ["KS"]
    state, events = timeout(state)
    assert events[0]["card"] == "KS" and events[0]["pile"] == 1


def test_leaving_takes_the_cards_out_of_the_game():
    state = new_game(3, 3)
    state, events = remove_player(state, 1)
    assert events[0] == {"type": "leave", "seat": 1, "out": [1]}
    assert state["stocks"][1] == [] and state["turn"] == 2
    assert card_count(state) == FULL_DECK
    state, events = remove_player(state, 0)
    assert outcome(state)["winners"] == [2] and outcome(state)["reason"] == "abandoned"


def test_leaving_in_team_play_puts_the_team_out():
    state = new_game(3, 4, {"teams": True})
    state, events = remove_player(state, 1)
    assert events[0]["out"] == [1, 3]
    assert outcome(state) == {
        "winners": [0, 2],
        "reason": "abandoned",
        "draw": False,
        "points": [0, 0, 0, 0],
    }


def test_the_largest_stock_leaves_everyone_a_hand():
    from games.engines.katz_und_maus import max_stock

    assert [max_stock(n) for n in range(2, 7)] == [30, 29, 21, 15, 12]
    new_game(1, 6, {"stock_size": 12})
    with pytest.raises(ValueError, match="höchstens 12"):
        new_game(1, 6, {"stock_size": 13})


def test_variant_the_build_piles_make_a_new_draw_pile_again_after_a_stock_card():
    state = arrange(
        2,
        stocks=[["9H", "4D"], ["9D", "5D"]],
        hands=[["7D", "8C"], ["8D"]],
        draw_size=0,
        build=[["AH", "2H", "3H"], ["AD"]],
        options=RESHUFFLE,
    )
    state["recycled"] = state["idle_recycles"] = 1  # already rebuilt once
    state, _ = play(state, 0, "stock", 0)  # the 4: a stock card was played
    assert state["idle_recycles"] == 0
    state, events = discard(state, 0, "8C", 0)
    assert types(events) == ["discard", "turn", "recycle", "draw"]
    assert state["recycled"] == 2 and state["idle_recycles"] == 1


def test_kartenlos_for_all_ends_when_nothing_fits_fewest_cards_win():
    state = arrange(
        2,
        stocks=[["5D"], []],
        hands=[["9C", "KH"], ["7C"]],
        discards=[[[], [], [], []], [["8C", "10C"], [], [], []]],
        build=[["AH", "2H", "3H", "4H"]],
        options={"kartenlos_all": True},
    )
    state, events = play(state, 0, "stock", 0)
    assert types(events) == ["play", "stock_empty"] and outcome(state) is None
    state, events = play(state, 0, "hand", 0, card="KH")  # stands for the 6
    assert types(events) == ["play", "end_turn", "turn"]
    assert {"type": "end_turn", "seat": 0, "forced": True} in events, "nothing fits any more"
    assert state["turn"] == 1 and state["hands"][1] == ["7C"], "kartenlos: no drawing"
    state, events = play(state, 1, "hand", 0, card="7C")
    assert types(events)[-4:] == ["skip", "skip", "round_end", "game_over"]
    assert outcome(state)["reason"] == "stuck"
    assert outcome(state)["winners"] == [0], "one card left against two"


def test_apply_never_mutates_its_input():
    state = arrange(
        2, stocks=[["9H", "AD"], ["9D"]], hands=[["QC"], []], build=[RUN], draw_top=["2C"]
    )
    frozen = json.dumps(state)
    new, events = play(state, 0, "hand", 0, card="QC")  # completes, refills
    assert "complete" in types(events) and "draw" in types(events)
    assert json.dumps(state) == frozen and new != state


def test_simulate_returns_the_statistics_figures():
    from games.engines.katz_und_maus import simulate

    result = simulate(3, 1, players=(2, 6))
    assert [row["players"] for row in result["rows"]] == [2, 6]
    row = result["rows"][0]
    assert row["stock_size"] == DEFAULT_STOCK[2] and row["games"] == 3
    assert abs(row["stock_empty"] + row["exhausted"] + row["stuck"] + row["limit"] - 1) < 1e-9
    assert {"turns_mean", "turns_median", "draws", "starter_wins", "starter_fair"} <= set(row)
    assert json.loads(json.dumps(result)) == result
