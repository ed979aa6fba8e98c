"""German words every presenter needs: the viewer is „du“, everybody else their name."""

from __future__ import annotations


def join_names(names: list[str]) -> str:
    """„Anna“, „Anna und Ben“, „Anna, Ben und Cara“."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " und " + names[-1]


class Words:
    """Names and verb forms from one seat's point of view (``me`` None: a spectator)."""

    def __init__(self, names: list[str], me: int | None):
        self.names = names
        self.me = me

    def who(self, seat: int, capital: bool = True) -> str:
        if seat == self.me:
            return "Du" if capital else "du"
        return self.names[seat]

    def dative(self, seat: int) -> str:
        """„dir“ for the viewer, else the name („rät dir“, „rät Anna“)."""
        return "dir" if seat == self.me else self.names[seat]

    def verb(self, seat: int, third: str, second: str) -> str:
        """The verb for ``seat``: „legt“ for others, „legst“ for the viewer."""
        return second if seat == self.me else third

    def plural_verb(self, seats: list[int], third: str, second: str, plural: str, you_all: str):
        """The verb for ``seats``: one seat as ``verb``; several „haben“, or „habt“
        when the viewer is among them."""
        if len(seats) == 1:
            return self.verb(seats[0], third, second)
        return you_all if self.me in seats else plural

    def many(self, seats: list[int]) -> str:
        """Several players, the viewer last: „Anna und du“."""
        ordered = [s for s in seats if s != self.me] + [s for s in seats if s == self.me]
        return join_names([self.who(s, capital=index == 0) for index, s in enumerate(ordered)])


def countdown(seconds: int, total: int | None, label: str, mine: bool) -> dict:
    """A table's timer as every game's template draws it („1:15“, a bar of ``total``)."""
    seconds = max(0, seconds)
    return {
        "seconds": seconds,
        "text": f"{seconds // 60}:{seconds % 60:02d}",
        "total": total,
        "label": label,
        "mine": mine,
    }
