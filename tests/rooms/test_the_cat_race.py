"""The Cat's real race on PostgreSQL: thirty requests at the same moment for one middle
card, then thirty „Stopp!“ – exactly one wins each time, every other request gets the
German „Zu spät …“, none a server error.

Four people at one table, each with a browser of their own; every request goes through
the room's HTTP view (the public entry point), each on its own database connection, so
the room's row lock decides. PostgreSQL only (marker ``postgresql``): SQLite's in-memory
test database refuses concurrent writers instead of queueing them; ``make test-db`` runs it.
"""

from __future__ import annotations

import pytest
from django.test import Client

from rooms.models import Room
from tests.factories import make_game
from tests.races import pool_for, race

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgresql]

RACERS = 30
HX = {"HX-Request": "true"}
NAMES = ["Anna", "Ben", "Cem", "Dana"]
LATE_SWAP = "Zu spät – die Karte hat gerade jemand genommen."
REPEATED_SWAP = "Zu spät – diese Karte hast du dir gerade schon geholt."


def browser_like(client: Client) -> Client:
    """A new client with the same cookies (one per request: clients are not thread-safe)."""
    copy = Client()
    for name, morsel in client.cookies.items():
        copy.cookies[name] = morsel.value
    return copy


@pytest.fixture
def table(clock):
    """Four players at a The Cat table in play, each holding their first stack."""
    make_game("the-cat", title="The Cat", demo_engine="the_cat", players_max=4)
    players = [Client() for _ in NAMES]
    response = players[0].post("/spiele/the-cat/raum/neu/", {"name": NAMES[0], "target": 20})
    assert response.status_code == 302
    url = response["Location"]
    for client, name in zip(players[1:], NAMES[1:], strict=True):
        assert client.post(url + "beitreten/", {"name": name}, headers=HX).status_code == 200
    assert players[0].post(url + "starten/", headers=HX).status_code == 200
    for client in players:
        assert client.post(url + "aktion/", {"aktion": "take:0"}, headers=HX).status_code == 200
    room = Room.objects.get()
    assert room.status == Room.Status.PLAYING and room.state["held"] == [0, 0, 0, 0]
    return url, players


def send_all(url, players, data_of) -> list[tuple[int, int, str]]:
    """RACERS requests at once, taking turns over the players: (seat, status, body)."""
    calls = []
    for number in range(RACERS):
        seat = number % len(players)
        client = browser_like(players[seat])

        def call(client=client, seat=seat):
            response = client.post(url + "aktion/", data_of(seat), headers=HX)
            return seat, response.status_code, response.content.decode()

        calls.append(call)
    with pool_for(RACERS):
        results = race(calls)
    assert [r for r in results if isinstance(r, Exception)] == []
    return results


def test_thirty_requests_for_one_middle_card_one_wins(table):
    url, players = table
    before = Room.objects.get()
    wanted = before.state["middle"][1]
    gives = [before.state["stacks"][seat][0][0] for seat in range(len(players))]

    results = send_all(url, players, lambda seat: {"gib": gives[seat], "nimm": wanted})

    assert {status for _, status, _ in results} == {200}
    winners = [(seat, body) for seat, _, body in results if "Zu spät" not in body]
    assert len(winners) == 1, [body[:300] for _, _, body in results if "Zu spät" not in body]
    ((winner, _),) = winners
    for seat, _, body in results:
        if "Zu spät" in body:
            assert (REPEATED_SWAP if seat == winner else LATE_SWAP) in body
    after = Room.objects.get()
    assert after.version == before.version + 1
    holders = [s for s in range(len(players)) if wanted in after.state["stacks"][s][0]]
    assert holders == [winner]
    assert after.state["middle"][1] == gives[winner]
    print(f"one middle card, {RACERS} requests: 1 applied, {RACERS - 1} „Zu spät“")


def test_thirty_stopp_at_once_one_wins(table):
    url, players = table
    before = Room.objects.get()

    results = send_all(url, players, lambda seat: {"aktion": "stop"})

    assert {status for _, status, _ in results} == {200}
    winners = [seat for seat, _, body in results if "Zu spät" not in body]
    assert len(winners) == 1, winners
    (winner,) = winners
    after = Room.objects.get()
    assert after.state["round_result"]["caller"] == winner
    assert after.state["phase"] == "reveal"
    assert after.version == before.version + 1
    for seat, _, body in results:
        if seat == winner:
            expected = "Zu spät – du hast schon „Stopp!“ gerufen."
        else:
            expected = f"Zu spät – {NAMES[winner]} hat schon „Stopp!“ gerufen."
        if "Zu spät" in body:
            assert expected in body
