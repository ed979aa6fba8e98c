"""Rendered parts of a page kept by the identity and version of the row they show.

    {% cached_part parts_key "abschnitt" forloop.counter %} … {% endcached_part %}

``parts_key`` names the content the enclosed template reads (e.g. one published
version of an article: its id, version number and publishing time, plus the code
stamp); the other arguments tell parts of that content apart. When ``parts_key`` is
empty (a working copy staff edit, whose rows carry no version) the part is rendered
every time and never stored.

Unlike the page cache (one site-wide generation), a part stays valid when another
game changes: a page miss after someone else's edit renders only what is not kept.
Each process keeps its parts itself, unpickled (``content_versions.kept``).
"""

from __future__ import annotations

import hashlib

from django import template

from site_config.content_versions import kept

register = template.Library()


def part_cache_key(parts_key: str, names) -> str:
    raw = "|".join([parts_key, *(str(name) for name in names)])
    return "page-part:" + hashlib.sha256(raw.encode()).hexdigest()[:40]


class CachedPartNode(template.Node):
    def __init__(self, nodelist, parts_key, names):
        self.nodelist = nodelist
        self.parts_key = parts_key
        self.names = names

    def render(self, context):
        parts_key = self.parts_key.resolve(context)
        if not parts_key:
            return self.nodelist.render(context)
        key = part_cache_key(parts_key, [name.resolve(context) for name in self.names])
        return kept(key, lambda: self.nodelist.render(context))


@register.tag("cached_part")
def do_cached_part(parser, token):
    bits = token.split_contents()
    if len(bits) < 2:
        raise template.TemplateSyntaxError("cached_part needs the key of the content it shows.")
    nodelist = parser.parse(("endcached_part",))
    parser.delete_first_token()
    return CachedPartNode(
        nodelist,
        parser.compile_filter(bits[1]),
        [parser.compile_filter(bit) for bit in bits[2:]],
    )
