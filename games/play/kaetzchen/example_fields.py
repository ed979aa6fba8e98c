"""Kätzchen angeln's worked examples as typed fields (``games.example_fields``)."""

from games.example_fields import Cards, CheckSchema, Number, Pick, Text, YesNo

CARD_HELP = "Karten wie 9C, JD, 10S (Rang und Farbe C/D/H/S), durch Leerzeichen getrennt."
SEATS = (("you", "du"), ("cat", "Kätzchen"))

EXAMPLE_FIELDS = {
    "flip": CheckSchema(
        "Eine Karte aufdecken",
        check=(
            Cards("table", "Auf dem Tisch", CARD_HELP),
            Text("card", "Aufgedeckte Karte", "Eine Karte, z. B. 9C."),
            Pick("by", "Wer deckt auf", optional=True, choices=SEATS),
            YesNo("last_card", "Letzte Karte des Stapels", optional=True),
        ),
        expect=(
            Pick(
                "kind",
                "Was passiert",
                choices=(("fish", "Angeln"), ("jack", "Bube räumt ab"), ("stay", "bleibt liegen")),
            ),
            Cards("won", "Gewonnen", CARD_HELP),
            Cards("table", "Danach auf dem Tisch", CARD_HELP),
            YesNo("game_over", "Spiel vorbei", optional=True),
        ),
    ),
    "limit": CheckSchema(
        "Zuggrenze erreicht",
        check=(
            Number("you", "Deine Karten"),
            Number("cat", "Karten des Kätzchens"),
            Number("table", "Karten auf dem Tisch"),
        ),
        expect=(
            Pick("winner", "Sieger", choices=SEATS, none_label="unentschieden"),
            Pick("reason", "Grund", choices=(("limit", "Zuggrenze"),)),
        ),
    ),
}
