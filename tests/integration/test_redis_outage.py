"""A `donkeypost worker` process through Redis outages: Redis is SIGKILLed three times while
bots play and deadlines pass (a deadline per move and a correspondence bank); the worker
waits, resumes within a second or two of each return, says so in one line each way, and
every bot turn and deadline still acts once."""

from __future__ import annotations

import time

from domain.service import NoHooks
from donkeypost.bootstrap import bootstrap
from donkeypost.settings import Settings
from tests.support.redis_process import RedisProcess
from tests.support.workers import WorkerProcess, human_and_bots, timeouts, wait_until

OUTAGES = 3
DOWN_S = 1.0


def test_a_worker_waits_out_redis_outages_and_resumes(tmp_path):
    redis_process = RedisProcess(tmp_path / "redis")
    redis_process.start()
    worker = None
    try:
        service = bootstrap(Settings(redis_url=redis_process.url)).service
        worker = WorkerProcess(redis_process.url, tmp_path / "worker.log")
        # Bots that move 0.3 s after each other (each move arms a timer), and a human who
        # never plays against a deadline of 1 s (the basic bot plays for the seat).
        bots = service.create("ochs-und-esel", {"rounds": 1},
                              [{"kind": "bot", "level": "basic"}] * 3, bot_delay_s=0.3)
        human = human_and_bots(service, first=0, deadline_s=1)
        # The same human on a correspondence bank of 1 s (+0.5 s a turn).
        banked = human_and_bots(service, first=0, time_control={
            "kind": "correspondence", "bank_s": 1, "increment_s": 0.5})

        def version() -> int:
            return service.load(bots.id)[0].version

        wait_until(lambda: version() > bots.version + 2, 60, "the bots playing")
        resumed_after: list[float] = []
        for _ in range(OUTAGES):
            redis_process.kill()
            time.sleep(DOWN_S)
            redis_process.start()
            back, before = time.monotonic(), version()
            wait_until(lambda before=before: version() > before, 15, "a bot move after Redis")
            resumed_after.append(time.monotonic() - back)
        wait_until(lambda: all(service.load(t.id)[0].status == "finished"
                               for t in (bots, human, banked)), 90, "the games over",
                   every_s=0.2)
    finally:
        code = worker.stop() if worker is not None else None
        redis_process.stop()
    out = worker.output()
    assert code == 0, out[-3000:]  # the same process all along, stopped on request
    assert "Traceback" not in out, out[-3000:]
    assert out.count("Redis unreachable") == OUTAGES, out[-3000:]
    assert out.count("Redis reachable again") == OUTAGES, out[-3000:]
    # The next bot move was due 0.3 s after the last; the worker retries every second.
    assert max(resumed_after) < 3.0, resumed_after
    print(f"bot moves resumed {', '.join(f'{s:.2f}' for s in resumed_after)} s after Redis")

    redis_process.start()
    try:
        for game_id in (human.id, banked.id):
            log = service.store.read(game_id)
            missed = timeouts(log)
            assert missed and {e.data["seat"] for e in missed} == {0}
            for ev in missed:  # each fired once its deadline had passed
                before = service.rebuild(game_id, until=ev.seq - 1)
                assert before.deadline(0) is not None and before.deadline(0) <= ev.at
                assert service.store.read(game_id, after=ev.seq, count=1)[0].actor == 0
    finally:
        redis_process.stop()


def test_a_turn_whose_hooks_the_outage_took_is_played_when_redis_is_back(tmp_path):
    """A move stored just before Redis went away may have lost its hooks (here: a game
    created with none). The worker, idle through the outage, rebuilds when Redis is back:
    the bot plays within seconds, not at the next sweep (a minute)."""
    redis_process = RedisProcess(tmp_path / "redis")
    redis_process.start()
    worker = None
    try:
        worker = WorkerProcess(redis_process.url, tmp_path / "worker.log")
        wait_until(lambda: "rebuilt: 0 active games" in worker.output(), 60, "the worker up")
        unhooked = bootstrap(Settings(redis_url=redis_process.url), hooks=NoHooks()).service
        table = human_and_bots(unhooked, first=1)  # a bot to act, and no job for it
        redis_process.kill()
        time.sleep(DOWN_S)
        redis_process.start()
        back = time.monotonic()
        wait_until(lambda: unhooked.load(table.id)[0].version > table.version, 20,
                   "the bot's move")
        took = time.monotonic() - back
    finally:
        code = worker.stop() if worker is not None else None
        redis_process.stop()
    out = worker.output()
    assert code == 0, out[-3000:]
    assert "rebuilt after the outage: 1 active games, 1 jobs enqueued" in out, out[-3000:]
    print(f"the bot moved {took:.2f} s after Redis was back")
    assert took < 5.0
