"""The production server's ASGI worker: uvicorn's, with a calmer heartbeat.

uvicorn's server wakes every 0.1 s to refresh its Date header, tell gunicorn it
lives and look whether it should stop. On this kind of machine (a small VM) a
wake-up of the event loop costs about 0.2 ms of CPU, so five idle workers burnt
1 % of a core doing nothing (``make bench``: "before any reader came"). Here the
same checks run once per ``TICK_SECONDS``: the Date header keeps its one-second
resolution and gunicorn's 30 s timeout sees a heartbeat every second. A worker
told to stop is woken at once (its live streams end at once anyway:
``games.play.streams`` listens to SIGTERM itself).
"""

from __future__ import annotations

import asyncio
import sys

from gunicorn.arbiter import Arbiter
from uvicorn.server import Server
from uvicorn_worker import UvicornWorker

TICK_SECONDS = 1.0


class CalmServer(Server):
    _nap: asyncio.Future | None = None

    async def main_loop(self) -> None:
        # uvicorn's own loop counts tenths of a second and does the once-a-second
        # work at every tenth tick; each tick here is such a tick.
        loop = asyncio.get_running_loop()
        while not await self.on_tick(0):
            self._nap = nap = loop.create_future()
            timer = loop.call_later(TICK_SECONDS, _wake, nap)
            try:
                await nap
            finally:
                timer.cancel()

    def handle_exit(self, sig, frame) -> None:
        super().handle_exit(sig, frame)
        # Runs as a signal handler: call_soon_threadsafe is the loop's call for that.
        nap = self._nap
        if nap is not None:
            nap.get_loop().call_soon_threadsafe(_wake, nap)


def _wake(nap: asyncio.Future) -> None:
    if not nap.done():
        nap.set_result(None)


class CalmUvicornWorker(UvicornWorker):
    async def _serve(self) -> None:
        # uvicorn_worker's own _serve, with the calmer server.
        self.config.app = self.wsgi
        server = CalmServer(config=self.config)
        self._install_sigquit_handler()
        await server.serve(sockets=self.sockets)
        if not server.started:
            sys.exit(Arbiter.WORKER_BOOT_ERROR)
