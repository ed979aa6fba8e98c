"""The protocol shared by all turn-based engines.

State is plain JSON-serialisable data (dicts, lists, str, int, bool, None).
Randomness only ever comes from ``random.Random(seed)``; a game is replayed
exactly from its seed and action log.

An engine module exposes:

``new_game(seed: int, players: int, options: dict | None = None) -> dict``
    A fresh state. Seats are numbered 0..players-1.
``legal_actions(state: dict, seat: int) -> list[dict]``
    The actions the seat may take now (empty when it is not their turn).
``apply(state: dict, seat: int, action: dict) -> tuple[dict, list[dict]]``
    Returns a new state and the events the UI animates. The input state is
    never mutated. An illegal action raises ``IllegalAction`` with a German
    message.
``view(state: dict, seat: int | None) -> dict``
    What ``seat`` may see (``None``: a spectator). Hidden cards are removed,
    not merely flagged.
``outcome(state: dict) -> dict | None``
    ``None`` while the game runs, else a dict describing the result.
``to_act(state: dict) -> list[int]``
    The seats whose decision the game waits for.

Events are codes with data – dicts with a ``type`` key, e.g. ``{"type":
"fish", "seat": 0, "count": 4}`` – and carry no wording: each game's
presenter (``games/play/<key>/``) words them in German for the viewer
(„Geangelt! Du nimmst 4 Karten“). Only ``IllegalAction`` messages are
German in the engine.
"""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules do not allow. ``str(error)`` is German."""
