"""Every worked example of the Alpaka article is checked by the engine."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from games import example_checks
from rules.models import WorkedExample

pytestmark = pytest.mark.django_db

# The article's kinds; „play“ and „score“ stay available to editors (tests below) but the
# article tells them in one narrated round instead of one-line examples.
KINDS = {"round", "chips", "end"}


def alpaka_examples():
    return list(WorkedExample.objects.filter(article__game__slug="alpaka"))


def test_every_alpaka_example_has_a_check_the_engine_confirms(content):
    examples = alpaka_examples()
    assert 5 <= len(examples) <= 8  # one narrated round, not a one-liner per table row
    problems = []
    for example in examples:
        check = example.engine_check
        assert check, f"Beispiel ohne Engine-Prüfung: {example.title}"
        assert check["engine"] == "alpaka" and check["kind"] in KINDS, example.title
        assert ("alpaka", check["kind"]) in example_checks.registered()
        difference = example_checks.mismatch(check, example.expect)
        if difference:
            problems.append(f"{example.title}: {difference}")
    assert problems == []
    assert {e.engine_check["kind"] for e in examples} == KINDS


@pytest.mark.parametrize(
    ("title", "key", "wrong"),
    [
        (
            "Eine ganze Runde: aussteigen oder ziehen?",
            "points",
            {"Anna": 0, "Ben": 8, "Cara": 14},
        ),
        (
            "Dieselbe Runde mit der Englert-Zusatzregel",
            "points",
            {"Anna": -1, "Ben": 8, "Cara": 4},
        ),
        ("Allein am Tisch", "draw_allowed", True),
        ("Chip zurück mit Wechselgeld", "white", 10),
        ("Bei null gibt es nichts zurück", "points", -1),
        ("Das Spielende", "winners", ["Anna"]),
    ],
)
def test_a_wrong_statement_in_an_example_fails(content, title, key, wrong):
    example = WorkedExample.objects.get(article__game__slug="alpaka", title=title)
    assert example_checks.mismatch(example.engine_check, example.expect) is None
    changed = copy.deepcopy(example.expect)
    changed[key] = wrong
    assert example_checks.mismatch(example.engine_check, changed)


def test_round_checks_play_the_moves_through_the_engine():
    check = {
        "engine": "alpaka",
        "kind": "round",
        "players": ["Anna", "Ben"],
        "hands": [["5", "6"], ["1", "1"]],
        "top": "4",
        "moves": [["Anna", "play:5"], ["Ben", "quit"], ["Anna", "play:6"]],
    }
    assert example_checks.verify(check) == {"reason": "empty_hand", "points": {"Anna": 0, "Ben": 1}}
    with pytest.raises(Exception, match="passt nicht"):
        example_checks.verify({**check, "moves": [["Anna", "play:6"]]})
    with pytest.raises(AssertionError, match="nicht vorbei"):
        example_checks.verify({**check, "moves": [["Anna", "play:5"]]})


def test_the_game_end_check_knows_a_game_that_goes_on():
    check = {"engine": "alpaka", "kind": "end", "points": {"Anna": 12, "Ben": 39}}
    assert example_checks.verify(check) == {"over": False}
    assert example_checks.verify({**check, "target": 20}) == {"over": True, "winners": ["Anna"]}


def test_round_examples_show_the_engines_own_steps_on_the_rules_page(content, client):
    page = client.get("/spiele/alpaka/").content.decode()
    # Every example is a step-through (templates/includes/example_steps.html); the page
    # holds each one's first step, the others load on demand from their own address.
    assert page.count('class="ex-steps is-stepping"') == len(alpaka_examples())
    steps = []
    for number, _example in enumerate(alpaka_examples(), start=1):
        first = client.get(f"/spiele/alpaka/beispiel/{number}/?schritt=1").content.decode()
        count = int(first.split("Schritt 1 von ", 1)[1].split("<", 1)[0])
        steps += [
            client.get(f"/spiele/alpaka/beispiel/{number}/?schritt={step}").content.decode()
            for step in range(1, count + 1)
        ]
    html = page + "".join(steps)
    assert html.count('class="alp-steps alp-steps--step"') >= 2 * len(alpaka_examples())
    assert "Regelwerk: Englert-Zusatzregel." in html
    # The texts come from the engine's events, not from the article.
    assert "Runde vorbei: Bei Anna passt keine Karte mehr." in html
    assert "Cara zahlt nichts." in html
    assert "Ben bekommt 8 Minuspunkte (8 weiße Chips)." in html


def test_the_narrated_round_draws_the_card_it_names(content):
    """Cara's decision in numbers rests on the engine's draw: she gets the 5 the text names."""
    example = WorkedExample.objects.get(
        article__game__slug="alpaka", title="Eine ganze Runde: aussteigen oder ziehen?"
    )
    check = example.engine_check
    assert ["Ben", "quit"] in check["moves"] and ["Cara", "draw"] in check["moves"]
    assert check["draw"] == ["5"] and "eine 5" in example.body
    other = copy.deepcopy(check)
    other["draw"] = ["2"]  # another card, and Cara's later „play:5“ is refused
    with pytest.raises(Exception, match="nicht"):
        example_checks.verify(other)
    # The counts of both decisions, recomputed from the position: what each one has not
    # seen (own hand and the open pile after Anna's 4 are known).
    value = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "A": 10}
    pile = [*check["below"], check["top"], "4"]

    def unknown(hand):
        rest = Counter({card: 8 for card in value})
        rest.subtract(hand + pile)
        return rest

    ben, cara = check["hands"][1], check["hands"][2]
    seen = unknown(ben)
    free = sum(n for card, n in seen.items() if card in ben)
    extra = sum(n * value[card] for card, n in seen.items() if card not in ben)
    assert (free, sum(seen.values()), extra) == (13, 50, 173)
    assert f"{free} von {sum(seen.values())}" in example.body
    assert f"{extra} ÷ {sum(seen.values())}" in example.body
    seen = unknown(cara)
    assert sum(seen.values()) == 49 and "49 unbekannten Karten" in example.body
    groups = {"nothing": "13A", "soon": "45", "dearer": "26"}
    counts = {key: sum(seen[card] for card in cards) for key, cards in groups.items()}
    assert counts == {"nothing": 19, "soon": 14, "dearer": 16}
    for count in counts.values():
        assert f"({count} Karten)" in example.body
