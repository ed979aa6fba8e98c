"""The Cat at a table (online room or in-page demo): how one seat's view is shown.

``present`` turns ``the_cat.view(state, seat)`` plus the public event log – and
nothing else – into the context of ``play/the_cat/table.html``. The engine's
view already leaves out everything hidden (other players' stacks, the viewer's
own stacks not in hand, the removed moods before the reveal); card ids appear
here only for the open middle and the viewer's own hand. ``describe`` words the
engine's events for the viewer („Minka tauscht …“, „Du rufst Stopp!“).
"""

from __future__ import annotations

import math

from games import clock
from games.engines import the_cat
from games.play.definition import TableContext
from games.play.seating import Viewer, places
from games.play.wording import Words, join_names
from games.play.wording import countdown as timer

ROUND_SECONDS = 300  # a round nobody calls ends after five minutes (engine default)
REVEAL_SECONDS = 45  # rooms: the next round is dealt after 45 s without „Weiter“
LOG_LENGTH = 10
NEWS_LENGTH = 4

CHOOSE_FIRST = the_cat.CHOOSE_FIRST  # a swap without a hand card (the engine says it)

REASONS = {
    "time": "Die Rundenzeit ist abgelaufen – niemand hat Stopp gerufen.",
    "given_up": "Alle wollten die Runde beenden – niemand hat Stopp gerufen.",
    "left": "Jemand hat den Tisch verlassen – die Runde endet ohne Stopp.",
}


def timer_seconds(state: dict) -> int | None:
    """Only the reveal has a site timer; in play the engine runs its own round clock."""
    return REVEAL_SECONDS if state["phase"] == the_cat.REVEAL else None


def parse_action(data) -> dict | None:
    """Form fields: ``aktion`` = ``take:<stack>``, ``put_back``, ``stop``, ``give_up``,
    ``continue``; a swap is ``nimm=<middle card>`` with ``gib=<hand card>`` (the middle
    card's button, or ``aktion=swap``)."""
    raw = str(data.get("aktion", "")).strip()
    want = str(data.get("nimm", "")).strip()
    if want and raw in ("", "swap"):
        return {"type": "swap", "give": str(data.get("gib", "")).strip(), "want": want}
    if raw in ("put_back", "stop", "give_up", "continue"):
        return {"type": raw}
    kind, _, stack = raw.partition(":")
    if kind == "take" and stack.isdigit():
        return {"type": "take", "stack": int(stack)}
    return None


# --- Cards and words -------------------------------------------------------------


def mood_name(mood: str) -> str:
    return the_cat.MOOD_NAMES.get(mood, mood)


# Where the longer names may break on a narrow card (soft hyphens, shown only on cards).
BREAKS = {
    "verschlafen": "ver\u00adschla\u00adfen",
    "erschrocken": "er\u00adschro\u00adcken",
    "neugierig": "neu\u00adgie\u00adrig",
    "beleidigt": "be\u00adlei\u00addigt",
}


def card(card_id: str, **extra) -> dict:
    mood = the_cat.mood_of(card_id)
    name = mood_name(mood)
    return {"id": card_id, "mood": mood, "name": name, "short": BREAKS.get(mood, name), **extra}


def quoted(mood: str) -> str:
    return f"„{mood_name(mood)}“"


def points(n: int, dative: bool = False) -> str:
    if n == 1:
        return "1 Punkt"
    return f"{n} Punkten" if dative else f"{n} Punkte"


def describe(event: dict, me: int | None, names: list[str]) -> str:
    """One engine event as a German sentence for the seat ``me`` (None: a spectator)."""
    w = Words(names, me)
    kind = event.get("type")
    seat = event.get("seat")
    if kind == "deal":
        dealer = event["dealer"]
        middle = ", ".join(quoted(the_cat.mood_of(c)) for c in event["middle"])
        return (
            f"Runde {event['round']}: {w.who(dealer)} {w.verb(dealer, 'gibt', 'gibst')}. "
            f"In der Mitte liegen {middle}."
        )
    if kind == "take":
        if seat == me:
            return f"Du nimmst deinen Stapel {event['stack'] + 1} auf."
        return f"{w.who(seat)} nimmt einen Stapel auf."
    if kind == "swap":
        gave, took = quoted(the_cat.mood_of(event["gave"])), quoted(the_cat.mood_of(event["took"]))
        return (
            f"{w.who(seat)} {w.verb(seat, 'tauscht', 'tauschst')} {gave} gegen {took} "
            "aus der Mitte."
        )
    if kind == "put_back":
        return f"{w.who(seat)} {w.verb(seat, 'legt', 'legst')} den Stapel verdeckt zurück."
    if kind == "stop":
        return f"{w.who(seat)} {w.verb(seat, 'ruft', 'rufst')} Stopp!"
    if kind == "give_up":
        return (
            f"{w.who(seat)} {w.verb(seat, 'stimmt', 'stimmst')} dafür, die Runde ohne Stopp "
            "zu beenden."
        )
    if kind == "round_end":
        caller = event["caller"]
        if caller is None:
            return f"Runde {event['round']} vorbei: {REASONS.get(event['reason'], '')}".strip()
        if event["caller_right"]:
            return (
                f"Runde {event['round']} vorbei: {w.who(caller)} {w.verb(caller, 'hat', 'hast')} "
                "richtig gerufen – alle Stapel fertig."
            )
        return (
            f"Runde {event['round']} vorbei: {w.who(caller)} {w.verb(caller, 'hat', 'hast')} "
            f"zu früh gerufen und {w.verb(caller, 'bekommt', 'bekommst')} 0 Punkte."
        )
    if kind == "continue":
        return f"{w.who(seat)} {w.verb(seat, 'ist', 'bist')} bereit für die nächste Runde."
    if kind == "continue_forced":
        return "Es geht ohne weitere Bestätigung weiter."
    if kind == "leave":
        return (
            f"{w.who(seat)} {w.verb(seat, 'verlässt', 'verlässt')} den Raum und "
            f"{w.verb(seat, 'scheidet', 'scheidest')} aus."
        )
    if kind == "game_over":
        return "Partie vorbei: " + _winners_sentence(event["winners"], event["points"], w)
    return event.get("text", "")  # room events (a new host) bring their own sentence


def _winners_sentence(winners: list[int], totals: list[int], w: Words) -> str:
    if not winners:
        return "Niemand gewinnt."
    best = points(totals[winners[0]], dative=True)
    if len(winners) == 1:
        return f"{w.who(winners[0])} {w.verb(winners[0], 'gewinnt', 'gewinnst')} mit {best}."
    names = w.many(winners)
    verb = "gewinnt" if w.me in winners else "gewinnen"
    return f"{names} {verb} gemeinsam mit je {best}."


# Events of others that change nothing the viewer sees in the middle stay out of the
# live news (they are in the log): four players picking stacks up would drown the rest.
QUIET = {"take", "put_back", "continue"}


# --- The table -------------------------------------------------------------------


def present(view: dict, **around) -> TableContext:
    """The table for the seat ``view["seat"]`` (None: a spectator); ``around``: see
    ``Viewer`` (``remaining``: seconds until the room moves on from the reveal).
    What is new since the client's version is news, and the middle cards it
    changed get a short highlight."""
    viewer = Viewer(view, **around)
    me, words, bots, you = viewer.me, viewer.words, viewer.bots, viewer.you
    names = view["names"]
    phase = view["phase"]
    legal = view["legal_actions"]
    kinds = {action["type"] for action in legal}
    fresh = viewer.fresh
    # The middle slots someone swapped since the client's last picture (not the
    # viewer's own swap: they just clicked it) and the hand card the viewer got.
    changed_slots = {
        e["event"]["slot"]
        for e in fresh
        if e["event"].get("type") == "swap" and e["event"]["seat"] != me
    }
    if any(e["event"].get("type") == "deal" for e in fresh):
        changed_slots = set()  # a new deal is new everywhere; no highlight
    got = {
        e["event"]["took"]
        for e in fresh
        if e["event"].get("type") == "swap" and e["event"]["seat"] == me
    }
    playing = phase == the_cat.PLAY
    # Only a viewer who may swap can lose a race for a middle card (table.js asks then).
    taken = _taken(viewer.log, me, names) if playing and "swap" in kinds else []
    held = view["held"]
    my_info = view["seats"][me] if me is not None else None
    in_round = bool(my_info and my_info["in_round"] and not my_info["left"])

    middle = [
        card(c, slot=slot, changed=slot in changed_slots) for slot, c in enumerate(view["middle"])
    ]
    hand = [card(c, new=c in got) for c in view["hand"]] if view["hand"] else None
    stacks = [
        {
            "index": i,
            "number": i + 1,
            "held": i == held,
            "value": f"take:{i}",
        }
        for i in range(view["my_stacks"] if in_round else 0)
    ]

    seats = []
    for info in view["seats"]:
        s = info["seat"]
        if info["left"]:
            status = "hat den Raum verlassen"
        elif phase == the_cat.REVEAL:
            status = "bereit" if info["ready"] else "schaut die Auflösung an"
        elif playing and not info["in_round"]:
            status = "setzt diese Runde aus"
        elif playing and info["holding"]:
            status = "hält einen Stapel"
        elif playing:
            status = "schaut in die Mitte"
        else:
            status = ""
        seats.append(
            {
                **viewer.seat(s),
                "is_dealer": s == view["dealer"] and playing,
                "holding": playing and info["holding"],
                "stacks": range(info["stacks"] if playing else 0),
                "stack_count": info["stacks"],
                "points": info["points"],
                "points_text": points(info["points"]),
                "status": status,
                "gave_up": playing and info["gave_up"],
                "left": info["left"],
            }
        )
    opponents = viewer.opponents(seats)

    actions = {
        "take": "take" in kinds,
        "swap": "swap" in kinds,
        "put_back": "put_back" in kinds,
        "stop": "stop" in kinds,
        "give_up": "give_up" in kinds,
        "continue": "continue" in kinds,
    }

    def worded(event: dict) -> str:
        return describe(event, me, names)

    def announced(event: dict) -> bool:
        return event.get("type") not in QUIET or event.get("seat") == me

    return TableContext(
        {
            "phase": phase,
            "round": view["round"],
            "target": view["target"],
            "players": len(names),
            "spectator": me is None,
            "in_round": in_round,
            "middle": middle,
            "taken": taken,
            "hand": hand,
            "held": held,
            "held_number": held + 1 if held is not None else None,
            "stacks": stacks,
            "seats": seats,
            "me": seats[me] if me is not None else None,
            "opponents": opponents,
            "actions": actions,
            "gave_up": view["gave_up"],
            "give_up_waiting": _give_up_waiting(view, me, bots, words),
            "countdown": _countdown(viewer),
            "status": _status(view, me, words, held),
            "reveal": reveal(view, me, you, words) if view["round_result"] else None,
            "sheet": viewer.score_sheet(_sheet_cell, list(view["scores"])),
            "outcome": _outcome(view, viewer),
            "two_players": playing and sum(1 for s in view["seats"] if s["in_round"]) == 2,
            # Only a set the host chose is in the view during play; chance stays secret.
            "removed": [mood_name(m) for m in view["removed"] or []] if playing else [],
            "log": viewer.log_lines(worded, LOG_LENGTH),
            "news": viewer.news(worded, NEWS_LENGTH, announced),
            "attention": actions["continue"],
            "finished": phase == the_cat.OVER,
        }
    )


def _taken(log: list[dict], me: int, names: list[str]) -> list[dict]:
    """Who took which middle card this round (others' swaps from the public log), the
    latest first (the last eight): a click that lost the race for a card says at the card who was
    quicker („Zu spät – Lena war schneller“, ``table.js``)."""
    taken: list[dict] = []
    for entry in log:
        event = entry["event"]
        if event.get("type") == "deal":
            taken = []
        elif event.get("type") == "swap" and event["seat"] != me:
            # What the log says anyway (who took which mood), plus the slot; no card id
            # of a card now in someone's stack.
            taken.append(
                {
                    "mood": the_cat.mood_of(event["took"]),
                    "slot": event["slot"],
                    "by": names[event["seat"]],
                }
            )
    return list(reversed(taken[-8:]))


def _countdown(viewer: Viewer) -> dict | None:
    """The engine's round clock in play, the site's timer in the reveal; both
    without a bar (no ``total``): the cushion shows the time only."""
    view = viewer.view
    if view["phase"] == the_cat.PLAY and view["deadline"] is not None:
        now = viewer.now if viewer.now is not None else clock.now().timestamp()
        seconds = math.ceil(view["deadline"] - now)
        return timer(seconds, None, "Rundenzeit", False)
    if view["phase"] == the_cat.REVEAL:
        return viewer.wait_timer(None, "Nächste Runde in")
    return None


def _give_up_waiting(view: dict, me: int | None, bots: set[int], words: Words) -> str:
    """Who still has to agree before a round nobody calls ends (bots always agree)."""
    if view["phase"] != the_cat.PLAY or me is None or not view["gave_up"]:
        return ""
    missing = [
        words.who(s["seat"])
        for s in view["seats"]
        if s["in_round"]
        and not s["left"]
        and not s["gave_up"]
        and s["seat"] not in bots
        and not s["bot"]
    ]
    return join_names(missing)


def _status(view: dict, me: int | None, words: Words, held: int | None) -> str:
    phase = view["phase"]
    if phase == the_cat.OVER:
        return "Die Partie ist vorbei."
    if phase == the_cat.REVEAL:
        result = view["round_result"]
        if me is not None and me in view["to_act"]:
            return (
                f"Runde {result['round']} ist vorbei. Sieh dir die Auflösung an und klicke auf "
                "„Weiter“."
            )
        return f"Runde {result['round']} ist vorbei. Gleich wird neu gegeben."
    if me is None:
        return "Alle spielen gleichzeitig – du schaust zu."
    info = view["seats"][me]
    if info["left"]:
        return "Du hast den Raum verlassen."
    if not info["in_round"]:
        return "Du spielst in dieser Runde nicht mit."
    if held is not None:
        return (
            f"Du hältst deinen Stapel {held + 1}: Wähle eine Handkarte, dann eine Karte aus "
            "der Mitte – oder leg den Stapel zurück."
        )
    return (
        "Tippe auf einen deiner Stapel, um ihn aufzunehmen. Sind alle Stapel fertig, ruf „Stopp!“."
    )


def reveal(view: dict, me: int | None, you: str, words: Words) -> dict:
    result = view["round_result"]
    caller = result["caller"]
    rows = []
    for row in result["rows"]:
        s = row["seat"]
        if not row["in_round"]:
            continue
        stacks = [
            {
                "cards": [card(c) for c in stack["cards"]],
                "finished": stack["finished"],
                "mark": f"✓ {mood_name(stack['mood'])}" if stack["finished"] else "✗ nicht fertig",
                "label": (
                    f"Stapel {i + 1}: "
                    + ", ".join(mood_name(the_cat.mood_of(c)) for c in stack["cards"])
                    + (" – fertig" if stack["finished"] else " – nicht fertig")
                ),
            }
            for i, stack in enumerate(row["stacks"])
        ]
        finished = row["finished"]
        if row["caller"] and result["caller_right"]:
            calc = f"{finished} Stapel + 1 Bonus = {points(row['points'])}"
        elif row["caller"]:
            calc = f"Stopp zu früh: {points(0)}" + (f" (statt {finished})" if finished else "")
        else:
            calc = (
                f"{finished} fertige{'r' if finished == 1 else ''} Stapel = {points(row['points'])}"
            )
        rows.append(
            {
                "name": you if s == me else view["names"][s],
                "is_me": s == me,
                "caller": row["caller"],
                "stacks": stacks,
                "finished": finished,
                "points": row["points"],
                "calc": calc,
                "total": row["total"],
                "ready": view["seats"][s]["ready"],
                "left": view["seats"][s]["left"],
            }
        )
    if caller is None:
        headline = REASONS.get(result["reason"], "")
    elif result["caller_right"]:
        headline = (
            f"{words.who(caller)} {words.verb(caller, 'hat', 'hast')} Stopp gerufen – zu Recht: "
            "alle Stapel fertig, dafür gibt es einen Bonuspunkt."
        )
    else:
        headline = (
            f"{words.who(caller)} {words.verb(caller, 'hat', 'hast')} Stopp gerufen, aber nicht "
            f"alle Stapel waren fertig – {'du bekommst' if caller == me else 'dafür gibt es'} "
            "0 Punkte in dieser Runde."
        )
    waiting = [you if s == me else view["names"][s] for s in view["to_act"]]
    return {
        "round": result["round"],
        "headline": headline,
        "rows": rows,
        "middle": [card(c) for c in result["middle"]],
        "removed": [mood_name(m) for m in result["removed"] or []],
        "waiting": join_names(waiting),
    }


def _sheet_cell(value: int | None) -> str:
    return "–" if value is None else f"+{value}" if value else "0"


def _outcome(view: dict, viewer: Viewer) -> dict | None:
    result = view["outcome"]
    if result is None:
        return None
    totals = result["points"]
    order = sorted(range(len(totals)), key=lambda s: (-totals[s], s))  # most points first
    standings = []
    for s, place in places(order, totals):
        left = view["seats"][s]["left"]
        standings.append(
            {
                "place": None if left else place,
                **viewer.who(s),
                "points": totals[s],
                "points_text": points(totals[s]),
                "winner": s in result["winners"],
                "left": left,
            }
        )
    summary = _winners_sentence(result["winners"], totals, viewer.words)
    if result["reason"] == "abandoned":
        summary = "Es sind zu wenige Spieler übrig. " + summary
    return {"standings": standings, "summary": summary, "won": viewer.me in result["winners"]}


# --- The coach: tips and „Warum?“ (games.play.coach) --------------------------------


def move_text(action: dict, view: dict) -> str:
    """The tip's move for the viewer („Tausche „grimmig“ gegen „stolz“ aus der Mitte.“)."""
    kind = action.get("type")
    if kind == "take":
        return f"Nimm deinen Stapel {action['stack'] + 1} auf."
    if kind == "swap":
        give, want = the_cat.mood_of(action["give"]), the_cat.mood_of(action["want"])
        return f"Tausche {quoted(give)} aus deiner Hand gegen {quoted(want)} aus der Mitte."
    if kind == "put_back":
        return "Leg den Stapel verdeckt zurück."
    if kind == "stop":
        return "Ruf „Stopp!“."
    if kind == "continue":
        return "Weiter zur nächsten Runde."
    if kind == "wait":
        return "Halte deinen Stapel und behalte die Mitte im Blick."
    return ""


# Another seat's reason in words that name nothing about its stacks (finished or not,
# what fits): only what everyone saw and the rule of thumb behind the move.
OTHERS = {
    "ready": "Die Runde ist aufgelöst – bereit für die nächste.",
    "stop": (
        "Wer „Stopp!“ ruft, meint: Alle eigenen Stapel sind fertig. Ob das stimmt, zeigt die "
        "Auflösung."
    ),
    "take": "Ein Stapel nach dem anderen: Wer einen zurücklegt, nimmt sich den nächsten vor.",
    "swap": (
        "Getauscht wird, was den eigenen Stapeln am ehesten hilft – manchmal auch nur, damit "
        "wieder Bewegung in die Mitte kommt."
    ),
    "put_back": (
        "Zurückgelegt wird ein Stapel, wenn er fertig ist oder ihm gerade nichts aus der Mitte "
        "hilft."
    ),
    "watch": "Den Stapel halten und die Mitte beobachten, bis eine passende Karte kommt.",
}
OTHER_CODES = {
    "call_stop": "stop",
    "bluff_stop": "stop",
    "look_at_stack": "take",
    "go_for_mood": "take",
    "next_stack": "take",
    "collect_mood": "swap",
    "finish_stack": "swap",
    "pass_on": "swap",
    "stir_middle": "swap",
    "stack_done": "put_back",
    "switch_stack": "put_back",
    "nothing_fits": "put_back",
    "watch_middle": "watch",
}


# The viewer's own reasons (a tip) whose words do not depend on the move.
OWN = {
    "ready": OTHERS["ready"],
    "call_stop": (
        "Alle deine Stapel sind fertig: je vier Karten einer Laune. Wer richtig ruft, "
        "bekommt einen Punkt extra."
    ),
    "bluff_stop": "Die Schummelkatze ruft manchmal zu früh – liegt sie falsch, bekommt sie 0 Punkte.",
    "look_at_stack": (
        "Diesen Stapel hast du in dieser Runde noch nicht angesehen – erst wissen, was drin ist."
    ),
    "next_stack": "Der nächste Stapel, der noch nicht fertig ist, kommt dran.",
    "stack_done": "Der Stapel ist fertig – zurücklegen und am nächsten arbeiten.",
    "stir_middle": (
        "Länger ging nichts voran: Ein Tausch ohne direkten Gewinn bringt eine andere "
        "Laune in die Mitte und löst so einen Stau."
    ),
    "nothing_fits": "Nichts in der Mitte hilft diesem Stapel – zurücklegen und einen anderen versuchen.",
}
# … and those that name the mood the move is about („{mood}“).
OWN_WITH_MOOD = {
    "go_for_mood": "In der Mitte liegt {mood} – genau die Laune, die du auf diesem Stapel sammelst.",
    "finish_stack": "Mit dieser Karte hat der Stapel viermal {mood} – fertig.",
    "pass_on": (
        "{mood} sammelst du auf einem anderen Stapel: Leg die Karte in die Mitte und hol sie "
        "dort mit dem anderen Stapel."
    ),
    "switch_stack": "In der Mitte liegt {mood} für einen anderen deiner Stapel – leg diesen zurück.",
    "watch_middle": "Halte den Stapel und behalte die Mitte im Blick: Vielleicht kommt gleich {mood}.",
}


def reason_text(reason: dict, view: dict) -> str:
    """A bot's reason in words (codes of ``games.engines.the_cat.bots``). The viewer's
    own reason (a tip) may name its stacks and moods; another seat's only ``OTHERS``.
    A code this presenter does not know gets the coach's general sentence ("")."""
    code = reason.get("code")
    if reason.get("seat") != view.get("seat"):
        return OTHERS.get(OTHER_CODES.get(code, code), "")
    mood = quoted(reason["mood"]) if reason.get("mood") else "deine Laune"
    if code == "collect_mood":
        count = reason.get("count")
        have = f" Danach hast du {count} davon." if count else ""
        return (
            f"Auf diesem Stapel sammelst du {mood}: Tausch eine Karte, die du nicht brauchst.{have}"
        )
    if code in OWN_WITH_MOOD:
        text = OWN_WITH_MOOD[code].format(mood=mood)
        return text[0].upper() + text[1:]
    return OWN.get(code, "")


def event_text(event: dict, view: dict) -> str:
    return describe(event, view.get("seat"), view["names"])
