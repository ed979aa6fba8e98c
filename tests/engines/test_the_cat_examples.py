"""Every worked example in the The-Cat article says exactly what the engine does
(no Django: the TOML is read directly and checked with the play package's
verifiers)."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path

import pytest

from games.play.the_cat.examples import VERIFIERS, _play

CONTENT = Path(__file__).resolve().parents[2] / "rules" / "content" / "the-cat.toml"


def examples() -> list[dict]:
    with CONTENT.open("rb") as handle:
        return tomllib.load(handle)["examples"]


def checked() -> list[dict]:
    return [example for example in examples() if "check" in example]


def test_every_example_carries_an_engine_check():
    missing = [example["title"] for example in examples() if "check" not in example]
    assert missing == []
    assert len(checked()) >= 8
    for example in checked():
        assert example["check"]["engine"] == "the_cat"
        assert example["check"]["kind"] in VERIFIERS
        assert example.get("expect"), example["title"]


@pytest.mark.parametrize("example", checked(), ids=lambda example: example["title"])
def test_example_matches_the_engine(example):
    check = example["check"]
    assert VERIFIERS[check["kind"]](check) == example["expect"]


def test_the_seed_example_is_among_them():
    brad = next(e for e in checked() if e["title"] == "Brad ruft „Stopp!“")
    assert brad["expect"]["points"] == {"Brad": 5, "Jack": 2}


def test_a_wrong_expectation_is_noticed():
    brad = next(e for e in checked() if e["title"] == "Brad ruft „Stopp!“")
    wrong = copy.deepcopy(brad["check"])
    wrong["stacks"][0][3] = ["albern", "albern", "albern", "neugierig"]
    actual = VERIFIERS["round"](wrong)
    assert actual != brad["expect"]
    assert actual["caller_right"] is False and actual["points"]["Brad"] == 0


def test_moves_that_do_not_end_the_round_are_reported():
    swap = next(e for e in checked() if e["check"]["kind"] == "moves")
    with pytest.raises(ValueError, match="beenden die Runde nicht"):
        VERIFIERS["round"](swap["check"])


def test_the_timeline_holds_each_move_as_the_engine_played_it():
    """The step-throughs (games/play/the_cat/steps.py) are drawn from this timeline."""
    race = next(e for e in checked() if e["title"] == "Zwei wollen dieselbe Karte")
    timeline: list[dict] = []
    _play(race["check"], timeline)
    kinds = [[event["type"] for event in entry["events"]] for entry in timeline]
    assert kinds == [["take"], ["take"], ["swap"], []]
    swap = timeline[2]["events"][0]
    assert swap["seat"] == 0 and swap["took"].startswith("verliebt-")
    assert timeline[3]["refused"] == "Zu spät – die Karte hat gerade jemand genommen."
    assert timeline[3]["state"] == timeline[2]["state"]  # the refused swap changed nothing
    assert all("text" not in event for entry in timeline for event in entry["events"])
