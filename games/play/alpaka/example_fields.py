"""Alpaka's worked examples as typed fields (``games.example_fields``; kinds in examples.py)."""

from games.example_fields import (
    CardRows,
    Cards,
    CheckSchema,
    Moves,
    NameNumbers,
    Names,
    Number,
    Pick,
    Text,
    YesNo,
)

CARD_HELP = "Karten 1–6 und A (Alpaka), durch Leerzeichen getrennt."
VARIANT = Pick(
    "variant", "Regel", choices=(("klassisch", "klassisch"), ("englert", "mit Englert-Zusatzregel"))
)
REASONS = (
    ("empty_hand", "Hand leer gespielt"),
    ("all_quit", "alle ausgestiegen"),
    ("stuck", "niemand kann mehr"),
)

EXAMPLE_FIELDS = {
    "play": CheckSchema(
        "Passt die Karte?",
        check=(
            Text("top", "Oben auf dem Ablagestapel", "Eine Karte: 1–6 oder A."),
            Text("card", "Gelegte Karte", "Eine Karte: 1–6 oder A."),
            VARIANT,
        ),
        expect=(YesNo("allowed", "Erlaubt"),),
    ),
    "score": CheckSchema(
        "Minuspunkte einer Hand",
        check=(Cards("hand", "Hand", CARD_HELP),),
        expect=(Number("score", "Minuspunkte"),),
    ),
    "round": CheckSchema(
        "Eine Runde bis zur Wertung",
        check=(
            Names("players", "Spieler", "In Sitzreihenfolge, durch Kommas getrennt."),
            CardRows(
                "hands",
                "Handkarten",
                "Eine Zeile je Spieler (gleiche Reihenfolge), Karten durch Leerzeichen.",
            ),
            Text("top", "Oben auf dem Ablagestapel", "Eine Karte: 1–6 oder A."),
            Cards(
                "below",
                "Darunter im Ablagestapel",
                "Schon verdeckte Karten, unterste zuerst; durch Leerzeichen getrennt.",
                optional=True,
            ),
            Cards(
                "draw",
                "Als Nächstes gezogen",
                "Die obersten Karten des Nachziehstapels, die zuerst gezogene zuerst.",
                optional=True,
            ),
            VARIANT,
            Names("quit", "Schon ausgestiegen", optional=True),
            NameNumbers(
                "points",
                "Minuspunkte vorher",
                "„Name: Zahl“ je Zeile; fehlende stehen bei 0.",
                optional=True,
            ),
            Moves(
                "moves",
                "Züge",
                "„Name: play:5“, „Name: draw“ oder „Name: quit“ je Zeile.",
                optional=True,
            ),
            Names("report", "Nur diese Spieler prüfen", optional=True),
            YesNo("ask_draw", "Prüfen, ob der Erste ziehen darf", optional=True),
        ),
        expect=(
            Pick("reason", "Rundenende", choices=REASONS),
            NameNumbers("points", "Minuspunkte der Runde", "−1: gibt einen Chip zurück."),
            YesNo("draw_allowed", "Ziehen erlaubt", optional=True),
        ),
    ),
    "chips": CheckSchema(
        "Chip zurückgeben",
        check=(Number("black", "Schwarze Chips vorher"), Number("white", "Weiße Chips vorher")),
        expect=(
            Number("black", "Schwarze Chips danach"),
            Number("white", "Weiße Chips danach"),
            Number("points", "Minuspunkte danach"),
        ),
    ),
    "end": CheckSchema(
        "Spielende",
        check=(
            NameNumbers("points", "Minuspunkte nach der Wertung"),
            Number("target", "Grenze", optional=True),
        ),
        expect=(YesNo("over", "Partie vorbei"), Names("winners", "Sieger", optional=True)),
    ),
}
