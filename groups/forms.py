from django import forms

from games import clock
from games.models import Game
from groups.models import MEMBER_NAME_MAX_LENGTH, GameNight, PlayGroup

OPTION_FIELDS = 6
DURATION_CHOICES = [
    (60, "1 Stunde"),
    (90, "1½ Stunden"),
    (120, "2 Stunden"),
    (180, "3 Stunden"),
    (240, "4 Stunden"),
    (300, "5 Stunden"),
    (360, "6 Stunden"),
]


class GameChoiceField(forms.ModelMultipleChoiceField):
    """Published games of the catalogue as checkboxes."""

    widget = forms.CheckboxSelectMultiple

    def __init__(self, **kwargs):
        super().__init__(
            queryset=Game.objects.published().order_by("title"),
            required=False,
            error_messages={"invalid_choice": "Dieses Spiel gibt es nicht im Katalog."},
            **kwargs,
        )

    def label_from_instance(self, game):
        return game.title


def _member_name_field(label="Dein Name in der Gruppe"):
    return forms.CharField(
        label=label,
        max_length=MEMBER_NAME_MAX_LENGTH,
        help_text="So sehen dich die anderen Mitglieder, z. B. dein Vorname. "
        "Deine E-Mail-Adresse sieht niemand.",
        error_messages={"required": "Bitte gib einen Namen an."},
        widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
    )


class NoColon:
    """German labels stand without the trailing colon Django adds."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)


class GroupForm(NoColon, forms.ModelForm):
    games = GameChoiceField(label="Welche Spiele spielt ihr?")

    class Meta:
        model = PlayGroup
        fields = ["name", "description", "region", "is_public", "games"]
        labels = {
            "name": "Name der Gruppe",
            "description": "Beschreibung",
            "region": "Region (optional)",
            "is_public": "Öffentlich auflisten",
        }
        help_texts = {
            "description": "Wer seid ihr, wann und wo spielt ihr ungefähr? Ohne Adressen – "
            "bei öffentlichen Gruppen kann das jeder lesen.",
            "is_public": "Dann steht die Gruppe in der Liste der Spielegruppen und auf den Seiten "
            "ihrer Spiele. Beitreten geht trotzdem nur mit eurem Einladungslink. Ohne Haken "
            "sieht die Gruppe nur, wer Mitglied ist.",
        }
        widgets = {"description": forms.Textarea(attrs={"rows": 4})}
        error_messages = {"name": {"required": "Bitte gib der Gruppe einen Namen."}}

    def clean_name(self):
        name = " ".join(self.cleaned_data["name"].split())
        if not any(char.isalnum() for char in name):
            raise forms.ValidationError("Der Name braucht mindestens einen Buchstaben.")
        return name


class NewGroupForm(GroupForm):
    founder_name = _member_name_field()

    class Meta(GroupForm.Meta):
        fields = ["name", "founder_name", "description", "region", "is_public", "games"]


class JoinForm(NoColon, forms.Form):
    name = _member_name_field()

    def clean_name(self):
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError("Bitte gib einen Namen an.")
        return name


class NightForm(NoColon, forms.ModelForm):
    games = GameChoiceField(
        label="Was wird gespielt?",
        help_text="Jedes Spiel verlinkt auf seine Regeln und die Demo; für alle zusammen "
        "gibt es den passenden Sleeve-Finder.",
    )
    duration_minutes = forms.TypedChoiceField(
        label="Dauer", choices=DURATION_CHOICES, coerce=int, initial=180
    )

    class Meta:
        model = GameNight
        fields = ["title", "place", "duration_minutes", "note", "games"]
        labels = {"title": "Titel", "place": "Ort (optional)", "note": "Notiz (optional)"}
        help_texts = {"place": "z. B. „bei Mia“ oder „Café Würfelglück“."}
        widgets = {"note": forms.Textarea(attrs={"rows": 3})}


class NewNightForm(NightForm):
    """A night with up to OPTION_FIELDS proposed start times for the poll."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for number in range(1, OPTION_FIELDS + 1):
            self.fields[f"termin_{number}"] = forms.DateTimeField(
                label=f"Termin {number}",
                required=number == 1,
                input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%d.%m.%Y %H:%M"],
                widget=forms.DateTimeInput(
                    attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"
                ),
                error_messages={
                    "required": "Bitte schlag mindestens einen Termin vor.",
                    "invalid": "Bitte gib Datum und Uhrzeit an.",
                },
            )

    def option_fields(self):
        return [self[f"termin_{number}"] for number in range(1, OPTION_FIELDS + 1)]

    def clean(self):
        cleaned = super().clean()
        now = clock.now()
        for number in range(1, OPTION_FIELDS + 1):
            value = cleaned.get(f"termin_{number}")
            if value is not None and value < now:
                self.add_error(f"termin_{number}", "Dieser Termin liegt in der Vergangenheit.")
        return cleaned

    def starts(self):
        values = (self.cleaned_data.get(f"termin_{n}") for n in range(1, OPTION_FIELDS + 1))
        return [value for value in values if value is not None]


class OptionForm(NoColon, forms.Form):
    termin = forms.DateTimeField(
        label="Weiteren Termin vorschlagen",
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%d.%m.%Y %H:%M"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        error_messages={
            "required": "Bitte gib Datum und Uhrzeit an.",
            "invalid": "Bitte gib Datum und Uhrzeit an.",
        },
    )
