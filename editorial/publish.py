"""One step puts a whole game page online: the article's working copy, the game's draft
(data, people, „Ähnlich wie“, card formats) and the game itself if it was hidden."""

from __future__ import annotations

from dataclasses import dataclass, field

import reversion
from django.db import transaction

from editorial import changes, drafts
from games.models import Game
from rules import publishing
from rules.models import RulesArticle


@dataclass
class PagePending:
    """What publishing the page would change (shown before, reported after)."""

    article_lines: list[str] = field(default_factory=list)
    game_lines: list[str] = field(default_factory=list)
    shows_game: bool = False

    @property
    def lines(self):
        return [*(["Spiel wird sichtbar"] if self.shows_game else []), *self.game_lines,
                *self.article_lines]  # fmt: skip

    def __bool__(self):
        return bool(self.lines)


def _article_of(game) -> RulesArticle | None:
    return RulesArticle.objects.filter(game_id=game.pk).prefetch_related(*publishing.PARTS).first()


def pending(game) -> PagePending:
    article = _article_of(game)
    result = PagePending(shows_game=not game.is_published)
    result.game_lines = drafts.describe(drafts.draft_for(game))
    if article is not None and publishing.has_unpublished_changes(article):
        snapshot = article.published_snapshot if article.is_published else None
        result.article_lines = changes.article_changes(
            snapshot, publishing.build_snapshot(article)
        ) or ["Artikel"]
    return result


@dataclass(frozen=True)
class Published:
    version: int | None
    lines: list[str]

    def message(self, game) -> str:
        what = "; ".join(self.lines) if self.lines else "keine Änderungen"
        version = f" (Fassung {self.version})" if self.version else ""
        return f"„{game.title}“ ist online{version}. Veröffentlicht: {what}."


@transaction.atomic
def publish_page(game: Game, user=None) -> Published:
    before = pending(game)
    # Each object published gets a history entry of the state that went online.
    with reversion.create_revision():
        if user is not None:
            reversion.set_user(user)
        reversion.set_comment("Veröffentlicht: " + "; ".join(before.lines or ["ohne Änderungen"]))
        drafts.apply(game)
        game = Game.objects.get(pk=game.pk)
        if not game.is_published:
            game.is_published = True
            game.save(update_fields=["is_published", "updated_at"])
        article = _article_of(game)
        version = None
        if article is not None:
            version = publishing.publish(article).published_version
    return Published(version, before.lines)
