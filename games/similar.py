"""„Ähnlich wie“: editors' picks first, then suggestions from shared traits.

A suggestion needs at least one shared mechanic and an overlapping player
range; the more traits two games share (mechanics, player range, length,
complexity), the higher it ranks. Without mechanics on a game there are no
suggestions: player count and length alone fit almost every family game.
"""

from dataclasses import dataclass, field

from django.db.models import Exists, OuterRef, Q

from games.models import Game

MAX_SUGGESTIONS = 3
_FIELDS = ("pk", "slug", "title", "players_min", "players_max", "duration_minutes", "complexity")


@dataclass(frozen=True)
class Suggestion:
    game: Game
    reasons: tuple[str, ...]
    score: int


@dataclass
class SimilarGames:
    picks: list[Game] = field(default_factory=list)
    suggestions: list[Suggestion] = field(default_factory=list)

    def __bool__(self):
        return bool(self.picks or self.suggestions)


def players_overlap(a: Game, b: Game) -> bool:
    return max(a.players_min, b.players_min) <= min(a.players_max, b.players_max)


def similar_length(a: Game, b: Game) -> bool:
    """Within a quarter of the longer game (at least five minutes)."""
    longer = max(a.duration_minutes, b.duration_minutes)
    return abs(a.duration_minutes - b.duration_minutes) <= max(5, longer // 4)


def shared_traits(game: Game, other: Game, mine: set[str], theirs: set[str]) -> Suggestion | None:
    """Why ``other`` resembles ``game``, or None when it is no suggestion."""
    common = sorted(mine & theirs)
    if not common or not players_overlap(game, other):
        return None
    reasons = [*common]
    low = max(game.players_min, other.players_min)
    high = min(game.players_max, other.players_max)
    reasons.append(f"{low} Spieler" if low == high else f"{low}–{high} Spieler")
    score = 2 * len(common) + 1
    if similar_length(game, other):
        reasons.append("ähnliche Dauer")
        score += 1
    if game.complexity == other.complexity:
        reasons.append(f"beide {other.get_complexity_display()}")
        score += 1
    return Suggestion(other, tuple(reasons), score)


def similar_games(game: Game, candidates=None, limit: int = MAX_SUGGESTIONS) -> SimilarGames:
    """Picks and suggestions among ``candidates`` (default: published games), in one query."""
    if candidates is None:
        candidates = Game.objects.published()
    picked = Game.related_games.through.objects.filter(
        from_game_id=game.pk, to_game_id=OuterRef("pk")
    )
    # One row per (game, mechanic), the page's own game included for its mechanics.
    rows = (
        Game.objects.filter(Q(pk__in=candidates.values("pk")) | Q(pk=game.pk))
        .annotate(is_pick=Exists(picked))
        .values_list(*_FIELDS, "is_pick", "mechanics__name")
        .order_by("title", "pk")
    )
    games: dict[int, Game] = {}
    mechanics: dict[int, set[str]] = {}
    picks: set[int] = set()
    for *values, is_pick, mechanic in rows:
        data = dict(zip(_FIELDS, values, strict=True))
        if data["pk"] not in games:
            games[data["pk"]] = Game(**data)
        if is_pick:
            picks.add(data["pk"])
        if mechanic:
            mechanics.setdefault(data["pk"], set()).add(mechanic)
    games.pop(game.pk, None)
    mine = mechanics.get(game.pk, set())
    # A staff preview of the game's draft (editorial.drafts.overlay) brings its own picks.
    if hasattr(game, "draft_related_ids"):
        picks = game.draft_related_ids & set(games)
    mine = getattr(game, "draft_mechanic_names", mine)
    found = [
        suggestion
        for pk, other in games.items()
        if pk not in picks
        and (suggestion := shared_traits(game, other, mine, mechanics.get(pk, set())))
    ]
    found.sort(key=lambda s: (-s.score, s.game.title))
    return SimilarGames(picks=[games[pk] for pk in games if pk in picks], suggestions=found[:limit])
