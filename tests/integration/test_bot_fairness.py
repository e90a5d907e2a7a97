"""Busy games cannot starve another game's bots, nor the ratings: a table has one turn played
for it at a time, searching bots wait in queues of their own behind the quick ones, and
`donkeypost worker` processes serve them as `donkeypost serve` runs them (game workers, and
a quick worker that never searches)."""

from __future__ import annotations

import statistics
import time

import msgspec
from rq import Worker
from rq.job import Job

from domain.table import to_act
from donkeypost.bootstrap import rq_worker
from tests.support.games import games_under_test
from tests.support.workers import WorkerProcess, wait_until
from workers.hooks import GAME_QUEUES, QUICK_QUEUES, rating_job_id
from workers.plan import duties

STRONG_MS = 400
EXPERT_MS = 6000
BUSY_GAMES = 5
REPLIES = 6


def test_a_table_gets_one_turn_played_for_it_at_a_time(service, rq_hooks):
    """Seven bots choose their loads at once (Grand Canyon): one job, the others follow.
    (A deal may open with one seat alone to act: such a table is set aside.)"""
    game = games_under_test().game("canyon-donkeys")
    for _ in range(20):
        table = service.create("canyon-donkeys", {}, [{"kind": "bot", "level": "strong"}] * 7)
        acting = sorted(to_act(table, game))
        if len(acting) > 1:
            break
    assert len(acting) > 1
    planned = duties(table, game)
    assert [(d.kind, d.seat) for d in planned] == [("strong", acting[0])]
    queued = [j for j in rq_hooks.queues["strong-bots"].job_ids if table.id in j]
    assert queued == [planned[0].job_id]
    assert rq_hooks.queues["bots"].job_ids == []


def test_busy_strong_games_do_not_starve_another_games_bot_reply(
        service, redis_client, redis_url, tmp_path):
    workers = [WorkerProcess(redis_url, tmp_path / f"worker{i}.log",
                             DONKEYPOST_STRONG_MS=str(STRONG_MS), DONKEYPOST_LOG_LEVEL="WARNING")
               for i in range(2)]
    try:
        # Both listening before anything is queued (a worker still starting on a busy
        # machine would be counted as the wait this test is about).
        wait_until(lambda: len(Worker.all(connection=redis_client)) == 2, 60,
                   "both workers listening")
        busy = [service.create("ochs-und-esel", {"rounds": 1},
                               [{"kind": "bot", "level": "strong"}] * 12)
                for _ in range(BUSY_GAMES)]

        def busy_moves() -> int:
            return sum(service.load(t.id)[0].version for t in busy)

        wait_until(lambda: busy_moves() > sum(t.version for t in busy) + 4, 60,
                   "the strong games under way")
        probe = service.create("ochs-und-esel", {"rounds": 1, "first_player": 0},
                               [{"kind": "human"}, {"kind": "bot", "level": "basic"},
                                {"kind": "bot", "level": "basic"}], deadline_s=None)
        _seat, _token, probe = service.join(probe.id, "ann")
        game = games_under_test().game(probe.type)
        replies: list[float] = []
        busy_before = busy_moves()
        for _ in range(REPLIES):
            table, _ = service.load(probe.id)
            action = msgspec.to_builtins(game.legal_actions(table.game, 0)[0])
            moved = service.act(probe.id, 0, action).table
            sent = time.monotonic()

            def replied(after: int = moved.version) -> bool:
                now, _ = service.load(probe.id)
                return now.version > after and (now.status == "finished"
                                                 or to_act(now, game) == {0})

            wait_until(replied, 30, "the bots' replies", every_s=0.01)
            replies.append(time.monotonic() - sent)
        busy_during = busy_moves() - busy_before
    finally:
        codes = [w.stop() for w in workers]
    assert codes == [0, 0], [w.output()[-2000:] for w in workers]
    median = statistics.median(replies)
    print(f"two basic bots' replies beside {BUSY_GAMES} busy 12-seat strong games "
          f"({STRONG_MS} ms a move, 2 workers): median {median:.3f} s, max "
          f"{max(replies):.3f} s; the strong games made {busy_during} moves meanwhile")
    # Each reply waits at most for a worker to finish the strong move it is thinking (then
    # the quick queue goes first), not for the strong moves queued before it: in one queue,
    # that was 5 moves of the busy games over 2 workers, ~1 s here, ~1.9 s at 750 ms.
    assert max(replies) < 2 * STRONG_MS / 1000 + 0.5, replies
    assert median < STRONG_MS / 1000 + 0.2, replies
    assert busy_during > 0  # and the strong games go on beside it


def _rated_game_ended(service) -> str:
    """Ann and Bob start a rated game of Trash; Ann resigns, which ends it: its rating job
    is queued."""
    ann, _ = service.register_player("Ann")
    bob, _ = service.register_player("Bob")
    table = service.create("trash", None, [{"kind": "human", "me": True},
                                           {"kind": "human", "invite": "Bob"}],
                           deadline_s=None, by=ann)
    service.join(table.id, None, bob)
    assert service.resign(table.id, 0).status == "finished"
    return table.id


def test_the_worker_takes_a_rating_before_any_queued_search(components, service, rq_hooks):
    """A worker's order: the quick queues first; a search queue just served goes behind the
    other search queues (strong, expert and the analyses take turns); the archive last."""
    worker = rq_worker(components, GAME_QUEUES)
    order = lambda: [q.name for q in worker._ordered_queues]  # noqa: E731
    quick = ["deadlines", "ratings", "bots"]
    assert order() == [*quick, "strong-bots", "expert-bots", "analysis", "archive"]
    worker.reorder_queues(rq_hooks.queues["strong-bots"])
    assert order() == [*quick, "expert-bots", "analysis", "strong-bots", "archive"]
    worker.reorder_queues(rq_hooks.queues["ratings"])
    assert order() == [*quick, "expert-bots", "analysis", "strong-bots", "archive"]
    worker.reorder_queues(rq_hooks.queues["expert-bots"])
    assert order() == [*quick, "analysis", "strong-bots", "expert-bots", "archive"]
    # Strong turns wait in their queue, a rating comes after them: the rating goes first.
    strong = [service.create("ochs-und-esel", {"rounds": 1},
                             [{"kind": "bot", "level": "strong"}] * 3) for _ in range(2)]
    game_id = _rated_game_ended(service)
    assert len(rq_hooks.queues["strong-bots"].job_ids) == len(strong)
    job = worker.dequeue_job_and_maintain_ttl(timeout=1)
    assert job is not None and job[0].id == rating_job_id(game_id)


def test_ratings_and_quick_bots_are_not_held_up_by_searches(service, redis_client, redis_url,
                                                            tmp_path):
    """The attack: five all-expert 12-seat games (6 s a move) and two all-strong ones keep a
    game worker searching; a rated game ends, and a person plays against quick bots. The
    quick worker rates it and replies at once."""
    env = {"DONKEYPOST_STRONG_MS": str(STRONG_MS), "DONKEYPOST_EXPERT_MS": str(EXPERT_MS)}
    workers = [WorkerProcess(redis_url, tmp_path / "game.log", queues=GAME_QUEUES, **env),
               WorkerProcess(redis_url, tmp_path / "quick.log", queues=QUICK_QUEUES, **env)]
    try:
        # Both listening before anything is queued (a worker still starting on a busy
        # machine would be counted as the wait this test is about).
        wait_until(lambda: len(Worker.all(connection=redis_client)) == 2, 60,
                   "both workers listening")
        busy = [service.create("ochs-und-esel", {"rounds": 1},
                               [{"kind": "bot", "level": level}] * 12)
                for level in ("expert",) * BUSY_GAMES + ("strong",) * 2]
        wait_until(lambda: sum(service.load(t.id)[0].version for t in busy)
                   > sum(t.version for t in busy), 60, "the searches under way")
        game_id = _rated_game_ended(service)
        job = wait_until(lambda: (j := Job.fetch(rating_job_id(game_id),
                                                 connection=redis_client)).ended_at and j,
                         30, "the rating")
        rated_after = (job.ended_at - job.enqueued_at).total_seconds()
        # (Where the time went, should the bound below not hold.)
        rating = (f"queued {job.enqueued_at:%H:%M:%S.%f}, started "
                  f"{job.started_at:%H:%M:%S.%f} by {job.worker_name}, ended "
                  f"{job.ended_at:%H:%M:%S.%f}")
        assert job.return_value() == "rated"
        probe = service.create("ochs-und-esel", {"rounds": 1, "first_player": 0},
                               [{"kind": "human"}, {"kind": "bot", "level": "basic"},
                                {"kind": "bot", "level": "basic"}], deadline_s=None)
        _seat, _token, probe = service.join(probe.id, "cy")
        game = games_under_test().game(probe.type)
        replies: list[float] = []
        for _ in range(3):
            table, _ = service.load(probe.id)
            action = msgspec.to_builtins(game.legal_actions(table.game, 0)[0])
            moved = service.act(probe.id, 0, action).table
            sent = time.monotonic()

            def replied(after: int = moved.version) -> bool:
                now, _ = service.load(probe.id)
                return now.version > after and (now.status == "finished"
                                                 or to_act(now, game) == {0})

            wait_until(replied, 30, "the bots' replies", every_s=0.01)
            replies.append(time.monotonic() - sent)
    finally:
        codes = [w.stop() for w in workers]
    assert codes == [0, 0], [w.output()[-2000:] for w in workers]
    print(f"beside {BUSY_GAMES} all-expert ({EXPERT_MS} ms) and 2 all-strong 12-seat games: "
          f"rated {rated_after:.3f} s after the end; quick bots replied in "
          f"{', '.join(f'{r:.3f}' for r in replies)} s")
    # Without the quick worker the rating would wait for the expert search under way (up
    # to 6 s, 3 s on average); in the old queue order, for every search queued before it
    # (minutes). The bound leaves room for a machine busy with other work.
    assert rated_after < 2.0, (rating, [w.output()[-3000:] for w in workers])
    assert max(replies) < 2.0
