"""The demo's coach, the same for every game: „Tipp“, „Warum?“ and the guided first game.

- A tip is the move a strong bot would make for the reader, with its reason. It is
  computed only from what the reader knows (``CoachSpec.knowledge``, by default the
  engine's ``view``) with a random generator seeded from that knowledge, so two
  tables that differ only in hidden cards give the same tip.
- „Warum?“: a bot's reason is stored with its move in the table's log (``"why"``,
  see ``scheduler.WHY``); the game's presenter words it from public facts.
- The guided first game: coach notes at the moments a rule first matters (the game
  names the moments, ``CoachSpec.notes``), each linking its section of the article;
  each note is shown until the reader's next move. The switch „Erklärungen an/aus“
  is kept in the demo row's profile (``coach``: on unless switched off).

The visitor's profile keys: ``coach`` (bool), ``coach_seen`` (note keys), ``deals``
(games dealt so far; the guided game is the first).
"""

from __future__ import annotations

import hashlib
import json
import random

from django.urls import reverse

from games.play.definition import CoachNote, GameDefinition

SEAT = 0  # the reader's seat in the demo
GENERIC_REASON = "Der Bot hat abgewogen, was ihm am meisten nützt."
WAIT = {"type": "wait"}  # what a tip words when the best move is to do nothing now


def enabled(row) -> bool:
    """„Erklärungen an“ (the default) or switched off."""
    return bool((row.profile or {}).get("coach", True))


def guided(row) -> bool:
    """The visitor's first game of this demo, with the coach switched on."""
    return enabled(row) and (row.profile or {}).get("deals", 1) <= 1


def knowledge(definition: GameDefinition, state: dict, seat: int = SEAT) -> dict:
    """What ``seat`` knows: its view, plus what it remembers where the game says so."""
    spec = definition.coach
    if spec is not None and spec.knowledge is not None:
        return spec.knowledge(state, seat)
    return definition.view(state, seat)


def public_rng(known: dict) -> random.Random:
    """A random generator seeded only from what the seat knows (never the game's seed)."""
    text = json.dumps(known, sort_keys=True, separators=(",", ":"), default=str)
    return random.Random(hashlib.sha256(text.encode()).hexdigest())


def tip_for(definition: GameDefinition, state: dict, seat: int = SEAT) -> dict | None:
    """``{"action", "reason", "move", "why"}``: the strong bot's move for ``seat`` now;
    None when the seat has nothing to decide or the game has no coach."""
    spec = definition.coach
    if spec is None or state is None or definition.outcome(state) is not None:
        return None
    if seat not in definition.to_act(state):
        return None
    known = knowledge(definition, state, seat)
    if "legal_actions" in known and not known["legal_actions"]:
        return None
    action, reason = definition.bot_choice(known, public_rng(known))
    return {
        "action": action,
        "reason": reason,
        # None: the bot would do nothing this moment (hold on and watch)
        "move": spec.move_text(action or WAIT, known),
        "why": reason_text(definition, reason, known),
    }


def reason_text(definition: GameDefinition, reason: dict | None, view: dict) -> str:
    spec = definition.coach
    if spec is None or not reason:
        return GENERIC_REASON
    return spec.reason_text(reason, view) or GENERIC_REASON


def explained(definition: GameDefinition, log: list, view: dict) -> list:
    """The last bots' moves in the log with their reasons, newest first:
    ``{"v", "move", "why"}`` (as many as ``CoachSpec.recent``)."""
    spec = definition.coach
    if spec is None:
        return []
    limit = spec.recent
    rows = []
    for entry in reversed(log or []):
        why = entry.get("why")
        if not why or why.get("seat", -1) == view.get("seat"):
            continue
        move = spec.event_text(entry["event"], view)
        if not move:
            continue
        rows.append({"v": entry["v"], "move": move, "why": reason_text(definition, why, view)})
        if len(rows) >= limit:
            break
    return rows


def _note_keys(definition: GameDefinition, row) -> list[str]:
    spec = definition.coach
    if spec is None or row.state is None or not enabled(row):
        return []
    known = knowledge(definition, row.state)
    events = [entry["event"] for entry in row.log or []]
    seen = set((row.profile or {}).get("coach_seen", []))
    return [
        key
        for key in spec.notes(known, events, guided(row))
        if key not in seen and key in spec.note_texts
    ]


def note(definition: GameDefinition, row) -> dict | None:
    """The note to show now (the most urgent one not seen yet), or None."""
    keys = _note_keys(definition, row)
    if not keys:
        return None
    found: CoachNote = definition.coach.note_texts[keys[0]]
    page = reverse("games:detail", kwargs={"slug": definition.slug})
    return {
        "key": keys[0],
        "text": found.text,
        "link": found.link,
        "href": f"{page}#{found.section}",
    }


def mark_seen(definition: GameDefinition, row) -> None:
    """The reader acts: the note shown until now counts as read."""
    shown = note(definition, row)
    if shown is not None:
        seen = list(row.profile.get("coach_seen", []))
        row.profile = {**row.profile, "coach_seen": [*seen, shown["key"]]}


def switch(row, on: bool) -> None:
    row.profile = {**(row.profile or {}), "coach": on}


def context(definition: GameDefinition, row, *, tip: dict | None, urls: dict) -> dict | None:
    """The coach's part of the demo board (``play/_coach.html``); None without a coach."""
    if definition.coach is None:
        return None
    playing = row.state is not None and definition.outcome(row.state) is None
    view = definition.view(row.state, SEAT) if row.state is not None else {"seat": SEAT}
    return {
        "enabled": enabled(row),
        "note": note(definition, row) if playing else None,
        "tip": tip,
        "can_tip": playing and SEAT in definition.to_act(row.state),
        "explained": explained(definition, row.log, view) if row.state is not None else [],
        "urls": {"tip": urls["tip"], "switch": urls["coach"]},
    }
