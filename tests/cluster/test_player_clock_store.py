"""The players' clock settings on a real Redis Cluster: each script touches one player's
slot (`tests/contract/player_clock_store.py`)."""

from __future__ import annotations

import pytest

from domain.store.player_clocks import RedisPlayerClockStore
from tests.contract.player_clock_store import PlayerClockStoreContract


class TestPlayerClockStoreOnACluster(PlayerClockStoreContract):
    @pytest.fixture
    def store(self, cluster_client):
        return RedisPlayerClockStore(cluster_client)
