"""The collaborators every use case works with, built once by the application's bootstrap."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from domain.players.clock_settings import VacationPolicy
from domain.registry import GameRegistry
from domain.service.hooks import Hooks, NoHooks
from domain.service.process_memory import Remembered
from domain.store.memory_players import MemoryPlayerStore
from domain.store.memory_ratings import MemoryRatingStore
from domain.store.player_clocks import MemoryPlayerClockStore, PlayerClockStore
from domain.store.port import EventStore, PlayerStore, RatingStore


@dataclass
class Deps:
    store: EventStore
    games: GameRegistry  # the games this process plays (built by the composition root)
    players: PlayerStore = field(default_factory=MemoryPlayerStore)
    ratings: RatingStore = field(default_factory=MemoryRatingStore)
    clock: Callable[[], float] = time.time
    hooks: Hooks = field(default_factory=NoHooks)
    remembered: Remembered = field(default_factory=Remembered)
    player_clocks: PlayerClockStore = field(default_factory=MemoryPlayerClockStore)
    vacations: VacationPolicy = field(default_factory=VacationPolicy)
