"""A game's options as a Django form (validation and labels for the lobby and the demo)."""

from __future__ import annotations

from functools import cache

from django import forms


@cache
def options_form_class(definition) -> type[forms.Form]:
    fields = {
        option.key: forms.TypedChoiceField(
            label=option.label,
            choices=[(str(choice.value), choice.label) for choice in option.choices],
            coerce=option.parse,
            widget=forms.RadioSelect,
            initial=str(option.default),
        )
        for option in definition.options
    }
    return type(f"{definition.key.title()}OptionsForm", (forms.Form,), fields)
