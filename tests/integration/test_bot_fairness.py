"""Busy games cannot starve another game's bots: a table has one turn played for it at a
time, searching bots wait in a queue of their own, and two `donkeypost worker` processes
(one per core of the machine the figures come from) serve them."""

from __future__ import annotations

import statistics
import time

import msgspec

from domain.table import to_act
from tests.support.games import games_under_test
from tests.support.workers import WorkerProcess, wait_until
from workers.plan import duties

STRONG_MS = 400
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
