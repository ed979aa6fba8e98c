"""Registry of playable demos. A demo module registers itself; the game page asks here.

Keeping the registry in one place means the game page and the full-screen demo
page need no per-game code: each demo brings its templates and context.
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme


@dataclass(frozen=True)
class Demo:
    engine: str
    template_name: str  # the demo's region, included on the game page and the demo page
    context: Callable  # (request, game) -> dict for template_name


_DEMOS: dict[str, Demo] = {}


def register(demo: Demo) -> Demo:
    _DEMOS[demo.engine] = demo
    return demo


def demo_for(game) -> Demo | None:
    return _DEMOS.get(game.demo_engine) if game.demo_engine else None


def return_path(request, game_slug: str) -> str:
    """Where a demo action redirects without JavaScript: the page it was sent from
    (game page or full-screen page) if it is a local path, else the full-screen page."""
    back = request.POST.get("zurueck") or request.GET.get("zurueck") or ""
    if back.startswith("/") and url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return back
    return reverse("games:demo", kwargs={"slug": game_slug})


def expected_version(request) -> int:
    """The state version a demo request names; a request without one never applies."""
    try:
        return int(request.POST.get("version", ""))
    except ValueError:
        return -1
