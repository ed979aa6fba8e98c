"""Markdown from the database, rendered through an allow-list sanitizer.

Editors write limited Markdown (paragraphs, lists, bold, tables). Whatever HTML
they type, nh3 keeps only the tags below and drops every attribute that is not
listed, so neither <script> nor onclick=… ever reaches a page.
"""

from functools import lru_cache

import markdown
import nh3
from django.utils.safestring import SafeString, mark_safe

ALLOWED_TAGS = {
    "p", "br", "strong", "em", "b", "i", "ul", "ol", "li", "blockquote", "code",
    "table", "thead", "tbody", "tr", "th", "td", "sup", "sub", "abbr",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {"th": {"scope"}, "td": set(), "abbr": {"title"}}


@lru_cache(maxsize=2048)
def _render(text: str) -> str:
    # A fresh Markdown instance per call: instances keep state between conversions.
    html = markdown.markdown(text, extensions=["tables", "sane_lists"], output_format="html")
    return nh3.clean(html, tags=ALLOWED_TAGS, attributes=ALLOWED_ATTRIBUTES)


def render_markdown(text: str | None) -> SafeString:
    return mark_safe(_render(text or ""))  # noqa: S308 - sanitised by nh3 above
