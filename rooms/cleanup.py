"""Housekeeping: rooms without human activity for a day are removed (with their seats)."""

from __future__ import annotations

from datetime import datetime

from games import clock
from rooms.locked import IDLE_AFTER
from rooms.models import Room


def cleanup(now: datetime | None = None) -> int:
    """Remove rooms without human activity for 24 hours; returns how many."""
    now = now or clock.now()
    deleted, per_model = Room.objects.filter(last_activity__lt=now - IDLE_AFTER).delete()
    return per_model.get(Room._meta.label, 0)
