"""The parts of a table that depend on plain values alone (another player's box, the open
middle, the own hand and stacks, the score sheet) are drawn once per process for each set
of values (``pure_include``): a move pushed to every viewer draws each player's box once,
not once per viewer, and an unchanged hand is not drawn again."""

from __future__ import annotations

import pytest

from games.play import definition as registry
from games.play.seating import Viewer
from rooms import body, lobby, seating
from rooms.models import Room
from tests.factories import make_game

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Ben", "Cleo", "Dora"]
PARTS = {
    "the_cat": {
        "player": "play/the_cat/_player.html",
        "parts": {
            "play/the_cat/_player.html",
            "play/the_cat/_middle.html",
            "play/the_cat/_stacks.html",
            "play/the_cat/_hand.html",
            "play/_sheet.html",
        },
    },
    "alpaka": {
        "player": "play/alpaka/_seat.html",
        "parts": {"play/alpaka/_seat.html", "play/alpaka/_hand.html", "play/_sheet.html"},
    },
}


def _running(key: str) -> tuple[Room, list]:
    engine = registry.get(key)
    make_game(engine.slug, title=engine.title, demo_engine=key, players_max=6)
    room = lobby.create_room(engine, "visitor-0", NAMES[0], engine.default_options())
    for number, name in enumerate(NAMES[1:], start=1):
        seating.join(engine, room.code, f"visitor-{number}", name)
    lobby.start(engine, room.code, "visitor-0")
    room = Room.objects.get(pk=room.pk)
    return room, sorted(room.seats.all(), key=lambda seat: seat.number)


@pytest.mark.parametrize("key", PARTS)
def test_a_move_pushed_to_every_viewer_draws_each_player_once(key, drawn):
    room, seats = _running(key)
    views = body.pushed_views(registry.get(key), room, seats, since=room.version, skip=None)
    assert len(views) == len(seats) + 1  # every player and the spectators
    first = {viewer: draw() for viewer, draw in views.items()}
    # Each player's box is in three players' views and the spectators': drawn once.
    assert drawn.count(PARTS[key]["player"]) == len(seats)

    drawn.clear()
    assert {viewer: draw() for viewer, draw in views.items()} == first
    # Drawn again (the next push, a poll): every part comes from the store, so the
    # values they are keyed by are plain data.
    assert not set(drawn) & PARTS[key]["parts"], drawn


def test_the_log_words_only_the_events_it_shows():
    events = [{"v": version, "event": {"type": "draw", "seat": 0}} for version in range(1, 41)]
    view = {"seat": 0, "names": NAMES[:2], "phase": "play"}
    worded = []

    def describe(event):
        worded.append(event)
        return "Anna zieht." if len(worded) % 2 else ""  # every other event has no words

    lines = Viewer(view, log=events).log_lines(describe, 5)
    assert lines == ["Anna zieht."] * 5
    assert len(worded) == 9  # the newest nine events, not all forty


def test_the_score_sheet_names_the_game_s_word_for_a_round():
    from django.template import Context, Template

    sheet = {"names": ["Du", "Ben"], "rounds": [{"number": 1, "cells": [3, 0]}], "totals": [3, 0]}
    frame = '{% load play %}{% pure_include "play/_sheet.html" css="km" round_word=round_word sheet=sheet %}'
    as_games = Template("{% with round_word='Spiel' %}" + frame + "{% endwith %}")
    assert '<th scope="col">Spiel</th>' in as_games.render(Context({"sheet": sheet}))
    # Without a word of its own (The Cat, Alpaka) the sheet says „Runde“.
    assert '<th scope="col">Runde</th>' in Template(frame).render(Context({"sheet": sheet}))
