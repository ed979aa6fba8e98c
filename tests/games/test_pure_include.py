"""``pure_include``: a small part drawn once per process for each set of values."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.template.loader import render_to_string

from games.play.alpaka.presenter import card, chips
from games.templatetags import play

CARD = "play/alpaka/_card.html"

pytestmark = pytest.mark.usefixtures("pure_store")


def test_it_draws_what_the_include_draws():
    values = {"card": card("A"), "size": "mini"}
    assert play.pure_include(CARD, **values) == render_to_string(CARD, values)
    tally = {"chips": chips({"black": 1, "white": 2})}
    assert play.pure_include("play/alpaka/_chips.html", **tally) == render_to_string(
        "play/alpaka/_chips.html", tally
    )


def test_equal_values_are_drawn_once(drawn):
    first = play.pure_include(CARD, card=card("5"), size="big")
    again = play.pure_include(CARD, card=card("5"), size="big")
    other = play.pure_include(CARD, card=card("6"), size="big")
    assert first == again and first != other
    assert drawn.count(CARD) == 2  # the 5 once, the 6 once


def test_true_and_one_are_not_the_same_values(drawn):
    template = Template('{% load play %}{% pure_include "play/alpaka/_card.html" card=c %}')
    as_bool = template.render(Context({"c": {**card("4"), "is_alpaka": True}}))
    as_int = template.render(Context({"c": {**card("4"), "is_alpaka": 1}}))
    assert drawn.count(CARD) == 2
    assert "Alpaka" in as_bool and "Alpaka" in as_int  # both true, drawn apart


def test_values_that_are_not_plain_data_are_drawn_every_time(drawn):
    class Card:
        code, css, is_alpaka = "3", "3", False

    play.pure_include(CARD, card=Card())
    play.pure_include(CARD, card=Card())
    assert drawn.count(CARD) == 2


def test_while_debugging_every_call_draws(settings, drawn):
    settings.DEBUG = True
    play.pure_include(CARD, card=card("2"))
    play.pure_include(CARD, card=card("2"))
    assert drawn.count(CARD) == 2


def test_the_store_starts_afresh_when_full(monkeypatch):
    monkeypatch.setattr(play, "PURE_KEPT", 3)
    for code in "12345":
        play.pure_include(CARD, card=card(code))
    assert len(play._pure_drawn) <= 3


def test_a_safe_string_and_its_plain_text_are_not_the_same_values(drawn):
    from django.utils.safestring import mark_safe

    template = "play/the_cat/_player.html"
    seat = {"name": "<b>Minka</b>", "status": "", "points_text": "", "stacks": []}
    plain = play.pure_include(template, seat=seat, phase="play")
    marked = play.pure_include(
        template, seat={**seat, "name": mark_safe("<b>Minka</b>")}, phase="play"
    )
    assert "&lt;b&gt;Minka" in plain and "<b>Minka</b>" in marked
    assert drawn.count(template) == 2


def test_keys_keep_kinds_apart():
    assert play._frozen({"a": [1, True, 1.0, None, "1"]}) != play._frozen(
        {"a": [1, 1, 1, None, "1"]}
    )
    assert play._frozen(["x"]) != play._frozen({"x": None}) != play._frozen("x")
    assert play._frozen({"a": 1, "b": [2]}) == play._frozen({"a": 1, "b": [2]})
