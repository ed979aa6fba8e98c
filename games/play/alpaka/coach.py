"""Alpaka's guided first game: the moments a rule first matters (``games.play.coach``)."""

from __future__ import annotations

from games.engines import alpaka
from games.play.alpaka import presenter
from games.play.definition import CoachNote, CoachSpec

NOTES = {
    "fits": CoachNote(
        "Du bist dran. Leg eine Karte mit derselben Zahl wie die oberste der Ablage oder "
        "genau eins mehr. Nach der 6 kommt das Alpaka, danach wieder die 1.",
        "ablauf",
    ),
    "fits_englert": CoachNote(
        "Du bist dran. Mit der Englert-Regel passt dieselbe Zahl, eins mehr oder eins "
        "weniger. Nach der 6 kommt das Alpaka, danach wieder die 1.",
        "ablauf",
    ),
    "nothing_fits": CoachNote(
        "Keine deiner Karten passt. Du kannst eine Karte ziehen – oder aussteigen.",
        "ablauf",
    ),
    "quit": CoachNote(
        "Statt zu legen oder zu ziehen, darfst du in jedem Zug aussteigen. Dann ist die "
        "Runde für dich vorbei, und am Ende zählt, was du noch auf der Hand hast.",
        "ablauf",
    ),
    "scoring": CoachNote(
        "Wertung: Jede Zahl auf einer Hand kostet ihren Wert, aber nur einmal – drei 4er "
        "kosten 4, ein Alpaka 10. Wer die Hand leer hat, gibt einen Chip zurück.",
        "spielende",
    ),
}


def notes(view: dict, events: list[dict], guided: bool) -> list[str]:
    keys = []
    legal = {action["type"] for action in view["legal_actions"]}
    if view["phase"] == alpaka.SCORING:
        keys.append("scoring")
    elif "play" in legal:
        keys.append("fits_englert" if view["variant"] == alpaka.ENGLERT else "fits")
        keys.append("quit")
    elif "quit" in legal:
        keys += ["nothing_fits", "quit"]
    return keys


COACH = CoachSpec.worded_by(presenter, notes, NOTES)
