"""The Cat's exercises („Üben“, see ``exercises.kinds``).

Kind ``turn``: a round in play (``the_cat.arranged``) – your stacks (you remember
them: the page shows them), the open middle and the stack you hold. Answer with a
swap (one card of your hand for one of the middle), by taking up a stack, or with
„Stopp!“ / „Noch nicht rufen“. The goal says what counts:

- ``complete``: a swap after which the stack in your hand shows four equal moods;
- ``stop``: call „Stopp!“ exactly when every stack is finished (the engine ends the
  round and reveals), otherwise „Noch nicht rufen“;
- ``legal``: any move the engine allows.
"""

from __future__ import annotations

import contextlib

from exercises.kinds import ExerciseKind, Verdict
from games.engines import the_cat
from games.engines.the_cat import IllegalAction, is_finished, mood_of
from games.example_fields import Cards, Names, Number, Pick, StackRows
from games.play.the_cat.examples import _action
from games.play.the_cat.presenter import card, points, quoted

WAIT = "wait"
MOODS = "Stimmungen wie grimmig, frech, stolz …, durch Leerzeichen getrennt."
STACKS = "Eine Zeile je Spieler, deine zuerst; Stapel durch „|“ getrennt, je vier Stimmungen; „–“ für einen Stapel aus den übrigen Karten."
ANSWER_HELP = "„swap:frech:verliebt“ (gib „frech“, nimm „verliebt“), „take:0“ (ersten Stapel aufnehmen), „stop“ oder „wait“ (noch nicht rufen)."


def _position(setup: dict) -> dict:
    names = list(setup["players"])
    stacks = [[list(stack) or None for stack in own] for own in setup["stacks"]]
    state = the_cat.arranged(len(names), stacks, setup.get("middle") or None, {"names": names})
    held = setup.get("held")
    if held:
        state["held"][0] = held - 1
        state["seen"][0][held - 1] = True
    return state


def _stack_text(stack: list[str]) -> str:
    return ", ".join(quoted(mood_of(c)) for c in stack)


def judge(setup: dict, token: str) -> Verdict:
    state = _position(setup)
    goal = setup.get("goal", "legal")
    stop_state = None
    with contextlib.suppress(IllegalAction):
        stop_state, _ = the_cat.apply(state, 0, {"type": "stop"}, now=1.0)
    right_to_call = bool(stop_state and stop_state["round_result"]["caller_right"])
    if token == WAIT:
        if goal != "stop":
            return Verdict(False, "verboten", ("Hier ist ein Zug gefragt.",))
        if right_to_call:
            gained = stop_state["round_result"]["rows"][0]["points"]
            return Verdict(
                False,
                "haette_rufen_duerfen",
                (f"Alle deine Stapel sind fertig – „Stopp!“ hätte dir {points(gained)} gebracht.",),
            )
        return Verdict(True, "", ("Richtig abgewartet: Noch ist nicht jeder Stapel fertig.",))
    try:
        action = _action(state, 0, token)
        after, events = the_cat.apply(state, 0, action, now=1.0)
    except (IllegalAction, ValueError, IndexError) as error:
        return Verdict(False, "verboten", (str(error),))
    happened = []
    if action["type"] == "swap":
        hand = after["stacks"][0][after["held"][0]]
        happened.append(
            f"Du gibst {quoted(mood_of(action['give']))} in die Mitte und nimmst "
            f"{quoted(mood_of(action['want']))}. In deiner Hand: {_stack_text(hand)}."
        )
    if action["type"] == "stop":
        result = after["round_result"]
        gained = result["rows"][0]["points"]
        if result["caller_right"]:
            happened.append(f"Alle Stapel sind fertig – du bekommst {points(gained)}.")
        else:
            wrong = [_stack_text(stack) for stack in after["stacks"][0] if not is_finished(stack)]
            happened.append(
                "Beim Aufdecken ist nicht jeder Stapel fertig ("
                + "; ".join(wrong)
                + f") – du bekommst {points(gained)}."
            )
    if action["type"] == "take":
        happened.append(f"Du nimmst deinen {action['stack'] + 1}. Stapel auf.")
    if goal == "stop":
        if action["type"] != "stop":
            return Verdict(False, "verboten", ("Hier geht es nur ums Rufen.",))
        if not right_to_call:
            return Verdict(False, "zu_frueh", tuple(happened))
        return Verdict(True, "", tuple(happened))
    if goal == "complete":
        held = after["held"][0]
        if action["type"] != "swap" or held is None or not is_finished(after["stacks"][0][held]):
            return Verdict(False, "nicht_fertig", (*happened, "Der Stapel ist noch nicht fertig."))
    return Verdict(True, "", tuple(happened))


def board(setup: dict) -> dict:
    state = _position(setup)
    held = state["held"][0]
    goal = setup.get("goal", "legal")
    return {
        "stacks": [
            {
                "number": index + 1,
                "cards": [card(c) for c in stack],
                "held": index == held,
                "token": f"take:{index}",
            }
            for index, stack in enumerate(state["stacks"][0])
        ],
        "hand": [card(c) for c in state["stacks"][0][held]] if held is not None else [],
        "middle": [card(c) for c in state["middle"]],
        "others": [
            {"name": state["names"][seat], "stacks": len(state["stacks"][seat])}
            for seat in range(1, state["players"])
        ],
        "holding": held is not None,
        "stop_goal": goal == "stop",
        "swap_goal": goal != "stop" and held is not None,
        "take_goal": goal != "stop" and held is None,
    }


def parse(data) -> str | None:
    token = str(data.get("antwort", "")).strip()
    if token == "swap":
        give, want = str(data.get("geben", "")), str(data.get("nehmen", ""))
        if give in the_cat.MOOD_KEYS and want in the_cat.MOOD_KEYS:
            return f"swap:{give}:{want}"
        if data.get("ohne_stapel"):  # „Tauschen“ with no stack in hand: the engine says why not
            return "swap:-:-"
        return None
    if token in ("stop", WAIT, "put_back") or (token.startswith("take:") and token[5:].isdigit()):
        return token
    return None


def solution(setup: dict, token: str) -> dict:
    parts = token.split(":")
    if parts[0] == "swap":
        return {"give": parts[1], "want": parts[2], "token": "swap"}
    return {"token": token}


EXERCISES = {
    "turn": ExerciseKind(
        "Tauschen oder rufen",
        position=(
            Names("players", "Spieler", "Du zuerst, dann die anderen."),
            StackRows("stacks", "Stapel", STACKS),
            Cards("middle", "Mitte", MOODS),
            Number(
                "held", "Stapel in deiner Hand", "1 für den ersten, leer: keiner.", optional=True
            ),
            Pick(
                "goal",
                "Richtig ist",
                choices=(
                    ("complete", "ein Tausch, der den Stapel in der Hand fertig macht"),
                    ("stop", "„Stopp!“ genau dann, wenn alle Stapel fertig sind"),
                    ("legal", "jeder erlaubte Zug"),
                ),
            ),
        ),
        reasons=(
            ("verboten", "Die Engine erlaubt den Zug nicht"),
            ("nicht_fertig", "Erlaubt, aber der Stapel ist danach nicht fertig"),
            ("zu_frueh", "„Stopp!“, obwohl nicht jeder Stapel fertig ist"),
            ("haette_rufen_duerfen", "Nicht gerufen, obwohl alles fertig war"),
        ),
        board=board,
        parse=parse,
        judge=judge,
        template="play/the_cat/exercise_board.html",
        answer_help=ANSWER_HELP,
        solution=solution,
    ),
}
