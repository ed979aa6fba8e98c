"""Citations: a statement names the source it rests on by the source's key.

In Markdown texts an editor writes ``[@regelbeschreibung S. 2]`` (or ``[@key]`` when
there is no page); a „Beleg“ field holds ``@regelbeschreibung S. 2``. The page shows
„(Regelbeschreibung, S. 2)“ with a link to that source in the article's „Quellen“.
A key the article does not list is shown as it was typed and marked, so an editor
sees it in the preview; the content tests refuse it for shipped articles.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

# [@key] or [@key S. 2] / [@key, S. 1–2]; keys are slugs.
CITATION = re.compile(r"\[@([a-z0-9][a-z0-9-]*)(?:[,\s]+([^\]\[]+?))?\s*\]")
FIELD_CITATION = re.compile(r"^@([a-z0-9][a-z0-9-]*)(?:[,\s]+(.+?))?\s*$")


def keys_in(text: str) -> list[str]:
    """The source keys a Markdown text cites."""
    return [match.group(1) for match in CITATION.finditer(text or "")]


def field_key(value: str) -> str | None:
    """The key a „Beleg“ field cites (``None``: empty or an old plain page number)."""
    match = FIELD_CITATION.match((value or "").strip())
    return match.group(1) if match else None


@dataclass(frozen=True)
class Citations:
    """The sources an article lists, as its texts cite them: key → (label, title)."""

    labels: dict[str, tuple[str, str]] = field(default_factory=dict)
    base: str = ""  # the article's URL when the citing page is another (Kurzregel)

    @classmethod
    def of(cls, sources: Iterable, base: str = "") -> Citations:
        return cls({s.key: (s.label, s.title) for s in sources}, base)

    def link(self, key: str, locator: str | None) -> SafeString:
        known = self.labels.get(key)
        where = f", {locator.strip()}" if locator else ""
        if known is None:
            return format_html(
                '<span class="cite cite--missing" title="Diese Quelle steht nicht unter '
                '„Quellen“.">[@{}{}]</span>',
                key,
                f" {locator.strip()}" if locator else "",
            )
        label, title = known
        return format_html(
            '<span class="cite"><span class="visually-hidden">(Quelle: </span>'
            '<a href="{}#quelle-{}" title="{}">{}</a>{}<span class="visually-hidden">)</span></span>',
            self.base,
            key,
            title,
            label,
            where,
        )

    def in_html(self, html: str) -> SafeString:
        """Replace the citation marks in sanitised HTML (their text is escaped there)."""
        return mark_safe(  # noqa: S308 - the rest is already sanitised HTML
            CITATION.sub(lambda m: self.link(m.group(1), _unescape(m.group(2))), html)
        )

    def field(self, value: str) -> SafeString:
        """A „Beleg“ field: a citation, or (older content) plain text such as „S. 2“."""
        value = (value or "").strip()
        match = FIELD_CITATION.match(value)
        if match is None:
            return format_html('<span class="cite">{}</span>', value) if value else mark_safe("")
        return self.link(match.group(1), match.group(2))


def _unescape(text: str | None) -> str | None:
    # The locator comes from sanitised HTML; format_html escapes it again.
    if text is None:
        return None
    return text.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")


NO_SOURCES = Citations()


def plain(text: str) -> str:
    """A text with its citations written out without links (for a summary or a title)."""
    return CITATION.sub(lambda m: "", text or "").strip()
