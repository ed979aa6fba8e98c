"""Katz und Maus's worked examples as typed fields (``games.example_fields``)."""

from games.example_fields import (
    CardRows,
    Cards,
    CheckSchema,
    Lines,
    NameNumbers,
    Names,
    Number,
    Pick,
    Text,
    YesNo,
)

RANKS = "Ränge A, 2 … 10, J, Q, K, durch Leerzeichen getrennt; unten zuerst."
PILES = "Eine Zeile je Stapel (A, B, C, D), Ränge durch Leerzeichen, unten zuerst; „–“ für leer."
TEAMS = YesNo("teams", "In Teams", optional=True)
# Leer: die Regel der Quelle (das Spiel endet), wie in Demo und Raum voreingestellt.
EMPTY_DRAW = Pick(
    "empty_draw",
    "Kartenstock aufgebraucht",
    "Leer heißt: Regel der Quelle.",
    optional=True,
    choices=(("end", "Spiel endet (Regel der Quelle)"), ("recycle", "Variante: Baustapel mischen")),
)

EXAMPLE_FIELDS = {
    "build": CheckSchema(
        "Passt die Karte auf den Ablagestapel?",
        check=(
            Text("name", "Spieler (für den Text)", optional=True),
            Pick("at", "Stapel", optional=True, choices=tuple((c, c) for c in "ABCD")),
            Cards("pile", "Auf dem Stapel", RANKS, optional=False),
            Text("card", "Karte", "Ein Rang, z. B. 4 oder K."),
        ),
        expect=(
            YesNo("fits", "Passt"),
            Number("value", "Zählt als", optional=True),
            YesNo("complete", "Stapel fertig", optional=True),
        ),
    ),
    "turn": CheckSchema(
        "Ein Zug",
        check=(
            Text("name", "Spieler (für den Text)", optional=True),
            CardRows("build", "Ablagestapel in der Mitte", PILES, optional=True),
            Cards("stock", "Eigener Stapel", RANKS),
            Cards("hand", "Hand", RANKS),
            CardRows("discards", "Eigene Ablagen", PILES, optional=True),
            Cards("draw", "Als Nächstes gezogen", RANKS, optional=True),
            Number("draw_size", "Karten im Nachziehstapel", optional=True),
            Number("players", "Spielerzahl", optional=True),
            EMPTY_DRAW,
            Lines(
                "moves",
                "Züge",
                "Je Zeile einer: hand:7:A, stock:A, discard:1:A, end:Q:2.",
                optional=True,
            ),
            Cards("report", "Nur diese Ergebnisse prüfen", "z. B. drawn hand", optional=True),
        ),
        expect=(
            Cards(
                "drawn",
                "Gezogen je Nachziehen",
                "Anzahl je Ziehen, z. B. 1 5.",
                numbers=True,
            ),
            Number("completed", "Fertige Stapel", optional=True),
            Number("recycled", "Neu gemischt", optional=True),
            Cards(
                "build",
                "Stapelhöhen danach",
                "Vier Zahlen, z. B. 0 4 0 0.",
                optional=True,
                numbers=True,
            ),
            Text("stock_top", "Oben auf dem eigenen Stapel", optional=True),
            Cards("hand", "Hand danach", RANKS, optional=True),
            YesNo("over", "Spiel vorbei", optional=True),
            Number("winner", "Sieger (Platz)", optional=True),
        ),
    ),
    "end": CheckSchema(
        "Nachziehstapel leer",
        check=(
            Names("players", "Spieler"),
            NameNumbers("stocks", "Karten im eigenen Stapel"),
            TEAMS,
        ),
        expect=(
            Names("winners", "Sieger"),
            YesNo("draw", "Unentschieden"),
            NameNumbers("points", "Punkte"),
        ),
    ),
    "score": CheckSchema(
        "Wertung",
        check=(
            Names("players", "Spieler", "Der Erste gewinnt mit der letzten Stapelkarte."),
            NameNumbers("stocks", "Karten in den Stapeln der anderen"),
            TEAMS,
            NameNumbers("before", "Punkte vorher", optional=True),
        ),
        expect=(
            NameNumbers("points", "Punkte dieser Partie"),
            NameNumbers("totals", "Punkte gesamt"),
            YesNo("match_over", "Match vorbei"),
        ),
    ),
}
