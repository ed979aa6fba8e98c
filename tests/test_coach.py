# ruff: noqa: F811  (pytest fixtures named like the imported clock fixture)
"""The demo's coach (games.play.coach): tips from the reader's knowledge only, „Warum?“
for the bots' moves, the guided first game with its notes and the switch
„Erklärungen an/aus“, for all four games."""

from __future__ import annotations

import random
import re

import pytest

from games.engines import alpaka, kaetzchen, the_cat
from games.engines import katz_und_maus as km
from games.engines.base import clone
from games.engines.katz_und_maus.rules import sort_cards as km_sort
from games.models import DemoGame
from games.play import coach, driver
from games.play import definition as registry
from tests.factories import make_game
from tests.rooms.conftest import clock  # noqa: F401  (the movable clock fixture)
from tests.test_the_cat_play import assert_nothing_hidden as cat_nothing_hidden

HX = {"HX-Request": "true"}


# --- Hidden information: two tables that differ only in hidden cards, one tip ----------


def _deal_out(pool: list, sizes: list[int]) -> list[list]:
    out, start = [], 0
    for size in sizes:
        out.append(pool[start : start + size])
        start += size
    return out


def alpaka_twin(state: dict, rng: random.Random) -> dict:
    """The opponents' hands and the draw pile dealt anew from the same cards; another seed."""
    twin = clone(state)
    others = range(1, state["players"])
    pool = [card for seat in others for card in twin["hands"][seat]] + twin["draw_pile"]
    rng.shuffle(pool)
    sizes = [len(twin["hands"][seat]) for seat in others]
    for seat, hand in zip(others, _deal_out(pool, sizes), strict=True):
        twin["hands"][seat] = sorted(hand, key=alpaka.CARDS.index)
    twin["draw_pile"] = pool[sum(sizes) :]
    twin["seed"] += 1
    return twin


def km_twin(state: dict, rng: random.Random) -> dict:
    """Other hands, every stock below its top card and the draw pile dealt anew."""
    twin = clone(state)
    players = range(state["players"])
    others = [seat for seat in players if seat != 0]
    pool = [card for seat in others for card in twin["hands"][seat]]
    pool += [card for seat in players for card in twin["stocks"][seat][:-1]]
    pool += twin["draw_pile"]
    rng.shuffle(pool)
    hand_sizes = [len(twin["hands"][seat]) for seat in others]
    stock_sizes = [max(0, len(twin["stocks"][seat]) - 1) for seat in players]
    parts = _deal_out(pool, hand_sizes + stock_sizes + [len(twin["draw_pile"])])
    for seat, hand in zip(others, parts, strict=False):
        twin["hands"][seat] = km_sort(hand)
    for seat, below in zip(players, parts[len(others) :], strict=False):
        twin["stocks"][seat] = below + twin["stocks"][seat][-1:]
    twin["draw_pile"] = parts[-1]
    twin["seed"] += 1
    return twin


def cat_twin(state: dict, rng: random.Random) -> dict:
    """The opponents' stacks and the reader's stacks not looked at yet, dealt anew."""
    twin = clone(state)
    hidden = [
        (seat, index)
        for seat in range(state["players"])
        for index in range(len(state["stacks"][seat]))
        if seat != 0 or not state["seen"][0][index]
    ]
    pool = [card for seat, index in hidden for card in twin["stacks"][seat][index]]
    rng.shuffle(pool)
    for (seat, index), stack in zip(hidden, _deal_out(pool, [4] * len(hidden)), strict=True):
        twin["stacks"][seat][index] = stack
    twin["seed"] += 1
    return twin


def kaetzchen_twin(state: dict, rng: random.Random) -> dict:
    twin = clone(state)
    for pile in twin["piles"]:
        rng.shuffle(pile)
    twin["seed"] += 1
    return twin


def _positions(key: str, steps: int = 120):
    """States of a bot game where the reader (seat 0) decides, every few steps."""
    definition = registry.get(key)
    module = definition.module
    if key == "the_cat":
        state = the_cat.new_game(11, 3, {"bots": {"1": "flink", "2": "flink"}})
        for step in range(steps):
            if state["phase"] != the_cat.PLAY:
                break
            if step % 3 == 0:
                yield state
            view = the_cat.bot_view(state, 0)
            action = the_cat.bot_action(view, random.Random(step))
            now = state["now"] + 0.7
            if action:  # a card a bot took meanwhile: the step is lost, time runs on
                state, _, _ = the_cat.try_apply(state, 0, action, now=now)
            else:
                state, _ = the_cat.advance(state, now)
        return
    players = 2 if key == "kaetzchen" else 3
    state = module.new_game(23, players, {})
    for step in range(steps):
        if module.outcome(state) is not None:
            return
        seat = module.to_act(state)[0]
        if seat == 0 and step % 2 == 0:
            yield state
        action = module.bot_action(module.view(state, seat), random.Random(step))
        state, _ = module.apply(state, seat, action)


TWINS = {
    "alpaka": alpaka_twin,
    "katz_und_maus": km_twin,
    "the_cat": cat_twin,
    "kaetzchen": kaetzchen_twin,
}


@pytest.mark.parametrize("key", sorted(TWINS))
def test_a_tip_depends_only_on_what_the_reader_knows(key):
    definition = registry.get(key)
    rng = random.Random(5)
    tips = []
    for state in _positions(key):
        twin = TWINS[key](state, rng)
        assert twin != state  # the hidden cards (and the seed) really differ …
        assert coach.knowledge(definition, twin) == coach.knowledge(definition, state)  # … only
        tip = coach.tip_for(definition, state)
        assert tip is not None and tip == coach.tip_for(definition, twin)
        assert tip["move"] and tip["why"]
        tips.append(tip["move"])
    assert len(tips) >= 5
    if key != "kaetzchen":  # Kätzchen-Angeln has one move; the others' tips change
        assert len(set(tips)) > 1


def test_a_tip_uses_the_reader_s_memory_of_own_stacks_in_the_cat():
    """What the reader looked at counts (the tip knows the stacks seen), the rest not."""
    state = the_cat.arranged(
        3,
        [
            [["grimmig"] * 4, ["frech"] * 4, ["stolz"] * 4, ["albern"] * 4],
            [None] * 4,
            [None] * 4,
        ],
        ["traurig", "verwirrt", "hungrig", "verliebt"],
        {"bots": {"1": "flink", "2": "flink"}},
    )
    definition = registry.get("the_cat")
    assert coach.tip_for(definition, state)["action"] == {"type": "take", "stack": 0}
    state["seen"][0] = [True] * 4
    tip = coach.tip_for(definition, state)
    assert tip["action"] == {"type": "stop"} and "Alle deine Stapel sind fertig" in tip["why"]


# --- Reason wording: every code worded, unknown codes get the general sentence ----------


CODES = {
    "alpaka": [
        "confirm",
        "play_out",
        "play_only",
        "play_best",
        "draw",
        "quit_alone",
        "quit_no_draw",
        "quit_safe",
        "quit_cheap",
    ],
    "katz_und_maus": [
        "confirm",
        "follow_hint",
        "stock_play",
        "chain",
        "safe_play",
        "discard",
        "end",
    ],
    "the_cat": [
        "ready",
        "call_stop",
        "bluff_stop",
        "look_at_stack",
        "go_for_mood",
        "next_stack",
        "stack_done",
        "collect_mood",
        "finish_stack",
        "pass_on",
        "switch_stack",
        "stir_middle",
        "watch_middle",
        "nothing_fits",
    ],
    "kaetzchen": ["only_move"],
}


@pytest.mark.parametrize("key", sorted(CODES))
def test_every_reason_code_is_worded_and_unknown_ones_are_tolerated(key):
    definition = registry.get(key)
    view = next(iter(_positions(key)))
    known = coach.knowledge(definition, view)
    for code in CODES[key]:
        for seat in (0, 1):
            reason = {"code": code, "seat": seat, "pile": 0, "target": 5, "want": "grimmig"}
            text = definition.coach.reason_text(reason, known)
            assert text and text != coach.GENERIC_REASON, (code, seat)
    assert coach.reason_text(definition, {"code": "brand_new_idea"}, known) == (
        coach.GENERIC_REASON
    )


@pytest.mark.parametrize(
    ("key", "codes"),
    [
        ("alpaka", ["play_out", "play_only", "play_best"]),
        ("the_cat", ["stack_done", "switch_stack", "nothing_fits"]),
        ("the_cat", ["collect_mood", "finish_stack", "pass_on", "stir_middle"]),
        ("the_cat", ["look_at_stack", "go_for_mood", "next_stack"]),
        ("the_cat", ["call_stop", "bluff_stop"]),
    ],
)
def test_another_seat_s_reasons_do_not_tell_its_hidden_cards_apart(key, codes):
    """Codes that differ only in what the bot holds (a finished stack, a cheap hand) are
    worded alike for everybody else; for the reader's own tip they differ."""
    definition = registry.get(key)
    view = coach.knowledge(definition, next(iter(_positions(key))))
    other = {definition.coach.reason_text({"code": code, "seat": 1}, view) for code in codes}
    assert len(other) == 1 and other != {""}
    own = {definition.coach.reason_text({"code": code, "seat": 0}, view) for code in codes}
    assert len(own) == len(codes)


def test_another_seat_s_reason_never_names_its_hand():
    """Alpaka: the reader's own reason may count the hand; a bot's only what is open."""
    definition = registry.get("alpaka")
    view = alpaka.view(alpaka.new_game(3, 2), 0)
    own = {"code": "quit_cheap", "seat": 0, "score": 4, "expected": 3.5, "shortest": 2}
    other = {**own, "seat": 1}
    assert "4 Minuspunkte" in definition.coach.reason_text(own, view)
    text = definition.coach.reason_text(other, view)
    assert "4" not in text and "3,5" not in text


# --- Through HTTP -----------------------------------------------------------------------


def _row(key: str) -> DemoGame:
    return DemoGame.objects.get(engine=key)


def _html(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


@pytest.fixture
def alpaka_demo(db, monkeypatch, clock):
    monkeypatch.setattr("games.play.table.new_seed", lambda: 4242)
    make_game("alpaka", title="Alpaka", demo_engine="alpaka", players_max=6)
    return "/spiele/alpaka/demo/"


def _my_turn(client, demo: str, clock) -> str:
    """Watch the table until the reader is on turn; the last table."""
    for _ in range(40):
        if 0 in alpaka.to_act(_row("alpaka").state):
            break
        clock.advance(1.5)
        client.get(demo + "status/", {"v": _row("alpaka").version}, headers=HX)
    assert 0 in alpaka.to_act(_row("alpaka").state)
    return _html(client.get(demo + "status/", {"v": -1}, headers=HX))


def test_alpaka_guided_game_notes_tip_and_why(client, alpaka_demo, clock):
    demo = alpaka_demo
    data = {"version": 0, "bots": 2, "variant": "klassisch", "target": 20}
    _html(client.post(demo + "start/", data, headers=HX))
    page = _my_turn(client, demo, clock)
    row = _row("alpaka")
    # The bots' moves carry their reason in the log, and the page can tell it.
    whys = [entry["why"] for entry in row.log if "why" in entry]
    assert whys and all(why["seat"] in (1, 2) for why in whys)
    assert page.count("<summary>Warum?</summary>") == min(3, len(whys))
    # The first note: what fits, linked to the rules' „Ablauf“.
    view = alpaka.view(row.state, 0)
    fits = any(action["type"] == "play" for action in view["legal_actions"])
    first = "fits" if fits else "nothing_fits"
    assert f'data-coach-note="{first}"' in page and 'href="/spiele/alpaka/#ablauf"' in page
    assert 'role="status" aria-live="polite"' in page
    # „Tipp“: the move a strong bot would make, worded, and nothing stored.
    version = row.version
    tipped = _html(client.post(demo + "tipp/", {}, headers=HX))
    expected = coach.tip_for(registry.get("alpaka"), row.state)
    assert "<strong>Tipp:</strong> " + expected["move"] in tipped
    assert expected["why"] in tipped.replace("&quot;", '"')
    assert _row("alpaka").version == version and _row("alpaka").state == row.state
    # Following the tip marks the note read; the next turn brings the next note.
    client.post(
        demo + "aktion/",
        {"version": version, "aktion": _form_value(expected["action"])},
        headers=HX,
    )
    assert first in _row("alpaka").profile["coach_seen"]
    page = _my_turn(client, demo, clock)
    assert 'data-coach-note="quit"' in page or _row("alpaka").state["phase"] != "play"


def _form_value(action: dict) -> str:
    return f"play:{action['card']}" if action["type"] == "play" else action["type"]


def test_tip_without_javascript_comes_back_as_a_note(client, alpaka_demo, clock):
    demo = alpaka_demo
    client.post(demo + "start/", {"version": 0, "bots": 1, "variant": "klassisch", "target": 20})
    _my_turn(client, demo, clock)
    response = client.post(demo + "tipp/", {"zurueck": demo})
    assert response.status_code == 302 and response["Location"].startswith(demo)
    page = _html(client.get(demo))
    assert re.search(r'class="notice room-note">Tipp: (Leg|Zieh|Steig)', page)


def test_the_switch_turns_notes_off_and_is_remembered(client, alpaka_demo, clock):
    demo = alpaka_demo
    client.post(demo + "start/", {"version": 0, "bots": 1, "variant": "klassisch", "target": 20})
    page = _my_turn(client, demo, clock)
    assert "data-coach-note=" in page and 'aria-pressed="true"' in page
    off = _html(client.post(demo + "erklaerungen/", {"an": "0"}, headers=HX))
    assert "data-coach-note=" not in off and 'aria-pressed="false"' in off
    assert _row("alpaka").profile["coach"] is False
    assert "data-coach-note=" not in _html(client.get(demo))  # remembered
    assert "Tipp</button>" in off  # tips and „Warum?“ stay
    on = _html(client.post(demo + "erklaerungen/", {"an": "1"}, headers=HX))
    assert "data-coach-note=" in on


def test_views_answer_vary_on_htmx(client, alpaka_demo, clock):
    demo = alpaka_demo
    response = client.post(demo + "tipp/", {}, headers=HX)
    assert "HX-Request" in response["Vary"]
    assert client.get(demo + "tipp/").status_code == 405


@pytest.fixture
def cat_demo(db, monkeypatch, clock):
    monkeypatch.setattr("games.play.table.new_seed", lambda: 4242)
    make_game("the-cat", title="The Cat", demo_engine="the_cat", players_max=4)
    return "/spiele/the-cat/demo/"


def test_the_cat_bots_wait_for_the_learner_in_the_first_round(client, cat_demo, clock):
    demo = cat_demo
    data = {"version": 0, "bots": 2, "target": 20, "speed": "flink", "cheat": "aus"}
    page = _html(client.post(demo + "start/", data, headers=HX))
    row = _row("the_cat")
    assert row.bot_due is None and driver.HELD in row.profile
    assert 'data-coach-note="waiting"' in page and 'href="/spiele/the-cat/#ablauf"' in page
    cat_nothing_hidden(page, row.state, 0)
    start = row.state["now"]
    # Half a minute of watching: the bots wait (nothing is due, nothing moves).
    for _ in range(30):
        clock.advance(1)
        assert client.get(demo + "status/", {"v": row.version}, headers=HX).status_code == 204
    assert _row("the_cat").state["bot_steps"] == [0, 0, 0]
    # Each move of the learner lets a little game time pass: the bots take their steps.
    for _ in range(4):
        current = _row("the_cat")
        client.post(demo + "aktion/", {"version": current.version, "aktion": "take:0"}, headers=HX)
        current = _row("the_cat")
        client.post(
            demo + "aktion/", {"version": current.version, "aktion": "put_back"}, headers=HX
        )
    state = _row("the_cat").state
    assert state["now"] == pytest.approx(start + 8 * driver.HOLD_STEP)
    assert sum(state["bot_steps"]) >= 4
    # „Tipp“ knows only the reader's side of the table.
    tipped = _html(client.post(demo + "tipp/", {}, headers=HX))
    assert "<strong>Tipp:</strong>" in tipped
    cat_nothing_hidden(tipped, _row("the_cat").state, 0)
    # Switched off, the clock runs on from where it stood and the bots play on their own.
    client.post(demo + "erklaerungen/", {"an": "0"}, headers=HX)
    row = _row("the_cat")
    assert driver.HELD not in row.profile and row.bot_due is not None
    steps = sum(row.state["bot_steps"])
    clock.advance(10)
    client.get(demo + "status/", {"v": row.version}, headers=HX)
    after = _row("the_cat").state
    assert sum(after["bot_steps"]) > steps, after["bot_due"]


def test_the_cat_second_game_is_not_guided(client, cat_demo, clock):
    demo = cat_demo
    data = {"version": 0, "bots": 1, "target": 12, "speed": "flink", "cheat": "aus"}
    client.post(demo + "start/", data, headers=HX)
    client.post(demo + "neu/", {}, headers=HX)
    client.post(demo + "start/", {**data, "version": _row("the_cat").version}, headers=HX)
    row = _row("the_cat")
    assert row.profile["deals"] == 2 and row.bot_due is not None
    assert driver.HELD not in row.profile


@pytest.fixture
def kaetzchen_demo(content):
    return "/spiele/kaetzchen-angeln/demo/"


def test_kaetzchen_coach_notes_tip_and_why(client, kaetzchen_demo, monkeypatch):
    demo = kaetzchen_demo
    page = _html(client.get(demo))
    assert 'data-coach-note="flip"' in page
    assert 'href="/spiele/kaetzchen-angeln/#ablauf"' in page
    tipped = _html(client.post(demo + "tipp/", {}, headers=HX))
    assert "Deck deine oberste Karte auf." in tipped and 'id="kz-game"' in tipped
    client.post(demo + "aktion/", {"version": 0}, headers=HX)
    page = _html(client.post(demo + "gegner/", {"version": 1}, headers=HX))
    assert "<summary>Warum?</summary>" in page and "nichts zu entscheiden" in page
    assert "flip" in _row("kaetzchen").profile["coach_seen"]


@pytest.fixture
def km_demo(db, monkeypatch, clock):
    monkeypatch.setattr("games.play.table.new_seed", lambda: 4242)
    make_game("katz-und-maus", title="Katz und Maus", demo_engine="katz_und_maus", players_max=6)
    return "/spiele/katz-und-maus/demo/"


def test_katz_und_maus_tip_and_note_on_the_reader_s_turn(client, km_demo, clock):
    demo = km_demo
    client.post(demo + "start/", {"version": 0, "bots": 1}, headers=HX)
    for _ in range(200):
        if 0 in km.to_act(_row("katz_und_maus").state):
            break
        clock.advance(1)
        client.get(demo + "status/", {"v": _row("katz_und_maus").version}, headers=HX)
    row = _row("katz_und_maus")
    page = _html(client.get(demo + "status/", {"v": -1}, headers=HX))
    assert "data-coach-note=" in page and 'href="/spiele/katz-und-maus/#ablauf"' in page
    tipped = _html(client.post(demo + "tipp/", {}, headers=HX))
    expected = coach.tip_for(registry.get("katz_und_maus"), row.state)
    assert expected["move"] in tipped


def test_kaetzchen_module_exports_bot_choice():
    assert kaetzchen.bot_choice(kaetzchen.view(kaetzchen.new_game(1), 1), None)[0] == {
        "type": "flip"
    }


# --- The moments a rule first matters, per game ----------------------------------------


def test_each_game_names_the_moment_its_key_rule_first_matters():
    from games.play.alpaka import coach as alpaka_coach
    from games.play.kaetzchen import coach as kaetzchen_coach
    from games.play.katz_und_maus import coach as km_coach
    from games.play.the_cat import coach as cat_coach

    # Kätzchen-Angeln: cards on the table – the reader's flip may fish.
    state = kaetzchen.new_game(7)
    assert kaetzchen_coach.notes(kaetzchen.view(state, 0), [], True) == ["flip"]
    state["table"] = ["7H", "KD"]
    assert kaetzchen_coach.notes(kaetzchen.view(state, 0), [], True)[0] == "fish"
    # Alpaka: nothing fits – draw or „Aussteigen“.
    state = alpaka.new_game(3, 2)
    state["hands"][0], state["discard"], state["turn"] = ["6", "A"], ["2"], 0
    assert alpaka_coach.notes(alpaka.view(state, 0), [], True) == ["nothing_fits", "quit"]
    # Katz und Maus: the stock card fits.
    state = km.arrange(2, stocks=[["9S", "AH"], ["5C"]], hands=[["3D", "7C"], ["2S"]])
    assert km_coach.notes(km.view(state, 0), [], True)[0] == "stock"
    # The Cat: every stack the reader looked at is finished – „Stopp!“; the first round
    # of the guided game names the waiting bots.
    state = the_cat.arranged(
        2,
        [[["grimmig"] * 4, ["frech"] * 4, ["stolz"] * 4, ["albern"] * 4], [None] * 4],
        ["traurig", "verwirrt", "hungrig", "verliebt"],
    )
    assert cat_coach.notes(the_cat.bot_view(state, 0), [], True) == ["waiting", "take"]
    state["seen"][0] = [True] * 4
    assert cat_coach.notes(the_cat.bot_view(state, 0), [], False) == ["stop", "take"]


def test_the_switch_without_javascript_redirects_and_remembers(client, alpaka_demo, clock):
    demo = alpaka_demo
    client.post(demo + "start/", {"version": 0, "bots": 1, "variant": "klassisch", "target": 20})
    response = client.post(demo + "erklaerungen/", {"an": "0", "zurueck": demo})
    assert response.status_code == 302 and _row("alpaka").profile["coach"] is False
    page = _html(client.get(demo))
    assert "Erklärungen sind aus." in page and 'aria-pressed="false"' in page
