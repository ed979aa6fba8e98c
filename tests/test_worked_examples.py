"""Every worked example in the shipped content that carries an engine check says
exactly what the engine does – a wrong example fails here."""

from __future__ import annotations

import copy

import pytest

from games import example_checks
from rules.models import WorkedExample

pytestmark = pytest.mark.django_db

KAETZCHEN = "kaetzchen-angeln"


def checked_examples():
    return [
        example
        for example in WorkedExample.objects.select_related("article__game")
        if example.engine_check
    ]


def test_every_checked_example_matches_the_engine(content):
    examples = checked_examples()
    assert any(e.article.game.slug == KAETZCHEN for e in examples)
    problems = []
    for example in examples:
        engine, kind = example.engine_check["engine"], example.engine_check["kind"]
        assert (engine, kind) in example_checks.registered(), f"{example.title}: no verifier"
        assert example.expect, f"{example.title}: check without expect"
        difference = example_checks.mismatch(example.engine_check, example.expect)
        if difference:
            problems.append(f"{example.article.game.slug} / {example.title}: {difference}")
    assert problems == []


def test_every_kaetzchen_example_has_a_check(content):
    examples = WorkedExample.objects.filter(article__game__slug=KAETZCHEN)
    assert examples.count() >= 7
    missing = {e.title for e in examples if not e.engine_check}
    assert missing == set(), f"Beispiele ohne Engine-Prüfung: {sorted(missing)}"
    for example in examples:
        assert example.engine_check["engine"] == "kaetzchen"
        assert ("kaetzchen", example.engine_check["kind"]) in example_checks.registered()


def test_a_wrong_expectation_is_reported(content):
    example = next(
        e for e in checked_examples() if e.engine_check["engine"] == "kaetzchen" and e.expect["won"]
    )
    assert example_checks.mismatch(example.engine_check, example.expect) is None
    reversed_order = copy.deepcopy(example.expect)
    reversed_order["won"].reverse()
    assert example_checks.mismatch(example.engine_check, reversed_order)
    wrong_kind = {**example.expect, "kind": "stay"}
    assert example_checks.mismatch(example.engine_check, wrong_kind)


@pytest.mark.parametrize(
    ("check", "expect"),
    [
        (
            {"engine": "kaetzchen", "kind": "flip", "table": ["8S", "4C", "KD"], "card": "4H",
             "last_card": True},
            {"kind": "fish", "won": ["4C", "KD", "4H"], "table": ["8S"], "game_over": False},
        ),
        (
            {"engine": "kaetzchen", "kind": "flip", "table": ["8S", "4C", "KD"], "card": "2D",
             "last_card": True},
            {"kind": "stay", "won": [], "table": ["8S", "4C", "KD", "2D"], "game_over": True},
        ),
        (
            {"engine": "kaetzchen", "kind": "flip", "table": [], "card": "JC", "last_card": True},
            {"kind": "stay", "won": [], "table": ["JC"], "game_over": True},
        ),
        (
            {"engine": "kaetzchen", "kind": "limit", "you": 31, "cat": 17, "table": 4},
            {"winner": "you", "reason": "limit"},
        ),
        (
            {"engine": "kaetzchen", "kind": "limit", "you": 24, "cat": 24, "table": 4},
            {"winner": None, "reason": "limit"},
        ),
        (
            {"engine": "kaetzchen", "kind": "limit", "you": 10, "cat": 40, "table": 2},
            {"winner": "cat", "reason": "limit"},
        ),
    ],
)  # fmt: skip
def test_last_card_and_limit_checks(check, expect):
    assert example_checks.verify(check) == expect


def test_impossible_positions_and_unknown_kinds_are_errors():
    with pytest.raises(ValueError):
        example_checks.verify(
            {"engine": "kaetzchen", "kind": "limit", "you": 30, "cat": 17, "table": 4}
        )
    with pytest.raises(example_checks.UnknownCheck):
        example_checks.verify({"engine": "kaetzchen", "kind": "gibt-es-nicht"})
