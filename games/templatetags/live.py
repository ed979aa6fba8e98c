"""``{% load live %}``: whether a page gets pushed updates, and how often it still polls."""

from django import template

from games.play import live

register = template.Library()


def _streams(request) -> bool:
    # Streams need an ASGI server (gunicorn with uvicorn workers); `runserver` and
    # sync workers serve the page with polling only.
    return live.streams_for(request)


@register.simple_tag
def live_enabled(request=None, pushed=False) -> bool:
    """Whether the page streams (``pushed``: drawn for a push, so it does)."""
    return bool(pushed) or _streams(request)


@register.simple_tag
def live_poll_ms(default, request=None, pushed=False) -> int:
    """The poll interval: the game's own without a stream; ``LIVE_POLL_MS`` with one
    (``pushed``: drawn for a push, which only pages with an open stream receive)."""
    return live.poll_ms(int(default)) if pushed or _streams(request) else int(default)
