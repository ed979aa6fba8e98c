"""German status-line texts for Alpaka events and errors (neutral perspective)."""

from __future__ import annotations


def card_the(card: str, capital: bool = False) -> str:
    """Definite article: „die 4“, „das Alpaka“."""
    text = "das Alpaka" if card == "A" else f"die {card}"
    return text[0].upper() + text[1:] if capital else text


def card_a(card: str) -> str:
    """Indefinite article: „eine 4“, „ein Alpaka“."""
    return "ein Alpaka" if card == "A" else f"eine {card}"


def join_names(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " und " + names[-1]


def points(count: int, dative: bool = False) -> str:
    if count == 1:
        return "1 Minuspunkt"
    return f"{count} Minuspunkten" if dative else f"{count} Minuspunkte"


def chips_accusative(chips: dict[str, int]) -> str:
    parts = []
    for key, singular, plural in (
        ("black", "einen schwarzen Chip", "schwarze Chips"),
        ("white", "einen weißen Chip", "weiße Chips"),
    ):
        count = chips[key]
        if count == 1:
            parts.append(singular)
        elif count > 1:
            parts.append(f"{count} {plural}")
    return " und ".join(parts) if parts else "keine Chips"


def winners_sentence(names: list[str], score: int) -> str:
    if not names:
        return "Niemand gewinnt."
    if len(names) == 1:
        return f"{names[0]} gewinnt mit {points(score, dative=True)}."
    return f"{join_names(names)} gewinnen gemeinsam mit je {points(score, dative=True)}."
