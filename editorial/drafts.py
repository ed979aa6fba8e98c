"""Drafts of a game's own data: the row, its people and „Ähnlich wie“, its card formats.

The live rows stay what readers see until the page is published
(``editorial.publish``); the admin form shows and saves the draft, and the staff
preview of the game page shows the row with the draft laid over it (``overlay``).
"""

from __future__ import annotations

import datetime

from django.db import models, transaction

from editorial.models import GameDraft
from games.models import Edition, Game, Publisher

GAME_FIELDS = (
    "title", "slug", "original_title", "short_description", "lead", "players_min",
    "players_max", "min_age", "min_age_estimated", "duration_minutes", "duration_kind", "year",
    "is_traditional", "complexity", "card_count", "article_number", "audience",
    "good_to_know", "demo_engine",
)  # fmt: skip
GAME_RELATIONS = ("publishers", "authors", "illustrators", "mechanics", "related_games")
EDITION_FIELDS = ("publisher", "year", "article_number", "note", "position")
CARD_FORMAT_FIELDS = (
    "edition", "label", "count", "size", "is_expansion", "expansion_title", "count_source",
    "size_source", "checked_on", "note", "position",
)  # fmt: skip


def draft_for(game) -> GameDraft | None:
    return GameDraft.objects.filter(game_id=game.pk).first()


def uses_drafts(game) -> bool:
    """A game nobody sees yet is edited directly; a published one only through drafts."""
    if game.pk is None:
        return False
    return Game.objects.filter(pk=game.pk, is_published=True).exists()


def _json(value):
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, models.Model):
        return value.pk
    return value


def _live_value(obj, name):
    field = obj._meta.get_field(name)
    return getattr(obj, field.attname)


@transaction.atomic
def record_game(game_pk: int, cleaned: dict, user=None) -> GameDraft | None:
    """Store what the game form changed (compared with the live row); no difference, no draft."""
    live = Game.objects.get(pk=game_pk)
    draft, _ = GameDraft.objects.select_for_update().get_or_create(game=live)
    fields = {}
    for name in GAME_FIELDS:
        if name in cleaned and _json(cleaned[name]) != _json(_live_value(live, name)):
            fields[name] = _json(cleaned[name])
    relations = {}
    for name in GAME_RELATIONS:
        if name not in cleaned:
            continue
        wanted = sorted(getattr(obj, "pk", obj) for obj in cleaned[name])
        current = sorted(getattr(live, name).values_list("pk", flat=True))
        if wanted != current:
            relations[name] = wanted
    draft.fields, draft.relations, draft.updated_by = fields, relations, user
    return _keep_or_drop(draft)


def edition_rows(game_pk: int) -> list[dict]:
    """The live editions as draft rows (``id`` plus EDITION_FIELDS), in page order."""
    return [
        {"id": edition.pk, **{name: _json(_live_value(edition, name)) for name in EDITION_FIELDS}}
        for edition in Edition.objects.filter(game_id=game_pk)
    ]


def _in_order(rows: list[dict]) -> list[dict]:
    return sorted(rows, key=lambda row: (row["position"], row["year"] or 0, row["id"] or 0))


@transaction.atomic
def record_editions(game_pk: int, rows: list[dict], user=None) -> GameDraft | None:
    """The editions as the form left them; equal to the live ones, no draft of them."""
    draft, _ = GameDraft.objects.select_for_update().get_or_create(game_id=game_pk)
    changed = _in_order(rows) != _in_order(edition_rows(game_pk))
    draft.editions = _in_order(rows) if changed else None
    draft.updated_by = user
    return _keep_or_drop(draft)


def draft_editions(game, rows: list[dict]) -> list[Edition]:
    """Unsaved editions for the preview (publishers read in one query)."""
    publishers = Publisher.objects.in_bulk([r["publisher"] for r in rows if r["publisher"]])
    return [
        Edition(
            pk=row["id"],
            game=game,
            publisher=publishers.get(row["publisher"]),
            **{name: row[name] for name in ("year", "article_number", "note", "position")},
        )
        for row in _in_order(rows)
    ]


@transaction.atomic
def record_card_format(card_format, cleaned: dict, user=None) -> GameDraft | None:
    live = type(card_format).objects.get(pk=card_format.pk)
    draft, _ = GameDraft.objects.select_for_update().get_or_create(game_id=live.game_id)
    changed = {
        name: _json(cleaned[name])
        for name in CARD_FORMAT_FIELDS
        if name in cleaned and _json(cleaned[name]) != _json(_live_value(live, name))
    }
    formats = dict(draft.card_formats)
    if changed:
        formats[str(live.pk)] = changed
    else:
        formats.pop(str(live.pk), None)
    draft.card_formats, draft.updated_by = formats, user
    return _keep_or_drop(draft)


def _keep_or_drop(draft: GameDraft) -> GameDraft | None:
    if draft.is_empty:
        if draft.pk:
            draft.delete()
        return None
    draft.save()
    return draft


def overlay(game, draft: GameDraft | None = None) -> bool:
    """Lay the draft over ``game`` in memory (the form, the preview); True if there was one."""
    draft = draft if draft is not None else draft_for(game)
    if draft is None:
        return False
    for name, value in draft.fields.items():
        setattr(game, game._meta.get_field(name).attname, value)
    cache = getattr(game, "_prefetched_objects_cache", None)
    if cache is None:
        cache = game._prefetched_objects_cache = {}
    for name, ids in draft.relations.items():
        model = Game._meta.get_field(name).related_model
        rows = model.objects.filter(pk__in=ids)
        list(rows)  # evaluated: the template reads the list, not the database
        cache[name] = rows
    # games.similar reads picks and mechanics from the database; these override them.
    if "related_games" in draft.relations:
        game.draft_related_ids = set(draft.relations["related_games"])
    if "mechanics" in draft.relations:
        game.draft_mechanic_names = set(cache["mechanics"].values_list("name", flat=True))
    game.draft_card_formats = draft.card_formats
    if draft.editions is not None:
        game.draft_editions = draft_editions(game, draft.editions)
    return True


def overlay_card_format(card_format, draft: GameDraft | None = None) -> bool:
    draft = draft if draft is not None else draft_for(card_format.game)
    changed = (draft.card_formats if draft else {}).get(str(card_format.pk))
    if not changed:
        return False
    for name, value in changed.items():
        field = card_format._meta.get_field(name)
        if isinstance(field, models.DateField) and value:
            value = datetime.date.fromisoformat(value)
        setattr(card_format, field.attname, value)
        if field.is_relation:
            card_format._state.fields_cache.pop(field.name, None)  # read the new row
    return True


def describe(draft: GameDraft | None) -> list[str]:
    """What publishing the draft changes, one German line each."""
    if draft is None:
        return []
    lines = []
    game = draft.game
    for name, value in draft.fields.items():
        field = Game._meta.get_field(name)
        old = _live_value(game, name)
        lines.append(f"{field.verbose_name}: {_shown(old)} → {_shown(value)}")
    for name, ids in draft.relations.items():
        field = Game._meta.get_field(name)
        model = field.related_model
        before = set(getattr(game, name).values_list("pk", flat=True))
        added = [str(o) for o in model.objects.filter(pk__in=set(ids) - before)]
        removed = [str(o) for o in model.objects.filter(pk__in=before - set(ids))]
        parts = [
            f"+ {', '.join(added)}" if added else "",
            f"− {', '.join(removed)}" if removed else "",
        ]
        note = " (gilt für beide Spiele)" if name == "related_games" else ""
        lines.append(f"{field.verbose_name}: {' '.join(p for p in parts if p)}{note}")
    if draft.card_formats:
        lines.append(f"Kartenformate: {len(draft.card_formats)} geändert")
    if draft.editions is not None:
        before = len(edition_rows(game.pk))
        lines.append(f"Ausgaben geändert ({before} → {len(draft.editions)})")
    return lines


def _shown(value) -> str:
    if value in (None, ""):
        return "–"
    if value is True:
        return "ja"
    if value is False:
        return "nein"
    text = str(value)
    return f"„{text[:40]}…“" if len(text) > 40 else f"„{text}“" if isinstance(value, str) else text


@transaction.atomic
def apply(game) -> list[str]:
    """Make the draft live (publishing); returns what changed."""
    draft = GameDraft.objects.select_for_update().filter(game_id=game.pk).first()
    if draft is None:
        return []
    lines = describe(draft)
    live = Game.objects.get(pk=game.pk)
    for name, value in draft.fields.items():
        setattr(live, live._meta.get_field(name).attname, value)
    if draft.fields:
        live.save()  # the admin form validated these values
    for name, ids in draft.relations.items():
        getattr(live, name).set(ids)
    if draft.card_formats:
        from sleeves.models import CardFormat  # sleeves reads games; drafts only write to it

        for pk in draft.card_formats:
            card_format = CardFormat.objects.filter(pk=pk).first()
            if card_format is None:
                continue
            overlay_card_format(card_format, draft)
            card_format.save()
    if draft.editions is not None:
        _apply_editions(live, draft.editions)
    draft.delete()
    return lines


def _apply_editions(game, rows: list[dict]) -> None:
    """Update, add and remove editions by id (card formats keep their edition)."""
    existing = {edition.pk: edition for edition in Edition.objects.filter(game=game)}
    kept = set()
    for row in rows:
        edition = existing.get(row["id"]) or Edition(game=game)
        edition.publisher_id = row["publisher"]
        for name in ("year", "article_number", "note", "position"):
            setattr(edition, name, row[name])
        edition.save()
        kept.add(edition.pk)
    for pk, edition in existing.items():
        if pk not in kept:
            edition.delete()
