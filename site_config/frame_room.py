"""Room on CPython's frame stack for a request's work: a workaround for CPython
gh-142183 (fixed upstream in March 2026 by keeping one spare chunk per thread,
python/cpython#145789, backported to 3.13 in #146123; the 3.13 on these machines is
3.13.0, see .python-version).

CPython keeps the frames of Python calls in chunks of a per-thread stack. A call that
does not fit into the current chunk gets a new chunk mapped (``mmap``), and the chunk is
unmapped as soon as that call returns. Work that keeps calling across a chunk's end –
a template render starting at an unlucky depth – maps and unmaps memory on every such
call and pays a page fault for every page it touches again. Measured in-process on a
The Cat room move (production settings, PostgreSQL, Redis): each pushed table view drew
in 4–5 ms instead of 1 ms, with about 440 page faults per view and 1,360 per move.

``roomy`` runs a function inside one frame so large that CPython starts a fresh chunk of
512 KB for it; the work below it stays inside that chunk. The big frame's slots are
never written, so they cost address space, not memory; the chunk is mapped once per
call (one request, one round of the deadline loop).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

# Slots of the big frame. CPython sizes a new chunk as the smallest power of two (from
# 16 KB) above the frame plus 1,000 slots of headroom: 32,000 slots of 8 bytes make a
# chunk of 512 KB, about half of it left for the work (a request needs some 50 KB).
FRAME_SLOTS = 32_000


def _call(function, /, *args, **kwargs):
    return function(*args, **kwargs)


# A larger value stack than the function needs: CPython reserves it in the frame and
# never touches the part that is not used.
_call.__code__ = _call.__code__.replace(co_stacksize=_call.__code__.co_stacksize + FRAME_SLOTS)


def roomy(function: Callable) -> Callable:
    """``function`` that runs in a fresh chunk of the frame stack."""

    @functools.wraps(function)
    def in_room(*args, **kwargs):
        return _call(function, *args, **kwargs)

    return in_room
