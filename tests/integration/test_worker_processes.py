"""Deadlines with real `donkeypost worker` processes: two at once, and one killed."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from rq import Worker
from rq.job import Job

from tests.support.workers import (
    WorkerProcess,
    human_and_bots,
    moves_of,
    timeouts,
    wait_until,
)
from workers import jobs


def _finished(service, game_id: str) -> bool:
    return service.load(game_id)[0].status == "finished"


def test_a_deadline_fires_exactly_once_with_two_workers_running(
        service, rq_hooks, redis_client, redis_url, tmp_path):
    """The human never plays: two deadlines pass, then the seat is away and played at once
    to the end of the game. Each deadline is delivered four times (the hooks' timer and
    three copies, as from rebuilds racing the hooks) to two workers."""
    workers = [WorkerProcess(redis_url, tmp_path / f"worker{i}.log") for i in range(2)]
    try:
        wait_until(lambda: Worker.count(connection=redis_client) == 2, 30, "two workers")
        table = human_and_bots(service, first=0, deadline_s=1)
        timer = f"deadline-{table.id}-v{table.version}-s0"
        at = datetime.fromtimestamp(rq_hooks.scheduled["deadlines"].get_scheduled_time(timer)
                                    .timestamp(), tz=UTC)
        copies = [f"{timer}-copy{i}" for i in range(3)]
        queue = rq_hooks.queues["deadlines"]
        for copy in copies:
            queue.schedule_job(queue.create_job(jobs.deadline_passed,
                                                args=(table.id, table.version, 0),
                                                job_id=copy, result_ttl=600), at)
        wait_until(lambda: _finished(service, table.id), 90, "the end of the game",
                   every_s=0.2)
        results = [Job.fetch(j, connection=redis_client).return_value()
                   for j in (timer, *copies)]
    finally:
        codes = [w.stop() for w in workers]
    assert codes == [0, 0], [w.output()[-2000:] for w in workers]
    # One acted; the others found the game moved on, or lost the race to append.
    assert results.count("acted") == 1
    assert set(results) - {"acted"} <= {"superseded", "conflict"}
    log = service.store.read(table.id)
    missed = timeouts(log)
    assert [e.data["seat"] for e in missed] == [0, 0]
    for ev in missed:
        before = service.rebuild(table.id, until=ev.seq - 1)
        assert before.deadline(0) is not None and before.deadline(0) <= ev.at
    played = moves_of(log, 0)
    assert [e.data.get("auto") for e in played[:2]] == ["timeout", "timeout"]
    assert played[2:] and all(e.data.get("auto") == "away" for e in played[2:])


def test_a_timer_lost_with_a_killed_worker_fires_after_a_restart(
        service, rq_hooks, redis_client, redis_url, tmp_path):
    """The worker holding the scheduler is killed with it: its lock outlives it by a
    minute, so no scheduler would release the timer; the restarted worker's rebuild does."""
    lock = "rq:scheduler-lock:deadlines"
    first = WorkerProcess(redis_url, tmp_path / "first.log")
    try:
        wait_until(lambda: redis_client.exists(lock), 30, "the first worker's scheduler")
        table = human_and_bots(service, first=0, deadline_s=2)
        timer = f"deadline-{table.id}-v{table.version}-s0"
        assert rq_hooks.scheduled["deadlines"].get_job_ids() == [timer]
    finally:
        first.kill()
    assert redis_client.exists(lock)  # orphaned: nobody may schedule for a while
    wait_until(lambda: time.time() > table.deadline(0) + 0.5, 5, "the deadline")
    assert timeouts(service.store.read(table.id)) == []

    second = WorkerProcess(redis_url, tmp_path / "second.log")
    try:
        wait_until(lambda: timeouts(service.store.read(table.id)), 30, "the timeout")
    finally:
        assert second.stop() == 0, second.output()[-2000:]
    log = service.store.read(table.id, after=table.version)
    assert [(e.seq, e.data["seat"]) for e in timeouts(log)] == [(table.version + 1, 0)]
    assert log[1].actor == 0 and log[1].data["auto"] == "timeout"
