"""Warm a server process before its first request.

Django imports the URLconf (and with it every view module), builds the URL resolver's
reverse table, compiles templates and reads the static files' manifest lazily, on the
first request that needs each. In a fresh worker those first requests cost 50–200 ms
more, and moves that land on it miss their push deadline. The WSGI and ASGI entry
points call ``warm()`` once, in each worker, before it accepts a connection.
"""

from __future__ import annotations

import logging
import time

logger = logging.getLogger(__name__)

# What nearly every request of a game page, a demo or a room renders.
TEMPLATES = (
    "base.html",
    "games/game_detail.html",
    "games/game_demo.html",
    "games/catalogue.html",
    "rooms/room.html",
    "play/table_frame.html",
)


def warm() -> float:
    """Load what the first requests would; returns the seconds it took. A failure is
    logged and ignored: a worker that starts cold still serves correctly."""
    started = time.perf_counter()
    try:
        _warm()
    except Exception:
        logger.warning("warm-up failed; the first requests load what they need", exc_info=True)
    return time.perf_counter() - started


def _warm() -> None:
    from django.contrib.staticfiles.storage import staticfiles_storage
    from django.template.loader import get_template
    from django.urls import get_resolver

    from games.play import definition as registry

    resolver = get_resolver()
    resolver.reverse_dict  # noqa: B018 - imports every view and builds the reverse table
    for name in TEMPLATES:
        get_template(name)
    for game in registry.all_definitions():
        if game.table_template:
            get_template(game.table_template)
    if hasattr(staticfiles_storage, "load_manifest"):
        staticfiles_storage.url("css/site.css")  # reads the manifest once
