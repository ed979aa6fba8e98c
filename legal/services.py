"""Reading and rendering the legal pages."""

from __future__ import annotations

import re
from functools import lru_cache

import markdown
import nh3
from django.utils.html import escape, strip_tags
from django.utils.safestring import SafeString, mark_safe

from legal.defaults import shipped
from legal.models import PLACEHOLDER, LegalPage
from rules.rendering import ALLOWED_ATTRIBUTES, ALLOWED_TAGS

# The articles' Markdown plus headings and links (an address, a supervisory authority).
TAGS = ALLOWED_TAGS | {"h2", "h3", "a"}
ATTRIBUTES = {**ALLOWED_ATTRIBUTES, "a": {"href"}}


def page(key: str) -> LegalPage:
    """The page as the editors keep it; the shipped text if the row was never created."""
    found = LegalPage.objects.filter(key=key).first()
    return found or LegalPage.objects.create(key=key, **shipped(key))


@lru_cache(maxsize=16)
def _render(text: str) -> str:
    html = markdown.markdown(text, extensions=["tables", "sane_lists"], output_format="html")
    html = nh3.clean(
        html, tags=TAGS, attributes=ATTRIBUTES, url_schemes={"http", "https", "mailto"}
    )
    # An open placeholder stands out, so whoever runs the site sees what is missing.
    html = PLACEHOLDER.sub(lambda m: f'<mark class="placeholder">{m.group(0)}</mark>', html)
    return TABLE.sub(_labelled, html)


TABLE = re.compile(r"<table>.*?</table>", re.S)
HEAD_CELL = re.compile(r"<th[^>]*>(.*?)</th>", re.S)
ROW = re.compile(r"<tr>.*?</tr>", re.S)


def _labelled(match: re.Match) -> str:
    """Each body cell names its column (``data-label``): on a phone the rows become cards."""
    table = match.group(0)
    head, _, body = table.partition("</thead>")
    labels = [escape(strip_tags(cell).strip()) for cell in HEAD_CELL.findall(head)]

    def row(found: re.Match) -> str:
        names = iter(labels)
        return re.sub("<td>", lambda _: f'<td data-label="{next(names, "")}">', found.group(0))

    return head + "</thead>" + ROW.sub(row, body) if body else table


def render(text: str) -> SafeString:
    return mark_safe(_render(text))  # noqa: S308 - sanitised by nh3 above
