"""The Kätzchen-Angeln demo board: the visitor (seat 0) against the computer Kätzchen (seat 1).

The demo runs on the shared demo driver (``games.play.driver``); this module
only turns the visitor's row into what ``play/kaetzchen/demo.html`` shows.
The browser only ever receives what ``kaetzchen.view`` shows plus the cards
of the flip it has just asked for – all of them lie on the table or have just
been won in front of everybody. Pile order and seed never leave the server.
Kätzchen flips only when the client asks for it on Kätzchen's turn (after a
short visible pause); a visitor's flip on Kätzchen's turn is refused.
"""

from __future__ import annotations

from games.engines import kaetzchen as engine
from games.engines.base import IllegalAction
from games.play.kaetzchen.presenter import CAT, YOU, event_text, result_text, turn_text

LOW_PILE = 5  # a pile this small is highlighted


def next_game(row) -> dict:
    """Who flips first: the visitor in game 1, 3, 5 …, Kätzchen in game 2, 4, 6 …"""
    games = row.profile.get("games", 1)
    return {"starter": "you" if games % 2 == 1 else "cat"}


def finish(row, data):
    """„Zum Ergebnis“: the rest of the game played out at once."""
    if row.state["result"] is not None:
        raise IllegalAction("Die Partie ist bereits beendet.")
    row.state, summary = engine.finish(row.state)
    row.version += 1
    return {"summary": summary}


def auto(row, data):
    """Remember the Auto switch; it never touches the game or its version."""
    row.profile = {**row.profile, "auto": data.get("an") == "1"}


# Auto's speeds (the script has the durations of each): value, label.
SPEEDS = (("normal", "normal"), ("schnell", "schnell"), ("sehr-schnell", "sehr schnell"))
DEFAULT_SPEED = "normal"


def speed(row, data):
    """Remember Auto's speed; like the switch it never touches the game or its version."""
    value = str(data.get("tempo", "")).strip()
    if value not in dict(SPEEDS):
        raise IllegalAction("Dieses Tempo gibt es nicht.")
    row.profile = {**row.profile, "speed": value}


def _speed_of(row) -> str:
    value = row.profile.get("speed", DEFAULT_SPEED)
    return value if value in dict(SPEEDS) else DEFAULT_SPEED


def card_context(code: str, mark: str = "") -> dict:
    rank = code[:-1]
    return {
        "code": code,
        "rank": rank,
        "suit": engine.card_symbol(code)[len(rank) :],
        "label": engine.card_label(code),
        "red": code[-1] in "HD",
        "mark": mark,
    }


def _seat(name: str, count: int, active: bool, before: int | None = None) -> dict:
    return {
        "name": name,
        "count": count,
        "count_text": "1 Karte" if count == 1 else f"{count} Karten",
        "low": count <= LOW_PILE,
        "active": active,
        # The count shown while the won cards are still on their way to the pile.
        "before": count if before is None else before,
    }


def _event_text(event: dict, card_code: str | None) -> str:
    """The status after a flip: what was won, else which card was laid."""
    if event["type"] == "stay" and card_code and not event.get("lone_jack"):
        return event_text({"type": "flip", "seat": event["seat"], "card": card_code})
    return event_text(event)


def _result(view: dict, summary: dict | None) -> dict | None:
    outcome = view["outcome"]
    if outcome is None:
        return None
    winner = outcome["winner"]
    if outcome["reason"] == "limit":
        reason = "Zuglimit erreicht – Kartenzahl entscheidet"
    elif winner == "you":
        reason = "Kätzchens Stapel ist leer."
    else:
        reason = "Dein Stapel ist leer."
    return {
        "kind": {"you": "sieg", "cat": "niederlage", None: "unentschieden"}[winner],
        "title": {"you": "Sieg!", "cat": "Niederlage", None: "Unentschieden"}[winner],
        "reason": reason,
        "text": result_text(outcome),
        "you": outcome["piles"][YOU],
        "cat": outcome["piles"][CAT],
        "table": len(view["table"]),
        "moves": outcome["moves"],
        "jumped": summary["flips"] if summary else 0,
    }


def board(
    definition,
    row,
    *,
    urls: dict,
    back: str,
    note: str = "",
    result=None,
    since=None,
    stale: bool = False,
) -> dict:
    """Everything the demo template shows, from ``view()`` and the flip just made.

    ``result`` is what the applied action returned (the flip's events, the
    summary of „Zum Ergebnis“); None when the page is simply (re)loaded.
    """
    view = engine.view(row.state, YOU)
    result = result or {}
    events = result.get("events") or []
    flip = next((e for e in events if e["type"] in ("fish", "jack", "stay")), None)
    flip_card = next((e["card"] for e in events if e["type"] == "flip"), None)
    piles = view["piles"]
    before = [None, None]

    table = view["table"]
    cards = [card_context(code) for code in table]
    animate = None
    if flip is not None:
        # The row as it was the moment the card landed: the won cards are still
        # there (they lay on the table a moment ago, so they are public).
        won = flip.get("won", [])
        if won:
            cards = [card_context(code) for code in table] + [
                card_context(code, "won") for code in won[:-1]
            ]
            cards.append(card_context(won[-1], "new won"))
            if flip["type"] == "fish":
                cards[len(table)]["mark"] = "won match"
                cards[-1]["mark"] = "new won match"
            before[flip["seat"]] = piles[flip["seat"]] - len(won)
        elif cards:
            cards[-1]["mark"] = "new"
        animate = {"seat": flip["seat"], "kind": flip["type"], "count": len(won)}
    elif cards:
        cards[-1]["mark"] = "last"

    last = next((e for e in view["last_events"] if e["type"] != "game_over"), None)
    outcome = _result(view, result.get("summary"))
    starter_is_cat = view["starter"] == "cat"
    games = row.profile.get("games", 1)
    if note:
        status = note
    elif outcome:
        status = outcome["text"]
    elif view["moves"] == 0:
        status = (
            "In diesem Spiel deckt der Gegner zuerst auf."
            if starter_is_cat
            else "Neue Partie: Du deckst zuerst auf."
        )
    elif last is not None:
        status = f"{_event_text(last, flip_card or last.get('card'))} {turn_text(view['turn'])}"
    else:
        status = turn_text(view["turn"])

    return {
        "version": row.version,
        "back": back,
        "phase": "over" if outcome else ("deal" if view["moves"] == 0 else "play"),
        "turn": view["turn_name"] or "",
        "moves": view["moves"],
        "limit": view["limit"],
        "you": _seat("Du", piles[YOU], view["turn"] == YOU, before[YOU]),
        "cat": _seat("Kätzchen", piles[CAT], view["turn"] == CAT, before[CAT]),
        "cards": cards,
        "table_count": len(table),
        "animate": animate,
        "status": status,
        "note": note,
        "result": outcome,
        "auto": bool(row.profile.get("auto")),
        "speed": _speed_of(row),
        "speeds": [
            {"value": value, "label": label, "pressed": value == _speed_of(row)}
            for value, label in SPEEDS
        ],
        "first_game": games == 1,
        "tap_hint": games == 1 and view["moves"] == 0 and view["turn"] == YOU,
        "cat_starts": starter_is_cat and view["moves"] <= 1 and not outcome,
        "mid_game": view["moves"] > 0 and not outcome,
        "urls": {
            "flip": urls["act"],
            "cat": urls["bot"],
            "finish": urls["ergebnis"],
            "new": urls["new"],
            "auto": urls["auto"],
            "speed": urls["tempo"],
        },
        # The engine's refusal of a flip on Kätzchen's turn, for the script to show.
        "wait_text": engine.WAIT_FOR_CAT,
    }
