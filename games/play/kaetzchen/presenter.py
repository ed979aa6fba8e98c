"""Kätzchen-Angeln in words: the engine's events and results for the status line."""

from __future__ import annotations

from games.engines import kaetzchen as engine

YOU, CAT = 0, 1
WHO = ("Du", "Kätzchen")
TAKES = ("nimmst", "nimmt")
FLIPS = ("deckst", "deckt")


def count_text(count: int) -> str:
    return "1 Karte" if count == 1 else f"{count} Karten"


def event_text(event: dict) -> str:
    """One engine event as a sentence („Geangelt! Du nimmst 4 Karten.“)."""
    kind = event["type"]
    seat = event.get("seat")
    if kind == "flip":
        return f"{WHO[seat]} {FLIPS[seat]} {engine.card_label(event['card'])} auf."
    if kind == "fish":
        return f"Geangelt! {WHO[seat]} {TAKES[seat]} {count_text(event['count'])}."
    if kind == "jack":
        return f"Bube räumt ab! {WHO[seat]} {TAKES[seat]} {count_text(event['count'])}."
    if kind == "stay":
        if event.get("lone_jack"):
            return "Bube auf leerem Tisch – er bleibt liegen."
        return f"{engine.card_label(event['card'])} bleibt auf dem Tisch liegen."
    if kind == "game_over":
        return result_text(event)
    return ""


def result_text(result: dict) -> str:
    """The end of a game (``outcome()`` or a ``game_over`` event) as a sentence."""
    winner = result["winner"]
    if result["reason"] == "empty":
        if winner == "you":
            return "Kätzchens Stapel ist leer – du gewinnst!"
        return "Dein Stapel ist leer – Kätzchen gewinnt."
    you, cat = result["piles"]
    verdict = {"you": "Du gewinnst!", "cat": "Kätzchen gewinnt.", None: "Unentschieden."}[winner]
    return f"Zuglimit erreicht – Kartenzahl entscheidet (Du {you}, Kätzchen {cat}). {verdict}"


def turn_text(turn: int | None) -> str:
    return {YOU: "Du bist dran.", CAT: "Kätzchen ist dran."}.get(turn, "")
