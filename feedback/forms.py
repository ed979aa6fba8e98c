from django import forms

from feedback import services
from feedback.models import MESSAGE_MAX_LENGTH, MESSAGE_MIN_LENGTH, REFERENCE_MAX_LENGTH

STAR_CHOICES = [(n, f"{n} Stern{'e' if n > 1 else ''}") for n in range(1, 6)]


class ErrorReportForm(forms.Form):
    """The reader's error report. Spam rules are applied afterwards (services.assess_report):
    a bot must not learn from validation errors which rule caught it."""

    section_kind = forms.ChoiceField(
        label="Abschnitt",
        required=False,
        error_messages={"invalid_choice": "Bitte wähle einen Abschnitt aus der Liste."},
    )
    message = forms.CharField(
        label="Was stimmt nicht?",
        min_length=MESSAGE_MIN_LENGTH,
        max_length=MESSAGE_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text="Beschreib kurz, was falsch, missverständlich oder unvollständig ist.",
        error_messages={
            "required": "Bitte schreib uns, was nicht stimmt.",
            "min_length": "Bitte beschreib den Fehler etwas genauer (mindestens %(limit_value)d "
            "Zeichen).",
            "max_length": "Bitte fasse dich kürzer (höchstens %(limit_value)d Zeichen, "
            "jetzt %(show_value)d).",
        },
    )
    rulebook_reference = forms.CharField(
        label="Was steht im Regelheft?",
        required=False,
        max_length=REFERENCE_MAX_LENGTH,
        help_text="Seite oder kurzes Zitat, z. B. „S. 2: Der Rufer bekommt 0 Punkte“.",
        error_messages={"max_length": "Höchstens %(limit_value)d Zeichen (jetzt %(show_value)d)."},
    )
    email = forms.EmailField(
        label="E-Mail für eine Antwort",
        required=False,
        max_length=254,
        help_text="Nur für die Antwort auf diesen Hinweis – keine Weitergabe, kein Newsletter. "
        "Wir löschen die Adresse spätestens 30 Tage, nachdem der Hinweis erledigt ist.",
        error_messages={"invalid": "Diese E-Mail-Adresse sieht nicht gültig aus."},
    )
    # Honeypot: hidden from people and assistive technology, tempting for bots.
    website = forms.CharField(label="Webseite", required=False, max_length=200)
    t = forms.CharField(widget=forms.HiddenInput, required=False)
    fassung = forms.CharField(widget=forms.HiddenInput, required=False, max_length=10)
    # A signed reference to the game position shown (games.play.positions), if any.
    stellung = forms.CharField(widget=forms.HiddenInput, required=False, max_length=400)

    def __init__(self, *args, section_choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["section_kind"].choices = list(section_choices)
        self.fields["message"].widget.attrs.update(
            {"maxlength": MESSAGE_MAX_LENGTH, "minlength": MESSAGE_MIN_LENGTH}
        )
        self.fields["email"].widget.attrs.update({"autocomplete": "email"})
        self.fields["website"].widget.attrs.update({"tabindex": "-1", "autocomplete": "off"})
        if not self.is_bound:
            self.initial["t"] = services.form_timestamp()

    def clean_fassung(self):
        # The article version the reader saw; a tampered value is no reason to lose a report.
        value = self.cleaned_data.get("fassung", "")
        return int(value) if value.isdigit() and int(value) < 2**31 else None

    def section_label(self) -> str:
        kind = self.cleaned_data.get("section_kind", "")
        if not kind:
            return ""
        return dict(self.fields["section_kind"].choices).get(kind, "")


class VoteForm(forms.Form):
    sterne = forms.TypedChoiceField(choices=STAR_CHOICES, coerce=int)
