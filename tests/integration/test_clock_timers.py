"""Correspondence clocks on RQ (real Redis, in-process burst workers): the timer armed at
the end of the bank, fired once, superseded by a move, rebuilt by a starting worker with
the same due time."""

from __future__ import annotations

import msgspec

from tests.support.games import games_under_test
from tests.support.workers import burst, human_and_bots, moves_of, timeouts
from workers import jobs

BANK, INCREMENT = 3600.0, 600.0
CORRESPONDENCE = {"kind": "correspondence", "bank_s": BANK, "increment_s": INCREMENT}


def _job_id(kind: str, table, seat: int) -> str:
    return f"{kind}-{table.id}-v{table.version}-s{seat}"


def _first_legal(table, seat: int):
    game = games_under_test().game(table.type)
    return msgspec.to_builtins(game.legal_actions(table.game, seat)[0])


def test_the_bank_s_end_is_a_timer_that_fires_once(service, rq_hooks, clock, components):
    table = human_and_bots(service, first=0, time_control=CORRESPONDENCE)
    assert rq_hooks.timers() == {_job_id("deadline", table, 0): table.deadline(0)}
    assert table.deadline(0) == table.clocks[0].since + BANK
    assert jobs.deadline_passed(table.id, table.version, 0) == "early"
    clock.advance(BANK + 1)
    assert rq_hooks.release_due() == 1 and rq_hooks.release_due() == 0
    burst(components, queues=["deadlines"])
    log = service.store.read(table.id, after=table.version)
    assert [e.data for e in timeouts(log)] == [{"seat": 0}]
    assert moves_of(log, 0)[0].data["auto"] == "timeout"
    # The same job again (a duplicate, a second worker) does nothing.
    assert jobs.deadline_passed(table.id, table.version, 0) == "superseded"
    after, _ = service.load(table.id)
    assert after.clocks[0].bank == INCREMENT


def test_a_move_supersedes_the_timer_and_the_next_seat_s_bank_is_armed(service, rq_hooks,
                                                                         clock, components):
    table = service.create("ochs-und-esel", {"rounds": 1, "first_player": 0},
                           [{"kind": "human"}] * 3, time_control=CORRESPONDENCE)
    for name in ("ann", "bob", "cy"):
        *_, table = service.join(table.id, name)
    clock.advance(100)
    moved = service.act(table.id, 0, _first_legal(table, 0)).table
    assert rq_hooks.timers() == {_job_id("deadline", moved, 1): moved.deadline(1)}
    assert moved.clocks[0].bank == BANK  # 100 s spent, the increment fills it again


def test_a_starting_worker_rebuilds_the_same_due_time(service, rq_hooks, clock, components):
    table = human_and_bots(service, first=0, time_control=CORRESPONDENCE)
    due = table.deadline(0)
    rq_hooks.redis.delete("donkeypost:timers")  # lost with the queues' Redis
    clock.advance(1000)  # a restart later: the bank went on running meanwhile
    counts = rq_hooks.rebuild(service.active_games())
    assert (counts.enqueued, counts.armed) == (0, 1)
    assert rq_hooks.timers() == {_job_id("deadline", table, 0): due}


def test_a_bank_s_end_delivered_four_times_acts_once(service, rq_hooks, clock, components):
    """The pump's job and three copies (another pump, a rebuild, a retry) of one clock."""
    table = human_and_bots(service, first=0, time_control=CORRESPONDENCE)
    clock.advance(BANK + 1)
    assert rq_hooks.release_due() == 1
    queue = rq_hooks.queues["deadlines"]
    for n in range(3):
        queue.enqueue(jobs.deadline_passed, table.id, table.version, 0,
                      job_id=f"{_job_id('deadline', table, 0)}-copy{n}", result_ttl=600)
    burst(components, queues=["deadlines"])
    results = [queue.fetch_job(j).return_value() for j in
               [_job_id("deadline", table, 0)] + [f"{_job_id('deadline', table, 0)}-copy{n}"
                                                   for n in range(3)]]
    assert results.count("acted") == 1
    assert set(results) - {"acted"} <= {"superseded", "conflict"}
    assert len(timeouts(service.store.read(table.id))) == 1
