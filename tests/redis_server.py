"""A Redis of the test's own on a free port, to stop and start again (outage tests).

The shared Redis at 127.0.0.1:6379 is never touched: other test runs use it.
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import time

import pytest

START_SECONDS = 20


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class OwnRedis:
    def __init__(self, port: int | None = None):
        self.port = port or free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> OwnRedis:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.fail("redis-server is not installed (Debian: apt-get install redis-server)")
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--protected-mode", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.answers():
                return self
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server on port {self.port} exited")
            time.sleep(0.05)
        raise RuntimeError(f"redis-server on port {self.port} did not start")

    def answers(self) -> bool:
        with (
            contextlib.suppress(OSError),
            socket.create_connection(("127.0.0.1", self.port), 0.5) as s,
        ):
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
        return False

    def stop(self) -> None:
        """Gone at once, like a crashed Redis (SIGKILL: no goodbye to the clients)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        self.process = None
