"""Per shipped exercise: the engine accepts the intended answer and rejects the intended
wrong one with the intended reason; the command checks the stored rows the same way."""

from __future__ import annotations

import copy

import pytest
from django.core.management import CommandError, call_command

from exercises import content_loader, kinds
from exercises.models import Exercise

SHIPPED = [
    pytest.param(item, id=f"{data['slug']}-{number}")
    for path in content_loader.content_files()
    for data in [content_loader.read(path)]
    for number, item in enumerate(data["exercises"], start=1)
]


def test_every_game_ships_at_least_twelve_exercises():
    counts = {
        content_loader.read(path)["slug"]: len(content_loader.read(path)["exercises"])
        for path in content_loader.content_files()
    }
    assert set(counts) == {"kaetzchen-angeln", "alpaka", "katz-und-maus", "the-cat"}
    assert min(counts.values()) >= 12, counts


@pytest.mark.parametrize("item", SHIPPED)
def test_the_engine_accepts_the_intended_answer_and_rejects_the_wrong_one(item):
    setup = item["setup"]
    right = kinds.judge(setup, setup[kinds.ANSWER])
    assert right.right, right.happened
    assert right.happened  # the engine says what it did
    wrong = kinds.judge(setup, setup[kinds.WRONG])
    assert not wrong.right, wrong.happened
    assert wrong.why == item["expect"][kinds.WHY]
    assert wrong.happened
    # Every reason a kind gives has a label for readers and editors.
    assert kinds.kind_for(setup).reason_label(wrong.why) != wrong.why


@pytest.mark.parametrize("item", SHIPPED)
def test_the_board_shows_neither_answer(item):
    """The board is drawn from the position alone: the answers never reach it."""
    setup = item["setup"]
    kind = kinds.kind_for(setup)
    board = kind.board(kinds.position_of(setup))
    spoiled = {**setup, kinds.ANSWER: "GEHEIM-RICHTIG", kinds.WRONG: "GEHEIM-FALSCH"}
    assert kind.board(kinds.position_of(spoiled)) == board
    assert "GEHEIM" not in repr(board)


def test_mismatch_names_an_answer_the_engine_no_longer_accepts():
    item = copy.deepcopy(SHIPPED[0].values[0])
    item["setup"][kinds.ANSWER] = item["setup"][kinds.WRONG]
    assert "gilt laut Engine nicht" in kinds.mismatch(item["setup"], item["expect"])


def test_mismatch_names_a_wrong_answer_the_engine_accepts():
    item = copy.deepcopy(SHIPPED[0].values[0])
    item["setup"][kinds.WRONG] = item["setup"][kinds.ANSWER]
    assert "gilt laut Engine als richtig" in kinds.mismatch(item["setup"], item["expect"])


def test_mismatch_names_another_reason():
    item = copy.deepcopy(SHIPPED[0].values[0])
    other = next(
        code for code, _ in kinds.kind_for(item["setup"]).reasons if code != item["expect"]["why"]
    )
    assert "die Engine sagt" in kinds.mismatch(item["setup"], {"why": other})


@pytest.mark.django_db
def test_the_command_checks_the_stored_exercises_and_fails_on_a_contradiction(content, capsys):
    content_loader.load_all()
    call_command("check_exercises")
    assert "48 Übungen geprüft" in capsys.readouterr().out
    broken = Exercise.objects.filter(game__slug="alpaka").first()
    broken.expect = {"why": "teurer" if broken.expect["why"] != "teurer" else "verboten"}
    broken.save()
    with pytest.raises(CommandError, match="1 von 48"):
        call_command("check_exercises")
    assert broken.title in capsys.readouterr().err


def test_the_command_checks_the_shipped_files(capsys):
    call_command("check_exercises", "--shipped")
    assert "Übungen geprüft, die Engine bestätigt alle" in capsys.readouterr().out
