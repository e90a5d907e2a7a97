from __future__ import annotations

import pytest

from domain.store.player_clocks import MemoryPlayerClockStore
from tests.contract.player_clock_store import PlayerClockStoreContract


class TestMemoryPlayerClockStore(PlayerClockStoreContract):
    @pytest.fixture
    def store(self):
        return MemoryPlayerClockStore()
