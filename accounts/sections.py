"""Sections other apps add to „Mein Bereich“, without accounts knowing those apps.

An app registers its section once, in its ``AppConfig.ready()``::

    from accounts.sections import MyAreaSection, register

    register(MyAreaSection(
        key="spielegruppen",
        title="Meine Spielegruppen",
        template="groups/my_area.html",          # rendered with ``data`` = context(request)
        context=lambda request: {"groups": ...},  # request.user is a logged-in reader
        order=10,                                 # lower comes first
    ))

The page shows each registered section as its own ``<section>`` with the title as
its ``<h2>``; a section whose context function returns ``None`` is left out.
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.http import HttpRequest


@dataclass(frozen=True)
class MyAreaSection:
    key: str
    title: str
    template: str
    context: Callable[[HttpRequest], dict | None]
    order: int = 100


_registry: dict[str, MyAreaSection] = {}


def register(section: MyAreaSection) -> MyAreaSection:
    """Add (or replace, by key) a section; safe to call again on reload."""
    _registry[section.key] = section
    return section


def unregister(key: str) -> None:
    _registry.pop(key, None)


def registered() -> list[MyAreaSection]:
    return sorted(_registry.values(), key=lambda s: (s.order, s.key))


def rendered_sections(request) -> list[dict]:
    """What the page loops over: each section with the data its app computed."""
    result = []
    for section in registered():
        data = section.context(request)
        if data is not None:
            result.append({"section": section, "data": data})
    return result
