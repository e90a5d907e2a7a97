"""Bot turns, deadlines and away seats on RQ (real Redis, in-process burst workers).

Jobs are also called directly here, as a worker would run them, to pin down what a job
does when it is a duplicate, late, or beaten by a player."""

from __future__ import annotations

import time

import msgspec
import pytest
from rq import SimpleWorker
from rq.job import Job

from domain import bots
from domain.errors import SeatNotAway
from domain.service import GameService
from domain.table import to_act
from tests.support.games import games_under_test
from tests.support.workers import burst, human_and_bots, moves_of, timeouts, wait_until
from workers import jobs
from workers.hooks import JOB_FUNCTIONS


def _job_id(kind: str, table, seat: int) -> str:
    return f"{kind}-{table.id}-v{table.version}-s{seat}"


def _acting(table) -> set[int]:
    return set(to_act(table, games_under_test().game(table.type)))


def _first_legal(service: GameService, table, seat: int):
    game = games_under_test().game(table.type)
    return msgspec.to_builtins(game.legal_actions(table.game, seat)[0])


def test_a_bot_to_act_gets_one_job_named_by_game_version_and_seat(service, rq_hooks):
    table = human_and_bots(service, first=1)
    assert _acting(table) == {1}
    assert rq_hooks.queues["bots"].job_ids == [_job_id("bot", table, 1)]
    # A worker starting now finds the job queued and adds no duplicate.
    counts = rq_hooks.rebuild(service.active_games())
    assert (counts.tables, counts.duties, counts.enqueued, counts.armed) == (1, 1, 0, 0)
    assert rq_hooks.queues["bots"].job_ids == [_job_id("bot", table, 1)]


def test_a_bot_delay_arms_a_timer_for_the_bot_turn(service, rq_hooks):
    table = human_and_bots(service, first=1, bot_delay_s=30)
    assert rq_hooks.queues["bots"].job_ids == []
    assert rq_hooks.timers() == {_job_id("bot", table, 1): table.waiting_since[1] + 30}


def test_a_waiting_human_gets_a_timer_that_a_move_supersedes(service, rq_hooks):
    table = service.create("ochs-und-esel", {"rounds": 1, "first_player": 0},
                           [{"kind": "human"}] * 3, deadline_s=3600)
    for name in ("ann", "bob", "cy"):
        _seat, _token, table = service.join(table.id, name)
    assert rq_hooks.timers() == {_job_id("deadline", table, 0): table.deadline(0)}
    # The view shows the waiting seat's deadline, and only its.
    seats = service.view(table, None)["seats"]
    assert [s["deadline"] for s in seats] == [table.deadline(0), None, None]

    moved = service.act(table.id, 0, _first_legal(service, table, 0)).table
    assert _acting(moved) == {1}
    assert rq_hooks.timers() == {_job_id("deadline", moved, 1): moved.deadline(1)}


def test_no_deadline_no_timer(service, rq_hooks):
    human_and_bots(service, first=0, deadline_s=None)
    assert rq_hooks.timers() == {}
    assert rq_hooks.queues["deadlines"].job_ids == []


def test_a_due_timer_is_released_into_one_job(service, rq_hooks, clock):
    table = human_and_bots(service, first=0, deadline_s=60)
    assert rq_hooks.release_due() == 0  # not due yet
    clock.advance(61)
    assert rq_hooks.release_due() == 1
    assert rq_hooks.release_due() == 0  # claimed: a second pump finds nothing
    assert rq_hooks.timers() == {}
    assert rq_hooks.queues["deadlines"].job_ids == [_job_id("deadline", table, 0)]


def test_a_bot_job_acts_once_however_often_it_runs(service):
    table = human_and_bots(service, first=1)
    version = table.version
    assert jobs.bot_turn(table.id, version, 1) == "acted"
    assert jobs.bot_turn(table.id, version, 1) == "superseded"
    now, _ = service.load(table.id)
    assert _acting(now) == {2}
    assert jobs.bot_turn(table.id, now.version, 1) == "not_to_act"
    assert jobs.away_turn(table.id, now.version, 2) == "not_away"
    assert jobs.deadline_passed(table.id, now.version, 2) == "no_deadline"
    assert jobs.bot_turn("no-such-game", 1, 0) == "unknown_game"
    assert len(moves_of(service.store.read(table.id, after=version), 1)) == 1


def test_a_deadline_job_beaten_by_the_player_is_dropped(service, clock, monkeypatch):
    table = human_and_bots(service, first=0, deadline_s=60)
    clock.advance(61)
    real_choose = bots.choose_action

    def player_acts_meanwhile(level, game, obs, rng, budget=None):
        # The player posts a move while the autoplay bot is still thinking.
        service.act(table.id, 0, _first_legal(service, table, 0))
        return real_choose(level, game, obs, rng, budget)

    monkeypatch.setattr(bots, "choose_action", player_acts_meanwhile)
    assert jobs.deadline_passed(table.id, table.version, 0) == "conflict"
    log = service.store.read(table.id, after=table.version)
    assert timeouts(log) == []
    assert len(moves_of(log, 0)) == 1 and "auto" not in moves_of(log, 0)[0].data


def test_a_deadline_does_not_fire_before_it_passes(service):
    table = human_and_bots(service, first=0, deadline_s=60)
    assert jobs.deadline_passed(table.id, table.version, 0) == "early"
    assert service.load(table.id)[0].version == table.version


def test_two_missed_deadlines_mark_the_seat_away_until_its_owner_acts(
        service, rq_hooks, clock, components):
    table = human_and_bots(service, first=0, deadline_s=60)
    for missed in (1, 2):
        clock.advance(61)
        assert jobs.deadline_passed(table.id, table.version, 0) == "acted"
        burst(components, queues=["bots"])  # the bots play until seat 0's turn
        table, _ = service.load(table.id)
        assert _acting(table) == {0} and table.timeouts_in_row[0] == missed
    # Away: played at once (a job waiting in the queue), no timer.
    assert table.is_away(0)
    assert rq_hooks.queues["deadlines"].job_ids == [_job_id("away", table, 0)]
    assert rq_hooks.timers() == {}
    assert jobs.away_turn(table.id, table.version, 0) == "acted"
    played = service.store.read(table.id, after=table.version)
    assert [e.data.get("auto") for e in moves_of(played, 0)] == ["away"]
    assert timeouts(played) == []
    burst(components, queues=["bots"])
    table, _ = service.load(table.id)
    assert _acting(table) == {0} and table.is_away(0)
    assert rq_hooks.queues["deadlines"].job_ids[-1] == _job_id("away", table, 0)
    # The owner acts before the job runs: the seat is back, and on the clock again.
    result = service.act(table.id, 0, _first_legal(service, table, 0))
    assert result.events[0].type == "seat_returned" and result.events[1].actor == 0
    assert "auto" not in result.events[1].data
    assert result.table.timeouts_in_row[0] == 0
    burst(components)  # the stale away jobs are dropped; the bots play
    table, _ = service.load(table.id)
    if table.status == "active":  # (a one-round game rarely ends this early)
        assert _acting(table) == {0}
        assert rq_hooks.queues["deadlines"].job_ids == []
        assert list(rq_hooks.timers()) == [_job_id("deadline", table, 0)]


def test_an_away_seat_that_comes_back_waits_for_its_owner_again(
        service, rq_hooks, clock, components):
    table = human_and_bots(service, first=0, deadline_s=60)
    with pytest.raises(SeatNotAway):
        service.come_back(table.id, 0)
    for _missed in (1, 2):
        clock.advance(61)
        assert jobs.deadline_passed(table.id, table.version, 0) == "acted"
        burst(components, queues=["bots"])
        table, _ = service.load(table.id)
    assert table.is_away(0) and _acting(table) == {0}
    away_job = _job_id("away", table, 0)
    assert rq_hooks.queues["deadlines"].job_ids == [away_job]
    # Back before the away job ran: the seat is on the clock again and the job is stale.
    back = service.come_back(table.id, 0)
    assert not back.is_away(0) and back.version == table.version + 1
    assert service.store.read(table.id, after=table.version)[0].type == "seat_returned"
    assert list(rq_hooks.timers()) == [_job_id("deadline", back, 0)]
    assert jobs.away_turn(table.id, table.version, 0) != "acted"
    now, _ = service.load(table.id)
    assert now.version == back.version and _acting(now) == {0}


def test_a_timer_that_was_never_armed_fires_when_a_worker_starts(service, components):
    # The process that appended died before its hooks ran: no job, no timer.
    crashed = GameService(service.store, games_under_test())
    table = human_and_bots(crashed, first=0, deadline_s=1)
    wait_until(lambda: time.time() > table.deadline(0), 3, "the deadline")
    burst(components)
    log = service.store.read(table.id, after=table.version)
    assert [(e.seq, e.data["seat"]) for e in timeouts(log)] == [(table.version + 1, 0)]
    assert log[1].actor == 0 and log[1].data["auto"] == "timeout"


@pytest.mark.parametrize("kind", ["bot", "deadline"])
def test_a_worker_starting_releases_overdue_timers(service, rq_hooks, clock, kind):
    """Timers nobody released (every worker was down when they fell due)."""
    if kind == "bot":
        table, seat = human_and_bots(service, first=1, bot_delay_s=5), 1
    else:
        table, seat = human_and_bots(service, first=0, deadline_s=5), 0
    job_id = _job_id(kind, table, seat)
    assert list(rq_hooks.timers()) == [job_id]
    clock.advance(6)
    counts = rq_hooks.rebuild(service.active_games())
    assert (counts.enqueued, counts.armed) == (1, 0)
    assert rq_hooks.timers() == {}
    assert rq_hooks.queues[JOB_FUNCTIONS[kind][0]].job_ids == [job_id]


def test_a_worker_starting_rearms_lost_timers_once(service, rq_hooks):
    no_hooks = GameService(service.store, games_under_test())
    table = human_and_bots(no_hooks, first=0, deadline_s=60)
    assert rq_hooks.timers() == {}
    counts = rq_hooks.rebuild(service.active_games())
    assert (counts.duties, counts.enqueued, counts.armed) == (1, 0, 1)
    assert rq_hooks.timers() == {_job_id("deadline", table, 0): table.deadline(0)}
    assert rq_hooks.rebuild(service.active_games()).armed == 0


def test_a_job_taken_from_its_queue_but_never_started_is_queued_again(service, rq_hooks,
                                                                       redis_client):
    """A worker that pops a job and loses Redis before marking it started leaves it
    `queued` in no queue: the rebuild queues it again."""
    table = human_and_bots(service, first=1)
    job_id = _job_id("bot", table, 1)
    queue = rq_hooks.queues["bots"]
    assert queue.job_ids == [job_id]
    assert rq_hooks.rebuild(service.active_games()).enqueued == 0  # waiting: left alone
    redis_client.lrem(queue.key, 0, job_id)  # what the worker's pop did
    assert Job.fetch(job_id, connection=redis_client).get_status() == "queued"
    assert rq_hooks.rebuild(service.active_games()).enqueued == 1
    assert queue.job_ids == [job_id]


def test_a_job_run_by_a_plain_rq_worker_fails_saying_what_to_run(components, redis_client):
    """The jobs' objects come from `donkeypost worker`; a plain RQ worker has none to give."""
    table = human_and_bots(components.service, first=1)
    queue = components.rq_hooks.queues["bots"]
    SimpleWorker([queue], connection=redis_client).work(burst=True, logging_level="ERROR")
    job = Job.fetch(_job_id("bot", table, 1), connection=redis_client)
    assert job.is_failed
    assert "run it on `donkeypost worker`" in (job.latest_result().exc_string or "")
    assert components.service.load(table.id)[0].version == table.version
