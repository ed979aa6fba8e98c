"""The Cat's guided first game: the moments a rule first matters, and the first round
in which the bots wait for the learner (``games.play.driver`` holds the clock)."""

from __future__ import annotations

from games.engines import the_cat
from games.play.definition import CoachNote, CoachSpec
from games.play.the_cat import presenter

NOTES = {
    "waiting": CoachNote(
        "Deine erste Runde: Die Bots warten auf dich und greifen nur zu, wenn du etwas tust. "
        "Ab Runde 2 spielen alle gleichzeitig.",
        "ablauf",
    ),
    "take": CoachNote(
        "Nimm einen deiner verdeckten Stapel auf – mehr als einen darfst du nie halten.",
        "ablauf",
    ),
    "swap": CoachNote(
        "Tausche: Tippe eine Karte deiner Hand an, dann eine in der Mitte. Ziel: in jedem "
        "Stapel vier Karten derselben Laune.",
        "ablauf",
    ),
    "stop": CoachNote(
        "Alle deine Stapel sind fertig – jetzt darfst du „Stopp!“ rufen. Wer falsch ruft, "
        "bekommt in dieser Runde nichts.",
        "spielende",
    ),
    "reveal": CoachNote(
        "Auflösung: Jeder fertige Stapel zählt einen Punkt; wer richtig gerufen hat, "
        "bekommt einen dazu.",
        "spielende",
    ),
}


def knowledge(state: dict, seat: int) -> dict:
    """The seat's view plus what it remembers of its own stacks (it looked at them)."""
    return the_cat.bot_view(state, seat)


def bots_wait(state: dict) -> bool:
    return state["phase"] == the_cat.PLAY and state["round"] == 1


def notes(view: dict, events: list[dict], guided: bool) -> list[str]:
    keys = []
    if view["phase"] == the_cat.REVEAL:
        return ["reveal"]
    if view["phase"] != the_cat.PLAY or not view["legal_actions"]:
        return []
    remembered = view.get("remembered") or []
    if remembered and all(stack and the_cat.is_finished(stack) for stack in remembered):
        keys.append("stop")
    if guided and view["round"] == 1:
        keys.append("waiting")
    keys.append("take" if view["held"] is None else "swap")
    return keys


COACH = CoachSpec.worded_by(presenter, notes, NOTES, knowledge=knowledge, bots_wait=bots_wait)
