"""A small bounded map that forgets its least recently used entries.

The service keeps, per process, facts that never change once written: a game's table at a
given version, the seat a token names, a game's seed. Reading them again from Redis costs
a round trip; remembering them costs a few kilobytes each."""

from __future__ import annotations

import contextlib
from collections import OrderedDict
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Lru(Generic[K, V]):
    def __init__(self, size: int) -> None:
        self._size = size
        self._data: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self._data.get(key)
        if value is not None:
            # Forgotten meanwhile by another thread: the value is still a good answer.
            with contextlib.suppress(KeyError):
                self._data.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> None:
        self._data[key] = value
        self._data.move_to_end(key)
        while len(self._data) > self._size:
            self._data.popitem(last=False)

    def __len__(self) -> int:
        return len(self._data)
