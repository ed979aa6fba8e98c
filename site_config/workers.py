"""The production server's ASGI worker: uvicorn's, with a calmer heartbeat.

uvicorn's server wakes every 0.1 s to refresh its Date header, tell gunicorn it
lives and look whether it should stop. On this kind of machine (a small VM) a
wake-up of the event loop costs about 0.2 ms of CPU, so five idle workers burnt
1 % of a core doing nothing (``make bench``: "before any reader came"). Here the
same checks run once per ``TICK_SECONDS``: the Date header keeps its one-second
resolution, gunicorn's 30 s timeout sees a heartbeat every second, and a worker
told to stop begins its shutdown within a second (its live streams end at once
anyway: ``games.play.streams`` listens to SIGTERM itself).
"""

from __future__ import annotations

import asyncio
import sys

from gunicorn.arbiter import Arbiter
from uvicorn.server import Server
from uvicorn_worker import UvicornWorker

TICK_SECONDS = 1.0


class CalmServer(Server):
    async def main_loop(self) -> None:
        # uvicorn's own loop counts tenths of a second and does the once-a-second
        # work at every tenth tick; each tick here is such a tick.
        while not await self.on_tick(0):
            await asyncio.sleep(TICK_SECONDS)


class CalmUvicornWorker(UvicornWorker):
    async def _serve(self) -> None:
        # uvicorn_worker's own _serve, with the calmer server.
        self.config.app = self.wsgi
        server = CalmServer(config=self.config)
        self._install_sigquit_handler()
        await server.serve(sockets=self.sockets)
        if not server.started:
            sys.exit(Arbiter.WORKER_BOOT_ERROR)
