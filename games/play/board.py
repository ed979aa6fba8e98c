"""The demo board: the context of the demo region (the generic one, or a game's own),
its request URLs, and the full-screen demo page's address."""

from __future__ import annotations

import functools

from django.urls import get_script_prefix, reverse

from games import clock
from games.play import coach, driver, replays
from games.play import definition as registry


def _replay_url(row) -> str:
    replay = replays.replay_id(row.record) if row.state is not None else None
    return reverse("games:replay", kwargs={"replay_id": replay}) if replay else ""


def urls(definition) -> dict:
    """The demo's request URLs (the same on every request: reversed once per prefix)."""
    return dict(_urls(definition.key, get_script_prefix()))


@functools.lru_cache(maxsize=64)
def _urls(key: str, _script_prefix: str) -> dict:
    definition = registry.get(key)
    slug = {"slug": definition.slug}
    result = {
        name: reverse(f"games:demo_{name}", kwargs=slug)
        for name in ("start", "act", "bot", "poll", "new", "live", "tip", "coach")
    }
    result.update(
        {
            name: reverse("games:demo_extra", kwargs={**slug, "name": name})
            for name in definition.demo.extras
        }
    )
    if definition.rooms:
        result["create_room"] = reverse("rooms:create", kwargs=slug)
    return result


def demo_page_path(slug: str) -> str:
    """The full-screen demo page, where no-JavaScript forms return by default."""
    return _demo_page_path(slug, get_script_prefix())


@functools.lru_cache(maxsize=64)
def _demo_page_path(slug: str, _script_prefix: str) -> str:
    return reverse("games:demo", kwargs={"slug": slug})


def demo_page(definition) -> str:
    return demo_page_path(definition.slug)


def draw(definition, row, **context) -> dict:
    """The demo region's context for ``row`` (``back``, ``note``, ``since`` …)."""
    build = definition.demo.board or generic_board
    links = urls(definition)
    result = context.get("result") or {}
    drawn = build(definition, row, urls=links, **context)
    drawn["coach"] = coach.context(definition, row, tip=result.get("tip"), urls=links)
    if drawn["coach"] and "live" in drawn:
        # Screen readers hear a new note or the tip asked for (the swapped region is new).
        shown = drawn["coach"]["note"] if context.get("since") is not None else None
        tip = drawn["coach"]["tip"]
        parts = [drawn["live"], shown and shown["text"], tip and f"Tipp: {tip['move']}"]
        drawn["live"] = " ".join(part for part in parts if part)
    return drawn


def generic_board(
    definition,
    row,
    *,
    urls: dict,
    back: str,
    note: str = "",
    result: dict | None = None,
    since: int | None = None,
    stale: bool = False,
) -> dict:
    settings = row.settings or driver.default_settings(definition)
    if stale and not note:
        note = "Das Spiel hat sich inzwischen geändert – hier ist der aktuelle Stand."
    context = {
        "stage": "setup" if row.state is None else "play",
        "version": row.version,
        "back": back,
        "note": note,
        "urls": urls,
        "definition": definition,
        "table_template": definition.table_template,
        "target_id": f"{definition.key}-demo-body",
        "settings": settings,
        "hidden_settings": [
            {"name": key, "value": settings[key]} for key in ["bots", *definition.default_options()]
        ],
        "bot_choices": [
            {"value": n, "checked": settings.get("bots") == n} for n in definition.demo.bot_counts
        ],
        # Worked out only where drawn (the setup form): a template calls what it is given.
        "options": functools.partial(definition.option_choices, settings),
        "table": None,
        "poll_delay": None,
        "live": "",
        "mid_game": False,
        "replay_url": _replay_url(row),
    }
    if row.state is not None:
        # An engine that takes the time as input is drawn at the demo's own clock.
        clocked = {"now": driver.game_now(row).timestamp()} if definition.simultaneous else {}
        table = definition.present(
            definition.view(row.state, driver.YOU),
            bots=driver.bot_seats(row, definition),
            log=row.log,
            since=since,
            **clocked,
        )
        if driver.bots_wait(definition, row):
            table["countdown"] = None  # the guided first round has no time pressure
        context["table"] = table
        context["mid_game"] = not table.finished
        if row.bot_due is not None and definition.bot_delay is not None:
            delay = (row.bot_due - clock.now()).total_seconds()
            context["poll_delay"] = max(50, min(2000, round(delay * 1000) + 30))
        live = [note] if note else []
        if since is not None:
            live += table.news
            if table.news and table.attention:
                live.append(table.status)
        context["live"] = " ".join(live)
    return context
