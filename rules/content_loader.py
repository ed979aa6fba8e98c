"""Loads the initial content shipped in rules/content/*.toml.

A game that already exists (matched by slug) is left alone entirely, so running
the loader again – as `make run` does every time – never overwrites what an
editor changed in the admin.
"""

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import reversion
from django.db import transaction

from editorial import shipped
from games.models import Edition, Game, Mechanic, Person, Publisher
from rules.models import (
    CommonMistake,
    FrequentQuestion,
    GlossaryEntry,
    RulesArticle,
    Section,
    Source,
    WorkedExample,
)
from rules.publishing import publish as publish_article

CONTENT_DIR = Path(__file__).resolve().parent / "content"

GAME_FIELDS = (
    "title", "original_title", "short_description", "lead", "players_min", "players_max",
    "min_age", "duration_minutes", "year", "card_count", "article_number", "demo_engine",
    "audience", "good_to_know", "is_traditional", "min_age_estimated", "duration_kind",
)  # fmt: skip
ARTICLE_FIELDS = (
    "rulebook_title", "rulebook_publisher", "rulebook_version", "rulebook_year",
    "rulebook_pages", "rulebook_read_on", "source_note",
)  # fmt: skip
COMPLEXITY = {
    "einsteiger": Game.Complexity.EINSTEIGER,
    "fortgeschrittene": Game.Complexity.FORTGESCHRITTENE,
    "kenner": Game.Complexity.KENNER,
}


@dataclass
class LoadReport:
    created: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    # "slug: block" for shipped blocks newer than the database's (editorial.shipped).
    newer: list[str] = field(default_factory=list)


def content_files(directory: Path = CONTENT_DIR) -> list[Path]:
    return sorted(directory.glob("*.toml"))


def read_content(path: Path) -> dict:
    with path.open("rb") as handle:
        return tomllib.load(handle)


def load_all(directory: Path = CONTENT_DIR, publish: bool = True) -> LoadReport:
    report = LoadReport()
    related = {}
    for path in content_files(directory):
        data = read_content(path)
        slug = data["game"]["slug"]
        existing = Game.objects.filter(slug=slug).first()
        if existing is not None:
            report.skipped.append(slug)
            # Kept as it is; but editors learn which shipped blocks changed since.
            for item in shipped.track(existing, data, game_values(data)):
                report.newer.append(f"{slug}: {item.label}")
            continue
        # The first history entry, so editors can always go back to the shipped text.
        with reversion.create_revision():
            reversion.set_comment("Mitgelieferte Inhalte geladen")
            game = create_game(data, publish=publish)
            related[game] = data["game"].get("related", [])
        shipped.track(game, data, game_values(data), loaded_now=True)
        report.created.append(slug)
    # Editors' picks for „Ähnlich wie“ may name games created later in this run.
    for game, slugs in related.items():
        game.related_games.add(*Game.objects.filter(slug__in=slugs))
    return report


def game_values(data: dict) -> dict:
    """The game row's fields as a shipped file gives them (as the database stores them)."""
    game_data = data["game"]
    values = {name: _value(game_data, name) for name in GAME_FIELDS if name in game_data}
    values["complexity"] = COMPLEXITY[game_data.get("complexity", "einsteiger")]
    return values


@transaction.atomic
def create_game(data: dict, publish: bool = True) -> Game:
    game_data = data["game"]
    game = Game.objects.create(
        slug=game_data["slug"],
        complexity=COMPLEXITY[game_data.get("complexity", "einsteiger")],
        is_published=publish,
        **{name: _value(game_data, name) for name in GAME_FIELDS if name in game_data},
    )
    game.publishers.set(_publishers(game_data.get("publishers", [])))
    game.authors.set(_people(game_data.get("authors", [])))
    game.illustrators.set(_people(game_data.get("illustrators", [])))
    game.mechanics.set(_mechanics(game_data.get("mechanics", [])))
    for position, edition in enumerate(game_data.get("editions", [])):
        Edition.objects.create(
            game=game,
            publisher=_publishers([edition["publisher"]])[0] if edition.get("publisher") else None,
            year=edition.get("year"),
            article_number=edition.get("article_number", ""),
            note=edition.get("note", ""),
            position=position,
        )

    article = RulesArticle.objects.create(
        game=game,
        status=RulesArticle.Status.DRAFT,
        **{name: data["article"][name] for name in ARTICLE_FIELDS if name in data["article"]},
    )
    Section.objects.bulk_create(
        Section(
            article=article,
            kind=section["kind"],
            title=section.get("title", ""),
            body=section.get("body", "").strip(),
            pages=section.get("pages", ""),
            summary=section.get("summary", "").strip(),
            gist=section.get("gist", "").strip(),
            figure=section.get("figure", ""),
            figure_alt=section.get("figure_alt", "").strip(),
            figure_caption=section.get("figure_caption", ""),
            position=position,
        )
        for position, section in enumerate(data.get("sections", []))
    )
    WorkedExample.objects.bulk_create(
        WorkedExample(
            article=article,
            **_part_fields(example, position),
            engine_check=example.get("check"),
            expect=example.get("expect"),
        )
        for position, example in enumerate(data.get("examples", []))
    )
    CommonMistake.objects.bulk_create(
        CommonMistake(article=article, **_part_fields(mistake, position))
        for position, mistake in enumerate(data.get("mistakes", []))
    )
    FrequentQuestion.objects.bulk_create(
        FrequentQuestion(article=article, **_part_fields(question, position))
        for position, question in enumerate(data.get("questions", []))
    )
    Source.objects.bulk_create(
        Source(
            article=article,
            key=source["key"],
            label=source["label"],
            title=source["title"].strip(),
            edition=source.get("edition", "").strip(),
            read_on=source.get("read_on"),
            covers=source.get("covers", "").strip(),
            position=position,
        )
        for position, source in enumerate(data.get("sources", []))
    )
    GlossaryEntry.objects.bulk_create(
        GlossaryEntry(
            article=article,
            term=entry["term"],
            other_names=", ".join(entry.get("other_names", [])),
            body=entry.get("body", "").strip(),
            position=position,
        )
        for position, entry in enumerate(data.get("glossary", []))
    )
    if publish:
        # Published content is what the snapshot holds (see rules/publishing.py).
        publish_article(article)
    return game


def _part_fields(part: dict, position: int) -> dict:
    """The fields every ordered article part (example, mistake, question) shares."""
    return {
        "title": part["title"],
        "body": part["body"].strip(),
        "pages": part.get("pages", ""),
        "position": position,
    }


def _value(data: dict, name: str):
    value = data[name]
    return value.strip() if isinstance(value, str) else value


def _people(names: list[str]) -> list[Person]:
    return [Person.objects.get_or_create(name=name)[0] for name in names]


def _mechanics(names: list[str]) -> list[Mechanic]:
    return [Mechanic.objects.get_or_create(name=name)[0] for name in names]


def _publishers(names: list[str]) -> list[Publisher]:
    return [Publisher.objects.get_or_create(name=name)[0] for name in names]
