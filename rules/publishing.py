"""Drafts and publishing with the least machinery.

Editors always edit the live rows (article, sections, examples, mistakes). The
publish action copies them into `RulesArticle.published_snapshot`, and the
public game page renders only that copy. So an article can be reworked for days
while the last published version stays online; staff see the working copy on
the site with a preview banner and can switch to the public version.
"""

import datetime
import hashlib
import json
from dataclasses import dataclass
from functools import cached_property

from django.db import transaction
from django.db.models import TextField, prefetch_related_objects
from django.db.models.functions import MD5, Cast
from django.utils import timezone

from games.models import Game
from rules.citations import Citations
from rules.models import (
    CommonMistake,
    FrequentQuestion,
    GlossaryEntry,
    RulesArticle,
    Section,
    Source,
    WorkedExample,
)

SNAPSHOT_FORMAT = 1
SOURCE_FIELDS = (
    "rulebook_title", "rulebook_publisher", "rulebook_version", "rulebook_year",
    "rulebook_pages", "rulebook_read_on", "source_note",
)  # fmt: skip
PART_FIELDS = ("title", "body", "pages")
# Examples keep their engine check, so the public page can draw them from the engine.
EXAMPLE_FIELDS = (*PART_FIELDS, "engine_check", "expect")
SECTION_FIELDS = ("kind", "title", "body", "pages")
# Added later; kept out of a snapshot while empty, so snapshots taken before
# these fields existed still equal a fresh one.
SECTION_OPTIONAL_FIELDS = ("summary", "gist", "figure", "figure_alt", "figure_caption")
SOURCE_ROW_FIELDS = ("key", "label", "title", "edition", "read_on", "covers")
GLOSSARY_FIELDS = ("term", "other_names", "body")
# Every related list of an article (the admin and the staff preview prefetch them).
PARTS = ("sections", "examples", "mistakes", "questions", "sources", "glossary")
# Staff add ?fassung=oeffentlich to a game page to see what the public sees.
PUBLIC_VERSION_PARAM = "fassung"
PUBLIC_VERSION_VALUE = "oeffentlich"


def build_snapshot(article: RulesArticle) -> dict:
    """The article's current working copy as plain JSON (uses prefetched parts if present)."""
    source = {name: getattr(article, name) for name in SOURCE_FIELDS}
    if source["rulebook_read_on"] is not None:
        source["rulebook_read_on"] = source["rulebook_read_on"].isoformat()
    snapshot = {
        "format": SNAPSHOT_FORMAT,
        "source": source,
        "sections": [_section_fields(s) for s in article.sections.all()],
        "examples": [_fields(e, EXAMPLE_FIELDS) for e in article.examples.all()],
        "mistakes": [_fields(m, PART_FIELDS) for m in article.mistakes.all()],
    }
    # Lists added later stay out of a snapshot while empty (older snapshots still match).
    if questions := [_fields(q, PART_FIELDS) for q in article.questions.all()]:
        snapshot["questions"] = questions
    if sources := [_source_row(s) for s in article.sources.all()]:
        snapshot["sources"] = sources
    if glossary := [_fields(g, GLOSSARY_FIELDS) for g in article.glossary.all()]:
        snapshot["glossary"] = glossary
    return snapshot


def _source_row(source) -> dict:
    data = _fields(source, SOURCE_ROW_FIELDS)
    if data["read_on"] is not None:
        data["read_on"] = data["read_on"].isoformat()
    return data


def search_terms(snapshot: dict) -> str:
    """The words of a published glossary, one per line (what the catalogue searches)."""
    words = []
    for entry in snapshot.get("glossary", []):
        words.append(entry["term"])
        words += [name.strip() for name in entry["other_names"].split(",") if name.strip()]
    return "\n".join(words)


def _section_fields(section) -> dict:
    data = _fields(section, SECTION_FIELDS)
    data.update(
        {name: value for name in SECTION_OPTIONAL_FIELDS if (value := getattr(section, name))}
    )
    return data


def _fields(obj, names) -> dict:
    return {name: getattr(obj, name) for name in names}


def has_unpublished_changes(article: RulesArticle) -> bool:
    if not article.is_published or article.published_snapshot is None:
        return True
    return build_snapshot(article) != article.published_snapshot


@transaction.atomic
def publish(article: RulesArticle, now=None) -> RulesArticle:
    """Put the working copy online as a new numbered version."""
    # Lock the row so two editors publishing at once get versions n and n+1.
    locked = RulesArticle.objects.select_for_update().get(pk=article.pk)
    article.published_snapshot = build_snapshot(article)
    article.search_terms = search_terms(article.published_snapshot)
    article.published_version = locked.published_version + 1
    article.published_at = now or timezone.now()
    article.status = RulesArticle.Status.PUBLISHED
    article.save(
        update_fields=[
            "published_snapshot", "published_version", "published_at", "status", "updated_at",
            "search_terms",
        ]
    )  # fmt: skip
    return article


def unpublish(article: RulesArticle) -> RulesArticle:
    """Take the article offline; the snapshot is kept for the record until the next publish."""
    article.status = RulesArticle.Status.DRAFT
    article.save(update_fields=["status", "updated_at"])
    return article


class _Parts(list):
    """A list that answers `.all()` like a related manager, so templates need no change."""

    def all(self):
        return self


class PublishedArticle:
    """The public version of an article, read from its snapshot.

    Offers the attributes the templates use on a RulesArticle; parts are unsaved
    model instances, so `heading`, `anchor` and choice labels work unchanged. The
    snapshot is read and unpacked only when a part of it is shown: a game page whose
    rendered parts are all kept needs just the identity and ``content_digest`` (which
    the game page's query has the database compute, ``SNAPSHOT_DIGEST``).
    """

    is_published = True

    def __init__(self, article: RulesArticle, digest: str | None = None):
        self._article = article
        self._digest = digest
        self.pk = article.pk
        self.game_id = article.game_id
        self.status = article.status
        self.published_at = article.published_at
        self.published_version = article.published_version

    @cached_property
    def _snapshot(self) -> dict:
        return self._article.published_snapshot  # a deferred column is read here

    @cached_property
    def _source(self) -> dict:
        source = {name: self._snapshot["source"].get(name) for name in SOURCE_FIELDS}
        if source["rulebook_read_on"]:
            source["rulebook_read_on"] = datetime.date.fromisoformat(source["rulebook_read_on"])
        return source

    @cached_property
    def sections(self):
        return _Parts(Section(**data) for data in self._snapshot["sections"])

    @cached_property
    def examples(self):
        return _Parts(WorkedExample(**data) for data in self._snapshot["examples"])

    @cached_property
    def mistakes(self):
        return _Parts(CommonMistake(**data) for data in self._snapshot["mistakes"])

    @cached_property
    def questions(self):
        return _Parts(FrequentQuestion(**data) for data in self._snapshot.get("questions", []))

    @cached_property
    def sources(self):
        rows = []
        for data in self._snapshot.get("sources", []):
            data = dict(data)
            if data.get("read_on"):
                data["read_on"] = datetime.date.fromisoformat(data["read_on"])
            rows.append(Source(**data))
        return _Parts(rows)

    @cached_property
    def glossary(self):
        return _Parts(GlossaryEntry(**data) for data in self._snapshot.get("glossary", []))

    @cached_property
    def citations(self) -> Citations:
        return Citations.of(self.sources)

    @cached_property
    def content_digest(self) -> str:
        """A hash of what this version shows: keys its rendered parts (games/views.py)."""
        if self._digest:
            return self._digest
        text = json.dumps(self._snapshot, separators=(",", ":"), sort_keys=True)
        return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def _source_field(name):
    return property(lambda self: self._source[name])


for _name in SOURCE_FIELDS:
    setattr(PublishedArticle, _name, _source_field(_name))


# The game page reads the article without its snapshot column and lets the database hash
# it instead (rows of any size cost the same; the hash changes with every byte of the
# snapshot, however it was written). NULL when the article has no snapshot.
SNAPSHOT_DIGEST = MD5(Cast("article__published_snapshot", TextField()))


@dataclass(frozen=True)
class ArticlePage:
    """What the game page shows of an article, and how staff should be told about it."""

    article: RulesArticle | PublishedArticle | None
    is_working_copy: bool = False  # staff see the live rows
    has_unpublished_changes: bool = False
    has_public_version: bool = False
    staff_sees_public_version: bool = False

    @property
    def is_unpublished_preview(self):
        return self.is_working_copy and self.has_unpublished_changes


def article_for_page(request, game) -> ArticlePage:
    """The public snapshot for readers; the working copy (with preview flags) for staff.

    Readers cost one query (the article row carries its snapshot); staff pay for
    the prefetch of the live parts.
    """
    if Game.article.is_cached(game):  # select_related("article") by the caller
        article = getattr(game, "article", None)
    else:
        article = RulesArticle.objects.filter(game=game).first()
    if article is None:
        return ArticlePage(None)
    # The game page's query annotates the snapshot's digest instead of reading it.
    digest = getattr(game, "article_snapshot_digest", None)
    if "published_snapshot" in article.get_deferred_fields():
        has_snapshot = digest is not None
    else:
        has_snapshot = article.published_snapshot is not None
    has_public = article.is_published and has_snapshot
    wants_public = request.GET.get(PUBLIC_VERSION_PARAM) == PUBLIC_VERSION_VALUE
    if request.user.is_staff and not wants_public:
        prefetch_related_objects([article], *PARTS)
        return ArticlePage(
            article,
            is_working_copy=True,
            has_unpublished_changes=has_unpublished_changes(article),
            has_public_version=has_public,
        )
    staff_sees_public = request.user.is_staff
    if not has_public:
        return ArticlePage(None, staff_sees_public_version=staff_sees_public)
    return ArticlePage(
        PublishedArticle(article, digest),
        has_public_version=True,
        staff_sees_public_version=staff_sees_public,
    )
