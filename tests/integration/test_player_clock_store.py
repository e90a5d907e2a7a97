from __future__ import annotations

import pytest

from domain.store.player_clocks import RedisPlayerClockStore
from tests.contract.player_clock_store import PlayerClockStoreContract


class TestRedisPlayerClockStore(PlayerClockStoreContract):
    @pytest.fixture
    def store(self, redis_client):
        return RedisPlayerClockStore(redis_client)
