"""How the Alpaka table words and shows a seat's view."""

from __future__ import annotations

import pytest

from games.engines import alpaka
from games.play.alpaka import presenter as alpaka_table
from games.play.alpaka.presenter import describe, parse_action, present

NAMES = ["Anna", "Ben", "Cara"]


@pytest.mark.parametrize(
    ("event", "me", "expected"),
    [
        ({"type": "play", "seat": 0, "card": "4"}, 0, "Du legst eine 4."),
        ({"type": "play", "seat": 1, "card": "A"}, 0, "Ben legt ein Alpaka."),
        ({"type": "draw", "seat": 0}, 0, "Du ziehst eine Karte."),
        ({"type": "quit", "seat": 1, "automatic": False}, 0, "Ben steigt aus."),
        (
            {"type": "quit", "seat": 0, "automatic": True},
            0,
            "Du hast zu lange nicht reagiert und steigst automatisch aus.",
        ),
        (
            {"type": "round_end", "reason": "stuck", "seat": 0},
            0,
            "Runde vorbei: Bei dir passt keine Karte mehr.",
        ),
        (
            {"type": "round_end", "reason": "empty_hand", "seat": 2},
            0,
            "Runde vorbei: Cara hat keine Karten mehr.",
        ),
        (
            {"type": "round_end", "reason": "all_quit", "seat": None},
            0,
            "Runde vorbei: Alle sind ausgestiegen.",
        ),
        (
            {"type": "score", "seat": 0, "points": 13, "swapped": True},
            0,
            "Du bekommst 13 Minuspunkte und tauschst zehn weiße Chips gegen einen schwarzen.",
        ),
        ({"type": "score", "seat": 1, "points": 0, "swapped": False}, 0, "Ben zahlt nichts."),
        (
            {"type": "chip_return", "seat": 0, "chip": "white"},
            0,
            "Du gibst einen weißen Chip zurück.",
        ),
        (
            {"type": "chip_return", "seat": 1, "chip": "black"},
            0,
            "Ben gibt einen schwarzen Chip zurück und bekommt neun weiße als Wechselgeld.",
        ),
        (
            {"type": "chip_return", "seat": 0, "chip": None},
            0,
            "Du hast keine Chips und gibst nichts zurück.",
        ),
        ({"type": "continue", "seat": 0}, 0, "Du bist bereit für die nächste Runde."),
        ({"type": "leave", "seat": 2}, 0, "Cara verlässt den Raum und scheidet aus."),
        (
            {"type": "deal", "round": 2, "dealer": 1, "seat": 2, "card": "6"},
            2,
            "Runde 2: Ben gibt, offen liegt eine 6. Du beginnst.",
        ),
        (
            {"type": "host", "seat": 1, "text": "Ben ist jetzt Gastgeber."},
            0,
            "Ben ist jetzt Gastgeber.",
        ),
        ({"type": "play", "seat": 0, "card": "4"}, None, "Anna legt eine 4."),
    ],
)
def test_events_are_told_from_the_viewers_seat(event, me, expected):
    assert describe(event, me, NAMES) == expected


@pytest.mark.parametrize(
    ("winners", "points", "me", "expected"),
    [
        (
            [0],
            [12, 41, 20],
            0,
            "Partie vorbei: Ben hat das Ziel von 40 Minuspunkten erreicht. Du gewinnst mit 12 Minuspunkten.",
        ),
        (
            [0, 2],
            [23, 41, 23],
            2,
            "Partie vorbei: Ben hat das Ziel von 40 Minuspunkten erreicht. Anna und du gewinnt gemeinsam mit je 23 Minuspunkten.",
        ),
        (
            [1],
            [40, 3, 44],
            0,
            "Partie vorbei: Cara und du habt das Ziel von 40 Minuspunkten erreicht. Ben gewinnt mit 3 Minuspunkten.",
        ),
    ],
)
def test_game_over_names_who_reached_the_target_and_who_won(winners, points, me, expected):
    event = {"type": "game_over", "reason": "target", "winners": winners, "points": points}
    assert describe(event, me, NAMES, target=40) == expected


def test_parse_action():
    assert parse_action({"aktion": "play:A"}) == {"type": "play", "card": "A"}
    assert parse_action({"aktion": "draw"}) == {"type": "draw"}
    assert parse_action({"aktion": "quit"}) == {"type": "quit"}
    assert parse_action({"aktion": "continue"}) == {"type": "continue"}
    for bad in ("play:7", "play:", "dance", "", "ziehen"):
        assert parse_action({"aktion": bad}) is None


def test_chips_are_always_shown_as_chips():
    chips = alpaka_table.chips({"black": 1, "white": 3})
    assert (len(chips["black"]), len(chips["white"]), chips["points"]) == (1, 3, 13)
    assert chips["label"] == "1 schwarzer und 3 weiße Chips"
    assert alpaka_table.chips({"black": 0, "white": 1})["label"] == "1 weißer Chip"
    assert alpaka_table.chips({"black": 0, "white": 0})["label"] == "keine Chips"


def _state():
    state = alpaka.new_game(5, 3, {"names": NAMES})
    state["hands"] = [["2", "2", "3", "6"], ["1", "4", "5"], ["A", "A"]]
    state["discard"] = ["2"]
    state["turn"] = 0
    return state


def test_present_shows_own_hand_grouped_and_what_fits():
    table = present(alpaka.view(_state(), 0), remaining=75)
    groups = [(g["code"], g["count"], g["playable"]) for g in table["me"]["groups"]]
    assert groups == [("2", 2, True), ("3", 1, True), ("6", 1, False)]
    assert table["me"]["hand_score"] == 11
    assert table["my_turn"] and table["actions"]["draw"]["allowed"]
    assert table["countdown"] == {
        "seconds": 75,
        "text": "1:15",
        "total": 90,
        "label": "Deine Zugzeit",
        "mine": True,
    }
    # Opponents clockwise from the viewer's left; only hand sizes, never their cards.
    assert [(s["name"], s["hand_size"]) for s in table["opponents"]] == [("Ben", 3), ("Cara", 2)]
    assert "hand" not in table["opponents"][0]


def test_present_explains_why_drawing_is_impossible():
    state = _state()
    state["draw_pile"] = []
    table = present(alpaka.view(state, 0))
    assert not table["actions"]["draw"]["allowed"]
    assert table["actions"]["draw"]["reason"] == "Der Nachziehstapel ist leer."
    state = _state()
    state["quit"] = [False, True, True]
    table = present(alpaka.view(state, 0))
    assert (
        table["actions"]["draw"]["reason"]
        == "Alle anderen sind ausgestiegen – ziehen darfst du nicht mehr."
    )
    waiting = present(alpaka.view(_state(), 1))
    assert waiting["actions"]["draw"]["reason"] == "Anna ist am Zug."
    assert waiting["countdown"] is None


def test_present_for_a_spectator_has_no_hand():
    table = present(alpaka.view(_state(), None), bots={2})
    assert table["me"] is None and table["spectator"]
    assert [s["name"] for s in table["opponents"]] == NAMES
    assert table["seats"][2]["is_bot"]
