"""The collaborators every use case works with, built once by the application's bootstrap."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from domain.service.hooks import Hooks, NoHooks
from domain.service.remembered import Remembered
from domain.store.port import EventStore


@dataclass
class Deps:
    store: EventStore
    clock: Callable[[], float] = time.time
    hooks: Hooks = field(default_factory=NoHooks)
    remembered: Remembered = field(default_factory=Remembered)
