"""Alpaka at a table (online room or in-page demo): how a seat's view is shown.

``present`` turns ``alpaka.view(state, seat)`` – and nothing else – into the
context of ``rooms/alpaka/table.html``, the table shared by rooms and the
in-page demo. ``describe`` words the engine's events from the viewer's
perspective („Du legst eine 4.“, „Anna legt eine 4.“).
"""

from __future__ import annotations

from games.engines import alpaka
from games.engines.alpaka import texts
from games.engines.alpaka.rules import VALUES
from games.play.definition import TableContext
from games.play.seating import Viewer, places
from games.play.wording import Words, join_names

TURN_SECONDS = 90  # seed 001: „Wer länger als 90 Sekunden nicht reagiert, steigt automatisch aus.“
SCORING_SECONDS = 45  # seed 001: „Nach 45 Sekunden geht es auch ohne Bestätigung weiter.“
LOG_LENGTH = 8
NEWS_LENGTH = 4

VARIANT_LABELS = {alpaka.CLASSIC: "Klassisch", alpaka.ENGLERT: "Englert-Zusatzregel"}
CARD_NAMES = {"A": "Alpaka"}


def timer_seconds(state: dict) -> int | None:
    if state["phase"] == alpaka.SCORING:
        return SCORING_SECONDS
    if state["phase"] == alpaka.PLAY:
        return TURN_SECONDS
    return None


def parse_action(data) -> dict | None:
    """Form field ``aktion``: ``play:<card>``, ``draw``, ``quit`` or ``continue``."""
    raw = str(data.get("aktion", "")).strip()
    if raw in ("draw", "quit", "continue"):
        return {"type": raw}
    kind, _, card = raw.partition(":")
    if kind == "play" and card in alpaka.CARDS:
        return {"type": "play", "card": card}
    return None


def opening_events(state: dict) -> list[dict]:
    """``new_game`` deals round 1 without returning events; the log starts with it."""
    event = {
        "type": "deal",
        "round": state["round"],
        "dealer": state["dealer"],
        "seat": state["turn"],
        "card": state["discard"][-1],
    }
    return [event]


# --- Cards and chips ---------------------------------------------------------


def card(code: str) -> dict:
    return {
        "code": code,
        "label": CARD_NAMES.get(code, code),
        "value": VALUES[code],
        "css": "a" if code == "A" else code,
        "is_alpaka": code == "A",
    }


def chips(counts: dict) -> dict:
    black, white = counts["black"], counts["white"]
    parts = []
    if black:
        parts.append("1 schwarzer" if black == 1 else f"{black} schwarze")
    if white:
        parts.append("1 weißer" if white == 1 else f"{white} weiße")
    return {
        "black": range(black),
        "white": range(white),
        "points": 10 * black + white,
        "label": (" und ".join(parts) + (" Chip" if black + white == 1 else " Chips"))
        if parts
        else "keine Chips",
    }


def _hand_groups(hand: list[str], playable: set[str]) -> list[dict]:
    groups: list[dict] = []
    for code in hand:  # the engine keeps hands sorted
        if groups and groups[-1]["code"] == code:
            groups[-1]["count"] += 1
            groups[-1]["copies"] = range(groups[-1]["count"])
            continue
        groups.append({**card(code), "count": 1, "copies": range(1), "playable": code in playable})
    return groups


# --- Words from the viewer's perspective ---------------------------------------


def describe(
    event: dict,
    me: int | None,
    names: list[str],
    target: int | None = None,
    *,
    chips_paid: bool = False,
) -> str:
    """One event as a sentence for the seat ``me`` (None: a spectator).

    ``chips_paid``: name the chips a payment takes (the worked examples do).
    """
    w = Words(names, me)
    kind = event.get("type")
    seat = event.get("seat")
    if kind == "deal":
        dealer = event["dealer"]
        return (
            f"Runde {event['round']}: {w.who(dealer)} {w.verb(dealer, 'gibt', 'gibst')}, "
            f"offen liegt {texts.card_a(event['card'])}. "
            f"{w.who(seat)} {w.verb(seat, 'beginnt', 'beginnst')}."
        )
    if kind == "play":
        return f"{w.who(seat)} {w.verb(seat, 'legt', 'legst')} {texts.card_a(event['card'])}."
    if kind == "draw":
        return f"{w.who(seat)} {w.verb(seat, 'zieht', 'ziehst')} eine Karte."
    if kind == "quit":
        if event.get("automatic"):
            return (
                f"{w.who(seat)} {w.verb(seat, 'hat', 'hast')} zu lange nicht reagiert und "
                f"{w.verb(seat, 'steigt', 'steigst')} automatisch aus."
            )
        return f"{w.who(seat)} {w.verb(seat, 'steigt', 'steigst')} aus."
    if kind == "round_end":
        if event["reason"] == "empty_hand":
            return f"Runde vorbei: {w.who(seat)} {w.verb(seat, 'hat', 'hast')} keine Karten mehr."
        if event["reason"] == "stuck":
            at = "dir" if seat == me else names[seat]
            return f"Runde vorbei: Bei {at} passt keine Karte mehr."
        return "Runde vorbei: Alle sind ausgestiegen."
    if kind == "score":
        if not event["points"]:
            return f"{w.who(seat)} {w.verb(seat, 'zahlt', 'zahlst')} nichts."
        text = (
            f"{w.who(seat)} {w.verb(seat, 'bekommt', 'bekommst')} {texts.points(event['points'])}"
        )
        if chips_paid:
            paid = {"black": event["points"] // 10, "white": event["points"] % 10}
            text += f" ({texts.chips_accusative(paid)})"
        if event.get("swapped"):
            text += (
                f" und {w.verb(seat, 'tauscht', 'tauschst')} zehn weiße Chips gegen einen schwarzen"
            )
        return text + "."
    if kind == "chip_return":
        if event["chip"] == "white":
            return f"{w.who(seat)} {w.verb(seat, 'gibt', 'gibst')} einen weißen Chip zurück."
        if event["chip"] == "black":
            return (
                f"{w.who(seat)} {w.verb(seat, 'gibt', 'gibst')} einen schwarzen Chip zurück und "
                f"{w.verb(seat, 'bekommt', 'bekommst')} neun weiße als Wechselgeld."
            )
        return (
            f"{w.who(seat)} {w.verb(seat, 'hat', 'hast')} keine Chips und "
            f"{w.verb(seat, 'gibt', 'gibst')} nichts zurück."
        )
    if kind == "continue":
        return f"{w.who(seat)} {w.verb(seat, 'ist', 'bist')} bereit für die nächste Runde."
    if kind == "leave":
        return (
            f"{w.who(seat)} {w.verb(seat, 'verlässt', 'verlässt')} den Raum und "
            f"{w.verb(seat, 'scheidet', 'scheidest')} aus."
        )
    if kind == "continue_forced":
        return "Es geht ohne weitere Bestätigung weiter."
    if kind == "game_over":
        return "Partie vorbei: " + _game_over_sentence(event, w, target)
    return event.get("text", "")  # room events (a new host) bring their own sentence


def _game_over_sentence(event: dict, w: Words, target: int | None) -> str:
    points = event["points"]
    if event["reason"] == "target" and target is not None:
        reached = [s for s, total in enumerate(points) if total >= target]
        if len(reached) == 1:
            verb = w.verb(reached[0], "hat", "hast")
        else:
            verb = "habt" if w.me in reached else "haben"
        why = f"{w.many(reached)} {verb} das Ziel von {texts.points(target, dative=True)} erreicht."
    elif event["reason"] == "abandoned":
        why = "Es sind zu wenige Spieler übrig."
    else:
        why = ""
    return f"{why} {_winners_sentence(event['winners'], points, w)}".strip()


def _winners_sentence(winners: list[int], points: list[int], w: Words) -> str:
    if not winners:
        return "Niemand gewinnt."
    best = points[winners[0]]
    score = texts.points(best, dative=True)
    if len(winners) == 1:
        return f"{w.who(winners[0])} {w.verb(winners[0], 'gewinnt', 'gewinnst')} mit {score}."
    return f"{w.many(winners)} {'gewinnt' if w.me in winners else 'gewinnen'} gemeinsam mit je {score}."


# --- The table -------------------------------------------------------------------


def _draw_reason(view: dict, my_turn: bool) -> str:
    if not my_turn:
        return ""
    if not view["draw_size"]:
        return "Der Nachziehstapel ist leer."
    return "Alle anderen sind ausgestiegen – ziehen darfst du nicht mehr."


def _timed_out(events: list[dict], me: int | None) -> bool:
    """Whether the viewer's quit in the running round was the 90-second rule."""
    for event in reversed(events):
        if event.get("type") == "deal":
            return False
        if event.get("type") == "quit" and event.get("seat") == me:
            return bool(event.get("automatic"))
    return False


TIMED_OUT = (
    f"Du bist automatisch ausgestiegen, weil du {TURN_SECONDS} Sekunden nicht reagiert hast."
)


def _waiting_reason(view: dict, me: int, words: Words, events: list[dict] = ()) -> str:
    if view["phase"] != alpaka.PLAY:
        return "Die Runde ist vorbei."
    mine = view["seats"][me]
    if mine["left"]:
        return "Du hast den Raum verlassen."
    if mine["quit"]:
        if _timed_out(events, me):
            return TIMED_OUT + " In der nächsten Runde bist du wieder dabei."
        return "Du bist in dieser Runde ausgestiegen."
    return f"{words.who(view['turn'])} ist am Zug."


def present(view: dict, **around) -> TableContext:
    """The table for the seat ``view["seat"]`` (None: a spectator); ``around``:
    see ``Viewer`` (``remaining``: seconds left for the pending human decision)."""
    viewer = Viewer(view, **around)
    me, words, bots = viewer.me, viewer.words, viewer.bots
    events = viewer.events
    names = view["names"]
    phase = view["phase"]
    turn = view["turn"]
    legal = view["legal_actions"]
    playable = {action["card"] for action in legal if action["type"] == "play"}
    my_turn = me is not None and phase == alpaka.PLAY and turn == me

    seats = []
    for info in view["seats"]:
        s = info["seat"]
        status = "hat verlassen" if info["left"] else viewer.turn_status(info)
        if not status and phase == alpaka.PLAY and info["quit"]:
            status = "ausgestiegen"
        seats.append(
            {
                **viewer.seat(s),
                "is_dealer": s == view["dealer"] and phase == alpaka.PLAY,
                "active": phase == alpaka.PLAY and s == turn,
                "quit": info["quit"] and phase == alpaka.PLAY,
                "left": info["left"],
                "confirmed": info["confirmed"],
                "hand_size": info["hand_size"],
                "backs": range(min(info["hand_size"], 10)),
                "chips": chips(info["chips"]),
                "points": info["points"],
                "status": status,
            }
        )
    opponents = viewer.opponents(seats)

    hand = view["hand"]
    mine = None
    if me is not None:
        mine = {
            **seats[me],
            "groups": _hand_groups(hand, playable if my_turn else set()),
            "hand_score": alpaka.hand_score(hand),
            "can_play": bool(playable) and my_turn,
        }

    draw_allowed = any(action["type"] == "draw" for action in legal)
    quit_allowed = any(action["type"] == "quit" for action in legal)
    actions = {
        "draw": {
            "allowed": draw_allowed,
            "reason": "" if draw_allowed else _draw_reason(view, my_turn),
        },
        "quit": {"allowed": quit_allowed, "reason": ""},
        "continue": any(action["type"] == "continue" for action in legal),
    }
    if me is not None and not my_turn and phase == alpaka.PLAY:
        actions["draw"]["reason"] = actions["quit"]["reason"] = _waiting_reason(
            view, me, words, events
        )

    countdown = viewer.timer_in_turns(TURN_SECONDS, SCORING_SECONDS, "Nächste Runde in")

    def worded(event: dict) -> str:
        return describe(event, me, names, view["target"])

    return TableContext(
        {
            "phase": phase,
            "round": view["round"],
            "variant": view["variant"],
            "variant_label": VARIANT_LABELS[view["variant"]],
            "englert": view["variant"] == alpaka.ENGLERT,
            "target": view["target"],
            "me": mine,
            "seats": seats,
            "opponents": opponents,
            "spectator": me is None,
            "my_turn": my_turn,
            "turn_name": words.who(turn) if turn is not None else "",
            "bot_thinking": phase == alpaka.PLAY and turn in bots,
            "discard_top": card(view["discard_top"]) if view["discard_top"] else None,
            "discard_size": view["discard_size"],
            "draw_size": view["draw_size"],
            "actions": actions,
            "countdown": countdown,
            "status": _status(view, me, words, my_turn, bool(playable), bots, events),
            "score": _score(view, viewer) if view["round_result"] else None,
            "sheet": viewer.score_sheet(_sheet_cell, [seat["points"] for seat in view["seats"]]),
            "outcome": _outcome(view, viewer),
            "log": viewer.log_lines(worded, LOG_LENGTH),
            "news": viewer.news(worded, NEWS_LENGTH),
            "attention": my_turn or actions["continue"],
            "finished": phase == alpaka.OVER,
        }
    )


def _status(view, me, words, my_turn, can_play, bots, events=()) -> str:
    phase = view["phase"]
    if phase == alpaka.OVER:
        return "Die Partie ist vorbei."
    if phase == alpaka.SCORING:
        if me is not None and me in view["to_act"]:
            return f"Runde {view['round']} ist gewertet. Sieh dir die Wertung an und klicke auf „Weiter“."
        return f"Runde {view['round']} ist gewertet. Gleich geht es weiter."
    if my_turn:
        may_draw = any(action["type"] == "draw" for action in view["legal_actions"])
        if can_play and may_draw:
            return "Du bist am Zug: Lege ab, ziehe oder steige aus."
        if can_play:
            return "Du bist am Zug: Lege ab oder steige aus."
        if may_draw:
            return "Du bist am Zug. Nichts passt – ziehe oder steige aus."
        return "Du bist am Zug. Nichts passt – du kannst nur aussteigen."
    turn = view["turn"]
    if me is not None and view["seats"][me]["quit"]:
        why = TIMED_OUT if _timed_out(events, me) else "Du bist ausgestiegen."
        return f"{why} {words.who(turn)} ist am Zug."
    if turn in bots:
        return f"{words.who(turn)} überlegt …"
    return f"{words.who(turn)} ist am Zug."


def _score(view: dict, viewer: Viewer) -> dict:
    me, words = viewer.me, viewer.words
    result = view["round_result"]
    rows = []
    for row in result["rows"]:
        s = row["seat"]
        if not row["in_round"]:
            continue
        if row["returned"] == "white":
            effect = "gibt einen weißen Chip zurück (−1)"
        elif row["returned"] == "black":
            effect = "gibt einen schwarzen Chip gegen neun weiße zurück (−1)"
        elif not row["hand"]:
            effect = "kein Chip zum Zurückgeben"
        elif row["points"]:
            effect = f"+{row['points']}"
        else:
            effect = "zahlt nichts"
        rows.append(
            {
                **viewer.who(s),
                "hand": [card(code) for code in row["hand"]],
                "hand_text": "Handkarten: "
                + (", ".join(CARD_NAMES.get(code, code) for code in row["hand"]) or "keine"),
                "hand_score": row["hand_score"],
                "distinct": " + ".join(
                    str(VALUES[code]) for code in sorted(set(row["hand"]), key=alpaka.CARDS.index)
                ),
                "points": row["points"],
                "effect": effect,
                "pays": row["points"] > 0,
                "chips": chips(row["chips"]),
                "total": row["total"],
                "confirmed": view["seats"][s]["confirmed"],
                "left": view["seats"][s]["left"],
            }
        )
    seat = result["seat"]
    if result["reason"] == "empty_hand":
        reason = f"{words.who(seat)} {words.verb(seat, 'hat', 'hast')} die letzte Karte abgelegt."
    elif result["reason"] == "stuck":
        reason = f"Bei {'dir' if seat == me else view['names'][seat]} passte keine Karte mehr."
    else:
        reason = "Alle sind ausgestiegen."
    return {
        "round": result["round"],
        "reason": reason,
        "rows": rows,
        "waiting": join_names(viewer.waiting()),
        "englert": view["variant"] == alpaka.ENGLERT,
    }


def _sheet_cell(value: int | None) -> str:
    if value is None:
        return "–"
    if value > 0:
        return f"+{value}"
    return "−1" if value < 0 else "0"


def _outcome(view: dict, viewer: Viewer) -> dict | None:
    result = view["outcome"]
    if result is None:
        return None
    me = viewer.me
    totals = result["points"]
    remaining = [s for s in range(len(totals)) if not view["seats"][s]["left"]]
    order = sorted(remaining, key=lambda s: (totals[s], s))  # fewest points first
    standings = []
    for s, place in places(order, totals):
        standings.append(
            {
                "place": place,
                **viewer.who(s),
                "points": totals[s],
                "chips": chips(view["seats"][s]["chips"]),
                "winner": s in result["winners"],
            }
        )
    for s in range(len(totals)):
        if view["seats"][s]["left"]:
            standings.append(
                {
                    "place": None,
                    "name": view["names"][s],
                    "is_me": s == me,
                    "points": totals[s],
                    "chips": chips(view["seats"][s]["chips"]),
                    "winner": False,
                    "left": True,
                }
            )
    over = next((e for e in reversed(viewer.events) if e.get("type") == "game_over"), None)
    summary = (
        describe(over, me, view["names"], view["target"]).removeprefix("Partie vorbei: ")
        if over
        else _winners_sentence(result["winners"], totals, viewer.words)
    )
    return {
        "standings": standings,
        "summary": summary,
        "won": me in result["winners"],
        "abandoned": result["reason"] == "abandoned",
    }


# --- The coach: tips and „Warum?“ (games.play.coach) --------------------------------


def move_text(action: dict, view: dict) -> str:
    """The tip's move for the viewer („Leg eine 5.“)."""
    kind = action.get("type")
    if kind == "play":
        return f"Leg {texts.card_a(action['card'])}."
    if kind == "draw":
        return "Zieh eine Karte."
    if kind == "quit":
        return "Steig aus."
    if kind == "continue":
        return "Bestätige die Wertung mit „Weiter“."
    return ""


def _minus(score: int) -> str:
    return texts.points(score)


def _decimal(value: float) -> str:
    return f"{value:.1f}".replace(".", ",")


# Another seat's reason in words that name nothing about its hand (what fits, what it
# costs): only the rule of thumb the bot follows and what lies open on the table.
OTHERS = {
    "confirm": "Die Runde ist gewertet – mit „Weiter“ geht es zur nächsten.",
    "play": (
        "Eine passende Karte zu legen kostet nie etwas: Die Hand wird kleiner, und aussteigen "
        "kann man im nächsten Zug immer noch."
    ),
    "draw": (
        "Ziehen statt aussteigen: Die anderen haben noch einige Karten, es bleibt also Zeit, "
        "die gezogene Karte wieder loszuwerden."
    ),
    "quit": (
        "Aussteigen statt ziehen: Der Bot schätzt, dass eine weitere Karte ihn mehr kosten "
        "würde, als er bis zum Ende der Runde noch ablegen kann."
    ),
    "quit_safe": (
        "Mit der Englert-Regel zahlt nur die teuerste Hand – wer nicht damit rechnet, sie zu "
        "haben, steigt früh aus."
    ),
    "quit_no_draw": "Der Nachziehstapel ist leer – ziehen geht nicht mehr.",
    "quit_alone": "Alle anderen sind schon ausgestiegen – ziehen geht nicht mehr.",
}
OTHER_CODES = {
    "play_out": "play",
    "play_only": "play",
    "play_best": "play",
    "quit_cheap": "quit",
}


def reason_text(reason: dict, view: dict) -> str:
    """A bot's reason in words. The viewer's own reason (a tip) may name the hand;
    another seat's only its rule of thumb (``OTHERS``); an unknown code: ""."""
    code = reason.get("code")
    if reason.get("seat") != view.get("seat"):
        return OTHERS.get(OTHER_CODES.get(code, code), "")
    if code == "confirm":
        return OTHERS["confirm"]
    if code == "play_out":
        return "Damit kannst du deine Hand nach und nach ganz leer spielen – das gibt einen Chip zurück."
    if code == "play_only":
        return "Nur diese Zahl passt, und legen ist besser als ziehen: Deine Hand wird kleiner."
    if code == "play_best":
        chain = reason.get("chain", 0)
        more = (
            f" Danach kannst du noch {chain} Karte{'n' if chain != 1 else ''} anschließen."
            if chain
            else ""
        )
        return "Von den passenden Karten wirst du mit dieser am meisten Minuspunkte los." + more
    if code == "draw":
        return (
            f"Nichts passt. Deine Hand kostet jetzt {_minus(reason.get('score', 0))}; die anderen "
            f"haben noch mindestens {reason.get('shortest', 0)} Karten, also bleibt Zeit, "
            "wieder Karten abzulegen."
        )
    if code == "quit_cheap":
        return (
            f"Nichts passt, und deine Hand kostet nur {_minus(reason.get('score', 0))}. Eine "
            f"gezogene Karte kostet im Schnitt etwa {_decimal(reason.get('expected', 0))} mehr – "
            "aussteigen ist hier billiger."
        )
    if code == "quit_safe":
        return (
            "Mit der Englert-Regel zahlt nur die teuerste Hand – deine ist vermutlich billiger "
            "als die der anderen."
        )
    if code == "quit_no_draw":
        return "Nichts passt, und ziehen geht nicht mehr – also aussteigen."
    if code == "quit_alone":
        return OTHERS["quit_alone"]
    return ""


def event_text(event: dict, view: dict) -> str:
    return describe(event, view.get("seat"), view["names"])
