"""Redis SIGKILLed under `donkeypost serve` while players move as fast as they can: the
supervisor restarts it on its append-only file, every move that was acknowledged (2xx) is in
the log afterwards, and no request got a 500 (503 or a broken connection while it was away).

With `appendfsync always`, the setting that promises it: under `everysec` Redis answers
writes that it holds back while its once-a-second flush runs (README), and about one kill
in eighty lost the moves acknowledged in that instant.
"""

from __future__ import annotations

import os
import signal

from donkeypost.bootstrap import bootstrap
from donkeypost.settings import Settings
from tests.support.players import Player, Players, new_game
from tests.support.serve import ServeProcess
from tests.support.workers import wait_until

CLIENTS = 4


def redis_url(serve: ServeProcess) -> str:
    return f"unix://{serve.data / 'redis.sock'}"


def test_redis_killed_during_concurrent_moves_loses_no_acknowledged_move(tmp_path):
    serve = ServeProcess(tmp_path, "--bot-workers", "1", "--appendfsync", "always",
                         RATE_LIMITS="off")  # the players move as fast as they can
    try:
        serve.wait_listening()
        games = [new_game(serve.url) for _ in range(CLIENTS)]
        with Players([Player(serve.url, g, t) for g, t in games]) as players:
            wait_until(lambda: players.moves() >= 40, 30, "moves before the kill")
            redis_pid = serve.children()["redis"][0]
            at_kill = players.moves()
            os.kill(redis_pid, signal.SIGKILL)
            wait_until(lambda: serve.children().get("redis", [redis_pid]) != [redis_pid],
                       15, "Redis restarted")
            wait_until(lambda: players.moves() >= at_kill + 40, 30, "moves after the restart")
        statuses = players.statuses()
        store = bootstrap(Settings(redis_url=redis_url(serve))).service.store
        logs = {game_id: {e.seq: e for e in store.read(game_id)} for game_id, _ in games}
    finally:
        serve.close()
    print(f"{sum(len(p.acked) for p in players.players)} moves acknowledged; "
          f"answers: {dict(statuses)}")
    assert "500" not in statuses, statuses
    assert set(statuses) - {"200"}, statuses  # the players met the outage
    assert set(statuses) <= {"200", "503", "ConnectError", "ReadError",
                             "RemoteProtocolError"}, statuses
    for player in players.players:
        log = logs[player.game_id]
        for acked in player.acked:
            for event in acked["events"]:
                assert event["seq"] in log, f"acknowledged event {event['seq']} lost"
                assert log[event["seq"]].hash == event["hash"]
    out = serve.output()
    assert "redis (pid" in out and "was killed by SIGKILL" in out
    assert "Traceback" not in out, out[-4000:]
