"""Katz und Maus's guided first game: the moments a rule first matters."""

from __future__ import annotations

from games.engines import katz_und_maus as km
from games.play.definition import CoachNote, CoachSpec
from games.play.katz_und_maus import presenter

NOTES = {
    "build": CoachNote(
        "Du bist dran. Auf die vier Baustapel in der Mitte legt jeder der Reihe nach auf: "
        "erst ein Ass, dann 2, 3 … bis zur Dame. Ein König passt überall.",
        "ablauf",
    ),
    "stock": CoachNote(
        "Die oberste Karte deines Spielerstapels passt! Leg sie – wer den Spielerstapel "
        "zuerst leer hat, gewinnt.",
        "ablauf",
    ),
    "discard": CoachNote(
        "Dein Zug endet, sobald du eine Handkarte auf einen deiner vier Ablagestapel legst. "
        "Deren oberste Karten darfst du später wieder auf die Baustapel legen.",
        "ablauf",
    ),
    "king": CoachNote(
        "Ein König steht für jeden Wert. Hebe ihn am besten für die Karte deines "
        "Spielerstapels auf.",
        "ablauf",
    ),
}


def notes(view: dict, events: list[dict], guided: bool) -> list[str]:
    if view["phase"] != km.PLAY or view["seat"] not in view["to_act"]:
        return []
    plays = [action for action in view["legal_actions"] if action["type"] == "play"]
    keys = []
    if any(action["source"] == "stock" for action in plays):
        keys.append("stock")
    keys.append("build")
    if any(card.startswith("K") for card in view["hand"] or []):
        keys.append("king")
    if any(action["type"] == "discard" for action in view["legal_actions"]):
        keys.append("discard")
    return keys


# A bot's turn is several moves: its last four are shown with „Warum?“.
COACH = CoachSpec.worded_by(presenter, notes, NOTES, recent=4)
