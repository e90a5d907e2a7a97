"""The game service the jobs of this process act through.

`run_worker` configures it once, with the same hooks as the web application, so a move a
job makes is followed like any other (the next bot turn, the next deadline, webhooks).
A process that runs jobs without `run_worker` (e.g. plain `rq worker`) gets one built from
the environment on first use: `REDIS_URL` for the games, `RQ_REDIS_URL` (else `REDIS_URL`)
for the queues.
"""

from __future__ import annotations

import os

from domain.connection import connect
from domain.service import GameService, Hooks
from domain.store import RedisEventStore

_service: GameService | None = None


def configure(service: GameService | None) -> None:
    """Use `service` for the jobs of this process (None: build one from the environment)."""
    global _service
    _service = service


def service() -> GameService:
    global _service
    if _service is None:
        _service = service_from_env()
    return _service


def service_from_env(hooks: Hooks | None = None) -> GameService:
    store_url = os.environ.get("REDIS_URL")
    if not store_url:
        raise RuntimeError("REDIS_URL is not set: the workers need the games' Redis")
    if hooks is None:
        from workers.hooks import RqHooks

        hooks = RqHooks.from_url(queue_url())
    return GameService(store=RedisEventStore(connect(store_url)), hooks=hooks)


def queue_url() -> str:
    url = os.environ.get("RQ_REDIS_URL") or os.environ.get("REDIS_URL")
    if not url:
        raise RuntimeError("neither RQ_REDIS_URL nor REDIS_URL is set")
    return url
