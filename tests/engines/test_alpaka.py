"""Alpaka engine: the rules article's examples, every rule of seed 001, the site
hooks (timeout, forced continue, leaving), hidden information and the bots."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest

from games.engines import alpaka
from games.engines.alpaka import (
    CARDS,
    IllegalAction,
    add_points,
    apply,
    bot_action,
    can_play,
    chips_for,
    force_continue,
    hand_score,
    legal_actions,
    new_game,
    outcome,
    random_action,
    remove_player,
    replay,
    return_chip,
    timeout,
    to_act,
    view,
)
from games.engines.alpaka.rules import sort_cards
from games.play.alpaka.presenter import describe

NAMES = ["Anna", "Ben", "Carla", "Dora", "Emil", "Fritz"]
PLAY = {"type": "play"}
DRAW = {"type": "draw"}
QUIT = {"type": "quit"}
CONTINUE = {"type": "continue"}


def play(card: str) -> dict:
    return {"type": "play", "card": card}


def rig(
    hands: list[list[str]],
    top: str,
    *,
    draw: list[str] = (),
    empty_pile: bool = False,
    variant: str = "klassisch",
    target: int = 40,
    points: list[int] | None = None,
    turn: int = 1,
) -> dict:
    """A state with chosen hands and discard top; ``draw`` lists the next cards to
    be drawn, first one first. All 56 cards stay accounted for: the rest lies in
    the draw pile, or under the discard top with ``empty_pile``."""
    players = len(hands)
    state = new_game(7, players, {"variant": variant, "target": target, "names": NAMES[:players]})
    pool = Counter({card: 8 for card in CARDS})
    for cards in [*hands, [top], list(draw)]:
        pool.subtract(cards)
    assert min(pool.values()) >= 0, "rigged more than eight copies of a card"
    rest = sorted(pool.elements())
    state["hands"] = [sort_cards(cards) for cards in hands]
    if empty_pile:
        assert not draw
        state["discard"] = [*rest, top]
        state["draw_pile"] = []
    else:
        state["discard"] = [top]
        state["draw_pile"] = rest + list(reversed(draw))
    if points is not None:
        state["chips"] = [chips_for(p) for p in points]
    state["turn"] = turn
    return state


def run(state: dict, *moves: tuple[int, dict]) -> tuple[dict, list[dict]]:
    """Apply moves in order; returns the final state and all events."""
    events: list[dict] = []
    for seat, action in moves:
        state, new_events = apply(state, seat, action)
        events += new_events
    return state, events


def text(event: dict, target: int = 40) -> str:
    """An event as the presenter words it for a spectator (the engine emits codes only)."""
    return describe(event, None, NAMES, target, chips_paid=True)


def texts(events: list[dict]) -> list[str]:
    return [text(event) for event in events]


def row(state: dict, seat: int) -> dict:
    return state["round_result"]["rows"][seat]


# --- The article's examples and the rule helpers -------------------------------


@pytest.mark.parametrize(
    ("cards", "score"),
    [
        (["3", "3", "5", "A"], 18),
        (["4", "4", "4", "4"], 4),
        (["1", "2", "3"], 6),
        (["A", "A"], 10),
        ([], 0),
    ],
)
def test_hand_score_counts_each_value_once(cards, score):
    assert hand_score(cards) == score


@pytest.mark.parametrize(
    ("card", "top", "fits"),
    [
        ("4", "4", True),
        ("5", "4", True),
        ("2", "1", True),
        ("A", "6", True),  # Alpaka on 6
        ("1", "A", True),  # 1 on Alpaka
        ("A", "A", True),
        ("3", "4", False),  # lower only with Englert
        ("6", "4", False),
        ("A", "1", False),
        ("6", "A", False),
        ("2", "A", False),
    ],
)
def test_can_play_classic(card, top, fits):
    assert can_play(card, top, "klassisch") is fits


@pytest.mark.parametrize(
    ("card", "top", "fits"),
    [
        ("3", "4", True),  # next lower
        ("4", "4", True),
        ("5", "4", True),
        ("A", "1", True),  # circle backwards: Alpaka on 1
        ("6", "A", True),  # circle backwards: 6 on Alpaka
        ("1", "A", True),
        ("A", "6", True),
        ("2", "4", False),
        ("6", "4", False),
        ("5", "A", False),
        ("2", "A", False),
    ],
)
def test_can_play_englert(card, top, fits):
    assert can_play(card, top, "englert") is fits


@pytest.mark.parametrize(
    ("points", "chips"),
    [(0, (0, 0)), (9, (0, 9)), (10, (1, 0)), (18, (1, 8)), (40, (4, 0)), (87, (8, 7))],
)
def test_chips_for_pays_tens_in_black(points, chips):
    assert chips_for(points) == {"black": chips[0], "white": chips[1]}


def test_add_points_swaps_ten_whites_for_a_black():
    assert add_points({"black": 0, "white": 9}, 3) == {"black": 1, "white": 2}
    assert add_points({"black": 1, "white": 8}, 18) == {"black": 3, "white": 6}
    assert add_points({"black": 2, "white": 0}, 10) == {"black": 3, "white": 0}


def test_return_chip_gives_back_a_white_one():
    assert return_chip({"black": 1, "white": 3}) == {"black": 1, "white": 2}


def test_return_chip_changes_a_black_one_against_nine_whites():
    assert return_chip({"black": 2, "white": 0}) == {"black": 1, "white": 9}


def test_return_chip_at_zero_returns_nothing():
    assert return_chip({"black": 0, "white": 0}) == {"black": 0, "white": 0}


# --- Dealing, turn order, dealer rotation ----------------------------------------


@pytest.mark.parametrize("players", range(2, 7))
def test_new_game_deals_six_cards_and_one_open_card(players):
    state = new_game(3, players)
    assert [len(hand) for hand in state["hands"]] == [6] * players
    assert len(state["discard"]) == 1
    assert len(state["draw_pile"]) == 56 - 1 - 6 * players
    assert Counter(sum(state["hands"], []) + state["draw_pile"] + state["discard"]) == {
        card: 8 for card in CARDS
    }
    assert state["phase"] == "play"
    assert state["dealer"] == 0
    assert to_act(state) == [1]  # left of the dealer
    assert state["names"] == [f"Spieler {seat + 1}" for seat in range(players)]


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (1, {}),
        (7, {}),
        (3, {"variant": "turbo"}),
        (3, {"target": 50}),
        (3, {"names": ["Anna", "Ben"]}),
    ],
)
def test_new_game_rejects_bad_setups(players, options):
    with pytest.raises(ValueError):
        new_game(1, players, options)


def test_dealer_rotates_and_the_seat_left_of_the_dealer_starts():
    state = new_game(5, 3, {"names": NAMES[:3]})
    seen = []
    for _ in range(4):
        seen.append((state["round"], state["dealer"], state["turn"]))
        while state["phase"] == "play":
            state, _ = timeout(state)  # everyone quits: the round ends
        state["chips"] = [chips_for(0)] * 3  # keep the game from reaching the target
        state["phase"] = "scoring"
        state["outcome"] = None
        state, events = force_continue(state)
    assert seen == [(1, 0, 1), (2, 1, 2), (3, 2, 0), (4, 0, 1)]
    assert events[-1]["type"] == "deal"
    assert text(events[-1]).startswith("Runde 5: Ben gibt, offen liegt ")
    assert text(events[-1]).endswith(". Carla beginnt.")


def test_each_round_is_freshly_shuffled_with_all_56_cards():
    state = new_game(5, 2)
    first = copy.deepcopy(state["hands"])
    state, _ = run(state, (1, QUIT), (0, QUIT))
    assert state["phase"] == "scoring"
    state, _ = run(state, (0, CONTINUE), (1, CONTINUE))
    assert state["round"] == 2
    assert state["hands"] != first
    assert len(sum(state["hands"], []) + state["draw_pile"] + state["discard"]) == 56


# --- Turns: play, draw, quit -------------------------------------------------------


def test_legal_actions_classic_include_wrap_alpaka_on_six():
    state = rig([["2", "2"], ["A", "1", "6", "5"], ["3"]], "6")
    assert legal_actions(state, 1) == [play("6"), play("A"), DRAW, QUIT]
    assert legal_actions(state, 0) == []  # not their turn


def test_legal_actions_classic_one_on_alpaka_only():
    state = rig([["2"], ["1", "6", "A", "5"], ["3"]], "A")
    assert legal_actions(state, 1) == [play("1"), play("A"), DRAW, QUIT]


def test_legal_actions_englert_go_both_ways_around_the_circle():
    state = rig([["5"], ["A", "1", "2", "3"], ["3"]], "1", variant="englert")
    assert legal_actions(state, 1) == [play("1"), play("2"), play("A"), DRAW, QUIT]
    state = rig([["5"], ["6", "1", "A", "5"], ["3"]], "A", variant="englert")
    assert legal_actions(state, 1) == [play("1"), play("6"), play("A"), DRAW, QUIT]
    state = rig([["5"], ["2", "3", "4", "6"], ["3"]], "4", variant="englert")
    assert legal_actions(state, 1) == [play("3"), play("4"), DRAW, QUIT]


def test_englert_lower_card_can_be_played():
    state = rig([["5"], ["3", "6"], ["3"]], "4", variant="englert")
    state, events = apply(state, 1, play("3"))
    assert state["discard"][-1] == "3"
    assert events[0] == {"type": "play", "seat": 1, "card": "3"}
    assert text(events[0]) == "Ben legt eine 3."


def test_playing_moves_the_card_and_passes_the_turn():
    state = rig([["5"], ["4", "4", "A"], ["3"]], "4")
    state, events = apply(state, 1, play("4"))
    assert state["hands"][1] == ["4", "A"]
    assert state["discard"][-1] == "4"
    assert state["turn"] == 2
    assert texts(events) == ["Ben legt eine 4."]


def test_playing_an_alpaka_reads_ein_alpaka():
    state = rig([["5"], ["A", "2"], ["3"]], "6")
    _, events = apply(state, 1, play("A"))
    assert texts(events) == ["Ben legt ein Alpaka."]


def test_drawing_takes_the_top_card_and_ends_the_turn():
    state = rig([["5"], ["2"], ["3"]], "4", draw=["A", "1"])
    state, events = apply(state, 1, DRAW)
    assert state["hands"][1] == ["2", "A"]
    assert state["turn"] == 2
    assert events == [{"type": "draw", "seat": 1}]
    assert texts(events) == ["Ben zieht eine Karte."]
    state, _ = apply(state, 2, DRAW)
    assert state["hands"][2] == ["1", "3"]


def test_empty_draw_pile_forbids_drawing():
    state = rig([["5"], ["2", "6"], ["3"]], "4", empty_pile=True)
    assert legal_actions(state, 1) == [QUIT]  # nothing fits, nothing to draw
    with pytest.raises(IllegalAction, match="^Der Nachziehstapel ist leer – Ziehen geht nicht.$"):
        apply(state, 1, DRAW)
    state = rig([["5"], ["5", "6"], ["3"]], "4", empty_pile=True)
    assert legal_actions(state, 1) == [play("5"), QUIT]


def test_quitting_keeps_the_hand_and_skips_the_seat():
    state = rig([["5"], ["2", "6"], ["3"]], "4")
    state, events = apply(state, 1, QUIT)
    assert texts(events) == ["Ben steigt aus."]
    assert events[0]["automatic"] is False
    assert state["quit"] == [False, True, False]
    assert state["hands"][1] == ["2", "6"]
    state, _ = run(state, (2, DRAW))
    assert state["turn"] == 0
    state, _ = run(state, (0, DRAW))
    assert state["turn"] == 2  # Ben is skipped


# --- Round end ------------------------------------------------------------------------


def test_round_ends_when_someone_plays_the_last_card():
    state = rig([["3", "3", "5", "A"], ["4"], ["4", "4", "4", "4"]], "4")
    state, events = apply(state, 1, play("4"))
    assert state["phase"] == "scoring"
    assert to_act(state) == [0, 1, 2]
    assert "Runde vorbei: Ben hat keine Karten mehr." in texts(events)
    result = state["round_result"]
    assert (result["reason"], result["seat"], result["round"]) == ("empty_hand", 1, 1)
    assert [r["hand_score"] for r in result["rows"]] == [18, 0, 4]
    assert [r["points"] for r in result["rows"]] == [18, 0, 4]
    assert [r["total"] for r in result["rows"]] == [18, 0, 4]
    assert state["chips"][0] == {"black": 1, "white": 8}
    assert state["score_sheet"] == [[18, 0, 4]]
    assert "Anna bekommt 18 Minuspunkte (einen schwarzen Chip und 8 weiße Chips)." in texts(events)
    assert "Carla bekommt 4 Minuspunkte (4 weiße Chips)." in texts(events)
    assert "Ben hat keine Chips und gibt nichts zurück." in texts(events)


def test_paying_into_ten_whites_swaps_them_for_a_black():
    state = rig([["1", "2", "5"], ["4"], ["3"]], "4", points=[9, 0, 0])
    state, events = apply(state, 1, play("4"))
    assert state["chips"][0] == {"black": 1, "white": 7}
    assert (
        "Anna bekommt 8 Minuspunkte (8 weiße Chips) und tauscht zehn weiße Chips gegen einen schwarzen."
        in texts(events)
    )


def test_round_ends_when_all_have_quit():
    state = rig([["4", "2"], ["2", "6"], ["A"]], "4")
    state, events = run(state, (1, QUIT), (2, QUIT), (0, QUIT))
    assert state["phase"] == "scoring"
    assert state["round_result"]["reason"] == "all_quit"
    assert "Runde vorbei: Alle sind ausgestiegen." in texts(events)
    assert [r["points"] for r in state["round_result"]["rows"]] == [6, 8, 10]


def test_lone_player_keeps_playing_may_not_draw_and_ends_when_stuck():
    state = rig([["2", "3", "5"], ["6"], ["6"]], "1")
    state, _ = run(state, (1, QUIT), (2, QUIT))
    assert state["phase"] == "play" and state["turn"] == 0
    assert legal_actions(state, 0) == [play("2"), QUIT]  # no drawing
    with pytest.raises(
        IllegalAction, match="^Alle anderen sind ausgestiegen – Ziehen geht nicht mehr.$"
    ):
        apply(state, 0, DRAW)
    state, _ = apply(state, 0, play("2"))
    assert state["turn"] == 0  # the lone player goes on
    state, events = apply(state, 0, play("3"))
    assert state["phase"] == "scoring"
    assert state["round_result"]["reason"] == "stuck"
    assert "Runde vorbei: Bei Anna passt keine Karte mehr." in texts(events)
    assert [r["points"] for r in state["round_result"]["rows"]] == [5, 6, 6]


def test_lone_player_with_nothing_that_fits_ends_the_round_at_once():
    state = rig([["5", "A"], ["6"], ["6"]], "1")
    state, events = run(state, (1, QUIT), (2, QUIT))
    assert state["phase"] == "scoring"
    assert state["round_result"]["reason"] == "stuck"
    assert state["round_result"]["seat"] == 0
    assert state["round_result"]["rows"][0]["points"] == 15


def test_lone_player_emptying_the_hand_returns_a_chip():
    state = rig([["2"], ["6"], ["6"]], "1", points=[5, 0, 0])
    state, events = run(state, (1, QUIT), (2, QUIT), (0, play("2")))
    assert state["round_result"]["reason"] == "empty_hand"
    assert "Anna gibt einen weißen Chip zurück." in texts(events)
    assert alpaka.points(state) == [4, 6, 6]


@pytest.mark.parametrize(
    ("before", "after", "chip", "sentence"),
    [
        (7, 6, "white", "Ben gibt einen weißen Chip zurück."),
        (
            20,
            19,
            "black",
            "Ben gibt einen schwarzen Chip zurück und bekommt neun weiße als Wechselgeld.",
        ),
        (0, 0, None, "Ben hat keine Chips und gibt nichts zurück."),
    ],
)
def test_empty_hand_returns_a_chip(before, after, chip, sentence):
    state = rig([["5"], ["4"], ["3"]], "4", points=[0, before, 0])
    state, events = apply(state, 1, play("4"))
    assert alpaka.points(state)[1] == after
    assert state["chips"][1] == chips_for(after)
    returned = next(event for event in events if event["type"] == "chip_return")
    assert returned["chip"] == chip
    assert text(returned) == sentence
    assert row(state, 1)["returned"] == chip
    assert row(state, 1)["points"] == (after - before)


# --- Englert scoring -----------------------------------------------------------------


def test_englert_only_the_highest_hand_pays():
    state = rig([["3", "3", "5", "A"], ["4"], ["4", "4", "6"]], "4", variant="englert")
    state, events = apply(state, 1, play("4"))
    assert [r["hand_score"] for r in state["round_result"]["rows"]] == [18, 0, 10]
    assert [r["points"] for r in state["round_result"]["rows"]] == [18, 0, 0]
    assert alpaka.points(state) == [18, 0, 0]
    assert "Carla zahlt nichts." in texts(events)


def test_englert_tied_highest_hands_all_pay():
    state = rig([["A"], ["4"], ["A", "A"], ["1", "2", "3"]], "4", variant="englert")
    state, _ = apply(state, 1, play("4"))
    assert [r["points"] for r in state["round_result"]["rows"]] == [10, 0, 10, 0]


def test_englert_empty_hand_still_returns_a_chip():
    state = rig([["A"], ["4"], ["2"]], "4", variant="englert", points=[0, 12, 0])
    state, events = apply(state, 1, play("4"))
    assert alpaka.points(state) == [10, 11, 0]
    assert "Ben gibt einen weißen Chip zurück." in texts(events)


def test_englert_quit_hands_count_for_the_highest():
    state = rig([["A", "6"], ["2", "3"], ["3"]], "3", variant="englert", turn=0)
    state, _ = run(state, (0, QUIT), (1, play("2")), (2, play("3")))
    assert [r["points"] for r in state["round_result"]["rows"]] == [16, 0, 0]


# --- Game end ---------------------------------------------------------------------------


@pytest.mark.parametrize("target", [20, 40, 60, 80])
def test_game_ends_when_someone_reaches_the_target(target):
    state = rig([["5"], ["4"], ["3"]], "4", target=target, points=[target - 5, 3, 2])
    state, events = apply(state, 1, play("4"))
    assert state["phase"] == "over"
    assert to_act(state) == []
    assert outcome(state) == {"winners": [1], "points": [target, 2, 5], "reason": "target"}
    assert events[-1]["type"] == "game_over"
    assert text(events[-1], target) == (
        f"Partie vorbei: Anna hat das Ziel von {target} Minuspunkten erreicht. "
        "Ben gewinnt mit 2 Minuspunkten."
    )
    with pytest.raises(IllegalAction, match="^Die Partie ist vorbei.$"):
        apply(state, 0, CONTINUE)


@pytest.mark.parametrize("target", [20, 40, 60, 80])
def test_game_goes_on_just_below_the_target(target):
    state = rig([["5"], ["4"], ["3"]], "4", target=target, points=[target - 6, 3, 2])
    state, _ = apply(state, 1, play("4"))
    assert state["phase"] == "scoring"
    assert outcome(state) is None


def test_tied_lowest_scores_win_together():
    state = rig([["A", "5"], ["4"], ["1"]], "4", points=[30, 5, 3])
    state, events = apply(state, 1, play("4"))
    assert outcome(state) == {"winners": [1, 2], "points": [45, 4, 4], "reason": "target"}
    assert text(events[-1]).endswith("Ben und Carla gewinnen gemeinsam mit je 4 Minuspunkten.")


# --- Scoring phase ------------------------------------------------------------------------


def test_scoring_phase_waits_for_every_confirmation():
    state = rig([["5"], ["4"], ["3"]], "4")
    state, _ = apply(state, 1, play("4"))
    assert legal_actions(state, 0) == [CONTINUE]
    state, events = apply(state, 2, CONTINUE)
    assert texts(events) == ["Carla ist bereit für die nächste Runde."]
    assert to_act(state) == [0, 1]
    with pytest.raises(IllegalAction, match="^Du hast die Wertung schon bestätigt.$"):
        apply(state, 2, CONTINUE)
    with pytest.raises(IllegalAction, match="bestätige die Wertung mit „Weiter“"):
        apply(state, 0, DRAW)
    state, _ = apply(state, 0, CONTINUE)
    state, events = apply(state, 1, CONTINUE)
    assert state["phase"] == "play"
    assert (state["round"], state["dealer"], state["turn"]) == (2, 1, 2)
    assert events[-1]["type"] == "deal"
    assert state["round_result"] is None
    assert alpaka.points(state) == [5, 0, 3]  # chips carry over


def test_force_continue_deals_without_waiting():
    state = rig([["5"], ["4"], ["3"]], "4")
    state, _ = run(state, (1, play("4")), (0, CONTINUE))
    state, events = force_continue(state)
    assert state["phase"] == "play" and state["round"] == 2
    assert [event["type"] for event in events] == ["continue_forced", "deal"]


def test_continue_during_play_is_refused():
    state = new_game(1, 3)
    with pytest.raises(IllegalAction, match="^Die Runde läuft noch"):
        apply(state, 1, CONTINUE)


# --- Site hooks: timeout and leaving ------------------------------------------------------


def test_timeout_quits_the_player_to_act():
    state = rig([["5"], ["4", "6"], ["3"]], "4")
    after, events = timeout(state)
    assert after["quit"] == [False, True, False]
    assert after["turn"] == 2
    assert events[0]["automatic"] is True
    assert text(events[0]) == "Ben hat zu lange nicht reagiert und steigt automatisch aus."
    assert after == apply(state, 1, QUIT)[0]  # same state as a manual quit: replays agree


def test_timeout_in_scoring_forces_continue_and_is_a_noop_when_over():
    state = rig([["5"], ["4"], ["3"]], "4")
    state, _ = apply(state, 1, play("4"))
    state, events = timeout(state)
    assert state["phase"] == "play" and state["round"] == 2
    over = rig([["5"], ["4"], ["3"]], "4", target=20, points=[19, 0, 0])
    over, _ = apply(over, 1, play("4"))
    assert over["phase"] == "over"
    assert timeout(over) == (over, [])
    assert force_continue(over) == (over, [])
    assert remove_player(over, 0) == (over, [])
    assert force_continue(new_game(1, 2)) == (new_game(1, 2), [])


def test_remove_player_three_then_two_then_one():
    state = rig([["5"], ["4", "5"], ["3", "3"]], "4", points=[7, 12, 2])
    state, events = remove_player(state, 2)
    assert texts(events) == ["Carla verlässt den Raum und scheidet aus."]
    assert state["left"] == [False, False, True]
    assert state["quit"] == [False, False, True]
    assert state["phase"] == "play" and state["turn"] == 1
    # The leaver's hand still scores this round (treated as quitting).
    state, _ = run(state, (1, play("4")), (0, QUIT), (1, play("5")))
    assert state["round_result"]["rows"][2]["points"] == 3
    assert to_act(state) == [0, 1]  # the leaver is not asked to confirm
    state, _ = run(state, (0, CONTINUE), (1, CONTINUE))
    # Next round: Carla is neither dealt nor asked.
    assert state["hands"][2] == []
    assert state["in_round"] == [True, True, False]
    assert (state["dealer"], state["turn"]) == (1, 0)
    assert len(state["draw_pile"]) == 56 - 1 - 12
    view0 = view(state, 0)
    assert view0["seats"][2]["left"] is True
    state, events = remove_player(state, 1)
    assert state["phase"] == "over"
    assert outcome(state) == {"winners": [0], "points": [12, 11, 5], "reason": "abandoned"}
    assert text(events[-1]) == (
        "Partie vorbei: Es sind zu wenige Spieler übrig. Anna gewinnt mit 12 Minuspunkten."
    )


def test_leaver_is_not_a_winner_even_with_fewest_points():
    state = rig([["5"], ["4"], ["3"]], "4", points=[20, 30, 1])
    state, _ = remove_player(state, 2)
    state, _ = remove_player(state, 1)
    assert outcome(state)["winners"] == [0]


def test_remove_player_at_turn_passes_the_turn():
    state = rig([["5"], ["4"], ["3"], ["2"]], "4")
    state, _ = remove_player(state, 1)
    assert state["turn"] == 2


def test_remove_player_can_leave_a_stuck_lone_player():
    state = rig([["5"], ["4", "6"], ["3"]], "4", turn=0)
    state, _ = run(state, (0, QUIT))
    assert state["turn"] == 1
    state, events = remove_player(state, 2)  # Ben is alone; the 4 still fits
    assert state["phase"] == "play" and legal_actions(state, 1) == [play("4"), QUIT]
    state, events = apply(state, 1, play("4"))  # the 6 does not fit on the 4
    assert state["round_result"]["reason"] == "stuck"


def test_remove_player_in_scoring_deals_when_the_rest_confirmed():
    state = rig([["5"], ["4"], ["3"]], "4")
    state, _ = run(state, (1, play("4")), (0, CONTINUE), (1, CONTINUE))
    state, events = remove_player(state, 2)
    assert state["phase"] == "play" and state["round"] == 2
    assert state["in_round"] == [True, True, False]
    with pytest.raises(IllegalAction, match="schon verlassen"):
        remove_player(state, 2)


def test_left_seat_cannot_act():
    state = rig([["5"], ["4"], ["3"]], "4")
    state, _ = remove_player(state, 0)
    with pytest.raises(IllegalAction, match="^Du hast den Raum verlassen.$"):
        apply(state, 0, QUIT)


# --- Illegal actions -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "action", "message"),
    [
        (0, DRAW, "Du bist nicht am Zug."),
        (2, play("4"), "Du bist nicht am Zug."),
        (1, play("3"), "Die 3 passt nicht auf die 5."),
        (1, play("A"), "Das Alpaka passt nicht auf die 5."),
        (1, play("2"), "Diese Karte hast du nicht auf der Hand."),
        (1, play("7"), "Unbekannte Karte „7“."),
        (1, {"type": "play"}, "Unbekannte Karte „None“."),
        (1, {"type": "pass"}, "Unbekannte Aktion „pass“."),
        (1, "draw", "Ungültige Aktion."),
        (1, {}, "Ungültige Aktion."),
        (5, DRAW, "Diesen Platz gibt es nicht."),
    ],
)
def test_illegal_actions_raise_and_leave_the_state_unchanged(seat, action, message):
    state = rig([["5"], ["3", "A", "6"], ["4"]], "5")
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as error:
        apply(state, seat, action)
    assert str(error.value) == message
    assert state == before


def test_card_on_alpaka_message():
    state = rig([["5"], ["3"], ["4"]], "A")
    with pytest.raises(IllegalAction, match="^Die 3 passt nicht auf das Alpaka.$"):
        apply(state, 1, play("3"))


def test_quit_seat_cannot_act_again():
    state = rig([["5"], ["3"], ["4"]], "A")
    state, _ = run(state, (1, QUIT), (2, DRAW))
    with pytest.raises(IllegalAction, match="^Du bist in dieser Runde schon ausgestiegen.$"):
        apply(state, 1, DRAW)


def test_apply_never_mutates_its_input():
    state = new_game(11, 4)
    rng = random.Random(11)
    for _ in range(200):
        if outcome(state):
            break
        seat = to_act(state)[0]
        before = copy.deepcopy(state)
        new, _ = apply(state, seat, random_action(view(state, seat), rng))
        assert state == before
        state = new


# --- Views and hidden information ---------------------------------------------------------


def test_view_shows_own_hand_and_only_sizes_of_the_rest():
    state = rig([["5", "5"], ["3", "A", "6"], ["4"]], "5", points=[13, 0, 40])
    seen = view(state, 1)
    assert seen["hand"] == ["3", "6", "A"]
    assert seen["discard_top"] == "5"
    assert seen["discard_size"] == 1
    assert seen["draw_size"] == len(state["draw_pile"])
    assert [s["hand_size"] for s in seen["seats"]] == [2, 3, 1]
    assert seen["seats"][0]["chips"] == {"black": 1, "white": 3}
    assert seen["seats"][2]["points"] == 40
    assert seen["turn"] == 1 and seen["to_act"] == [1] and seen["phase"] == "play"
    assert seen["legal_actions"] == [play("6"), DRAW, QUIT]
    assert "hands" not in seen and "draw_pile" not in seen and "discard" not in seen
    spectator = view(state, None)
    assert spectator["hand"] is None and spectator["legal_actions"] == []


def test_view_is_identical_whatever_the_hidden_cards_are():
    state = new_game(21, 4)
    state, _ = run(state, (1, DRAW), (2, DRAW))
    other = copy.deepcopy(state)
    # Swap cards between other hands and the draw pile, keep the sizes.
    hidden = other["hands"][2] + other["hands"][3] + other["draw_pile"]
    random.Random(3).shuffle(hidden)
    sizes = [len(other["hands"][2]), len(other["hands"][3])]
    other["hands"][2] = sort_cards(hidden[: sizes[0]])
    other["hands"][3] = sort_cards(hidden[sizes[0] : sizes[0] + sizes[1]])
    other["draw_pile"] = hidden[sizes[0] + sizes[1] :]
    assert other != state
    for seat in (0, 1, None):
        assert json.dumps(view(state, seat)) == json.dumps(view(other, seat))


def test_view_leaks_no_hidden_cards_in_json():
    # Seat 0 holds only 1s; the others and the pile hold no 1 at all.
    state = rig([["1", "1"], ["A", "A", "A"], ["A", "A"]], "A", draw=["2"])
    state["draw_pile"] = [card for card in state["draw_pile"] if card != "1"]
    state["discard"] = [card for card in CARDS for _ in range(8) if card != "1"][:10]
    text = json.dumps(view(state, 2))
    assert '"1"' not in text


def test_scoring_view_reveals_the_hands_of_the_round():
    state = rig([["3", "3", "5", "A"], ["4"], ["4", "4", "4", "4"]], "4")
    state, _ = apply(state, 1, play("4"))
    rows = view(state, 2)["round_result"]["rows"]
    assert [r["hand"] for r in rows] == [["3", "3", "5", "A"], [], ["4", "4", "4", "4"]]
    assert view(state, 2)["legal_actions"] == [CONTINUE]


def test_view_is_a_copy():
    state = new_game(1, 2)
    before = copy.deepcopy(state)
    seen = view(state, 1)
    seen["hand"].clear()
    seen["seats"][0]["chips"]["black"] = 99
    assert state == before


# --- Replay ------------------------------------------------------------------------------


def test_seed_and_action_log_replay_the_game_exactly():
    options = {"variant": "englert", "target": 20, "names": NAMES[:4]}
    state = new_game(99, 4, options)
    rng = random.Random(99)
    log = []
    while outcome(state) is None:
        roll = rng.random()
        if roll < 0.02:
            entry = {"op": "timeout"}
            state, _ = timeout(state)
        elif roll < 0.025 and not any(state["left"]):
            entry = {"op": "remove_player", "seat": 3}
            state, _ = remove_player(state, 3)
        else:
            seat = to_act(state)[0]
            action = bot_action(view(state, seat), rng)
            entry = {"seat": seat, "action": action}
            state, _ = apply(state, seat, action)
        log.append(json.loads(json.dumps(entry)))
    assert replay(99, 4, options, log) == state
    assert json.loads(json.dumps(state)) == state


def test_same_seed_deals_the_same_cards():
    assert new_game(5, 4) == new_game(5, 4)
    assert new_game(5, 4)["hands"] != new_game(6, 4)["hands"]


# --- Bots -------------------------------------------------------------------------------------


def test_bot_confirms_the_score_table():
    state = rig([["5"], ["4"], ["3"]], "4")
    state, _ = apply(state, 1, play("4"))
    assert bot_action(view(state, 0), random.Random(1)) == CONTINUE


def test_bot_plays_the_card_that_starts_a_shedding_chain():
    # 4 then 5, 5 then 6 empties the hand; a 5 first would strand the 4.
    state = rig([["2"], ["4", "5", "5", "6"], ["3"]], "4")
    assert bot_action(view(state, 1), random.Random(1)) == play("4")


def test_bot_keeps_duplicates_unless_the_chain_sheds_them():
    # Laying one of two 6s saves nothing; the single 5 removes 5 points.
    state = rig([["2"], ["5", "6", "6", "2"], ["3"]], "5")
    assert bot_action(view(state, 1), random.Random(1)) == play("5")


def test_bot_quits_a_cheap_hand_when_nothing_fits():
    state = rig([["2", "2"], ["1"], ["3", "3"]], "4")
    assert bot_action(view(state, 1), random.Random(1)) == QUIT


def test_bot_draws_with_an_expensive_hand_when_nothing_fits():
    state = rig([["2"] * 5, ["1", "2", "2", "A"], ["3"] * 5], "4")
    assert bot_action(view(state, 1), random.Random(1)) == DRAW


def test_bot_never_draws_when_forbidden():
    # Alone: keeps playing while something fits.
    state = rig([["2"] * 5, ["4", "4", "A"], ["3"] * 5], "4", turn=0)
    state, _ = run(state, (0, QUIT), (1, play("4")), (2, QUIT))
    assert legal_actions(state, 1) == [play("4"), QUIT]
    assert bot_action(view(state, 1), random.Random(1)) == play("4")
    # Empty pile: an expensive hand with nothing that fits must quit.
    state = rig([["2"] * 5, ["1", "2", "2", "A"], ["3"] * 5], "4", empty_pile=True)
    assert bot_action(view(state, 1), random.Random(1)) == QUIT


def test_bot_decides_from_its_own_view_only():
    state = new_game(8, 3)
    other = copy.deepcopy(state)
    other["hands"][2], other["draw_pile"][-6:] = (
        sort_cards(other["draw_pile"][-6:]),
        other["hands"][2],
    )
    seen = json.loads(json.dumps(view(state, 1)))  # plain data, no state behind it
    assert bot_action(seen, random.Random(4)) == bot_action(view(other, 1), random.Random(4))


def _average_points(games: int) -> tuple[float, float]:
    """Mean final points per seat: bots vs random players, seats alternating."""
    totals = {"bot": 0, "random": 0}
    seats_played = {"bot": 0, "random": 0}
    for game in range(games):
        players = 2 + game % 3
        kinds = ["bot" if (seat + game) % 2 == 0 else "random" for seat in range(players)]
        state = new_game(1000 + game, players)
        rng = random.Random(game)
        while outcome(state) is None:
            seat = to_act(state)[0]
            policy = bot_action if kinds[seat] == "bot" else random_action
            state, _ = apply(state, seat, policy(view(state, seat), rng))
        for seat, kind in enumerate(kinds):
            totals[kind] += alpaka.points(state)[seat]
            seats_played[kind] += 1
    return (
        totals["bot"] / seats_played["bot"],
        totals["random"] / seats_played["random"],
    )


def test_bot_beats_random_legal_moves_over_300_games():
    bot, rand = _average_points(300)
    assert bot < rand * 0.75, (bot, rand)
