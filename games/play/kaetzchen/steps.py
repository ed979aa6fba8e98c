"""Kätzchen-Angeln's worked examples step by step, as the engine plays them.

``example_steps(check)`` builds the example's position (the same one the
verifier in ``examples.py`` checks), lets the engine flip and turns the flip's
events into steps worded by the presenter. Each step: ``title``, ``lines`` and
the rows of cards ``play/kaetzchen/example_step.html`` draws.
"""

from __future__ import annotations

from games.engines import kaetzchen as engine
from games.play.kaetzchen.board import card_context
from games.play.kaetzchen.examples import (
    LIMIT,
    flip_event,
    flip_position,
    flipper,
    limit_position,
)
from games.play.kaetzchen.presenter import ARTICLE, count_text, event_text, result_text, turn_text

# The article speaks to „du“ and calls the other player „dein Gegenüber“.
WHO = ("Du", ARTICLE.name)
PILE = ("deinen Stapel", "den Stapel deines Gegenübers")
PILE_NOW = ("Dein Stapel", ARTICLE.pile)
LAST_CARD = (
    "Du deckst gleich deine letzte Karte auf.",
    f"{ARTICLE.name} deckt gleich die letzte Karte auf.",
)


def _row(codes, marks: dict[int, str] | None = None, label: str = "") -> dict:
    marks = marks or {}
    return {
        "label": label,
        "cards": [card_context(code, marks.get(index, "")) for index, code in enumerate(codes)],
    }


def _labels(codes) -> str:
    return ", ".join(engine.card_label(code) for code in codes)


def _table_sentence(codes) -> str:
    if not codes:
        return "Der Tisch ist leer."
    verb = "liegt" if len(codes) == 1 else "liegen"
    return f"Auf dem Tisch {verb} {count_text(len(codes))}: {_labels(codes)}."


def _after_sentence(codes) -> str:
    if not codes:
        return "Danach ist der Tisch leer."
    verb = "liegt" if len(codes) == 1 else "liegen"
    return f"Danach {verb} noch {count_text(len(codes))} auf dem Tisch: {_labels(codes)}."


def _number(value: int) -> str:
    return f"{value:,}".replace(",", ".")


def _step(title: str, *rows: dict, lines=(), piles=None) -> dict:
    return {"title": title, "lines": list(lines), "rows": list(rows), "piles": piles or []}


def _piles(state: dict) -> list[dict]:
    return [
        {"name": WHO[seat], "count": len(pile), "text": count_text(len(pile))}
        for seat, pile in enumerate(state["piles"])
    ]


def _said(event: dict) -> str:
    return event_text(event, ARTICLE)


def _flip_steps(check: dict) -> list[dict]:
    before = flip_position(check)
    seat = flipper(check)
    table = list(before["table"])
    after, events = engine.apply(before, seat, {"type": "flip"})
    flipped = next(e for e in events if e["type"] == "flip")
    flip = flip_event(events)
    card = flipped["card"]
    new = len(table)  # the flipped card's place in the row

    steps = [
        _step(
            _table_sentence(table),
            _row(table, label="Tisch"),
            lines=[LAST_CARD[seat]] if check.get("last_card") else [],
        ),
    ]
    if flip["type"] == "stay":
        why = (
            "Auf dem leeren Tisch gibt es nichts abzuräumen."
            if flip.get("lone_jack")
            else "Kein Rang auf dem Tisch passt, und die Karte ist kein Bube."
        )
        steps.append(
            _step(
                _said(flipped),
                _row(after["table"], {new: "new"}, label="Tisch"),
                lines=[_said(flip), why],
            )
        )
    else:
        steps.append(_step(_said(flipped), _row([*table, card], {new: "new"}, label="Tisch")))
        won = flip["won"]
        if flip["type"] == "fish":
            matched = flip["matched_index"]
            marks = {index: "won" for index in range(matched, len(table))}
            marks[matched] = "won match"
            marks[new] = "new won match"
            why = (
                f"{engine.card_label(card)} hat denselben Rang wie "
                f"{engine.card_label(table[matched])}: Diese Karte, alle Karten danach "
                f"und die aufgedeckte gehören {('dir', 'deinem Gegenüber')[seat]}."
            )
        else:
            marks = {index: "won" for index in range(len(table))}
            marks[new] = "new won jack"
            why = "Ein Bube auf einem Tisch mit Karten nimmt den ganzen Tisch."
        steps.append(_step(_said(flip), _row([*table, card], marks, label="Tisch"), lines=[why]))
        steps.append(
            _step(
                f"Unter {PILE[seat]} kommen {count_text(len(won))}, in der Reihenfolge "
                f"vom Tisch: {_labels(won)}.",
                _row(won, label="Unter den Stapel"),
                lines=[
                    f"{WHO[seat]} {('nimmst', 'nimmt')[seat]} sie zusammen, ohne die "
                    "Reihenfolge zu ändern: "
                    f"{engine.card_label(won[-1])}, die gerade aufgedeckte Karte, "
                    "liegt danach ganz unten."
                ],
            )
        )
        steps.append(_step(_after_sentence(after["table"]), _row(after["table"], label="Tisch")))
    if check.get("last_card"):
        over = next((e for e in events if e["type"] == "game_over"), None)
        if over is not None:
            steps.append(_step(_said(over), piles=_piles(after)))
        else:
            steps.append(
                _step(
                    f"{PILE_NOW[seat]} hat wieder {count_text(len(after['piles'][seat]))}: "
                    f"Die Partie geht weiter. {turn_text(after['turn'], ARTICLE)}",
                    piles=_piles(after),
                )
            )
    return steps


def _limit_steps(check: dict) -> list[dict]:
    before = limit_position(check)
    after, events = engine.apply(before, 1, {"type": "flip"})
    flipped = next(e for e in events if e["type"] == "flip")
    over = next(e for e in events if e["type"] == "game_over")
    table = before["table"]
    return [
        _step(
            f"{_number(LIMIT - 1)} Züge sind gespielt. {ARTICLE.name} macht gleich den "
            f"letzten erlaubten, Zug {_number(LIMIT)}.",
            _row(table, label="Tisch"),
            lines=[
                _table_sentence(table),
                f"Die Grenze von {_number(LIMIT)} Zügen ist eine Sicherheitsregel dieser "
                "Seite, keine Regel am Tisch.",
            ],
            piles=_piles(before),
        ),
        _step(
            _said(flipped),
            _row(after["table"], {len(table): "new"}, label="Tisch"),
            lines=[_said(flip_event(events))],
            piles=_piles(after),
        ),
        _step(
            result_text(over, ARTICLE),
            piles=_piles(after),
            lines=[f"Die {count_text(len(after['table']))} auf dem Tisch zählen nicht mit."],
        ),
    ]


STEPS = {"flip": _flip_steps, "limit": _limit_steps}


def example_steps(check: dict) -> list[dict] | None:
    """A checked example as steps (None for kinds without a step-through)."""
    steps = STEPS.get(check.get("kind"))
    return steps(check) if steps else None
