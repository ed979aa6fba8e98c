"""Loads the exercises shipped in exercises/content/<slug>.toml (``manage.py load_content``).

A game that has exercises already is left alone, so running the loader again never
overwrites what editors changed; a game not loaded yet is waited for.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction

from exercises.models import Exercise
from games.models import Game
from site_config.page_cache import bump_generation

CONTENT_DIR = Path(__file__).resolve().parent / "content"


@dataclass
class LoadReport:
    created: list[str] = field(default_factory=list)
    waiting: list[str] = field(default_factory=list)


def content_files(directory: Path = CONTENT_DIR) -> list[Path]:
    return sorted(directory.glob("*.toml"))


def read(path: Path) -> dict:
    with path.open("rb") as handle:
        return tomllib.load(handle)


def exercise_rows(data: dict, game: Game) -> list[Exercise]:
    return [
        Exercise(
            game=game,
            position=position,
            title=item["title"],
            question=item["question"].strip(),
            section=item.get("section", ""),
            right_text=item["right_text"].strip(),
            wrong_text=item["wrong_text"].strip(),
            solution_text=item["solution_text"].strip(),
            setup=item["setup"],
            expect=item["expect"],
        )
        for position, item in enumerate(data.get("exercises", []))
    ]


@transaction.atomic
def load_all(directory: Path = CONTENT_DIR) -> LoadReport:
    report = LoadReport()
    for path in content_files(directory):
        data = read(path)
        game = Game.objects.filter(slug=data["slug"]).first()
        if game is None:
            report.waiting.append(f"Übungen {data['slug']}")
            continue
        if game.exercises.exists():
            continue
        Exercise.objects.bulk_create(exercise_rows(data, game))
        bump_generation(Exercise)  # bulk_create sends no signal; the pages show them
        report.created.append(f"Übungen {data['slug']} ({len(data.get('exercises', []))})")
    return report
