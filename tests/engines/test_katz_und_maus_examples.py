"""The Katz und Maus article's worked examples say exactly what the engine does
(read straight from the TOML; no Django needed)."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path

import pytest

from games.play.katz_und_maus.examples import VERIFIERS, turn_steps

ARTICLE = Path(__file__).resolve().parents[2] / "rules" / "content" / "katz-und-maus.toml"


def checked_examples() -> list[dict]:
    data = tomllib.loads(ARTICLE.read_text(encoding="utf-8"))
    return [example for example in data["examples"] if "check" in example]


EXAMPLES = checked_examples()


def test_the_key_rules_have_checked_examples():
    kinds = {example["check"]["kind"] for example in EXAMPLES}
    assert kinds == set(VERIFIERS)
    assert len(EXAMPLES) >= 10


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["title"] for e in EXAMPLES])
def test_every_example_matches_the_engine(example):
    check = example["check"]
    assert check["engine"] == "katz_und_maus"
    assert "expect" in example, "a check without expect"
    assert VERIFIERS[check["kind"]](check) == example["expect"]


def test_a_wrong_expectation_is_noticed():
    full_turn = next(e for e in EXAMPLES if e["title"] == "Ein kompletter Zug")
    wrong = copy.deepcopy(full_turn["check"])
    wrong["moves"].remove("hand:K:A")  # without the King the Queen does not fit
    with pytest.raises(Exception, match="Dame|König|gehört"):
        VERIFIERS["turn"](wrong)
    king = next(e for e in EXAMPLES if e["title"] == "Der König bleibt ein König")
    assert VERIFIERS["build"]({**king["check"], "card": "Q"}) == {"fits": False}


def test_turn_examples_step_through_engine_events():
    full_turn = next(e for e in EXAMPLES if e["title"] == "Ein kompletter Zug")
    steps = turn_steps(full_turn["check"])
    assert steps["result"] == full_turn["expect"]
    assert [step["move"] for step in steps["steps"]][0] == "start"
    assert len(steps["steps"]) == 1 + len(full_turn["check"]["moves"])
    for step in steps["steps"]:
        for event in step["events"]:
            assert "text" not in event
    assert turn_steps({"kind": "build"}) is None
