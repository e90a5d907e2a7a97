from __future__ import annotations

import time

import pytest

from domain.service import GameService
from domain.store import RedisEventStore
from workers import context
from workers.hooks import RqHooks


class Clock:
    """Wall-clock time, moved forward at will (deadlines without waiting for them)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def rq_hooks(redis_client, clock) -> RqHooks:
    return RqHooks(redis_client, clock=clock)


@pytest.fixture
def service(redis_client, rq_hooks, clock):
    """The service of the web app and of the jobs: appends are followed by the RQ hooks."""
    svc = GameService(RedisEventStore(redis_client), clock=clock, hooks=rq_hooks)
    context.configure(svc)
    yield svc
    context.configure(None)
