"""The Cat's worked examples step by step, as the engine plays them.

``example_steps(check)`` builds the same position as the verifiers in
``examples.py``, lets the engine play the moves and words its events with the
presenter's ``describe``. Each step: ``title``, ``lines`` and what
``play/the_cat/example_step.html`` draws – the open middle and every player's
stacks as mood faces.

Only what the example itself lays down is drawn face up: the stacks it names
and the open middle. Stacks the position fills from the other cards (``[]`` in
the check) stay face down, also at the reveal, where they show only whether
they were finished; a deal example shows the middle and face-down stacks and
never names the moods taken out for two players.
"""

from __future__ import annotations

from games.engines import the_cat
from games.play.the_cat import examples
from games.play.the_cat.presenter import card, describe, mood_name, quoted, reveal
from games.play.wording import Words, join_names

# Step titles worded for one of the players: an example with a player called „Du“.
YOU = "Du"
TABLE_SIZES = {2: "zweit", 3: "dritt", 4: "viert"}
# Events that are a step of their own; the rest (a deal, a game's end) are worded inside.
MOVES = ("take", "swap", "put_back", "stop", "give_up")


def _viewer(names: list[str]) -> int | None:
    return names.index(YOU) if YOU in names else None


def _stack_label(number: int, cards: list[str], held: bool, finished: bool | None) -> str:
    moods = ", ".join(mood_name(the_cat.mood_of(c)) for c in cards)
    state = " – auf der Hand" if held else ""
    if finished is not None:
        state = " – fertig" if finished else " – nicht fertig"
    return f"Stapel {number}: {moods}{state}"


def _table(state: dict, check: dict, names: list[str], *, changed=(), got=(), result=None) -> dict:
    """The drawing of one step: the middle, then each player's stacks.

    ``changed``: middle slots swapped in this step; ``got``: the hand card just
    taken; ``result``: the engine's round result (marks ✓/✗ and points).
    """
    named = [[bool(stack) for stack in own] for own in check["stacks"]]
    rows = result["rows"] if result else None
    players = []
    for seat, name in enumerate(names):
        held = state["held"][seat]
        shown, hidden, hidden_finished = [], 0, 0
        for index, cards in enumerate(state["stacks"][seat]):
            finished = rows[seat]["stacks"][index]["finished"] if rows else None
            if not named[seat][index]:
                hidden += 1
                hidden_finished += bool(finished)
                continue
            if rows:
                cards = rows[seat]["stacks"][index]["cards"]
            shown.append(
                {
                    "number": index + 1,
                    "cards": [card(c, new=c in got) for c in cards],
                    "held": held == index,
                    "finished": finished,
                    "label": _stack_label(index + 1, cards, held == index, finished),
                }
            )
        players.append(
            {
                "name": name,
                "stacks": shown,
                "hidden": hidden,
                "backs": range(hidden),
                "hidden_note": _hidden_note(hidden, hidden_finished, shown, rows is not None),
                "holding": held is not None,
                "caller": bool(result and result["caller"] == seat),
            }
        )
    middle = result["middle"] if result else state["middle"]
    return {
        "middle": [card(c, changed=slot in changed) for slot, c in enumerate(middle)],
        "players": players,
    }


def _hidden_note(hidden: int, finished: int, shown: list, revealed: bool) -> str:
    """Stacks the example leaves face down: „4 Stapel verdeckt“, at the reveal with the
    engine's verdict (never their cards)."""
    if not hidden:
        return ""
    more = "weitere " if shown else ""
    text = f"{hidden} {more}Stapel verdeckt" if hidden > 1 else f"1 {more}Stapel verdeckt"
    if revealed:
        if finished == 0:
            text += " – keiner fertig" if hidden > 1 else " – nicht fertig"
        else:
            text += f" – davon {finished} fertig"
    return text


def _step(title: str, lines=(), table: dict | None = None) -> dict:
    return {"title": title, "lines": [line for line in lines if line], **(table or {})}


def _start(state: dict, check: dict, names: list[str]) -> dict:
    count = len(names)
    per = len(state["stacks"][0])
    lines = []
    scores = check.get("scores")
    if scores:
        lines.append(
            "Stand vorher: "
            + ", ".join(f"{name} {scores[seat]}" for seat, name in enumerate(names))
            + " Punkte."
        )
    if any(not stack for own in check["stacks"] for stack in own):
        lines.append("Verdeckte Stapel spielen für das Beispiel keine Rolle.")
    middle = join_names([quoted(the_cat.mood_of(c)) for c in state["middle"]])
    lines.append(f"In der Mitte liegen {middle}.")
    title = (
        f"Die Ausgangslage: {join_names(names)} spielen zu {TABLE_SIZES[count]}, "
        f"jeder mit {per} Stapeln."
    )
    return _step(title, lines, _table(state, check, names))


def _title(event: dict, me: int | None, names: list[str]) -> str:
    """The presenter's sentence; in an example everyone may see which stack is taken."""
    if event["type"] == "take" and event["seat"] != me:
        return f"{names[event['seat']]} nimmt Stapel {event['stack'] + 1} auf."
    return describe(event, me, names)


def _refusal(entry: dict, names: list[str], me: int | None) -> str:
    words = Words(names, me)
    seat, action = entry["seat"], entry["action"]
    if action["type"] == "swap":
        give = quoted(the_cat.mood_of(action["give"]))
        want = quoted(the_cat.mood_of(action["want"]))
        verb = words.verb(seat, "will", "willst")
        return f"{words.who(seat)} {verb} {give} gegen {want} tauschen – abgelehnt."
    return f"{words.who(seat)}: abgelehnt."


def _scoring(check: dict, state: dict, events: list[dict], names: list[str], me) -> dict:
    """„Die Wertung“: the presenter's reckoning for the players the example reports."""
    view = the_cat.view(state, me)
    rows = reveal(view, me, YOU, Words(names, me))["rows"]
    by_name = {row["name"]: row for row in rows}
    lines = []
    for name in check.get("report") or names:
        row = by_name[name]
        total = f", zusammen {row['total']}" if check.get("scores") else ""
        lines.append(f"{name}: {row['calc']}{total}.")
    lines += [describe(e, me, names) for e in events if e["type"] == "game_over"]
    return _step("Die Wertung:", lines)


def _moves_steps(check: dict) -> list[dict]:
    timeline: list[dict] = []
    state, names, _, _ = examples._play(check, timeline)
    start, _ = examples._position(check)
    me = _viewer(names)
    steps = [_start(start, check, names)]
    for entry in timeline:
        after = entry["state"]
        if entry["refused"]:
            held = after["held"][entry["seat"]]
            cards = after["stacks"][entry["seat"]][held] if held is not None else []
            hand = join_names([quoted(the_cat.mood_of(c)) for c in cards])
            lines = [f"„{entry['refused']}“", "Nichts ändert sich – keine Karte geht verloren."]
            if hand:
                lines.append(f"Auf der Hand bleiben {hand}.")
            steps.append(_step(_refusal(entry, names, me), lines, _table(after, check, names)))
            continue
        for event in entry["events"]:
            kind = event["type"]
            if kind in MOVES:
                changed = {event["slot"]} if kind == "swap" else set()
                got = {event["took"]} if kind == "swap" else set()
                lines = []
                if kind == "stop" and event.get("put_down") is not None:
                    lines.append(
                        "Der Stapel auf der Hand wird zuerst abgelegt und zählt so, wie er ist."
                    )
                if kind == "swap":
                    lines.append(
                        f"Zuerst kommt {quoted(the_cat.mood_of(event['gave']))} in die Mitte, "
                        f"dann {quoted(the_cat.mood_of(event['took']))} auf die Hand – in der "
                        "Mitte liegen wieder vier Karten."
                    )
                table = _table(after, check, names, changed=changed, got=got)
                if kind == "stop":
                    table = _table(after, check, names)
                steps.append(_step(_title(event, me, names), lines, table))
            elif kind == "round_end":
                result = after["round_result"]
                steps.append(
                    _step(
                        describe(event, me, names),
                        ["Alle decken ihre Stapel auf."],
                        _table(after, check, names, result=result),
                    )
                )
        if any(e["type"] == "round_end" for e in entry["events"]):
            steps.append(_scoring(check, after, entry["events"], names, me))
    return steps


def _deal_steps(check: dict) -> list[dict]:
    players = check["players"]
    state = the_cat.new_game(0, players)
    names = [f"Spieler {seat + 1}" for seat in range(players)]
    in_play = sum(len(stack) for own in state["stacks"] for stack in own) + len(state["middle"])
    moods = in_play // the_cat.COPIES
    per = len(state["stacks"][0])
    all_moods = len(the_cat.MOOD_KEYS)
    faces = [card(f"{key}-1") for key in the_cat.MOOD_KEYS]
    steps = [
        _step(
            f"Im Spiel sind {all_moods} Launen mit je {the_cat.COPIES} Karten: "
            f"{len(the_cat.CARDS)} Karten.",
            ["Jede Laune hat ihr eigenes Katzengesicht und ihren Namen."],
            {"moods": faces},
        )
    ]
    if in_play < len(the_cat.CARDS):
        steps.append(
            _step(
                f"Zu {TABLE_SIZES[players]} gehen alle Karten von {all_moods - moods} Launen "
                f"aus dem Spiel: Es bleiben {moods} Launen, {in_play} Karten.",
                ["Welche Launen fehlen, bleibt bis zur ersten Auflösung verdeckt."],
            )
        )
    else:
        steps.append(_step(f"Zu {TABLE_SIZES[players]} spielen alle {in_play} Karten mit."))
    steps.append(
        _step(
            f"Gemischt und verdeckt zu Stapeln aus je vier Karten gelegt: {in_play // 4} Stapel.",
            [f"{players} × {per} Stapel für die Spieler und einer für die Mitte."],
        )
    )
    hidden = {"stacks": [[[] for _ in own] for own in state["stacks"]]}
    steps.append(
        _step(
            f"Jeder bekommt {per} verdeckte Stapel; der letzte Stapel kommt offen in die Mitte.",
            ["Die Mitte ist für alle sichtbar, die eigenen Stapel erst, wenn man sie aufnimmt."],
            _table(state, hidden, names),
        )
    )
    return steps


def example_steps(check: dict) -> list[dict] | None:
    kind = check.get("kind")
    if kind == "deal":
        return _deal_steps(check)
    if kind in ("moves", "round"):
        return _moves_steps(check)
    return None
