import json

from django import template
from django.utils.html import _json_script_escapes
from django.utils.safestring import mark_safe

from rules.citations import NO_SOURCES
from rules.rendering import render_markdown

register = template.Library()


@register.filter(name="markdown")
def markdown_filter(text, cites=None):
    """Markdown to sanitised HTML; ``cites`` (rules.citations.Citations) links the
    citations „[@key S. 2]“ to the article's sources."""
    html = render_markdown(text)
    if "[@" not in html:
        return html
    return (cites or NO_SOURCES).in_html(html)


@register.filter
def citation(value, cites=None):
    """A „Beleg“ field („@key S. 2“, or an old plain „S. 2“) as a citation."""
    return (cites or NO_SOURCES).field(value)


@register.filter
def json_ld(data):
    """Serialise structured data for a <script type="application/ld+json"> block.

    Escapes <, > and & like json_script does, so text can never close the tag.
    """
    return mark_safe(json.dumps(data, ensure_ascii=False).translate(_json_script_escapes))
