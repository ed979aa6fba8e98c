"""The one place that reads the time for game deadlines, so tests can move it."""

from django.utils import timezone

_override = None


def now():
    return _override() if _override is not None else timezone.now()


def set_clock(func):
    """Tests: `set_clock(lambda: fixed_datetime)`; `set_clock(None)` restores real time."""
    global _override
    _override = func
