"""The generic demo board: setup form, then the game's own table template."""

from __future__ import annotations

from django.urls import reverse

from games import clock
from games.play import driver, replays


def _replay_url(row) -> str:
    replay = replays.replay_id(row.record) if row.state is not None else None
    return reverse("games:replay", kwargs={"replay_id": replay}) if replay else ""


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
        "options": definition.option_choices(settings),
        "table": None,
        "poll_delay": None,
        "live": "",
        "mid_game": False,
        "replay_url": _replay_url(row),
    }
    if row.state is not None:
        table = definition.present(
            definition.view(row.state, driver.YOU),
            bots=driver.bot_seats(row, definition),
            log=row.log,
            since=since,
        )
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
