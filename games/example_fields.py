"""Typed form fields for engine-checked worked examples (and later exercises).

An example's check (``engine_check``) and its stated result (``expect``) are stored as
JSON for the engines, but editors never type JSON: each game's package declares, per
check kind, which fields it has (``GameDefinition.example_fields``, kind →
``CheckSchema``), and ``CheckFieldsMixin`` turns them into ordinary form fields – cards
separated by spaces, one move per line, „Name: Zahl“ per line – and back.

``CheckFieldsMixin`` works for any ModelForm with a pair of JSON fields (names in
``check_field``/``expect_field``): worked examples use it now, exercises can later.
The form runs the engine on save and refuses a stated result the engine contradicts.
"""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.core.exceptions import ValidationError

from games import example_checks
from games.play import definition as registry

MISSING = object()
EMPTY_ROW = "–"


@dataclass(frozen=True)
class Field:
    key: str
    label: str
    help: str = ""
    optional: bool = False

    widget_rows = 0  # > 0: a textarea of that many rows
    is_list = False  # may be empty even when required

    def form_field(self) -> forms.Field:
        widget = forms.Textarea(attrs={"rows": self.widget_rows}) if self.widget_rows else None
        return forms.CharField(
            label=self.label,
            help_text=self.help,
            required=not (self.optional or self.is_list),
            widget=widget,
        )

    def to_form(self, value) -> object:
        return "" if value is None else str(value)

    def parse(self, raw):
        return raw.strip()

    def from_form(self, raw):
        """The JSON value, or MISSING for an empty optional field (an empty required
        list is an empty list: „nothing on the table“ is a statement)."""
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            if self.optional:
                return MISSING
            return self.parse("")
        return self.parse(raw)

    def shown(self, value) -> str:
        """The value as an editor reads it (in messages naming a difference)."""
        if value is None:
            return "(nichts)"
        text = self.to_form(value)
        return f"„{' / '.join(str(text).splitlines())}“" if text != "" else "(leer)"


class Text(Field):
    pass


class Number(Field):
    def form_field(self):
        return forms.IntegerField(label=self.label, help_text=self.help, required=not self.optional)

    def parse(self, raw):
        return int(raw)


NONE = "-"


@dataclass(frozen=True)
class Pick(Field):
    choices: tuple[tuple[str, str], ...] = ()
    none_label: str = ""  # a choice that stands for „no value“ (JSON null)

    def _choices(self):
        choices = list(self.choices)
        if self.none_label:
            choices.append((NONE, self.none_label))
        return [("", "—"), *choices] if self.optional else choices

    def form_field(self):
        return forms.ChoiceField(
            label=self.label, help_text=self.help, required=not self.optional,
            choices=self._choices(),
        )  # fmt: skip

    def to_form(self, value):
        return NONE if value is None and self.none_label else super().to_form(value)

    def parse(self, raw):
        return None if raw == NONE and self.none_label else raw

    def shown(self, value):
        return f"„{dict(self._choices()).get(self.to_form(value), str(value))}“"


class YesNo(Field):
    """ja/nein; optional ones also „—“ (the key is left out)."""

    def form_field(self):
        choices = [("ja", "ja"), ("nein", "nein")]
        if self.optional:
            choices.insert(0, ("", "—"))
        return forms.ChoiceField(
            label=self.label, help_text=self.help, required=not self.optional, choices=choices
        )

    def to_form(self, value):
        return "" if value is None else ("ja" if value else "nein")

    def parse(self, raw):
        return raw == "ja"


@dataclass(frozen=True)
class Cards(Field):
    """Cards (or other tokens) separated by spaces, e.g. „1 1 5 A“."""

    is_list = True

    numbers: bool = False

    def to_form(self, value):
        return " ".join(str(v) for v in value or [])

    def parse(self, raw):
        tokens = raw.replace(",", " ").split()
        return [int(t) for t in tokens] if self.numbers else tokens


class Names(Field):
    """Names separated by commas: „Anna, Ben, Cara“."""

    is_list = True

    def to_form(self, value):
        return ", ".join(value or [])

    def parse(self, raw):
        return [name.strip() for name in raw.split(",") if name.strip()]


class Lines(Field):
    """One entry per line (moves written as the engine's text, e.g. „hand:7:A“)."""

    is_list = True

    widget_rows = 4

    def to_form(self, value):
        return "\n".join(value or [])

    def parse(self, raw):
        return [line.strip() for line in raw.splitlines() if line.strip()]


class CardRows(Field):
    """One row of cards per line (e.g. each player's hand); „–“ for an empty row."""

    is_list = True

    widget_rows = 4

    def to_form(self, value):
        return "\n".join(" ".join(row) or EMPTY_ROW for row in value or [])

    def parse(self, raw):
        return [
            [] if line.strip() == EMPTY_ROW else line.split()
            for line in raw.splitlines()
            if line.strip()
        ]


class StackRows(Field):
    """One line per player, stacks separated by „|“, cards by spaces, „–“ for an empty stack."""

    is_list = True

    widget_rows = 4

    def to_form(self, value):
        return "\n".join(
            " | ".join(" ".join(stack) or EMPTY_ROW for stack in row) for row in value or []
        )

    def parse(self, raw):
        rows = []
        for line in raw.splitlines():
            if line.strip():
                rows.append(
                    [[] if part.strip() == EMPTY_ROW else part.split() for part in line.split("|")]
                )
        return rows


def _pairs(raw: str, label: str):
    for number, line in enumerate(raw.splitlines(), start=1):
        if not line.strip():
            continue
        name, colon, rest = line.partition(":")
        if not colon or not name.strip():
            raise ValidationError(f"{label}, Zeile {number}: bitte „Name: …“ schreiben.")
        yield name.strip(), rest.strip()


class NameNumbers(Field):
    """„Name: Zahl“ per line."""

    is_list = True

    widget_rows = 4

    def to_form(self, value):
        return "\n".join(f"{name}: {number}" for name, number in (value or {}).items())

    def parse(self, raw):
        try:
            return {name: int(rest) for name, rest in _pairs(raw, self.label)}
        except ValueError:
            raise ValidationError(f"{self.label}: nach dem Namen bitte eine ganze Zahl.") from None


class NameCards(Field):
    """„Name: Karte Karte …“ per line."""

    is_list = True

    widget_rows = 4

    def to_form(self, value):
        return "\n".join(f"{name}: {' '.join(cards)}" for name, cards in (value or {}).items())

    def parse(self, raw):
        return {name: rest.split() for name, rest in _pairs(raw, self.label)}


class NameTexts(Field):
    """„Name: Text“ per line."""

    is_list = True

    widget_rows = 3

    def to_form(self, value):
        return "\n".join(f"{name}: {text}" for name, text in (value or {}).items())

    def parse(self, raw):
        return dict(_pairs(raw, self.label))


class Moves(Field):
    """„Name: Zug“ per line; further words after the move are kept (e.g. „gleichzeitig“)."""

    is_list = True

    widget_rows = 5

    def to_form(self, value):
        return "\n".join(f"{move[0]}: {' '.join(move[1:])}" for move in value or [])

    def parse(self, raw):
        return [[name, *rest.split()] for name, rest in _pairs(raw, self.label)]


@dataclass(frozen=True)
class CheckSchema:
    label: str
    check: tuple[Field, ...]
    expect: tuple[Field, ...]


EXAMPLES = "example_fields"


def _schemas(game, source: str) -> dict:
    """kind -> CheckSchema of ``source`` (an attribute of the game's definition whose
    values are schemas or carry one as ``.schema``, like exercise kinds)."""
    return {
        kind: getattr(value, "schema", value) for kind, value in getattr(game, source, {}).items()
    }


def schema_for(engine: str, kind: str, source: str = EXAMPLES) -> CheckSchema | None:
    game = registry.get(engine)
    return _schemas(game, source).get(kind) if game else None


def kind_choices(source: str = EXAMPLES, empty: str = "ohne Engine-Prüfung") -> list:
    choices = [("", empty)]
    for game in sorted(registry.all_definitions(), key=lambda g: g.title):
        for kind, schema in _schemas(game, source).items():
            choices.append((f"{game.key}:{kind}", f"{game.title}: {schema.label}"))
    return choices


CHOICE = "pruefart"
SHOWN = "pruefart_angezeigt"
PREVIEW = "_engine_preview"


def kind_of(check) -> str:
    """``"engine:kind"`` of a stored check, "" for none."""
    return (
        f"{check['engine']}:{check['kind']}"
        if isinstance(check, dict) and check.get("engine")
        else ""
    )


def check_form_class(base: type, active_kind: str) -> type:
    """``base`` (a ModelForm using ``CheckFieldsMixin``) with the typed fields of
    ``active_kind`` declared, so the admin can list them in its fieldsets. ``base.source``
    names where the game's definition keeps the schemas (worked examples by default)."""
    source = getattr(base, "source", EXAMPLES)
    schema = schema_for(*active_kind.split(":"), source=source) if active_kind else None
    attrs = {
        CHOICE: forms.ChoiceField(
            label="Engine-Prüfung",
            choices=kind_choices(source),
            required=False,
            help_text="Welche Stellung die Engine nachspielt. Nach einem Wechsel erscheinen "
            "die passenden Felder.",
        ),
        SHOWN: forms.CharField(widget=forms.HiddenInput, required=False),
        "schema": schema,
        "active_kind": active_kind,
    }
    for side, fields in (
        ("check", schema.check if schema else ()),
        ("expect", schema.expect if schema else ()),
    ):
        for field in fields:
            attrs[f"{side}__{field.key}"] = field.form_field()
    return type(base.__name__, (base,), attrs)


class CheckFieldsMixin:
    """Typed fields for ``check_field``/``expect_field`` of a ModelForm (see module doc);
    build the form class with ``check_form_class``.

    A changed kind (``pruefart``) first shows its fields (the form comes back once,
    nothing is saved). ``engine_preview`` holds what the engine computed; with the
    button ``_engine_preview`` the form only shows it and saves nothing.
    """

    check_field = "engine_check"
    expect_field = "expect"
    source = EXAMPLES  # the definition's attribute holding the schemas
    schema: CheckSchema | None = None
    active_kind = ""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        check = getattr(self.instance, self.check_field) or {}
        stored = kind_of(check)
        self.initial[CHOICE] = self.active_kind
        self.initial[SHOWN] = self.active_kind
        shown = self.data.get(self.add_prefix(SHOWN), stored) if self.is_bound else stored
        self.kind_just_changed = self.is_bound and shown != self.active_kind
        self.preview_only = self.is_bound and PREVIEW in self.data
        self.engine_preview = None
        if self.is_bound:
            self.data = self.data.copy()
            self.data[self.add_prefix(SHOWN)] = self.active_kind
        if self.schema is None or stored != self.active_kind:
            return
        expect = getattr(self.instance, self.expect_field) or {}
        for side, fields, values in (
            ("check", self.schema.check, check),
            ("expect", self.schema.expect, expect),
        ):
            for field in fields:
                if field.key in values:
                    self.initial[f"{side}__{field.key}"] = field.to_form(values[field.key])

    @classmethod
    def typed_names(cls) -> tuple[list[str], list[str]]:
        if cls.schema is None:
            return [], []
        return (
            [f"check__{f.key}" for f in cls.schema.check],
            [f"expect__{f.key}" for f in cls.schema.expect],
        )

    def _collect(self, side, fields) -> dict:
        values = {}
        for field in fields:
            name = f"{side}__{field.key}"
            if name not in self.cleaned_data:
                continue
            try:
                value = field.from_form(self.cleaned_data[name])
            except (ValidationError, ValueError) as error:
                message = error.messages[0] if isinstance(error, ValidationError) else str(error)
                self.add_error(name, message)
                continue
            if value is not MISSING:
                values[field.key] = value
        return values

    def clean(self):
        cleaned = super().clean()
        if self.kind_just_changed:
            raise ValidationError(
                "Prüfart gewechselt: Bitte die Felder der neuen Prüfart ausfüllen, dann speichern."
            )
        if self.schema is None:
            cleaned[self.check_field] = None
            cleaned[self.expect_field] = None
            return cleaned
        engine, kind = self.active_kind.split(":")
        check = {"engine": engine, "kind": kind, **self._collect("check", self.schema.check)}
        expect = self._collect("expect", self.schema.expect)
        if self.errors:
            return cleaned
        try:
            actual = self.verify_check(check)
        except ValidationError:
            raise
        except Exception as error:  # noqa: BLE001 – any engine complaint is the editor's to fix
            raise ValidationError(
                f"Die Engine kann diese Stellung nicht nachspielen: {error}"
            ) from None
        differences = self.differences(expect, actual)
        self.engine_preview = {
            "result": self.describe(actual),
            "differences": differences,
            "steps": self.steps_of(check),
        }
        if differences:
            raise ValidationError(
                "Die Engine kommt zu einem anderen Ergebnis – so wäre das Beispiel falsch: "
                + "; ".join(differences)
                + "."
            )
        if self.preview_only:
            raise ValidationError("Nur Vorschau – noch nichts gespeichert.", code="preview")
        cleaned[self.check_field] = check
        cleaned[self.expect_field] = expect
        return cleaned

    def verify_check(self, check: dict) -> dict:
        """The engine's outcome for ``check``, shaped like ``expect``."""
        return example_checks.verify(check)

    def steps_of(self, check: dict) -> list[dict]:
        return _steps(check)

    def describe(self, actual: dict) -> list[str]:
        fields = {f.key: f for f in self.schema.expect}
        return [
            f"{fields[key].label if key in fields else key}: "
            f"{(fields[key] if key in fields else Text(key, key)).shown(value)}"
            for key, value in actual.items()
        ]

    def differences(self, expect: dict, actual: dict) -> list[str]:
        """German lines naming each stated result the engine contradicts."""
        lines = []
        fields = {f.key: f for f in self.schema.expect}
        ordered = [key for key in fields if key in expect] + [k for k in expect if k not in fields]
        for key in ordered:  # what the example does not state is not compared
            stated, computed = expect[key], actual.get(key)
            if stated == computed:
                continue
            field = fields.get(key, Text(key, key))
            if isinstance(stated, dict) and isinstance(computed, dict):
                # Per name: „Cara: im Beispiel 15, laut Engine 16“ says where the text is wrong.
                for name in [*stated, *(n for n in computed if n not in stated)]:
                    if stated.get(name) != computed.get(name):
                        lines.append(
                            f"„{field.label}“ bei {name}: im Beispiel {_plain(stated.get(name))}, "
                            f"laut Engine {_plain(computed.get(name))}"
                        )
                continue
            lines.append(
                f"„{field.label}“: im Beispiel {field.shown(stated)}, laut Engine {field.shown(computed)}"
            )
        return lines

    def _post_clean(self):
        super()._post_clean()
        for name in (self.check_field, self.expect_field):
            if name in self.cleaned_data:
                setattr(self.instance, name, self.cleaned_data[name])


def _plain(value) -> str:
    if value is None:
        return "(nichts)"
    if isinstance(value, list):
        return f"„{' '.join(str(v) for v in value)}“"
    return f"„{value}“"


def _steps(check) -> list[dict]:
    """The engine's step-through as titles and lines (the admin shows them as text)."""
    from games.play.steps import step_through

    through = step_through(check)
    if through is None:
        return []
    return [
        {"title": step.get("title", ""), "lines": step.get("lines", [])} for step in through.steps
    ]
