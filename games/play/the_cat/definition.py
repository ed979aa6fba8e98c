"""The Cat's one record (so far: the article's example checks; demo and rooms follow)."""

from __future__ import annotations

from games.engines import the_cat
from games.play.definition import SIMULTANEOUS, GameDefinition
from games.play.the_cat import examples

THE_CAT = GameDefinition(
    key="the_cat",
    slug="the-cat",
    title="The Cat",
    module=the_cat,
    present=None,
    parse_action=lambda data: None,
    mode=SIMULTANEOUS,
    verifiers=examples.VERIFIERS,
)
