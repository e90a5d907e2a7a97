"""Deadlines with real `donkeypost worker` processes: two at once, and one killed."""

from __future__ import annotations

import math
from datetime import UTC, datetime

import msgspec
import pytest
from rq import Worker
from rq.job import Job

from tests.support.games import games_under_test
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
    to the end of the game. The first deadline is delivered four times (the hooks' timer
    and three copies) to two workers."""
    workers = [WorkerProcess(redis_url, tmp_path / f"worker{i}.log") for i in range(2)]
    try:
        wait_until(lambda: Worker.count(connection=redis_client) == 2, 30, "two workers")
        table = human_and_bots(service, first=0, deadline_s=1)
        timer = f"deadline-{table.id}-v{table.version}-s0"
        assert list(rq_hooks.timers()) == [timer]
        # The copies come through RQ's own scheduler, racing the workers' timer pumps.
        at = datetime.fromtimestamp(math.ceil(table.deadline(0)), tz=UTC)
        copies = [f"{timer}-copy{i}" for i in range(3)]
        queue = rq_hooks.queues["deadlines"]
        for copy in copies:
            queue.schedule_job(queue.create_job(jobs.deadline_passed,
                                                args=(table.id, table.version, 0),
                                                job_id=copy, result_ttl=600), at)
        wait_until(lambda: _finished(service, table.id), 90, "the end of the game",
                   every_s=0.2)
        # The game can end before RQ's scheduler has moved every copy to its queue: wait
        # until each of the four jobs has run.
        wait_until(lambda: all(Job.fetch(j, connection=redis_client).is_finished
                               for j in (timer, *copies)), 30, "every copy run", every_s=0.2)
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


@pytest.mark.parametrize("control", [
    {"deadline_s": 1},
    {"time_control": {"kind": "correspondence", "bank_s": 1, "increment_s": 0.5}}],
    ids=["per_move", "correspondence"])
def test_a_timer_lost_with_a_killed_worker_fires_after_a_restart(
        service, rq_hooks, redis_client, redis_url, tmp_path, control):
    """The worker is killed, scheduler and all, while the strong bot thinks: the bot's move,
    and the human's deadline (or the end of its bank) that move would have armed, now exist
    only as what the stored state implies. The restarted worker rebuilds them: the bot
    moves, the clock fires, once each time."""
    table = human_and_bots(service, first=0, levels=("strong", "basic"), **control)
    first = WorkerProcess(redis_url, tmp_path / "first.log", DONKEYPOST_STRONG_MS="5000")
    try:
        game = games_under_test().game(table.type)
        action = msgspec.to_builtins(game.legal_actions(table.game, 0)[0])
        moved = service.act(table.id, 0, action).table
        bot_job = f"strong-{table.id}-v{moved.version}-s1"  # a strong bot: a strong duty
        wait_until(lambda: Job.fetch(bot_job, connection=redis_client).get_status()
                   == "started", 30, "the strong bot thinking")
    finally:
        first.kill()
    assert service.load(table.id)[0].version == moved.version  # the bot never moved
    assert rq_hooks.timers() == {}

    second = WorkerProcess(redis_url, tmp_path / "second.log", DONKEYPOST_STRONG_MS="200")
    try:
        wait_until(lambda: timeouts(service.store.read(table.id)), 30, "the timeout")
    finally:
        assert second.stop() == 0, second.output()[-2000:]
    log = service.store.read(table.id, after=moved.version)
    assert log[0].actor == 1 and "auto" not in log[0].data  # the bot's own move
    missed = timeouts(log)
    assert missed and {e.data["seat"] for e in missed} == {0}
    for ev in missed:  # each fired once its deadline had passed, never twice for one
        before = service.rebuild(table.id, until=ev.seq - 1)
        assert before.deadline(0) is not None and before.deadline(0) <= ev.at
        assert service.store.read(table.id, after=ev.seq, count=1)[0].actor == 0
