"""site_config/frame_room.py: a request's work runs in a fresh chunk of CPython's frame
stack, so calls across a chunk's end do not map and unmap memory on every call
(CPython gh-142183), and the production entry points use it."""

from __future__ import annotations

import asyncio
import io
import resource
import sys

import pytest

from games.play import deadline_loop
from site_config import frame_room

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="page faults per thread: Linux's getrusage"
)

RUSAGE_THREAD = getattr(resource, "RUSAGE_THREAD", 1)


def _faults(function) -> int:
    before = resource.getrusage(RUSAGE_THREAD).ru_minflt
    function()
    return resource.getrusage(RUSAGE_THREAD).ru_minflt - before


def _recurse(depth: int) -> int:
    return 0 if depth == 0 else _recurse(depth - 1) + 1  # small ints: allocates nothing


def _work() -> None:
    for _ in range(200):
        _recurse(40)


def _at_depth(depth: int, function) -> None:
    if depth == 0:
        function()
    else:
        _at_depth(depth - 1, function)


def _worst_faults(run) -> int:
    """The most page faults of ``run(_work)`` started at any of many stack depths: one
    of them puts the work's calls across the end of a chunk."""
    run(_work)  # the pages of the first chunks are there from now on
    return max(_faults(lambda d=depth: _at_depth(d, lambda: run(_work))) for depth in range(300))


def test_work_in_the_room_maps_no_memory_call_after_call():
    # 200 calls across a chunk's end would fault at least once each on CPython 3.13.0;
    # in the room, only the fresh chunk's few touched pages fault, once.
    assert _worst_faults(lambda work: frame_room.roomy(work)()) < 40


def test_the_room_costs_one_fresh_chunk_per_call_not_memory():
    # The big frame's slots are never written: a call touches a handful of pages.
    in_room = frame_room.roomy(_recurse)
    assert max(_faults(lambda: in_room(10)) for _ in range(50)) < 20


def _recording(monkeypatch) -> list:
    calls = []
    real = frame_room._call

    def recording(function, /, *args, **kwargs):
        calls.append(function)
        return real(function, *args, **kwargs)

    monkeypatch.setattr(frame_room, "_call", recording)
    return calls


def _environ(path: str) -> dict:
    return {
        "REQUEST_METHOD": "GET", "PATH_INFO": path, "QUERY_STRING": "", "SERVER_NAME": "testserver",
        "SERVER_PORT": "80", "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(),
        "wsgi.errors": io.StringIO(), "HTTP_HOST": "testserver",
    }  # fmt: skip


def test_the_sync_workers_run_each_request_in_the_room(monkeypatch, db):
    from site_config import wsgi

    calls = _recording(monkeypatch)
    statuses = []
    body = wsgi.application(
        _environ("/healthz"), lambda status, headers, *_: statuses.append(status)
    )
    b"".join(body)
    assert statuses and calls


def test_the_asgi_workers_run_each_request_in_the_room(monkeypatch, db):
    from tests.asgi_support import asgi_getter

    calls = _recording(monkeypatch)
    status, _headers, _body, through_django = asgi_getter(monkeypatch)("/healthz")
    assert through_django and calls


def test_a_round_of_the_deadline_loop_runs_in_the_room(monkeypatch, db):
    calls = _recording(monkeypatch)

    class Hub:
        stopping = False

        def on_due(self, callback):
            pass

        def on_watch(self, callback):
            pass

        def on_close(self, callback):
            pass

    async def one_round():
        return await deadline_loop.DeadlineLoop(Hub())._run_round([], None)

    assert asyncio.run(one_round()) == (None, None)
    assert calls
