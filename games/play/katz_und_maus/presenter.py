"""Katz und Maus at a table (online room or in-page demo): how a seat's view is shown.

``present`` turns ``katz_und_maus.view(state, seat)`` – and nothing else – into
the context of ``play/katz_und_maus/table.html``. ``describe`` words the
engine's events for the viewer („Paco legt die 7 vom Spielerstapel auf
Baustapel 2.“, „Du legst den König als 5 auf Baustapel 1.“).

Moving a card is two steps: choose a source (stock top, a hand card, the top of
an own Ablagestapel), then a target. Every target button is one whole legal
move taken from ``view["legal_actions"]`` (form field ``zug``, e.g.
``"hand:7H build:2"``), so illegal targets are never offered and a move needs
no selection stored anywhere. Numbers in form values are 1-based, as shown.
"""

from __future__ import annotations

from games.engines import katz_und_maus as km
from games.play.definition import TableContext
from games.play.seating import Viewer
from games.play.wording import Words

TURN_SECONDS = 120  # a whole turn of several plays; each play starts the clock anew
SCORING_SECONDS = 45
LOG_LENGTH = 10
NEWS_LENGTH = 6

SUITS = {"C": ("♣", "Kreuz", False), "S": ("♠", "Pik", False), "H": ("♥", "Herz", True)}
SUITS["D"] = ("♦", "Karo", True)
RANK_NAMES = {"A": "Ass", "J": "Bube", "Q": "Dame", "K": "König"}
RANK_ACCUSATIVE = {"A": "das Ass", "J": "den Buben", "Q": "die Dame", "K": "den König"}
RANK_YOUR = {"A": "dein Ass", "J": "deinen Buben", "Q": "deine Dame", "K": "deinen König"}
VALUE_NAMES = {1: "Ass", 11: "Bube", 12: "Dame"}
TEAM_NAMES = ("Team A", "Team B", "Team C")
TIMEOUT_RULE = (
    f"Jede Karte, die du legst, startet die Zugzeit ({TURN_SECONDS} Sekunden) neu. Läuft sie ab, "
    "legt das Spiel deine höchste Handkarte (kein König) auf einen Ablagestapel, und dein Zug endet."
)


def timer_seconds(state: dict) -> int | None:
    if state["phase"] == km.PLAY:
        return TURN_SECONDS
    if state["phase"] == km.SCORING:
        return SCORING_SECONDS
    return None


def opening_events(state: dict) -> list[dict]:
    """``new_game`` deals without returning events; the log starts with the deal."""
    return [
        {
            "type": "deal",
            "round": state["round"],
            "dealer": state["dealer"],
            "starter": state["turn"],
            "stock_size": state["stock_size"],
        }
    ]


# --- Form data -> engine action ----------------------------------------------------------


def _number(raw, low: int = 1, high: int = 4) -> int | None:
    try:
        value = int(str(raw).strip())
    except (TypeError, ValueError):
        return None
    return value - 1 if low <= value <= high else None


def _source(raw: str) -> dict | None:
    kind, _, rest = str(raw).strip().partition(":")
    if kind == "stock" and not rest:
        return {"source": "stock"}
    if kind == "hand" and km.rules.is_card(rest):
        return {"source": "hand", "card": rest}
    if kind == "discard" and (index := _number(rest)) is not None:
        return {"source": "discard", "index": index}
    return None


def _target(raw: str) -> tuple[str, int] | None:
    kind, _, rest = str(raw).strip().partition(":")
    number = _number(rest)
    if kind in ("build", "discard") and number is not None:
        return kind, number
    return None


def parse_action(data) -> dict | None:
    """Form data -> engine action (``None``: not understood).

    - ``zug="<von> <auf>"``: one whole move from a target button, e.g.
      ``"stock build:1"``, ``"hand:7H build:2"``, ``"discard:3 build:4"``,
      ``"hand:7H discard:2"`` (lays the 7 on Ablagestapel 2 and ends the turn);
    - ``aktion=play`` with ``von`` and ``auf`` as above;
    - ``aktion=discard`` with ``karte`` (a hand card) and ``auf`` (1–4 or ``discard:<n>``);
    - ``aktion=hint`` with ``rang`` (A, 2 … 10, J, Q, K) and ``stapel`` (1–4);
    - ``aktion=end`` (kartenlos: end the turn), ``aktion=continue`` (next game).
    """
    move = str(data.get("zug", "")).split()
    if len(move) == 2:
        return _move(*move)
    kind = str(data.get("aktion", "")).strip()
    if kind in ("end", "continue"):
        return {"type": kind}
    if kind == "play":
        return _move(str(data.get("von", "")), str(data.get("auf", "")))
    if kind == "discard":
        card = str(data.get("karte", "")).strip()
        where = str(data.get("auf", "")).strip()
        pile = _number(where) if ":" not in where else _number(where.partition(":")[2])
        if km.rules.is_card(card) and pile is not None:
            return {"type": "discard", "card": card, "pile": pile}
        return None
    if kind == "hint":
        rank = str(data.get("rang", "")).strip().upper()
        pile = _number(data.get("stapel", ""))
        if rank in km.RANKS and pile is not None:
            return {"type": "hint", "rank": rank, "pile": pile}
    return None


def _move(source_raw: str, target_raw: str) -> dict | None:
    source, target = _source(source_raw), _target(target_raw)
    if source is None or target is None:
        return None
    kind, number = target
    if kind == "build":
        return {"type": "play", **source, "pile": number}
    if source["source"] != "hand":
        return None
    return {"type": "discard", "card": source["card"], "pile": number}


# --- Cards -------------------------------------------------------------------------------


def card(code: str | None) -> dict | None:
    if not code:
        return None
    rank, suit = code[:-1], code[-1]
    symbol, suit_name, red = SUITS[suit]
    return {
        "code": code,
        "rank": rank,
        "face": {"J": "B", "Q": "D", "K": "K", "A": "A"}.get(rank, rank),
        "name": RANK_NAMES.get(rank, rank),
        "symbol": symbol,
        "suit": suit_name,
        "red": red,
        "king": rank == "K",
    }


def card_acc(code: str) -> str:
    rank = code[:-1]
    return RANK_ACCUSATIVE.get(rank, f"die {rank}")


def hint_text(rank: str, pile: int) -> str:
    """„Leg deine 7 auf Baustapel 2“ (``pile`` 0-based)."""
    return f"Leg {RANK_YOUR.get(rank, f'deine {rank}')} auf Baustapel {pile + 1}"


def value_name(value: int) -> str:
    return VALUE_NAMES.get(value, str(value))


def value_accusative(value: int) -> str:
    """What a King stands for after „den König als …“: „Buben“, „Dame“, „5“."""
    return "Buben" if value == 11 else value_name(value)


def _played(code: str, value: int) -> str:
    """„die 7“, „den König als 5“."""
    if code[:-1] == "K":
        return f"den König als {value_accusative(value)}"
    return card_acc(code)


# --- Words from the viewer's perspective ---------------------------------------------------


def _points(value: int) -> str:
    return "1 Punkt" if value == 1 else f"{value} Punkte"


def _cards(value: int) -> str:
    return "1 Karte" if value == 1 else f"{value} Karten"


SOURCES = {"stock": "vom Spielerstapel", "hand": "von der Hand"}
ROUND_END = {
    "stock": "",
    "exhausted": "Der Kartenstock ist aufgebraucht – die wenigsten Karten im Spielerstapel "
    "entscheiden.",
    "stuck": "Niemand kann mehr etwas legen – die wenigsten Karten entscheiden.",
    "limit": "Nach sehr vielen Zügen entscheiden die wenigsten Karten im Spielerstapel.",
    "abandoned": "Es sind zu wenige Spieler übrig.",
}


def describe(event: dict, me: int | None, names: list[str], *, build_names: str = "") -> str:
    """One event as a sentence for the seat ``me`` (None: a spectator); "" for none.

    ``build_names``: the build piles' names when not numbered (the article's
    worked examples call them A–D)."""
    w = Words(names, me)

    def build(pile: int) -> str:
        return f"Baustapel {build_names[pile] if build_names else pile + 1}"

    kind = event.get("type")
    seat = event.get("seat")
    if kind == "deal":
        dealer, starter = event["dealer"], event["starter"]
        return (
            f"Spiel {event['round']}: {w.who(dealer)} {w.verb(dealer, 'gibt', 'gibst')} je "
            f"{event['stock_size']} Karten in die Spielerstapel, {w.who(starter, False)} "
            f"{w.verb(starter, 'beginnt', 'beginnst')}."
        )
    if kind == "draw":
        if event["reason"] == "empty_hand":
            return (
                f"{w.who(seat)} {w.verb(seat, 'hat', 'hast')} die Hand leer gespielt und "
                f"{w.verb(seat, 'zieht', 'ziehst')} {_cards(event['count'])} nach."
            )
        return f"{w.who(seat)} {w.verb(seat, 'zieht', 'ziehst')} {_cards(event['count'])} nach."
    if kind == "recycle":
        return (
            "Der Kartenstock ist leer: Die Baustapel werden gemischt und bilden einen neuen "
            f"({_cards(event['count'])})."
        )
    if kind == "play":
        source = SOURCES.get(event["source"]) or f"von Ablagestapel {event['index'] + 1}"
        text = (
            f"{w.who(seat)} {w.verb(seat, 'legt', 'legst')} {_played(event['card'], event['value'])} "
            f"{source} auf {build(event['pile'])}."
        )
        if event.get("stock_top"):
            text += f" Oben auf dem Spielerstapel liegt jetzt {card_acc(event['stock_top'])}."
        return text
    if kind == "complete":
        where = "kommt unter den Kartenstock" if event["to"] == "draw_pile" else "ist aus dem Spiel"
        return f"{build(event['pile'])} ist fertig und {where}."
    if kind == "discard":
        text = (
            f"{w.who(seat)} {w.verb(seat, 'legt', 'legst')} {card_acc(event['card'])} auf "
            f"Ablagestapel {event['pile'] + 1} – Zugende."
        )
        if event.get("forced"):
            return (
                "Die Zugzeit ist abgelaufen: " + text[0].lower() + text[1:]
                if seat == me
                else ("Die Zugzeit ist abgelaufen: " + text)
            )
        return text
    if kind == "end_turn":
        if event.get("forced"):
            return "Dein Zug endet." if seat == me else f"Der Zug von {names[seat]} endet."
        return f"{w.who(seat)} {w.verb(seat, 'beendet', 'beendest')} den Zug."
    if kind == "skip":
        return (
            f"{w.who(seat)} {w.verb(seat, 'hat', 'hast')} keinen Spielerstapel mehr, nichts passt – "
            f"{w.verb(seat, 'wird', 'wirst')} übersprungen."
        )
    if kind == "stock_empty":
        return f"{w.who(seat)} {w.verb(seat, 'hat', 'hast')} den Spielerstapel geleert!"
    if kind == "finished":
        return (
            f"{w.who(seat)} {w.verb(seat, 'ist', 'bist')} fertig und "
            f"{w.verb(seat, 'spielt', 'spielst')} kartenlos weiter, bis das Team fertig ist."
        )
    if kind == "hint":
        return (
            f"{w.who(seat)} {w.verb(seat, 'rät', 'rätst')} {w.dative(event['to'])}: "
            f"„{hint_text(event['rank'], event['pile'])}.“"
        )
    if kind == "hint_followed":
        return f"{w.who(seat)} {w.verb(seat, 'folgt', 'folgst')} dem Hinweis."
    if kind == "round_end":
        return "Spiel vorbei: " + _round_sentence(event, w)
    if kind == "continue":
        return f"{w.who(seat)} {w.verb(seat, 'ist', 'bist')} bereit für das nächste Spiel."
    if kind == "continue_forced":
        return "Es geht ohne weitere Bestätigung weiter."
    if kind == "leave":
        text = f"{w.who(seat)} {w.verb(seat, 'verlässt', 'verlässt')} den Raum."
        others = [s for s in event.get("out", []) if s != seat]
        if others:
            text += f" Damit {w.plural_verb(others, 'hört', 'hörst', 'hören', 'hört')} "
            text += f"{w.many(others)} auch auf."
        return text
    if kind == "game_over":
        if event["reason"] == "target":
            winners = event["winners"]
            verb = w.plural_verb(winners, "hat", "hast", "haben", "habt")
            return f"Partie vorbei: {w.many(winners)} {verb} 500 Punkte erreicht."
        return "Die Partie ist vorbei."
    if kind in ("turn",):
        return ""
    return event.get("text", "")  # room events (a new host) bring their own sentence


def _round_sentence(event: dict, w: Words) -> str:
    winners = event["winners"]
    reason = event["reason"]
    parts = []
    if reason == "stock":
        verb = w.plural_verb(winners, "hat", "hast", "haben", "habt")
        what = "den Spielerstapel" if len(winners) == 1 else "ihre Spielerstapel"
        if len(winners) > 1 and w.me in winners:
            what = "eure Spielerstapel"
        parts.append(f"{w.many(winners)} {verb} {what} geleert.")
    elif ROUND_END.get(reason):
        parts.append(ROUND_END[reason])
    if event["draw"]:
        parts.append("Unentschieden – niemand bekommt Punkte.")
    elif reason != "abandoned" and winners:
        gained = max(event["points"])
        verb = w.plural_verb(winners, "bekommt", "bekommst", "bekommen", "bekommt")
        parts.append(f"{w.many(winners)} {verb} {_points(gained)}.")
    return " ".join(parts)


# --- The table -----------------------------------------------------------------------------


def _discard_piles(piles: list[list[str]]) -> list[dict]:
    return [
        {
            "number": index + 1,
            "top": card(pile[-1]) if pile else None,
            "count": len(pile),
            # Face up and fanned: every card is visible, the top one last.
            "below": [card(code) for code in pile[:-1]],
            "below_text": ", ".join(RANK_NAMES.get(c[:-1], c[:-1]) for c in reversed(pile[:-1])),
        }
        for index, pile in enumerate(piles)
    ]


def _moves(view: dict) -> tuple[list[dict], dict, dict]:
    """Sources the viewer may pick now, and per build pile / own Ablagestapel the
    buttons (one legal move each) that appear once their source is chosen."""
    me = view["seats"][view["seat"]]
    hand = view["hand"] or []
    builds: dict[int, list[dict]] = {}
    discards: dict[int, list[dict]] = {}
    sources: dict[str, dict] = {}

    def source_of(action) -> tuple[str, str, str]:
        """(css key, form value, words) of the action's card."""
        if action.get("source") == "stock":
            return "stock", "stock", f"{_name(me['stock_top'])} vom Spielerstapel"
        if action.get("source") == "discard":
            index = action["index"]
            top = me["discards"][index][-1]
            return (
                f"discard-{index}",
                f"discard:{index + 1}",
                (f"{_name(top)} von Ablagestapel {index + 1}"),
            )
        code = action["card"]
        return f"hand-{hand.index(code)}", f"hand:{code}", f"{_name(code)} von der Hand"

    for action in view["legal_actions"]:
        if action["type"] not in ("play", "discard"):
            continue
        if action["type"] == "discard":
            action = {**action, "source": "hand"}
        key, value, words = source_of(action)
        sources.setdefault(key, {"key": key, "value": value, "words": words})
        if action["type"] == "play":
            pile = action["pile"]
            current = view["build"][pile]["value"]
            what = f"als {value_accusative(current + 1)} " if _is_king(action, me, hand) else ""
            builds.setdefault(pile, []).append(
                {
                    "key": key,
                    "zug": f"{value} build:{pile + 1}",
                    "label": f"{words} {what}auf Baustapel {pile + 1} legen",
                }
            )
        else:
            pile = action["pile"]
            discards.setdefault(pile, []).append(
                {
                    "key": key,
                    "zug": f"{value} discard:{pile + 1}",
                    "label": f"{words} auf Ablagestapel {pile + 1} legen und den Zug beenden",
                }
            )
    return list(sources.values()), builds, discards


def _is_king(action, me, hand) -> bool:
    if action["source"] == "stock":
        code = me["stock_top"]
    elif action["source"] == "discard":
        code = me["discards"][action["index"]][-1]
    else:
        code = action["card"]
    return code[:-1] == "K"


def _name(code: str) -> str:
    return RANK_NAMES.get(code[:-1], code[:-1])


def _team_of(view: dict, seat: int) -> str:
    if not view["teams"]:
        return ""
    for index, side in enumerate(view["sides"]):
        if seat in side:
            return TEAM_NAMES[index]
    return ""


def present(view: dict, **around) -> TableContext:
    """The table for the seat ``view["seat"]`` (None: a spectator), from that view
    only; ``around``: see ``Viewer``."""
    viewer = Viewer(view, **around)
    me, words, bots = viewer.me, viewer.words, viewer.bots
    names = view["names"]
    phase = view["phase"]
    turn = view["turn"]
    legal = view["legal_actions"]
    my_turn = me is not None and phase == km.PLAY and turn == me

    seats = []
    for info in view["seats"]:
        s = info["seat"]
        if info["left"]:
            status = "hat den Raum verlassen"
        elif info["out"]:
            status = "spielt nicht mehr mit"
        else:
            status = viewer.turn_status(info)
        if not status and phase == km.PLAY and info["finished"] and view["teams"]:
            status = "fertig – spielt kartenlos"
        elif not status and phase == km.PLAY and info["kartenlos"]:
            status = "kartenlos"
        hint = info["hint"]
        seats.append(
            {
                **viewer.seat(s),
                "is_partner": me is not None and info["partner"] == me,
                "team": _team_of(view, s),
                "active": phase == km.PLAY and s == turn,
                "out": info["out"],
                "left": info["left"],
                "stock_top": card(info["stock_top"]),
                "stock_count": info["stock_count"],
                "hand_size": info["hand_size"],
                "backs": range(min(info["hand_size"], 5)),
                "discards": _discard_piles(info["discards"]),
                "score": info["score"],
                "status": status,
                "hint": (
                    {
                        "mine": hint["from"] == me,
                        "from": names[hint["from"]],
                        "text": hint_text(hint["rank"], hint["pile"]),
                    }
                    if hint
                    else None
                ),
            }
        )
    opponents = viewer.opponents(seats)

    builds = []
    sources, build_moves, discard_moves = ([], {}, {}) if not my_turn else _moves(view)
    for index, pile in enumerate(view["build"]):
        value = pile["value"]
        top = card(pile["top"])
        builds.append(
            {
                "number": index + 1,
                "top": top,
                "value": value,
                "value_name": value_name(value) if value else "",
                "needs": value_name(value + 1) if value < 12 else "",
                "size": pile["size"],
                "label": (
                    f"Baustapel {index + 1}: frei – Ass oder König"
                    if not value
                    else f"Baustapel {index + 1}: "
                    + (f"König als {value_name(value)}" if top["king"] else top["name"])
                    + f", als Nächstes {value_name(value + 1)}"
                ),
                "moves": build_moves.get(index, []),
            }
        )

    # Where focus lands after a move: the first card to choose, in document order.
    focus_key = min(
        (source["key"] for source in sources),
        key=lambda key: (not key.startswith("hand"), key != "stock", key),
        default="",
    )
    mine = None
    if me is not None:
        info = seats[me]
        hand = view["hand"] or []
        source_keys = {source["key"] for source in sources}
        mine = {
            **info,
            # Two equal cards (two decks) share the first one's moves: either can be chosen.
            "hand": [
                {
                    **card(code),
                    "key": f"hand-{hand.index(code)}",
                    "position": i,
                    "focus": f"hand-{i}" == focus_key,
                    "movable": f"hand-{hand.index(code)}" in source_keys,
                }
                for i, code in enumerate(hand)
            ],
            "stock_movable": "stock" in source_keys,
            "discard_piles": [
                {
                    **pile,
                    "key": f"discard-{pile['number'] - 1}",
                    "movable": f"discard-{pile['number'] - 1}" in source_keys,
                    "moves": discard_moves.get(pile["number"] - 1, []),
                }
                for pile in info["discards"]
            ],
            "kartenlos": view["seats"][me]["kartenlos"],
            "partner_name": (
                names[view["seats"][me]["partner"]]
                if view["seats"][me]["partner"] is not None
                else ""
            ),
        }

    countdown = viewer.timer_in_turns(TURN_SECONDS, SCORING_SECONDS, "Nächstes Spiel in")

    def worded(event: dict) -> str:
        return describe(event, me, names)

    can_continue = any(action["type"] == "continue" for action in legal)
    can_end = any(action["type"] == "end" for action in legal)
    may_hint = (
        view["teams"]
        and phase == km.PLAY
        and me is not None
        and not view["seats"][me]["out"]
        and view["seats"][me]["partner"] is not None
    )
    return TableContext(
        {
            "phase": phase,
            "round": view["round"],
            "match": view["match"] == "500",
            "teams": view["teams"],
            "rules": _rules(view),
            "me": mine,
            "seats": seats,
            "opponents": opponents,
            "spectator": me is None,
            "my_turn": my_turn,
            "sources": sources,
            "focus_key": focus_key,
            "can_end": can_end,
            "can_continue": can_continue,
            "may_hint": may_hint,
            "hint_ranks": [{"value": r, "name": RANK_NAMES.get(r, r)} for r in km.RANKS],
            "bot_thinking": phase == km.PLAY and turn in bots,
            "builds": builds,
            "draw_size": view["draw_size"],
            "countdown": countdown,
            "timeout_rule": TIMEOUT_RULE if countdown and phase == km.PLAY else "",
            "status": _status(view, me, words, bots),
            "result": _result(view, viewer) if view["round_result"] else None,
            "sheet": _sheet(view, viewer),
            "outcome": _outcome(view, me, words, viewer.events),
            "log": viewer.log_lines(worded, LOG_LENGTH),
            "news": viewer.news(worded, NEWS_LENGTH),
            "attention": my_turn or can_continue,
            "finished": phase == km.OVER,
        }
    )


def _rules(view: dict) -> list[str]:
    rules = [f"Spielerstapel {view['stock_size']}"]
    rules.append("bis 500 Punkte" if view["match"] == "500" else "ein Spiel")
    if view["teams"]:
        rules.append("Teams")
    rules.append(
        "fertige Stapel unter den Kartenstock"
        if view["completed"] == "shuffle"
        else "fertige Stapel aus dem Spiel"
    )
    return rules


def _status(view: dict, me, words: Words, bots) -> str:
    phase = view["phase"]
    if phase == km.OVER:
        return "Die Partie ist vorbei."
    if phase == km.SCORING:
        if me is not None and me in view["to_act"]:
            return f"Spiel {view['round']} ist gewertet. Klicke auf „Weiter“, wenn du bereit bist."
        return f"Spiel {view['round']} ist gewertet. Gleich geht es weiter."
    turn = view["turn"]
    if me is not None and turn == me:
        if view["seats"][me]["kartenlos"]:
            return (
                "Du bist am Zug – ohne Spielerstapel: Lege, was passt, und beende den Zug mit "
                "„Fertig“."
            )
        return (
            "Du bist am Zug: Wähle eine Karte und dann, wohin sie soll. Der Zug endet, wenn du "
            "eine Handkarte auf einen Ablagestapel legst."
        )
    if turn in bots:
        return f"{words.who(turn)} überlegt …"
    return f"{words.who(turn)} ist am Zug."


def _result(view: dict, viewer: Viewer) -> dict:
    result = view["round_result"]
    winners = set(result["winners"])
    rows = [
        {
            **viewer.who(s),
            "team": _team_of(view, s),
            "stock": result["stocks"][s],
            "points": result["points"][s],
            "total": result["totals"][s],
            "winner": s in winners and not result["draw"],
            "confirmed": view["seats"][s]["confirmed"],
            "left": view["seats"][s]["left"],
        }
        for s in range(view["players"])
    ]
    return {"round": result["round"], "rows": rows, "waiting": ", ".join(viewer.waiting())}


def _sheet(view: dict, viewer: Viewer) -> dict | None:
    if view["match"] != "500":
        return None
    return viewer.score_sheet(lambda points: points, [seat["score"] for seat in view["seats"]])


def _outcome(view: dict, me, words: Words, events: list[dict]) -> dict | None:
    result = view["outcome"]
    if result is None:
        return None
    winners = result["winners"]
    won = me in winners and not result["draw"]
    last_round = next((e for e in reversed(events) if e.get("type") == "round_end"), None)
    if result["draw"]:
        summary = "Unentschieden."
    elif result["reason"] == "target":
        verb = words.plural_verb(winners, "gewinnt", "gewinnst", "gewinnen", "gewinnt")
        summary = f"{words.many(winners)} {verb} mit {_points(max(result['points']))}."
    else:
        verb = words.plural_verb(winners, "gewinnt", "gewinnst", "gewinnen", "gewinnt")
        summary = f"{words.many(winners)} {verb}."
    if last_round is not None and result["reason"] != "target":
        summary = _round_sentence(last_round, words) + " " + summary
    return {"won": won, "draw": result["draw"], "summary": summary}


# --- The coach: tips and „Warum?“ (games.play.coach) --------------------------------


def _source_text(action: dict, view: dict) -> str:
    source = action.get("source")
    if source == "stock":
        return "von deinem Spielerstapel"
    if source == "hand":
        return "von der Hand"
    return f"von Ablagestapel {action.get('index', 0) + 1}"


def move_text(action: dict, view: dict) -> str:
    """The tip's move for the viewer („Leg die 7 von der Hand auf Baustapel 2.“)."""
    kind = action.get("type")
    if kind == "play":
        me = view["seats"][view["seat"]]
        if action["source"] == "stock":
            code = me["stock_top"]
        elif action["source"] == "hand":
            code = action["card"]
        else:
            code = me["discards"][action["index"]][-1]
        return (
            f"Leg {card_acc(code)} {_source_text(action, view)} auf Baustapel {action['pile'] + 1}."
        )
    if kind == "discard":
        return f"Leg {card_acc(action['card'])} auf Ablagestapel {action['pile'] + 1} – Zugende."
    if kind == "end":
        return "Beende deinen Zug."
    if kind == "continue":
        return "Weiter zum nächsten Spiel."
    return ""


def reason_text(reason: dict, view: dict) -> str:
    """A bot's reason in words: everything named lies open on the table once the move
    is made (a bot's kept hand cards are never named)."""
    code = reason.get("code")
    mine = reason.get("seat") == view.get("seat")
    pile = reason.get("pile", 0) + 1
    if code == "confirm":
        return "Das Spiel ist gewertet – mit „Weiter“ geht es zum nächsten."
    if code == "follow_hint":
        return "Der Partner hat genau diesen Zug vorgeschlagen, und er ist gerade erlaubt."
    if code == "stock_play":
        return (
            "Die oberste Karte des Spielerstapels passt – sie zuerst zu legen ist das Ziel: "
            "Wer den Spielerstapel leert, gewinnt."
        )
    if code == "chain":
        target = value_name(reason.get("target") or 0)
        whose = "deinem" if mine else "seinem"
        return (
            f"Baustapel {pile} soll bis zur Karte oben auf {whose} Spielerstapel ({target}) "
            "wachsen – dieser Zug ist ein Schritt dorthin. Ablagekarten zuerst, Könige zuletzt."
        )
    if code == "safe_play":
        text = "Diese Karte wird man los, ohne einem Gegner den nächsten Wert vorzulegen."
        if reason.get("blocks"):
            text = (
                f"Auf Baustapel {pile} wäre sonst bald die Spielerstapel-Karte eines Gegners "
                "dran – diese Karte verschiebt den Wert."
            )
        return text
    if code == "discard":
        lead = "Nichts Sinnvolles passt mehr: " if mine else "Der Zug endet mit dem Ablegen: "
        return (
            lead + "Abgelegt wird die Karte, die für die nächsten Züge am wenigsten hilft, "
            "möglichst auf eine gleiche oder höhere Karte – so bleiben die Ablagestapel später "
            "spielbar."
        )
    if code == "end":
        return "Ohne Spielerstapel wird nicht mehr abgelegt – der Zug endet so."
    return ""


def event_text(event: dict, view: dict) -> str:
    return describe(event, view.get("seat"), view["names"])
