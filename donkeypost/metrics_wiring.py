"""The metrics wired into a process (`METRICS=on`): what each append counts, the append's
own time, and what a scrape reads from Redis (`api.metrics` says what each series is)."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from datetime import UTC
from typing import Any

import redis
from rq import Queue
from rq.registry import FailedJobRegistry

from api import metrics
from domain.chat import ChatEntry
from domain.connection import RedisClient
from domain.events import Event
from domain.service.hooks import TimerChanges
from domain.store import RedisEventStore, keys
from domain.table import STATUSES, Table
from domain.webhooks.registration import Registration
from workers import heartbeats
from workers.hooks import QUEUES, TIMERS

Samples = dict[str, list[tuple[dict[str, str], float]]]


class MetricsHooks:
    """Counts every append and its events (one hook among the process's others)."""

    def timer_changes(self, table: Table, new_events: Sequence[Event]) -> TimerChanges | None:
        return None

    def after_append(self, table: Table, new_events: Sequence[Event],
                     webhooks: Sequence[Registration] | None = None,
                     timers: TimerChanges | None = None) -> None:
        metrics.count_appended(table.type, (e.type for e in new_events))

    def after_chat(self, table: Table, entries: Sequence[ChatEntry]) -> None:
        pass


class TimedEventStore(RedisEventStore):
    """The Redis event store, timing each append alone."""

    def append(self, *args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return super().append(*args, **kwargs)
        finally:
            metrics.observe_append(time.perf_counter() - started)


def state_reader(store_redis: RedisClient, queue_redis: redis.Redis,
                 game_types: Sequence[str]) -> Any:
    """What a scrape reads from Redis: a fixed number of keys, whatever the number of
    games (one pipeline on the queues' Redis, one on the games')."""
    queues = [Queue(name, connection=queue_redis) for name in QUEUES]
    failed = [FailedJobRegistry(queue=q) for q in queues]

    def read() -> Mapping[str, Sequence[tuple[dict[str, str], float]]]:
        started = time.perf_counter()
        now = time.time()
        out: Samples = {}
        pipe = queue_redis.pipeline(transaction=False)
        for q, f in zip(queues, failed, strict=True):
            pipe.llen(q.key)
            pipe.lindex(q.key, 0)
            pipe.zcard(f.key)
        pipe.zcount(TIMERS, "-inf", now)
        pipe.zrange(TIMERS, 0, 0, withscores=True)
        answers = pipe.execute()
        oldest_ids = []
        for i, q in enumerate(queues):
            depth, first, failed_count = answers[3 * i: 3 * i + 3]
            out.setdefault("donkeypost_queue_jobs", []).append(({"queue": q.name}, depth))
            out.setdefault("donkeypost_jobs_failed", []).append(
                ({"queue": q.name}, failed_count))
            oldest_ids.append(first.decode() if first else None)
        due, first_timer = answers[-2:]
        out["donkeypost_timers_due"] = [({}, due)]
        late = now - first_timer[0][1] if first_timer and first_timer[0][1] < now else 0.0
        out["donkeypost_timers_oldest_due_seconds"] = [({}, late)]
        pipe = queue_redis.pipeline(transaction=False)
        for job_id in oldest_ids:
            pipe.hget(f"rq:job:{job_id}", "enqueued_at") if job_id else pipe.echo("")
        for q, enqueued in zip(queues, pipe.execute(), strict=True):
            age = 0.0
            if enqueued:
                at = _rq_time(enqueued.decode())
                age = max(0.0, now - at) if at is not None else 0.0
            out.setdefault("donkeypost_queue_oldest_job_age_seconds", []).append(
                ({"queue": q.name}, age))
        for kind, beat in heartbeats.last_beats(queue_redis).items():
            out.setdefault("donkeypost_worker_heartbeat_age_seconds", []).append(
                ({"kind": kind}, now - beat if beat is not None else float("inf")))
        ping_started = time.perf_counter()
        store_redis.ping()
        out["donkeypost_redis_round_trip_seconds"] = [({}, time.perf_counter() -
                                                       ping_started)]
        memory = store_redis.info("memory")
        used = memory.get("used_memory", 0) if isinstance(memory, dict) else 0
        out["donkeypost_redis_used_memory_bytes"] = [({}, float(used))]
        pipe = store_redis.pipeline(transaction=False)
        pairs = [(s, t) for s in STATUSES for t in game_types]
        for status, game_type in pairs:
            pipe.zcard(keys.by_status_and_type(status, game_type))
        out["donkeypost_games"] = [({"status": s, "type": t}, n)
                                   for (s, t), n in zip(pairs, pipe.execute(), strict=True)]
        out["donkeypost_scrape_read_seconds"] = [({}, time.perf_counter() - started)]
        return out

    return read


def _rq_time(text: str) -> float | None:
    """RQ's `enqueued_at` (ISO 8601, UTC) as epoch seconds."""
    from datetime import datetime

    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.timestamp()
