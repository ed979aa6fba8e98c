"""Kätzchen-Angeln in words: the engine's events and results for the status line.

The demo's opponent is Kätzchen; the article's worked examples call the other
player „dein Gegenüber“ (``ARTICLE``). Both are worded here.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engines import kaetzchen as engine

YOU, CAT = 0, 1
TAKES = ("nimmst", "nimmt")
FLIPS = ("deckst", "deckt")


@dataclass(frozen=True)
class Opponent:
    """How seat 1 is named: at the start of a sentence, inside one, and its pile."""

    name: str
    inner: str
    pile: str


DEMO = Opponent("Kätzchen", "Kätzchen", "Kätzchens Stapel")
ARTICLE = Opponent("Dein Gegenüber", "dein Gegenüber", "Der Stapel deines Gegenübers")
WHO = ("Du", DEMO.name)


def count_text(count: int) -> str:
    return "1 Karte" if count == 1 else f"{count} Karten"


def event_text(event: dict, opponent: Opponent = DEMO) -> str:
    """One engine event as a sentence („Geangelt! Du nimmst 4 Karten.“)."""
    kind = event["type"]
    seat = event.get("seat")
    who = ("Du", opponent.name)
    if kind == "flip":
        return f"{who[seat]} {FLIPS[seat]} {engine.card_label(event['card'])} auf."
    if kind == "fish":
        return f"Geangelt! {who[seat]} {TAKES[seat]} {count_text(event['count'])}."
    if kind == "jack":
        return f"Bube räumt ab! {who[seat]} {TAKES[seat]} {count_text(event['count'])}."
    if kind == "stay":
        if event.get("lone_jack"):
            return "Bube auf leerem Tisch – er bleibt liegen."
        return f"{engine.card_label(event['card'])} bleibt auf dem Tisch liegen."
    if kind == "game_over":
        return result_text(event, opponent)
    return ""


def result_text(result: dict, opponent: Opponent = DEMO) -> str:
    """The end of a game (``outcome()`` or a ``game_over`` event) as a sentence."""
    winner = result["winner"]
    if result["reason"] == "empty":
        if winner == "you":
            return f"{opponent.pile} ist leer – du gewinnst!"
        return f"Dein Stapel ist leer – {opponent.inner} gewinnt."
    you, cat = result["piles"]
    verdict = {
        "you": "Du gewinnst!",
        "cat": f"{opponent.name} gewinnt.",
        None: "Unentschieden.",
    }[winner]
    return (
        f"Zuglimit erreicht – Kartenzahl entscheidet (Du {you}, {opponent.inner} {cat}). {verdict}"
    )


def turn_text(turn: int | None, opponent: Opponent = DEMO) -> str:
    return {YOU: "Du bist dran.", CAT: f"{opponent.name} ist dran."}.get(turn, "")


# --- The coach: tips and „Warum?“ (games.play.coach) --------------------------------

RANK_WORDS = {"A": "Ass", "J": "Bube", "Q": "Dame", "K": "König"}


def move_text(action: dict, view: dict) -> str:
    return "Deck deine oberste Karte auf."


def reason_text(reason: dict, view: dict) -> str:
    """Why the only move is made; the chances named come from the open table."""
    if reason.get("code") != "only_move":
        return ""
    mine = reason.get("seat") == view.get("seat")
    text = "In Kätzchen-Angeln gibt es nichts zu entscheiden: Wer dran ist, deckt auf."
    ranks = [RANK_WORDS.get(rank, rank) for rank in reason.get("fishing", [])]
    if not ranks:
        return text + " Der Tisch ist leer, die Karte bleibt also liegen."
    who = "du" if mine else "Kätzchen"
    listed = ", ".join(ranks)
    return (
        f"{text} Zeigt die Karte einen Rang, der schon liegt ({listed}), angelt {who}; "
        "ein Bube räumt den ganzen Tisch ab."
    )


def coach_event_text(event: dict, view: dict) -> str:
    return event_text(event)
