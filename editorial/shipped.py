"""Shipped content that is newer than the database's.

``load_content`` never overwrites an existing game (editors' work wins). It does
remember, per shipped block, the shipped text the database was last brought in line
with (``ShippedItem.shipped_hash``). When the files change later, every block whose
shipped text changed and differs from the database is marked pending: the admin shows
it („Neue mitgelieferte Fassung“) with a diff, and „übernehmen“ writes it into the
working copy (a draft), „verwerfen“ keeps the database's text.
"""

from __future__ import annotations

import datetime
import hashlib
import json
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from editorial import drafts
from editorial.models import ShippedItem
from rules.models import (
    CommonMistake,
    FrequentQuestion,
    GlossaryEntry,
    RulesArticle,
    Section,
    Source,
    WorkedExample,
)

SECTION_FIELDS = (
    "title", "body", "pages", "summary", "gist", "figure", "figure_alt", "figure_caption",
)  # fmt: skip
PART_FIELDS = ("title", "body", "pages")
SOURCE_FIELDS = (
    "rulebook_title", "rulebook_publisher", "rulebook_version", "rulebook_year",
    "rulebook_pages", "rulebook_read_on", "source_note",
)  # fmt: skip
PARTS = {
    "beispiel": (WorkedExample, "examples", "Beispiel"),
    "irrtum": (CommonMistake, "mistakes", "Irrtum"),
    "frage": (FrequentQuestion, "questions", "Frage"),
}
# Rows of the article's own lists, known by their key or term (not by a title).
LISTS = {
    "quellen": (Source, "key", ("label", "title", "edition", "read_on", "covers")),
    "begriff": (GlossaryEntry, "term", ("other_names", "body")),
}
LABELS = {
    "title": "Titel", "body": "Text", "pages": "Beleg", "summary": "Zug auf einen Blick",
    "gist": "In Kürze", "figure": "Abbildung", "figure_alt": "Textalternative", "figure_caption": "Bildunterschrift",
    "engine_check": "Engine-Prüfung", "expect": "Erwartetes Ergebnis",
    "rulebook_title": "Regelheft", "rulebook_publisher": "Herausgeber", "rulebook_version": "Version",
    "rulebook_year": "Jahr", "rulebook_pages": "Seiten", "rulebook_read_on": "gelesen am",
    "source_note": "Quelle (Satz)", "label": "Kurzname", "edition": "Ausgabe",
    "read_on": "gelesen am", "covers": "Was sie abdeckt", "other_names": "Andere Namen",
}  # fmt: skip


@dataclass(frozen=True)
class Item:
    key: str
    label: str
    data: dict

    @property
    def digest(self) -> str:
        return _digest(self.data)


def _digest(data) -> str:
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _strip(value):
    if isinstance(value, datetime.date):
        return value.isoformat()  # TOML dates; stored as text like the database's
    return value.strip() if isinstance(value, str) else value


def items_of(data: dict, game_values: dict) -> list[Item]:
    """Every block of one shipped file, as the database would store it."""
    found = [Item("spiel", "Spieldaten", game_values)]
    article = data.get("article", {})
    source = {
        name: _strip(article.get(name, "" if name != "rulebook_year" else None))
        for name in SOURCE_FIELDS
    }
    source = {name: value for name, value in source.items() if value not in (None, "")}
    found.append(Item("quelle", "Quelle (Regelheft)", source))
    for section in data.get("sections", []):
        kind = section["kind"]
        heading = section.get("title") or dict(Section.Kind.choices).get(kind, kind)
        values = {name: _strip(section.get(name, "")) for name in SECTION_FIELDS}
        found.append(Item(f"abschnitt:{kind}", f"Abschnitt „{heading}“", values))
    for prefix, (_model, key, noun) in PARTS.items():
        for part in data.get(key, []):
            values = {name: _strip(part.get(name, "")) for name in PART_FIELDS}
            if prefix == "beispiel":
                values["engine_check"] = part.get("check")
                values["expect"] = part.get("expect")
            found.append(Item(f"{prefix}:{part['title']}", f"{noun} „{part['title']}“", values))
    for source in data.get("sources", []):
        values = {name: _strip(source.get(name, "")) for name in LISTS["quellen"][2]}
        values["read_on"] = _strip(source.get("read_on"))
        found.append(Item(f"quellen:{source['key']}", f"Quelle „{source['key']}“", values))
    for entry in data.get("glossary", []):
        values = {
            "other_names": ", ".join(entry.get("other_names", [])),
            "body": _strip(entry.get("body", "")),
        }
        found.append(Item(f"begriff:{entry['term']}", f"Begriff „{entry['term']}“", values))
    return found


def current(game, key: str) -> dict | None:
    """What the database's working copy (or the game's draft) holds for ``key``."""
    article = RulesArticle.objects.filter(game=game).first()
    if article is None:
        return None
    if key == "quelle":
        values = {name: getattr(article, name) for name in SOURCE_FIELDS}
        if values["rulebook_read_on"]:
            values["rulebook_read_on"] = values["rulebook_read_on"].isoformat()
        return {name: value for name, value in values.items() if value not in (None, "")}
    prefix, _, name = key.partition(":")
    if prefix == "abschnitt":
        section = article.sections.filter(kind=name).first()
        return {f: getattr(section, f) for f in SECTION_FIELDS} if section else None
    if prefix in LISTS:
        model, known_by, fields = LISTS[prefix]
        row = model.objects.filter(article=article, **{known_by: name}).first()
        return {f: _strip(getattr(row, f)) for f in fields} if row else None
    model, _related, _noun = PARTS[prefix]
    part = model.objects.filter(article=article, title=name).first()
    if part is None:
        return None
    values = {f: getattr(part, f) for f in PART_FIELDS}
    if prefix == "beispiel":
        values.update(engine_check=part.engine_check, expect=part.expect)
    return values


def _game_current(game, shipped: dict) -> dict:
    live = type(game).objects.get(pk=game.pk)
    drafts.overlay(live)
    return {name: getattr(live, live._meta.get_field(name).attname) for name in shipped}


def _db_values(game, item: Item):
    if item.key == "spiel":
        return _game_current(game, item.data)
    return current(game, item.key)


@transaction.atomic
def track(game, data: dict, game_values: dict, loaded_now: bool = False) -> list[ShippedItem]:
    """Compare a shipped file with the database; returns the items that are newer there."""
    items = items_of(data, game_values)
    if loaded_now:
        _in_line_with(game, items)
        return []
    newer = []
    for item in items:
        record = ShippedItem.objects.filter(game=game, key=item.key).first()
        if record is not None and item.digest in (record.shipped_hash, record.pending_hash):
            if record.is_pending:
                newer.append(record)
            continue
        in_line = _db_values(game, item) == item.data
        record = record or ShippedItem(game=game, key=item.key)
        record.label = item.label
        if in_line:
            record.shipped_hash, record.pending_hash, record.pending_data = item.digest, "", None
            record.pending_since = None
        else:
            record.pending_hash, record.pending_data = item.digest, item.data
            record.pending_since = timezone.now()
            newer.append(record)
        record.save()
    return newer


def _in_line_with(game, items: list[Item]) -> None:
    """The database was just loaded from these items: each is its shipped version, nothing
    pending (two queries and one write per kind, however many blocks a game has)."""
    known = {r.key: r for r in ShippedItem.objects.filter(game=game)}
    records = {}
    for item in items:
        record = known.get(item.key) or ShippedItem(game=game, key=item.key)
        record.label, record.shipped_hash = item.label, item.digest
        record.pending_hash, record.pending_data, record.pending_since = "", None, None
        records[item.key] = record
    ShippedItem.objects.bulk_create([r for r in records.values() if r.pk is None])
    ShippedItem.objects.bulk_update(
        [r for r in records.values() if r.pk is not None],
        ["label", "shipped_hash", "pending_hash", "pending_data", "pending_since"],
    )


def diff_rows(record: ShippedItem) -> list:
    from editorial.changes import field_diffs

    shipped = record.pending_data or {}
    db = _db_values(record.game, Item(record.key, record.label, shipped)) or {}
    labels = {name: LABELS.get(name, name) for name in shipped}
    return [row for row in field_diffs(labels, _readable(db), _readable(shipped)) if row.changed]


def _readable(values: dict) -> dict:
    shown = {}
    for name, value in values.items():
        if isinstance(value, dict):
            value = "\n".join(f"{key}: {item}" for key, item in value.items())
        shown[name] = value
    return shown


@transaction.atomic
def adopt(record: ShippedItem, user=None) -> str:
    """Write the shipped version into the working copy (a draft); returns a message."""
    data = record.pending_data or {}
    game = record.game
    prefix, _, name = record.key.partition(":")
    if record.key == "spiel":
        drafts.record_game(game.pk, data, user) if drafts.uses_drafts(game) else _set(game, data)
    else:
        article = RulesArticle.objects.get(game=game)
        if record.key == "quelle":
            _set(
                article,
                {
                    n: data.get(
                        n,
                        None
                        if n in ("rulebook_year", "rulebook_pages", "rulebook_read_on")
                        else "",
                    )
                    for n in SOURCE_FIELDS
                },
            )
        elif prefix == "abschnitt":
            section = article.sections.filter(kind=name).first() or Section(
                article=article, kind=name, position=None
            )
            _set(section, data)
        elif prefix in LISTS:
            model, known_by, _fields = LISTS[prefix]
            row = model.objects.filter(article=article, **{known_by: name}).first() or model(
                article=article, position=None, **{known_by: name}
            )
            _set(row, data)
        else:
            model = PARTS[prefix][0]
            part = model.objects.filter(article=article, title=name).first() or model(
                article=article, position=None
            )
            _set(part, data)
    _settle(record)
    return f"„{record.label}“ übernommen – als Entwurf; online erst nach dem Veröffentlichen."


def _set(obj, values: dict) -> None:
    for name, value in values.items():
        setattr(obj, obj._meta.get_field(name).attname, value)
    obj.save()


def dismiss(record: ShippedItem) -> str:
    _settle(record)
    return f"„{record.label}“: die Fassung der Datenbank bleibt."


def _settle(record: ShippedItem) -> None:
    record.shipped_hash = record.pending_hash
    record.pending_hash, record.pending_data, record.pending_since = "", None, None
    record.save()
