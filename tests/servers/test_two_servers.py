"""Two app servers, one database, one Redis: an Alpaka room where Anna only ever talks to
server A and Ben only to server B, played to the end of a round and into the next."""

from __future__ import annotations

import re

import pytest

from tests.servers.rooms import RoomPlayer, take_turns

pytestmark = pytest.mark.servers


def test_an_alpaka_round_across_two_app_servers(servers):
    server_a, server_b = servers(2)
    assert server_a.port != server_b.port
    anna = RoomPlayer("Anna", server_a)
    ben = RoomPlayer("Ben", server_b)

    code = anna.create()
    ben.join(code)  # on B, into the room A created
    assert "Ben" in anna.poll()  # A sees who joined on B

    # Each browser's push stream stays on its own server.
    streams = {anna: anna.listen(), ben: ben.listen()}
    anna.start()  # on A …
    pushed = streams[ben].wait_for_version(anna.version)  # … pushed to Ben by B
    # The table itself, drawn on A for Ben's seat: Ben's hand, not Anna's.
    assert (pushed["event"], pushed["id"]) == ("view", str(anna.version))
    assert 'data-viewer="seat-' in pushed["data"] and "Deine Hand" in pushed["data"]
    assert ben.poll() and ben.phase == "play" and ben.round == 1
    assert ben.hand() == sorted(re.findall(r'aria-label="Deine Hand: [^"]*"', pushed["data"]))

    moves = take_turns(
        [anna, ben], until=lambda: anna.phase == ben.phase == "scoring", streams=streams
    )
    assert moves >= 2  # both played: each server applied and announced the other's moves
    for player in (anna, ben):
        assert "Wertung – Runde 1" in player.body

    # Both confirm the scoring on their own server; the second one deals round 2.
    anna.act("continue")
    streams[ben].wait_for_version(anna.version)
    ben.poll()
    assert ben.actions() == ["continue"]
    ben.act("continue")
    streams[anna].wait_for_version(ben.version)
    anna.poll()
    assert anna.phase == ben.phase == "play"
    assert anna.round == ben.round == 2
    assert anna.version == ben.version

    # Every request really went where it was sent: room actions on A came from Anna only,
    # on B from Ben only, and both servers wrote them to their access logs.
    def room_posts(server):
        return {
            line["path"].rsplit("/", 2)[-2]
            for line in server.access_log()
            if line["method"] == "POST" and line["path"].startswith("/spiele/alpaka/raum/<code>/")
        }

    assert room_posts(server_a) >= {"starten", "aktion"}
    assert room_posts(server_b) >= {"beitreten", "aktion"}
    assert not any(code in line["path"] for s in (server_a, server_b) for line in s.access_log())
    for stream in streams.values():
        stream.close()
