"""The Cat through HTTP: the in-page demo against bots on a movable clock, an online
room where two people and a bot play at once, a race for one middle card, and no
response ever carrying a card the viewer may not see."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.engines import the_cat
from games.models import DemoGame
from games.play import definition as registry
from games.play.the_cat import presenter
from rooms.models import Room
from tests.factories import make_game
from tests.rooms.conftest import clock  # noqa: F401  (the movable clock fixture)

HX = {"HX-Request": "true"}
DEMO = "/spiele/the-cat/demo/"
MOVE = DEMO + "aktion/"
CARD_ID = re.compile(r"\b(" + "|".join(the_cat.MOOD_KEYS) + r")-[1-4]\b")
SEED = 4242


@pytest.fixture
def cat_game(db, monkeypatch):
    monkeypatch.setattr("games.play.table.new_seed", lambda: SEED)
    return make_game("the-cat", title="The Cat", demo_engine="the_cat", players_max=4)


def row() -> DemoGame:
    return DemoGame.objects.get(engine="the_cat")


def html(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def visible_cards(state: dict, seat: int | None) -> set[str]:
    """Every card id the seat may see now: the middle, its hand, and the reveal."""
    view = the_cat.view(state, seat)
    cards = set(view["middle"]) | set(view["hand"] or [])
    if view["round_result"]:
        cards |= set(view["round_result"]["middle"])
        for result_row in view["round_result"]["rows"]:
            for stack in result_row["stacks"]:
                cards |= set(stack["cards"])
    return cards


def assert_nothing_hidden(text: str, state: dict, seat: int | None) -> None:
    shown = {match.group(0) for match in CARD_ID.finditer(text)}
    assert shown <= visible_cards(state, seat), shown - visible_cards(state, seat)
    chance = not state.get("removed_choice")  # a set the host chose is public
    if chance and state["removed"] and state["phase"] == the_cat.PLAY and not state["score_sheet"]:
        for mood in state["removed"]:
            assert f"mood-{mood}" not in text and presenter.mood_name(mood) not in text


def watch(client, clock, seconds: float, every: float = 0.5) -> str:  # noqa: F811
    """The reader watches the table for ``seconds``: its page (or, with a stream, the
    deadline loop) asks for the bots' moves every ``every`` seconds. The last table."""
    for _ in range(round(seconds / every)):
        clock.advance(every)
        response = client.get(DEMO + "status/", {"v": row().version}, headers=HX)
        assert response.status_code in (200, 204)  # 204: nothing new yet
    return html(client.get(DEMO + "status/", {"v": -1}, headers=HX))


def start_demo(client, bots=2, guided=False, **options) -> str:
    """A demo game; ``guided=False`` switches the coach off first, so the bots play the
    first round on their own clock (the guided first game: tests/test_coach.py)."""
    if not guided:
        assert client.post(DEMO + "erklaerungen/", {"an": "0"}, headers=HX).status_code == 200
    data = {"version": 0, "bots": bots, "target": 20, "speed": "gemuetlich", "cheat": "aus"}
    return html(client.post(DEMO + "start/", {**data, **options}, headers=HX))


def arrange_demo(clock, stacks, middle, players=3, scores=None, **more):  # noqa: F811
    """Put a hand-made first round into the visitor's demo row (bots on the clock)."""
    demo = row()
    names = ["Du", *registry.get("the_cat").bot_names[: players - 1]]
    options = {
        "names": names,
        "bots": {str(seat): "gemuetlich" for seat in range(1, players)},
        "round_seconds": 300,
        **more,
    }
    state = the_cat.arranged(
        players, stacks, middle, options, scores=scores, now=clock.now.timestamp()
    )
    demo.state, demo.log = state, []
    due = the_cat.next_due(state)
    from datetime import UTC, datetime

    demo.bot_due = datetime.fromtimestamp(due, UTC) if due else None
    demo.version += 1
    demo.save()
    return demo


def test_demo_setup_offers_the_options_and_bot_counts(client, cat_game):
    page = html(client.get(DEMO))
    assert 'id="the_cat-demo"' in page and "Spiel starten" in page
    for label in ("bis 20 Punkte", "kurz: bis 12 Punkte", "gemütlich", "flink", "Schummelkatze"):
        assert label in page
    assert 'name="bots" value="3"' in page and 'name="bots" value="4"' not in page
    assert "Alle spielen gleichzeitig" in page and "so viel Zeit, wie du brauchst" not in page
    # The (cached) game page loads the visitor's demo as a fragment after itself.
    game_page = html(client.get("/spiele/the-cat/"))
    assert "play/the_cat/table.css" in game_page and DEMO in game_page
    fragment = html(client.get(DEMO, {"zurueck": "/spiele/the-cat/"}, headers=HX))
    assert 'id="the_cat-demo"' in fragment and "Spiel starten" in fragment


def test_engine_options_map_settings_and_bot_seats():
    definition = registry.get("the_cat")
    options = {"target": 12, "speed": "flink", "cheat": "an"}
    assert definition.engine_options(options, {2, 1}) == {
        "target": 12,
        "bots": {"1": "flink", "2": "flink"},
        "cheater": [1],
        "round_seconds": presenter.ROUND_SECONDS,
        "removed": None,
        "bots_version": the_cat.BOTS_VERSION,
    }
    assert definition.engine_options({**options, "cheat": "aus"}, set())["cheater"] == []
    chosen = definition.engine_options({**options, "removed": "gute-laune"}, {1})["removed"]
    assert chosen == ["grimmig", "erschrocken", "traurig", "beleidigt"]
    assert definition.engine_options({**options, "removed": "zufall"}, {1})["removed"] is None
    assert definition.timer_seconds({"phase": the_cat.REVEAL}) == presenter.REVEAL_SECONDS
    assert definition.timer_seconds({"phase": the_cat.PLAY}) is None


def test_parse_action_reads_the_form_fields():
    parse = presenter.parse_action
    assert parse({"aktion": "take:2"}) == {"type": "take", "stack": 2}
    assert parse({"gib": "frech-1", "nimm": "stolz-2"}) == {
        "type": "swap",
        "give": "frech-1",
        "want": "stolz-2",
    }
    assert parse({"aktion": "swap", "gib": "frech-1", "nimm": "stolz-2"})["type"] == "swap"
    for kind in ("put_back", "stop", "give_up", "continue"):
        assert parse({"aktion": kind}) == {"type": kind}
    assert parse({"aktion": "take:x"}) is None and parse({}) is None


def test_demo_round_take_swap_put_back_bots_stop_and_reveal(client, cat_game, clock):  # noqa: F811
    page = start_demo(client, bots=2)
    state = row().state
    assert state["players"] == 3 and state["bots"] == [None, "gemuetlich", "gemuetlich"]
    assert "Tippe auf einen deiner Stapel" in page
    assert_nothing_hidden(page, state, 0)

    assert "every 500ms" in page  # the table asks for news twice a second
    page = html(client.post(MOVE, {"aktion": "take:1"}, headers=HX))
    state = row().state
    hand = state["stacks"][0][1]
    assert state["held"][0] == 1 and "Deine Hand: Stapel 2" in page
    for card_id in hand:
        assert f'name="gib" value="{card_id}"' in page
    assert_nothing_hidden(page, state, 0)

    give, want = hand[0], state["middle"][2]
    page = html(client.post(MOVE, {"gib": give, "nimm": want}, headers=HX))
    state = row().state
    assert want in state["stacks"][0][1] and state["middle"][2] == give
    assert the_cat.card_counts(state)["total"] == 52
    assert_nothing_hidden(page, state, 0)

    page = html(client.post(MOVE, {"aktion": "put_back"}, headers=HX))
    state = row().state
    assert state["held"][0] is None and 'value="take:1"' in page
    assert_nothing_hidden(page, state, 0)

    # Nothing is due yet: the poll answers 204; while the reader watches, the bots act.
    version = row().version
    assert client.get(DEMO + "status/", {"v": version}).status_code == 204
    page = watch(client, clock, 12)
    state = row().state
    assert sum(state["bot_steps"]) >= 2 and row().version > version
    assert "X-Room-Version" in client.get(DEMO + "status/", {"v": 0}, headers=HX).headers
    assert_nothing_hidden(page, state, 0)

    page = html(client.post(MOVE, {"aktion": "stop"}, headers=HX))
    state = row().state
    assert state["phase"] == the_cat.REVEAL and state["round_result"]["caller"] == 0
    assert "Auflösung – Runde 1" in page and "Punkte je Runde" in page
    assert "0 Punkte" in page  # a Stopp on a fresh deal is (almost surely) wrong
    assert_nothing_hidden(page, state, 0)

    page = html(client.post(MOVE, {"aktion": "continue"}, headers=HX))
    state = row().state
    assert state["phase"] == the_cat.PLAY and state["round"] == 2
    assert "Runde 2" in page and "Punkte je Runde" in page
    assert_nothing_hidden(page, state, 0)


def test_demo_correct_stop_in_a_four_stack_game_scores_five(client, cat_game, clock):  # noqa: F811
    start_demo(client, bots=2)
    arrange_demo(
        clock,
        [
            [["grimmig"] * 4, ["frech"] * 4, ["stolz"] * 4, ["albern"] * 3 + ["traurig"]],
            [None] * 4,
            [None] * 4,
        ],
        ["albern", "verwirrt", "hungrig", "verliebt"],
    )
    html(client.post(MOVE, {"aktion": "take:3"}, headers=HX))
    state = row().state
    give = next(c for c in state["stacks"][0][3] if c.startswith("traurig"))
    want = next(c for c in state["middle"] if c.startswith("albern"))
    page = html(client.post(MOVE, {"gib": give, "nimm": want}, headers=HX))
    assert "is-changed" not in page.split("cat-middle")[1].split("</section>")[0]
    page = html(client.post(MOVE, {"aktion": "stop"}, headers=HX))
    state = row().state
    result = state["round_result"]
    assert result["caller"] == 0 and result["caller_right"] is True
    assert result["rows"][0]["points"] == 5 and state["scores"][0] == 5
    assert "4 Stapel + 1 Bonus = 5 Punkte" in page and "zu Recht" in page
    assert page.count("cat-mini is-done") == 4 and "✓ albern" in page


def test_demo_late_swap_is_refused_and_nothing_is_lost(client, cat_game, clock):  # noqa: F811
    start_demo(client, bots=1)
    html(client.post(MOVE, {"aktion": "take:0"}, headers=HX))
    before = row()
    give = before.state["stacks"][0][0][0]
    # A card that left the middle a moment ago: it lies in the bot's stack now.
    taken = before.state["stacks"][1][0][0]
    page = html(client.post(MOVE, {"gib": give, "nimm": taken}, headers=HX))
    assert "Zu spät – die Karte hat gerade jemand genommen." in page
    after = row()
    assert after.state["stacks"] == before.state["stacks"]
    assert after.state["middle"] == before.state["middle"]
    assert_nothing_hidden(page, after.state, 0)
    # Without a hand card chosen the demo says what to do first.
    page = html(client.post(MOVE, {"nimm": after.state["middle"][0]}, headers=HX))
    assert presenter.CHOOSE_FIRST in page


def test_demo_without_javascript_redirects_with_the_note(client, cat_game, clock):  # noqa: F811
    start_demo(client, bots=1)
    response = client.post(MOVE, {"aktion": "put_back", "zurueck": DEMO})
    assert response.status_code == 302 and response["Location"].startswith(DEMO)
    page = html(client.get(DEMO))
    assert "Du hältst gerade keinen Stapel." in page


# --- Rooms --------------------------------------------------------------------------


class Player:
    def __init__(self, name: str):
        self.name = name
        self.client = Client()
        self.url = ""

    def post(self, suffix: str, data: dict | None = None) -> str:
        return html(self.client.post(self.url + suffix, data or {}, headers=HX))

    def poll(self, version: int = 0) -> str:
        return html(self.client.get(self.url + "status/", {"v": version}, headers=HX))


@pytest.fixture
def room_players(cat_game, clock):  # noqa: F811
    """Anna (host, seat 0), Ben (seat 1) and the bot Minka (seat 2) at one table."""
    anna, ben = Player("Anna"), Player("Ben")
    response = anna.client.post(
        "/spiele/the-cat/raum/neu/",
        {"name": "Anna", "target": 20, "speed": "gemuetlich", "cheat": "aus"},
    )
    assert response.status_code == 302
    anna.url = ben.url = response["Location"]
    ben.post("beitreten/", {"name": "Ben"})
    anna.post("bot/", {"token": "t1"})
    anna.post("starten/")
    return anna, ben


def room() -> Room:
    return Room.objects.get()


def test_room_two_people_and_a_bot_play_at_once(room_players, clock):  # noqa: F811
    anna, ben = room_players
    state = room().state
    assert room().status == Room.Status.PLAYING
    assert state["names"] == ["Anna", "Ben", "Minka"] and state["bots"] == [
        None,
        None,
        "gemuetlich",
    ]
    page = anna.post("aktion/", {"aktion": "take:0"})
    assert_nothing_hidden(page, room().state, 0)
    page = ben.post("aktion/", {"aktion": "take:2"})
    state = room().state
    assert state["held"][:2] == [0, 2]
    assert_nothing_hidden(page, state, 1)
    # Each sees the other holding a stack, never its cards.
    page = anna.poll()
    assert "hält einen Stapel" in page
    assert_nothing_hidden(page, room().state, 0)
    # The bot acts when the clock moves; the poll shows it with a highlight if it swapped.
    version = room().version
    clock.advance(20)
    page = anna.poll(version)
    state = room().state
    assert state["bot_steps"][2] >= 2
    assert_nothing_hidden(page, state, 0)
    page = ben.poll(version)
    assert_nothing_hidden(page, room().state, 1)
    # A spectator (a third browser) sees the table without any hand.
    spectator = Client()
    page = html(spectator.get(anna.url))
    assert "du schaust zu" in page
    assert_nothing_hidden(page, room().state, None)


def test_room_two_players_race_for_one_middle_card(room_players, clock):  # noqa: F811
    anna, ben = room_players
    anna.post("aktion/", {"aktion": "take:0"})
    ben.post("aktion/", {"aktion": "take:0"})
    state = room().state
    wanted = state["middle"][1]
    anna_give, ben_give = state["stacks"][0][0][0], state["stacks"][1][0][0]
    # Both chose on the same picture; the server's arrival order decides.
    first = anna.post("aktion/", {"gib": anna_give, "nimm": wanted})
    after_first = room().state
    second = ben.post("aktion/", {"gib": ben_give, "nimm": wanted})
    after_second = room().state
    assert wanted in after_first["stacks"][0][0]
    assert "Zu spät – die Karte hat gerade jemand genommen." in second
    assert "Zu spät" not in first
    assert after_second["stacks"] == after_first["stacks"]
    assert after_second["middle"] == after_first["middle"]
    assert the_cat.card_counts(after_second)["total"] == 52
    assert_nothing_hidden(second, after_second, 1)


def test_room_full_page_and_reveal_show_nothing_hidden(room_players, clock):  # noqa: F811
    anna, ben = room_players
    for player, seat in ((anna, 0), (ben, 1)):
        page = html(player.client.get(player.url))
        assert "the_cat/table.css" in page and "moods.svg#mood-" in page
        assert_nothing_hidden(page, room().state, seat)
    page = ben.post("aktion/", {"aktion": "stop"})
    state = room().state
    assert state["phase"] == the_cat.REVEAL
    assert "Ben hat Stopp gerufen" in anna.poll() and "Du hast Stopp gerufen" in page
    assert "Weiter in" in page  # the room's 45-second timer
    # Nobody confirms: after 45 s the next round is dealt.
    clock.advance(presenter.REVEAL_SECONDS + 1)
    page = anna.poll(room().version)
    assert room().state["round"] == 2 and "Runde 2" in page
    assert_nothing_hidden(page, room().state, 0)


def test_two_player_room_hides_the_removed_moods_until_the_reveal(cat_game, clock):  # noqa: F811
    anna = Player("Anna")
    response = anna.client.post("/spiele/the-cat/raum/neu/", {"name": "Anna"})
    anna.url = response["Location"]
    anna.post("bot/", {"token": "t1"})
    page = anna.post("starten/")
    state = room().state
    assert len(state["removed"]) == 4
    assert_nothing_hidden(page, state, 0)
    assert "vier Launen aus dem Spiel" in page
    for stack in range(4):
        page = anna.post("aktion/", {"aktion": f"take:{stack}"})
        assert_nothing_hidden(page, room().state, 0)
        anna.post("aktion/", {"aktion": "put_back"})
    page = anna.post("aktion/", {"aktion": "stop"})
    assert "Zu zweit aus dem Spiel:" in page
    for mood in room().state["removed"]:
        assert presenter.mood_name(mood) in page


def test_two_player_room_with_the_moods_the_host_chose(cat_game, clock):  # noqa: F811
    """The host picks a set of four moods when opening the room: it holds for the whole
    game, and everyone at the table sees which ones are out (as at a real table)."""
    anna = Player("Anna")
    form = html(anna.client.get("/spiele/the-cat/raum/neu/"))
    for label in ("Zu zweit aus dem Spiel", "Zufall", "ähnliche Farben", "nur gute Laune"):
        assert label in form
    assert "ohne grimmig, erschrocken, traurig und beleidigt" in form
    response = anna.client.post(
        "/spiele/the-cat/raum/neu/", {"name": "Anna", "removed": "gute-laune"}
    )
    anna.url = response["Location"]
    anna.post("bot/", {"token": "t1"})
    page = anna.post("starten/")
    state = room().state
    gone = ["grimmig", "erschrocken", "traurig", "beleidigt"]
    assert state["removed"] == [m for m in the_cat.MOOD_KEYS if m in gone]
    dealt = {the_cat.mood_of(c) for own in state["stacks"] for st in own for c in st}
    assert (
        dealt.isdisjoint(gone) and len(dealt | {the_cat.mood_of(c) for c in state["middle"]}) == 9
    )
    assert "Zu zweit aus dem Spiel: grimmig, erschrocken, traurig, beleidigt." in page
    assert_nothing_hidden(page, state, 0)
    anna.post("aktion/", {"aktion": "stop"})
    anna.post("aktion/", {"aktion": "continue"})
    clock.advance(presenter.REVEAL_SECONDS + 1)
    anna.poll(room().version)
    assert room().state["round"] == 2 and room().state["removed"] == state["removed"]


def test_demo_game_ends_at_the_target_and_offers_another(client, cat_game, clock):  # noqa: F811
    start_demo(client, bots=1, cheat="an", target=12)
    state = row().state
    assert state["cheaters"] == [False, True] and state["target"] == 12
    arrange_demo(
        clock,
        [[["grimmig"] * 4, ["frech"] * 4, ["stolz"] * 4, ["albern"] * 4], [None] * 4],
        None,
        players=2,
        scores=[9, 11],
        target=12,
    )
    page = html(client.post(MOVE, {"aktion": "stop"}, headers=HX))
    state = row().state
    assert state["phase"] == the_cat.OVER and state["outcome"]["winners"] == [0]
    assert "Gewonnen!" in page and "Du gewinnst mit 14 Punkten." in page
    assert "Noch eine Partie" in page and "Zu zweit aus dem Spiel:" in page
    assert_nothing_hidden(page, state, 0)
    page = html(client.post(DEMO + "start/", {"version": row().version, "bots": 1}, headers=HX))
    assert row().state["phase"] == the_cat.PLAY and row().state["scores"] == [0, 0]


def test_news_are_worded_for_each_viewer(room_players, clock):  # noqa: F811
    anna, ben = room_players
    version = room().version
    clock.advance(30)
    live = re.search(r'id="room-live"[^>]*>(.*?)</div>', anna.poll(version), re.S).group(1)
    assert "Minka tauscht „" in live and "aus der Mitte." in live
    page = ben.post("aktion/", {"aktion": "stop", "version": room().version})
    assert "Du rufst Stopp!" in page and "Du hast zu früh gerufen" in page
    page = anna.poll(room().version - 1)
    assert "Ben ruft Stopp!" in page and "Ben hat zu früh gerufen und bekommt 0 Punkte." in page
    assert "Ben hat Stopp gerufen, aber nicht alle Stapel waren fertig" in page


def test_demo_full_pages_show_nothing_hidden(client, cat_game, clock):  # noqa: F811
    start_demo(client, bots=3)
    client.post(MOVE, {"aktion": "take:2"}, headers=HX)
    watch(client, clock, 15)
    pages = [html(client.get(DEMO))]  # the full-screen demo
    pages.append(html(client.get(DEMO, {"zurueck": "/spiele/the-cat/"}, headers=HX)))
    for page in pages:
        assert "Deine Hand: Stapel 3" in page
        assert_nothing_hidden(page, row().state, 0)
    assert_nothing_hidden(html(client.get("/spiele/the-cat/")), row().state, 0)


def test_four_at_the_table_get_three_stacks_each(cat_game, clock):  # noqa: F811
    anna = Player("Anna")
    response = anna.client.post("/spiele/the-cat/raum/neu/", {"name": "Anna", "speed": "flink"})
    anna.url = response["Location"]
    for token in ("a", "b", "c"):
        anna.post("bot/", {"token": token})
    page = anna.post("starten/")
    state = room().state
    assert [len(own) for own in state["stacks"]] == [3, 3, 3, 3]
    assert state["names"][1:] == ["Minka", "Tiger", "Pünktchen"]
    assert page.count("cat-stacks__item") == 3 and page.count('<li class="cat-player') == 3
    for _ in range(10):
        version = room().version
        clock.advance(2)
        page = anna.poll(version)
        assert_nothing_hidden(page, room().state, 0)
    assert sum(room().state["bot_steps"]) >= 20


def test_demo_round_nobody_can_finish_ends_by_vote_or_time(client, cat_game, clock):  # noqa: F811
    start_demo(client, bots=2)
    page = html(client.post(MOVE, {"aktion": "give_up"}, headers=HX))
    state = row().state
    assert state["phase"] == the_cat.REVEAL and state["round_result"]["reason"] == "given_up"
    assert "Alle wollten die Runde beenden" in page
    html(client.post(MOVE, {"aktion": "continue"}, headers=HX))
    # Nobody calls: after the round time the round ends and everyone scores finished stacks.
    page = watch(client, clock, presenter.ROUND_SECONDS + 1, every=1)
    state = row().state
    assert state["round_result"]["reason"] == "time"  # seed 4242: the slow bots never finish
    assert "Die Rundenzeit ist abgelaufen" in page
    assert state["phase"] == the_cat.REVEAL and state["round"] == 2


def test_demo_move_counts_although_the_bots_moved_meanwhile(client, cat_game, clock):  # noqa: F811
    """Bots act between any two clicks: a move is checked by the engine, never refused
    because the page showed an older picture."""
    start_demo(client, bots=3, speed="flink")
    shown = row().version
    watch(client, clock, 6)  # the bots act before the click arrives; the page still shows `shown`
    page = html(client.post(MOVE, {"version": shown, "aktion": "take:0"}, headers=HX))
    state = row().state
    assert state["held"][0] == 0 and sum(state["bot_steps"]) >= 6
    assert "Die Bots waren inzwischen am Zug" not in page and "Deine Hand: Stapel 1" in page
    # What the bots swapped since the page's version is still marked as new.
    swapped = {
        entry["event"]["slot"]
        for entry in row().log
        if entry["v"] > shown and entry["event"]["type"] == "swap"
    }
    middle = page.split("cat-middle")[1].split("</section>")[0]
    assert swapped and middle.count("is-changed") == len(swapped)
    assert "tauscht" in re.search(r'id="the_cat-demo-live"[^>]*>(.*?)</', page, re.S).group(1)


def test_who_took_a_middle_card_is_told_only_to_a_viewer_who_may_swap():
    state = the_cat.new_game(5, 3, {"names": ["Anna", "Ben", "Cleo"]})
    log = []
    for seat, stack in ((0, 0), (1, 0)):
        state, events = the_cat.apply(state, seat, {"type": "take", "stack": stack})
        log += [{"v": len(log) + 1, "event": event} for event in events]
    give = state["stacks"][1][0][0]
    state, events = the_cat.apply(
        state, 1, {"type": "swap", "give": give, "want": state["middle"][2]}
    )
    log += [{"v": len(log) + 1, "event": event} for event in events]
    holding = presenter.present(the_cat.view(state, 0), log=log)
    assert holding["actions"]["swap"]
    took = next(event["took"] for event in events if event["type"] == "swap")
    assert holding["taken"] == [{"mood": the_cat.mood_of(took), "slot": 2, "by": "Ben"}]
    waiting = presenter.present(the_cat.view(state, 2), log=log)  # holds no stack: cannot race
    assert not waiting["actions"]["swap"] and waiting["taken"] == []
