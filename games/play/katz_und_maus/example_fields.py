"""Katz und Maus's worked examples as typed fields (``games.example_fields``)."""

from games import example_fields as fields

RANKS = "Ränge A, 2 … 10, J, Q, K, durch Leerzeichen getrennt; unten zuerst."
PILES = "Eine Zeile je Stapel (A, B, C, D), Ränge durch Leerzeichen, unten zuerst; „–“ für leer."
TEAMS = fields.YesNo("teams", "In Teams", optional=True)
# Leer: die Regel der Quelle (das Spiel endet), wie in Demo und Raum voreingestellt.
EMPTY_DRAW = fields.Pick(
    "empty_draw",
    "Kartenstock aufgebraucht",
    "Leer heißt: Regel der Quelle.",
    optional=True,
    choices=(("end", "Spiel endet (Regel der Quelle)"), ("recycle", "Variante: Baustapel mischen")),
)

EXAMPLE_FIELDS = {
    "build": fields.CheckSchema(
        "Passt die Karte auf den Ablagestapel?",
        check=(
            fields.Text("name", "Spieler (für den Text)", optional=True),
            fields.Pick("at", "Stapel", optional=True, choices=tuple((c, c) for c in "ABCD")),
            fields.Cards("pile", "Auf dem Stapel", RANKS, optional=False),
            fields.Text("card", "Karte", "Ein Rang, z. B. 4 oder K."),
        ),
        expect=(
            fields.YesNo("fits", "Passt"),
            fields.Number("value", "Zählt als", optional=True),
            fields.YesNo("complete", "Stapel fertig", optional=True),
        ),
    ),
    "turn": fields.CheckSchema(
        "Ein Zug",
        check=(
            fields.Text("name", "Spieler (für den Text)", optional=True),
            fields.CardRows("build", "Ablagestapel in der Mitte", PILES, optional=True),
            fields.Cards("stock", "Eigener Stapel", RANKS),
            fields.Cards("hand", "Hand", RANKS),
            fields.CardRows("discards", "Eigene Ablagen", PILES, optional=True),
            fields.Cards("draw", "Als Nächstes gezogen", RANKS, optional=True),
            fields.Number("draw_size", "Karten im Nachziehstapel", optional=True),
            fields.Number("players", "Spielerzahl", optional=True),
            EMPTY_DRAW,
            fields.Lines(
                "moves",
                "Züge",
                "Je Zeile einer: hand:7:A, stock:A, discard:1:A, end:Q:2.",
                optional=True,
            ),
            fields.Cards(
                "report", "Nur diese Ergebnisse prüfen", "z. B. drawn hand", optional=True
            ),
        ),
        expect=(
            fields.Cards(
                "drawn",
                "Gezogen je Nachziehen",
                "Anzahl je Ziehen, z. B. 1 5.",
                numbers=True,
            ),
            fields.Number("completed", "Fertige Stapel", optional=True),
            fields.Number("recycled", "Neu gemischt", optional=True),
            fields.Cards(
                "build",
                "Stapelhöhen danach",
                "Vier Zahlen, z. B. 0 4 0 0.",
                optional=True,
                numbers=True,
            ),
            fields.Text("stock_top", "Oben auf dem eigenen Stapel", optional=True),
            fields.Cards("hand", "Hand danach", RANKS, optional=True),
            fields.YesNo("over", "Spiel vorbei", optional=True),
            fields.Number("winner", "Sieger (Platz)", optional=True),
        ),
    ),
    "end": fields.CheckSchema(
        "Nachziehstapel leer",
        check=(
            fields.Names("players", "Spieler"),
            fields.NameNumbers("stocks", "Karten im eigenen Stapel"),
            TEAMS,
        ),
        expect=(
            fields.Names("winners", "Sieger"),
            fields.YesNo("draw", "Unentschieden"),
            fields.NameNumbers("points", "Punkte"),
        ),
    ),
    "score": fields.CheckSchema(
        "Wertung",
        check=(
            fields.Names("players", "Spieler", "Der Erste gewinnt mit der letzten Stapelkarte."),
            fields.NameNumbers("stocks", "Karten in den Stapeln der anderen"),
            TEAMS,
            fields.NameNumbers("before", "Punkte vorher", optional=True),
        ),
        expect=(
            fields.NameNumbers("points", "Punkte dieser Partie"),
            fields.NameNumbers("totals", "Punkte gesamt"),
            fields.YesNo("match_over", "Match vorbei"),
        ),
    ),
}
