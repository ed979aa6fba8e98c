"""The Cat's worked examples as typed fields (``games.example_fields``)."""

from games.example_fields import (
    Cards,
    CheckSchema,
    Moves,
    NameCards,
    NameNumbers,
    Names,
    NameTexts,
    Number,
    Pick,
    StackRows,
    Text,
    YesNo,
)

MOODS = "Stimmungen wie grimmig, frech, stolz …, durch Leerzeichen getrennt."
STACKS = "Eine Zeile je Spieler; Stapel durch „|“ getrennt, je vier Stimmungen; „–“ für einen Stapel aus den übrigen Karten."
MOVES = "„Name: take:0“, „Name: put_back“, „Name: swap:frech:verliebt“, „Name: stop“ oder „Name: give_up“; „gleichzeitig“ dahinter."
POSITION = (
    Names("players", "Spieler", "In Sitzreihenfolge, durch Kommas getrennt."),
    StackRows("stacks", "Stapel", STACKS),
    Cards("middle", "Mitte", MOODS, optional=True),
    Cards(
        "scores",
        "Punkte vorher",
        "Je Spieler in Sitzreihenfolge, z. B. 18 19 12.",
        optional=True,
        numbers=True,
    ),
    Number("target", "Ziel", optional=True),
    Moves("moves", "Züge", MOVES),
    Names("report", "Nur diese Spieler prüfen", optional=True),
)

EXAMPLE_FIELDS = {
    "deal": CheckSchema(
        "Austeilen",
        check=(Number("players", "Spielerzahl"),),
        expect=(
            Number("cards", "Karten"),
            Number("moods", "Stimmungen"),
            Number("stacks_each", "Stapel je Spieler"),
            Number("middle", "Karten in der Mitte"),
        ),
    ),
    "moves": CheckSchema(
        "Züge",
        check=POSITION,
        expect=(
            Cards("middle", "Mitte danach", MOODS, optional=True),
            NameCards("hands", "In der Hand danach", "„Name: Stimmung …“ je Zeile.", optional=True),
            NameTexts(
                "refused", "Abgelehnt", "„Name: Meldung der Engine“ je Zeile.", optional=True
            ),
        ),
    ),
    "round": CheckSchema(
        "Runde bis zur Wertung",
        check=(
            *POSITION,
            Pick("ends", "Ende durch", optional=True, choices=(("time", "Zeit abgelaufen"),)),
        ),
        expect=(
            Pick(
                "reason",
                "Rundenende",
                choices=(
                    ("stop", "Stopp gerufen"),
                    ("time", "Zeit abgelaufen"),
                    ("given_up", "alle aufgegeben"),
                    ("left", "Spieler gegangen"),
                ),
            ),
            NameNumbers("points", "Punkte der Runde"),
            Text("caller", "Gerufen von", optional=True),
            YesNo("caller_right", "Zu Recht gerufen", optional=True),
            NameTexts("refused", "Abgelehnt", optional=True),
            NameNumbers("totals", "Punkte gesamt", optional=True),
            Names("winners", "Sieger", optional=True),
        ),
    ),
}
