"""nginx in front of three app servers, configured by the shipped `deploy/nginx/` files.

An Alpaka room is played through the proxy: nginx hands every request to the next
server, so each player's moves, polls and push streams land on all three. In the
middle of the game one server is killed outright (SIGKILL of master and workers). The
streams it held break and are reopened through nginx with Last-Event-ID, as an
EventSource does; they land on the servers still alive, the game goes on, and no move
is lost or applied twice.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.servers.conftest import ROOT, STARTUP_SECONDS, EventStream, free_port
from tests.servers.rooms import RoomPlayer

pytestmark = pytest.mark.servers

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
LOCATIONS = ROOT / "deploy" / "nginx" / "app-locations.conf"


@dataclass
class Proxy:
    """Looks like an app server to ``Visitor``: an address to send requests to."""

    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def nginx_config(directory: Path, port: int, upstreams: list[int]) -> Path:
    """A whole nginx.conf around the shipped locations: our ports, our temp folders."""
    servers = "\n".join(
        f"        server 127.0.0.1:{upstream} max_fails=1 fail_timeout=30s;"
        for upstream in upstreams
    )
    temp = "\n".join(
        f"    {name}_temp_path {directory / name};"
        for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    user = "user root;\n" if os.geteuid() == 0 else ""
    config = directory / "nginx.conf"
    config.write_text(
        f"""{user}worker_processes 1;
pid {directory / "nginx.pid"};
error_log {directory / "error.log"} info;
daemon off;
events {{ worker_connections 512; }}
http {{
    access_log {directory / "access.log"};
{temp}
    upstream kartenregeln {{
{servers}
        keepalive 8;
    }}
    server {{
        listen 127.0.0.1:{port};
        server_name localhost;
        include {LOCATIONS};
    }}
}}
"""
    )
    return config


@pytest.fixture
def proxy(tmp_path):
    """``proxy(servers)`` → nginx on a free port in front of ``servers``; stopped afterwards."""
    if not Path(NGINX).exists():
        pytest.fail("nginx is missing: `make browser` installs Debian's nginx")
    started: list[subprocess.Popen] = []

    def start(app_servers) -> Proxy:
        port = free_port()
        config = nginx_config(tmp_path, port, [server.port for server in app_servers])
        checked = subprocess.run(
            [NGINX, "-t", "-c", str(config), "-p", str(tmp_path)], capture_output=True, text=True
        )
        assert checked.returncode == 0, checked.stderr
        process = subprocess.Popen(
            [NGINX, "-c", str(config), "-p", str(tmp_path)],
            stdout=subprocess.DEVNULL,
            stderr=(tmp_path / "nginx.stderr").open("w"),
        )
        started.append(process)
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as r:
                    if r.status == 200:
                        return Proxy(port)
            except OSError:
                time.sleep(0.1)
        raise RuntimeError((tmp_path / "error.log").read_text())

    try:
        yield start
    finally:
        for process in started:
            process.send_signal(signal.SIGQUIT)  # graceful: finish and exit
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()


def test_the_shipped_nginx_config_is_valid(tmp_path):
    """The production file as shipped, with its TLS paths replaced by a throwaway pair."""
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
         "/CN=kartenregeln.example", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    site = (ROOT / "deploy" / "nginx" / "kartenregeln.conf").read_text()
    site = site.replace("/etc/letsencrypt/live/kartenregeln.example/fullchain.pem", str(cert))
    site = site.replace("/etc/letsencrypt/live/kartenregeln.example/privkey.pem", str(key))
    site = site.replace("/srv/kartenregeln/deploy/nginx/app-locations.conf", str(LOCATIONS))
    (tmp_path / "site.conf").write_text(site)
    config = tmp_path / "nginx.conf"
    config.write_text(
        f"pid {tmp_path / 'nginx.pid'};\nerror_log {tmp_path / 'error.log'};\n"
        f"events {{}}\nhttp {{ include {tmp_path / 'site.conf'}; }}\n"
    )
    checked = subprocess.run(
        [NGINX, "-t", "-c", str(config), "-p", str(tmp_path)], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stderr
    assert "test is successful" in checked.stderr


def _play(players: list[RoomPlayer], streams: dict, moves: int) -> None:
    """``moves`` changes of the table, each made by one player through the proxy and
    announced to the others by push: turns, and confirming a round's scoring."""
    for _ in range(moves):
        for player in players:
            player.poll()
        if all(player.phase == "scoring" for player in players):
            actor = next(player for player in players if "continue" in player.actions())
            action = "continue"
        else:
            acting = [player for player in players if player.my_turn]
            assert len(acting) == 1, [(p.name, p.version, p.phase) for p in players]
            actor = acting[0]
            action = actor.choose()
        actor.act(action)
        for other, stream in streams.items():
            if other is not actor:
                assert int(stream.wait_for_version(actor.version)["id"]) == actor.version


def _reopen(player: RoomPlayer, stream: EventStream) -> EventStream:
    """What an EventSource does when its stream broke: connect again, naming the last id."""
    stream.close()
    return player.listen(last_event_id=stream.last_id)


def test_a_room_through_nginx_survives_one_of_three_servers_dying(servers, proxy):
    app_servers = servers(3)
    entry = proxy(app_servers)
    anna, ben = RoomPlayer("Anna", entry), RoomPlayer("Ben", entry)
    code = anna.create()
    ben.join(code)
    # Three streams opened one after another: nginx hands them to the three servers in
    # turn, so whichever server dies below, one of them breaks. (Anna has two tabs open.)
    streams = {anna: anna.listen(), ben: ben.listen()}
    second_tab = anna.listen()
    anna.start()
    for stream in (*streams.values(), second_tab):
        stream.wait_for_version(anna.version)

    _play([anna, ben], streams, moves=10)
    version_before = anna.version

    # Every server has had a share of this room's requests (nginx passes them round robin).
    def room_requests(server) -> int:
        return sum(
            1 for line in server.access_log() if line["path"].startswith("/spiele/alpaka/raum/")
        )

    assert all(room_requests(server) > 0 for server in app_servers), [
        room_requests(server) for server in app_servers
    ]

    victim = app_servers[1]
    victim.kill()
    # The stream that ran on the dead server ended; like a browser, reopen it with its id.
    tabs = [(anna, streams[anna]), (ben, streams[ben]), (anna, second_tab)]
    broken = [index for index, (_, stream) in enumerate(tabs) if stream.ended.wait(5)]
    assert len(broken) == 1, broken
    for index in broken:
        player, stream = tabs[index]
        tabs[index] = (player, _reopen(player, stream))
    streams = {anna: tabs[0][1], ben: tabs[1][1]}
    second_tab = tabs[2][1]

    # The game goes on across the two servers left; every move is announced to the other.
    anna.poll()
    ben.poll()
    assert anna.version == ben.version == version_before  # nothing lost in the kill
    _play([anna, ben], streams, moves=10)
    anna.poll()
    ben.poll()
    assert anna.version == ben.version == version_before + 10
    # The second tab heard every move too, the ones after its stream moved included.
    assert int(second_tab.wait_for_version(anna.version)["id"]) == anna.version
    # No answer through nginx was an error: every request above checks its status.
    assert victim.process.poll() is not None
    for stream in (*streams.values(), second_tab):
        stream.close()
