"""Template helpers for Kätzchen-Angeln on the game page: statistics and example steps."""

from django import template

from games.engines import kaetzchen
from games.play.kaetzchen import statistics as kaetzchen_statistics
from games.play.kaetzchen.board import card_context

register = template.Library()


@register.simple_tag
def kaetzchen_statistics_figures():
    """The stored simulation figures (one query), or None before the first simulation."""
    return kaetzchen_statistics.load()


@register.simple_tag
def kaetzchen_example_steps(check):
    """A worked example's flip, computed by the engine, as three steps to draw.

    Returns None for checks that are not a single flip (nothing to draw).
    """
    if not isinstance(check, dict) or check.get("kind") != "flip":
        return None
    table, card = list(check["table"]), check["card"]
    result = kaetzchen.resolve_flip(table, card)
    kind = result["kind"]
    matched = result["matched_index"]
    before = [card_context(code) for code in table]
    flipped = [card_context(code, "won" if kind == "jack" else "") for code in table]
    if kind == "fish":
        for index in range(matched, len(table)):
            flipped[index]["mark"] = "won"
        flipped[matched]["mark"] = "won match"
    flipped.append(
        card_context(card, {"fish": "new won match", "jack": "new won jack"}.get(kind, "new"))
    )
    won = [card_context(code) for code in result["won"]]
    count = len(won)
    if kind == "fish":
        rule = f"Angeln: gleicher Rang wie {kaetzchen.card_label(table[matched])}"
    elif kind == "jack":
        rule = "Bube räumt ab: der Tisch ist nicht leer"
    elif kaetzchen.card_label(card).endswith("Bube"):
        rule = "Bube auf leerem Tisch: nichts abzuräumen"
    else:
        rule = "Nichts passt: die Karte bleibt liegen"
    return {
        "kind": kind,
        "before": before,
        "card": card_context(card),
        "flipped": flipped,
        "after": [card_context(code) for code in result["table"]],
        "won": won,
        "won_text": "keine Karte"
        if count == 0
        else ("1 Karte" if count == 1 else f"{count} Karten"),
        "rule": rule,
    }
