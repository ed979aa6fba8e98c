import json

from django import template
from django.utils.html import _json_script_escapes
from django.utils.safestring import mark_safe

from rules.rendering import render_markdown

register = template.Library()


@register.filter(name="markdown")
def markdown_filter(text):
    return render_markdown(text)


@register.filter
def json_ld(data):
    """Serialise structured data for a <script type="application/ld+json"> block.

    Escapes <, > and & like json_script does, so text can never close the tag.
    """
    return mark_safe(json.dumps(data, ensure_ascii=False).translate(_json_script_escapes))
