"""Katz und Maus's one record (so far: the article's example checks; demo and rooms follow)."""

from __future__ import annotations

from games.engines import katz_und_maus
from games.play.definition import GameDefinition
from games.play.katz_und_maus import examples

KATZ_UND_MAUS = GameDefinition(
    key="katz_und_maus",
    slug="katz-und-maus",
    title="Katz und Maus",
    module=katz_und_maus,
    present=None,
    parse_action=lambda data: None,
    verifiers=examples.VERIFIERS,
)
