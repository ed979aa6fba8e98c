"""A bounded store of objects in this process's memory, least recently used out first."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable


class SizedLRU:
    """Objects kept as they are (nothing pickled), thread-safe. Once the summed
    ``size(value)`` passes ``max_size`` or there are more than ``max_entries``, the least
    recently used go first. Readers must not change what they get."""

    def __init__(self, max_size: int, size: Callable[[object], int], max_entries: int = 0):
        self.max_size = max_size
        self.max_entries = max_entries
        self.size_of = size
        self.entries: OrderedDict[str, object] = OrderedDict()
        self.size = 0
        self.lock = threading.Lock()

    def get(self, key: str):
        with self.lock:
            value = self.entries.get(key)
            if value is not None:
                self.entries.move_to_end(key)
            return value

    def put(self, key: str, value) -> None:
        with self.lock:
            old = self.entries.pop(key, None)
            if old is not None:
                self.size -= self.size_of(old)
            self.entries[key] = value
            self.size += self.size_of(value)
            while self.entries and (
                self.size > self.max_size
                or (self.max_entries and len(self.entries) > self.max_entries)
            ):
                _key, dropped = self.entries.popitem(last=False)
                self.size -= self.size_of(dropped)

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()
            self.size = 0
