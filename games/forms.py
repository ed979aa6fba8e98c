from django import forms

from games.models import Game

PLAYER_CHOICES = [("", "beliebig")] + [(str(n), f"{n} Personen") for n in range(2, 7)]
AGE_CHOICES = [("", "beliebig")] + [(str(n), f"{n} Jahre") for n in (4, 6, 8, 10, 12)]
DURATION_CHOICES = [("", "beliebig")] + [(str(n), f"bis {n} Minuten") for n in (15, 20, 30, 45, 60)]
COMPLEXITY_CHOICES = [("", "alle")] + [(str(v), label) for v, label in Game.Complexity.choices]


class CatalogueFilterForm(forms.Form):
    """The catalogue's GET filters. Invalid values are ignored rather than shown as errors."""

    q = forms.CharField(label="Suche", required=False, max_length=80)
    spieler = forms.TypedChoiceField(
        label="Wir sind", choices=PLAYER_CHOICES, required=False, coerce=int, empty_value=None
    )
    alter = forms.TypedChoiceField(
        label="Jüngste Person", choices=AGE_CHOICES, required=False, coerce=int, empty_value=None
    )
    dauer = forms.TypedChoiceField(
        label="Spieldauer", choices=DURATION_CHOICES, required=False, coerce=int, empty_value=None
    )
    komplexitaet = forms.TypedChoiceField(
        label="Komplexität",
        choices=COMPLEXITY_CHOICES,
        required=False,
        coerce=int,
        empty_value=None,
    )

    def filter(self, queryset):
        data = self.cleaned_data if self.is_valid() else {}
        if data.get("q"):
            queryset = queryset.search(data["q"])
        if data.get("spieler"):
            queryset = queryset.for_players(data["spieler"])
        if data.get("alter"):
            queryset = queryset.filter(min_age__lte=data["alter"])
        if data.get("dauer"):
            queryset = queryset.filter(duration_minutes__lte=data["dauer"])
        if data.get("komplexitaet"):
            queryset = queryset.filter(complexity=data["komplexitaet"])
        return queryset

    @property
    def is_filtered(self):
        return self.is_valid() and any(v not in (None, "") for v in self.cleaned_data.values())
