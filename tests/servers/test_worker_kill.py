"""SIGKILL in the middle of a game: a Kätzchen-Angeln demo and an Alpaka room continue
where they were once the server is back (same version and table, the next move accepted).

All state lives in the database, none in a worker's memory; a killed worker only
loses the requests it was answering.
"""

from __future__ import annotations

import re

import pytest

from tests.servers.conftest import REQUEST_SECONDS, EventStream, Visitor, attribute
from tests.servers.rooms import RoomPlayer, fingerprint, take_turns

pytestmark = pytest.mark.servers

# The full-screen demo page: the visitor's own table, never a cached page.
DEMO = "/spiele/kaetzchen-angeln/demo/"
CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')


class KaetzchenPlayer(Visitor):
    def open(self) -> str:
        reply = self.get(DEMO)
        assert reply.status == 200
        self.html = reply.text
        return self.html

    def board(self) -> dict:
        return {
            name: attribute(self.html, "kz-game", f"data-{name}")
            for name in ("version", "phase", "turn", "moves", "you", "cat", "status")
        }

    def region(self) -> str:
        """The demo's markup on the page, without the per-response CSRF token."""
        start = self.html.index('id="kz-demo"')
        return CSRF_FIELD.sub("", self.html[start : self.html.index("kaetzchen.js", start)])

    def move(self) -> None:
        """Flip on my turn; ask for Kätzchen's flip on hers (what the page's script does)."""
        board = self.board()
        assert board["phase"] != "over", board
        suffix = "aktion/" if board["turn"] == "you" else "gegner/"
        reply = self.post(DEMO + suffix, {"version": board["version"], "zurueck": DEMO})
        assert reply.status == 200, reply.text[:2000]
        self.html = reply.text
        assert int(self.board()["version"]) == int(board["version"]) + 1, (board, self.board())


def test_kaetzchen_demo_continues_after_its_worker_is_killed(servers):
    (server,) = servers(1)
    me = KaetzchenPlayer(server)
    me.open()
    for _ in range(4):
        me.move()
    me.open()
    before_board, before_region = me.board(), me.region()
    assert int(before_board["moves"]) == 4

    killed = server.kill_worker()
    assert killed not in server.worker_pids()

    me.open()
    assert me.board() == before_board
    assert me.region() == before_region
    me.move()  # the next move is accepted at the version the page shows
    assert int(me.board()["moves"]) == 5


def test_room_game_continues_after_a_killed_worker_and_a_killed_server(servers):
    server_a, server_b = servers(2)
    anna = RoomPlayer("Anna", server_a)
    ben = RoomPlayer("Ben", server_b)
    ben.join(anna.create())
    anna.start()
    take_turns([anna, ben], until=lambda: anna.version >= 6 or anna.phase == "scoring")
    for player in (anna, ben):
        player.refresh()
    before = {player.name: fingerprint(player) for player in (anna, ben)}
    streams = {anna: anna.listen(), ben: ben.listen()}

    server_a.kill_worker()  # the worker holding Anna's stream
    assert streams[anna].ended.wait(REQUEST_SECONDS)
    port = server_b.port
    server_b.kill()  # all of B, master and workers at once
    assert streams[ben].ended.wait(REQUEST_SECONDS)

    # While B is down, a load balancer sends Ben to A: the same table for both.
    ben.server = server_a
    for player in (anna, ben):
        player.refresh()
    assert {player.name: fingerprint(player) for player in (anna, ben)} == before

    # The next move is accepted at the version shown before the kills.
    acting = next(p for p in (anna, ben) if p.my_turn or "continue" in p.actions())
    version = acting.version
    acting.act(acting.choose())
    assert acting.version == version + 1

    # B comes back on its address; Ben's browser reconnects with the last event id it saw
    # and is told at once about the move it missed while B was down.
    server_b.start(port)
    ben.server = server_b
    resumed = EventStream(ben, ben.url("live/"), last_event_id=streams[ben].last_id)
    assert resumed.status == 200
    assert resumed.wait_for_version(version + 1)["id"] == str(version + 1)
    assert ben.poll() and ben.version == version + 1
    anna_resumed = anna.listen(last_event_id=str(version + 1))  # A's new worker, nothing missed

    # And play goes on across both servers, pushes included.
    acting = next(p for p in (anna, ben) if p.my_turn or "continue" in p.actions())
    other = ben if acting is anna else anna
    acting.act(acting.choose())
    other_stream = resumed if other is ben else anna_resumed
    assert other_stream.wait_for_version(acting.version)["id"] == str(acting.version)
    assert other.poll() and other.version == acting.version
    for stream in (resumed, anna_resumed):
        stream.close()
