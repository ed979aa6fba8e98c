"""The take-away game's one record."""

from __future__ import annotations

from games.play.definition import DemoSpec, GameDefinition, TableContext
from tests.takeaway import engine


def present(view, *, bots=frozenset(), hosts=frozenset(), remaining=None, log=(), since=None):
    me = view["seat"]
    names = ["Du" if seat == me else name for seat, name in enumerate(view["names"])]
    news = [
        f"{names[e['event']['seat']]} nimmt {e['event']['count']}."
        for e in log
        if since is not None and e["v"] > since and e["event"]["type"] == "take"
    ]
    result = view["outcome"]
    my_turn = result is None and view["turn"] == me
    if result is not None:
        status = f"{names[result['winners'][0]]} gewinnt."
    else:
        status = "Du bist am Zug." if my_turn else f"{names[view['turn']]} ist am Zug."
    return TableContext(
        status=status,
        news=news,
        attention=my_turn,
        finished=result is not None,
        left=view["left"],
        counts=[a["count"] for a in view["legal_actions"]] if my_turn else [],
    )


def parse_action(data) -> dict | None:
    try:
        return {"type": "take", "count": int(data.get("nimm", ""))}
    except ValueError:
        return None


TAKEAWAY = GameDefinition(
    key="takeaway",
    slug="nimm-drei",
    title="Nimm drei",
    module=engine,
    present=present,
    parse_action=parse_action,
    table_template="play/takeaway/table.html",
    bot_names=("Robo",),
    bot_delay=(0.5, 0.5),
    rooms=True,
    demo=DemoSpec(template="play/demo.html"),
)
