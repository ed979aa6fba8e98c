"""Progress per visitor id: tries, misses, solved exercises; „Alle Regeln geübt“ per game.

An account's progress is that of every visitor id it adopted (``accounts.services``);
a login that merges a browser's id into the account's moves its rows (``move``: where
both ids tried the same exercise, the rows are added up and a solve is kept).
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from exercises.models import Exercise, ExerciseProgress

SHOW_SOLUTION_AFTER = 2  # misses
IDLE_DAYS = 365  # a browser's progress nobody touched for a year goes (the cookie's age)


def rows_for(visitors: list[str], exercises) -> dict[int, ExerciseProgress]:
    """exercise id -> the best row among ``visitors`` (solved first, then most misses)."""
    best: dict[int, ExerciseProgress] = {}
    if not visitors:
        return best
    for row in ExerciseProgress.objects.filter(visitor__in=visitors, exercise__in=exercises):
        known = best.get(row.exercise_id)
        if known is None or (row.solved, row.misses) > (known.solved, known.misses):
            best[row.exercise_id] = row
    return best


def visitors_of(request, create: bool = False) -> list[str]:
    """The ids whose progress the request sees: an account's ids, else the browser's."""
    from accounts.services import visitor_ids
    from games.visitors import existing_visitor_id, visitor_id

    if request.user.is_authenticated:
        ids = visitor_ids(request.user)
        if ids:
            return ids
    current = visitor_id(request) if create else existing_visitor_id(request)
    return [current] if current else []


@transaction.atomic
def record(visitor: str, exercise: Exercise, right: bool) -> ExerciseProgress:
    row, _ = ExerciseProgress.objects.select_for_update().get_or_create(
        visitor=visitor, exercise=exercise
    )
    if right:
        if row.solved_at is None:
            row.solved_at = timezone.now()
    else:
        row.misses = F("misses") + 1
    row.save()
    row.refresh_from_db()
    return row


def summary(visitors: list[str], games=None) -> list[dict]:
    """Per game with exercises: solved and total count, all done or not."""
    exercises = Exercise.objects.published().select_related("game")
    if games is not None:
        exercises = exercises.filter(game__in=games)
    exercises = list(exercises.filter(game__is_published=True))
    rows = rows_for(visitors, exercises)
    result: dict[int, dict] = {}
    for exercise in exercises:
        entry = result.setdefault(
            exercise.game_id, {"game": exercise.game, "solved": 0, "total": 0}
        )
        entry["total"] += 1
        if exercise.pk in rows and rows[exercise.pk].solved:
            entry["solved"] += 1
    for entry in result.values():
        entry["all_done"] = entry["solved"] == entry["total"]
    return sorted(result.values(), key=lambda e: e["game"].title)


def my_area(request) -> dict | None:
    """„Mein Bereich“: every game's progress (None when nothing was practised yet)."""
    from accounts.services import visitor_ids

    ids = visitor_ids(request.user)
    if not ExerciseProgress.objects.filter(visitor__in=ids).exists():
        return None
    return {"games": [entry for entry in summary(ids) if entry["solved"] or entry["total"]]}


def personal_data(user, link) -> list[dict] | None:
    from accounts.services import visitor_ids

    rows = ExerciseProgress.objects.filter(visitor__in=visitor_ids(user)).select_related(
        "exercise__game"
    )
    data = [
        {
            "spiel": row.exercise.game.title,
            "uebung": row.exercise.title,
            "adresse": link(
                f"{row.exercise.game.get_absolute_url()}ueben/#uebung-{row.exercise.position + 1}"
            ),
            "fehlversuche": row.misses,
            "geloest_am": timezone.localtime(row.solved_at).isoformat(timespec="seconds")
            if row.solved_at
            else None,
            "zuletzt_geuebt": timezone.localtime(row.updated_at).isoformat(timespec="seconds"),
        }
        for row in rows.order_by("exercise__game__title", "exercise__position")
    ]
    return data or None


def erase(visitors: list[str]) -> None:
    ExerciseProgress.objects.filter(visitor__in=visitors).delete()


def move(old: str, primary: str) -> int:
    """Rows of ``old`` go to ``primary``; where both tried an exercise, one row stays
    with the misses added up and the earlier solve."""
    moved = 0
    theirs = {row.exercise_id: row for row in ExerciseProgress.objects.filter(visitor=primary)}
    for row in ExerciseProgress.objects.filter(visitor=old):
        other = theirs.get(row.exercise_id)
        if other is None:
            ExerciseProgress.objects.filter(pk=row.pk).update(visitor=primary)
        else:
            solves = [moment for moment in (row.solved_at, other.solved_at) if moment]
            ExerciseProgress.objects.filter(pk=other.pk).update(
                misses=other.misses + row.misses, solved_at=min(solves) if solves else None
            )
            row.delete()
        moved += 1
    return moved


def cleanup() -> int:
    """Delete the progress of visitor ids no account adopted, untouched for ``IDLE_DAYS``."""
    from datetime import timedelta

    from accounts.models import VisitorLink

    cutoff = timezone.now() - timedelta(days=IDLE_DAYS)
    adopted = VisitorLink.objects.values("visitor")
    stale = ExerciseProgress.objects.filter(updated_at__lt=cutoff).exclude(visitor__in=adopted)
    return stale.delete()[0]
