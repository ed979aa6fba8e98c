"""Playing an Alpaka room over real HTTP: what a player's browser would send and read."""

from __future__ import annotations

import re

from tests.servers.conftest import AppServer, EventStream, Visitor, attribute

SLUG = "alpaka"
BUTTON = re.compile(r"<button\b[^>]*>", re.S)


class RoomPlayer(Visitor):
    """A visitor at one Alpaka room; remembers the room body it saw last."""

    def __init__(self, name: str, server: AppServer):
        super().__init__(server)
        self.name = name
        self.code: str | None = None
        self.body = ""

    def url(self, suffix: str = "") -> str:
        return f"/spiele/{SLUG}/raum/{self.code}/{suffix}"

    def listen(self, last_event_id: str | None = None) -> EventStream:
        """The room's push stream on this player's server; waits for its ``ready`` event."""
        stream = EventStream(self, self.url("live/"), last_event_id)
        assert stream.status == 200, stream.status
        ready = stream.next()
        assert ready["event"] == "ready", ready
        return stream

    def create(self) -> str:
        self.get(f"/spiele/{SLUG}/raum/neu/")  # the form sets the CSRF cookie
        reply = self.post(
            f"/spiele/{SLUG}/raum/neu/",
            {"name": self.name, "variant": "klassisch", "target": "40"},
            htmx=False,
        )
        assert reply.status == 302, reply.text[:2000]
        self.code = re.search(r"/raum/([\w-]+)/$", reply.headers["Location"]).group(1)
        self.refresh()
        return self.code

    def join(self, code: str) -> None:
        self.code = code
        self.refresh()
        assert "Mitspielen" in self.body
        self._take(self.post(self.url("beitreten/"), {"name": self.name}))

    def refresh(self) -> str:
        """The whole room page; keeps its room body."""
        reply = self.get(self.url())
        assert reply.status == 200, reply.text[:2000]
        self.body = reply.text
        return self.body

    def poll(self) -> str:
        """What the page's poll does: 204 keeps the body, 200 brings a new one."""
        reply = self.get(self.url(f"status/?v={self.version}"), htmx=True)
        assert reply.status in (200, 204), reply.text[:2000]
        if reply.status == 200:
            self._take(reply)
        return self.body

    def _take(self, reply) -> None:
        assert reply.status == 200, reply.text[:2000]
        assert 'id="room-body"' in reply.text, reply.text[:2000]
        self.body = reply.text

    @property
    def version(self) -> int:
        return int(attribute(self.body, "room-body", "data-version"))

    @property
    def phase(self) -> str | None:
        found = re.search(r'<section class="alp[^"]*"[^>]*data-phase="(\w+)"', self.body)
        return found.group(1) if found else None

    @property
    def round(self) -> int | None:
        found = re.search(r'class="alp-bar__round[^"]*">Runde (\d+)<', self.body)
        return int(found.group(1)) if found else None

    @property
    def my_turn(self) -> bool:
        return "alp--my-turn" in self.body

    def actions(self) -> list[str]:
        """The values of the enabled action buttons (what the player may click now)."""
        values = []
        for tag in BUTTON.findall(self.body):
            if 'name="aktion"' in tag and " disabled" not in tag:
                values.append(re.search(r'value="([^"]+)"', tag).group(1))
        return values

    def hand(self) -> list[str]:
        return sorted(re.findall(r'aria-label="Deine Hand: [^"]*"', self.body))

    def act(self, action: str) -> None:
        before = self.version
        self._take(self.post(self.url("aktion/"), {"aktion": action, "version": before}))
        assert self.version > before, f"{self.name}: {action} at version {before} not applied"

    def start(self) -> None:
        self._take(self.post(self.url("starten/"), {"version": self.version}))

    def choose(self) -> str:
        """A simple, always legal plan: play a card when one fits, else draw, else get out.

        (Quitting early would end a two-player round after one move.)
        """
        actions = self.actions()
        assert actions, f"{self.name} has no action although it is their turn"
        plays = [action for action in actions if action.startswith("play:")]
        if plays:
            return plays[0]
        for preferred in ("draw", "quit"):
            if preferred in actions:
                return preferred
        return actions[0]


def take_turns(players: list[RoomPlayer], until, max_moves: int = 400, streams=None) -> int:
    """Each player reads the table from their own server; whoever's turn it is acts there.

    With ``streams`` (player → EventStream on that player's server) every other
    player first waits for the push notice of each move, then fetches the table,
    as the page does. Stops when ``until()`` holds; returns the number of moves.
    """
    for moves in range(max_moves):
        for player in players:
            player.poll()
        if until():
            return moves
        acting = [player for player in players if player.my_turn]
        assert len(acting) == 1, [(p.name, p.version, p.phase) for p in players]
        acting[0].act(acting[0].choose())
        for player, stream in (streams or {}).items():
            if player is not acting[0]:
                notice = stream.wait_for_version(acting[0].version)
                assert int(notice["id"]) == acting[0].version
    raise AssertionError(f"no end after {max_moves} moves")


def fingerprint(player: RoomPlayer) -> dict:
    """What the player sees of the table, without what the clock changes (countdowns)."""
    body = player.body
    discard = re.search(r'aria-label="Oben auf dem Ablagestapel: ([^"]*)"', body)
    draw = re.search(r"Nachziehstapel: <strong>([^<]*)</strong>", body)
    return {
        "version": player.version,
        "phase": player.phase,
        "round": player.round,
        "my_turn": player.my_turn,
        "actions": player.actions(),
        "hand": player.hand(),
        "discard": discard.group(1) if discard else None,
        "draw": draw.group(1) if draw else None,
    }
