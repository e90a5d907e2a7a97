"""Faults on the real stack: `donkeypost serve`'s workers and web server, each killed with
SIGKILL while a game is played by its bots and deadlines. Each comes back, the game goes on
to its end, and every deadline acts once, after it has passed."""

from __future__ import annotations

import os
import signal
import time

import httpx

from donkeypost.bootstrap import bootstrap
from donkeypost.settings import Settings
from tests.support.receiver import receiving
from tests.support.serve import ServeProcess, alive
from tests.support.workers import timeouts, wait_until


def redis_url(serve: ServeProcess) -> str:
    return f"unix://{serve.data / 'redis.sock'}"


def healthy(serve: ServeProcess) -> bool:
    try:
        return httpx.get(f"{serve.url}/healthz", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def test_killed_workers_and_web_come_back_and_every_duty_acts_once(tmp_path):
    serve = ServeProcess(tmp_path, "--bot-workers", "1", DONKEYPOST_STRONG_MS="50",
                         WEBHOOK_ALLOWED_NETWORKS="127.0.0.0/8", WEBHOOK_ALLOWED_PORTS="1024-65535")
    try:
        serve.wait_listening()
        with httpx.Client(base_url=serve.url, timeout=30) as http, receiving() as receiver:
            # A human who never plays (deadlines of 1 s, then away) against bots that wait
            # 0.3 s before each move: the game needs the bot worker all along.
            r = http.post("/games", json={
                "type": "ochs-und-esel", "options": {"rounds": 2},
                "seats": [{"kind": "human"}, {"kind": "bot", "level": "basic"},
                          {"kind": "bot", "level": "strong"}],
                "deadline_s": 1, "bot_delay_s": 0.3})
            assert r.status_code == 201, r.text
            game_id, creator = r.json()["id"], r.json()["creator_token"]
            r = http.post(f"/games/{game_id}/webhooks", json={"url": receiver.url},
                          headers={"Authorization": f"Bearer {creator}"})
            assert r.status_code == 201, r.text
            assert http.post(f"/games/{game_id}/players", json={"name": "ann"}) \
                .status_code == 201

            def version() -> int:
                return http.get(f"/games/{game_id}").json()["version"]

            def goes_on(what: str) -> None:
                before = version()
                wait_until(lambda: version() > before, 30, f"the game going on after {what}",
                           every_s=0.2)

            restarted: dict[str, float] = {}
            for role in ("bots", "notifier"):
                pid = serve.children()[role][0]
                killed = time.monotonic()
                os.kill(pid, signal.SIGKILL)
                wait_until(lambda role=role, pid=pid: serve.children().get(role, [pid]) != [pid],
                           15, f"{role} restarted")
                goes_on(f"{role} was killed")
                restarted[role] = time.monotonic() - killed
            delivered = len(receiver.requests)
            wait_until(lambda: len(receiver.requests) > delivered, 30,
                       "a webhook delivered by the new notifier")

            worker = serve.web_workers()[0]
            os.kill(worker, signal.SIGKILL)  # gunicorn replaces its worker
            wait_until(lambda: len(serve.web_workers()) == 2 and worker not in
                       serve.web_workers(), 30, "a new web worker")
            goes_on("a web worker was killed")

            master = serve.children()["web"][0]
            killed = time.monotonic()
            os.kill(master, signal.SIGKILL)  # serve restarts gunicorn
            # Until serve notices, the dead master's workers may still answer: a new master
            # first (the old one's workers are killed with it), then its health.
            wait_until(lambda: not alive(master) and
                       serve.children().get("web", [master]) != [master] and healthy(serve),
                       30, "the web server back")
            restarted["web"] = time.monotonic() - killed
            goes_on("gunicorn was killed")

            wait_until(lambda: http.get(f"/games/{game_id}").json()["status"] == "finished",
                       120, "the end of the game", every_s=0.5)
        service = bootstrap(Settings(redis_url=redis_url(serve))).service
        log = service.store.read(game_id)
        # Each deadline acted once it had passed, and played the seat: the autoplayed move
        # follows it.
        missed = timeouts(log)
        assert missed and {e.data["seat"] for e in missed} == {0}
        for ev in missed:
            before = service.rebuild(game_id, until=ev.seq - 1)
            assert before.deadline(0) is not None and before.deadline(0) <= ev.at
            assert service.store.read(game_id, after=ev.seq, count=1)[0].actor == 0
    finally:
        serve.close()
    print("back after SIGKILL: " + ", ".join(f"{k} {v:.1f} s" for k, v in restarted.items()))
    out = serve.output()
    for role in ("bots-1", "notifier", "web"):
        assert f"{role} (pid" in out and f"{role} restarted" in out
    assert "Traceback" not in out, out[-4000:]
