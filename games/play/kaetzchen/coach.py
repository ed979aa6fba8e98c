"""Kätzchen-Angeln's guided first game: the moments a rule first matters."""

from __future__ import annotations

from games.play.definition import CoachNote, CoachSpec
from games.play.kaetzchen import presenter

NOTES = {
    "flip": CoachNote(
        "Tippe auf deinen Stapel: Du deckst die oberste Karte auf und legst sie ans Ende der "
        "Reihe. Danach ist Kätzchen dran.",
        "ablauf",
    ),
    "fish": CoachNote(
        "Jetzt liegen Karten auf dem Tisch. Deckst du einen Rang auf, der schon dort liegt, "
        "angelst du: Du bekommst diese Karte, alle dahinter und deine neue.",
        "ablauf",
    ),
    "jack": CoachNote(
        "Ein Bube räumt ab: Er nimmt den ganzen Tisch mit. Auf einem leeren Tisch bleibt er "
        "einfach liegen.",
        "ablauf",
    ),
    "won": CoachNote(
        "Gewonnene Karten kommen in ihrer Reihenfolge unter den eigenen Stapel. Wer keine "
        "Karte mehr aufdecken kann, verliert.",
        "spielende",
    ),
}


def notes(view: dict, events: list[dict], guided: bool) -> list[str]:
    keys = []
    kinds = {event["type"] for event in view.get("last_events", [])}
    if "jack" in kinds:
        keys.append("jack")
    if "fish" in kinds or "jack" in kinds:
        keys.append("won")
    if view["turn"] == view["seat"]:
        # With cards on the table, fishing is what matters; flipping is plain anyway.
        keys += ["fish", "flip"] if view["table"] else ["flip"]
    return keys


COACH = CoachSpec(
    move_text=presenter.move_text,
    reason_text=presenter.reason_text,
    event_text=presenter.coach_event_text,
    notes=notes,
    note_texts=NOTES,
    recent=1,  # Kätzchen's flips are all alike: its last one is enough
)
