"""`donkeypost serve` with `WEB_SERVER=granian`: a game played over HTTP, an event stream and
a long-poll woken by its moves, a killed web worker replaced by granian, a clean stop."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from typing import Any

import httpx

from tests.support.live import SseMessage, open_stream
from tests.support.processes import alive, children_of, cmdline, free_port
from tests.support.redis_process import RedisProcess
from tests.support.serve import ServeProcess
from tests.support.workers import wait_until


def _healthy(url: str) -> bool:
    try:
        return httpx.get(f"{url}/healthz", timeout=5).status_code == 200
    except httpx.HTTPError:
        return False


def _play_one(http: httpx.Client, game_id: str, tokens: list[str]) -> dict[str, Any]:
    seat = http.get(f"/games/{game_id}").json()["to_act"][0]
    auth = {"Authorization": f"Bearer {tokens[seat]}"}
    view = http.get(f"/games/{game_id}", headers=auth).json()
    r = http.post(f"/games/{game_id}/actions", json=view["legal_actions"][0],
                  headers={**auth, "If-Match": f'"{view["version"]}"'})
    assert r.status_code == 200, r.text
    return r.json()


def test_serve_with_granian_plays_streams_replaces_a_killed_worker_and_stops(tmp_path):
    # No rate limits: the test plays a whole game from one address as fast as it can.
    serve = ServeProcess(tmp_path, "--bot-workers", "1", WEB_SERVER="granian", RATE_LIMITS="off")
    try:
        serve.wait_listening()
        assert "granian" in serve.output()
        web = serve.children()["web"]
        assert len(web) == 1 and len(serve.web_workers()) == 2
        wait_until(lambda: _healthy(serve.url), 60, "every part healthy")
        with httpx.Client(base_url=serve.url, timeout=30) as http:
            r = http.post("/games", json={"type": "ochs-und-esel", "options": {"rounds": 1},
                                          "seats": [{"kind": "human"}] * 3, "deadline_s": None})
            assert r.status_code == 201, r.text
            game_id = r.json()["id"]
            tokens = [""] * 3
            for name in ("ann", "bob", "cy"):
                joined = http.post(f"/games/{game_id}/players", json={"name": name}).json()
                tokens[joined["seat"]] = joined["token"]
            version = http.get(f"/games/{game_id}").json()["version"]

            # A spectator's stream and a long-poll wait on the web workers' threads.
            streamed: list[SseMessage] = []
            stream_open = threading.Event()
            cuts: list[int] = []

            def watch() -> None:
                # As a browser does: a stream cut (its worker killed) resumes where it was.
                after = version
                while not streamed or streamed[-1].event != "game_finished":
                    try:
                        with open_stream(serve.url, game_id, after=after, timeout_s=60) as (
                                response, messages):
                            assert response.status_code == 200
                            stream_open.set()
                            for m in messages:
                                if isinstance(m, SseMessage):
                                    streamed.append(m)
                                    after = int(m.id) if m.id else after
                                    if m.event == "game_finished":
                                        return
                    except httpx.TransportError:
                        cuts.append(after)
                        time.sleep(0.2)

            watcher = threading.Thread(target=watch, daemon=True)
            watcher.start()
            assert stream_open.wait(30)
            polled: list[httpx.Response] = []
            poller = threading.Thread(target=lambda: polled.append(httpx.get(
                f"{serve.url}/games/{game_id}/events",
                params={"after": version, "wait": 30}, timeout=60)), daemon=True)
            poller.start()
            time.sleep(0.5)  # the long-poll waits in the server
            started = time.monotonic()
            first = _play_one(http, game_id, tokens)
            poller.join(30)
            assert polled and polled[0].status_code == 200
            assert polled[0].json()["events"][0]["seq"] == version + 1
            assert time.monotonic() - started < 10  # woken by the move, not its wait's end

            # A web worker killed mid-game: granian starts another, the game goes on.
            worker = serve.web_workers()[0]
            os.kill(worker, signal.SIGKILL)
            wait_until(lambda: len(serve.web_workers()) == 2 and worker not in
                       serve.web_workers(), 30, "a new web worker")
            assert serve.children()["web"] == web  # granian itself replaced it
            wait_until(lambda: _healthy(serve.url), 30, "healthy again")

            moves = 1
            while http.get(f"/games/{game_id}").json()["status"] != "finished":
                _play_one(http, game_id, tokens)
                moves += 1
                assert moves < 500
            watcher.join(30)
            log = http.get(f"/games/{game_id}/events", params={"after": version}).json()
        seqs = [int(m.id) for m in streamed if m.id is not None]
        assert first["version"] == version + 1
        assert seqs == [e["seq"] for e in log["events"]]  # the stream missed nothing
        assert streamed[-1].event == "game_finished"
        print(f"the stream was cut {len(cuts)} times by the killed worker")

        code, took = serve.interrupt()
    finally:
        serve.close()
    out = serve.output()
    assert code == 0, out[-3000:]
    assert "Traceback" not in out, out[-3000:]
    assert out.rstrip().endswith("stopped")
    print(f"serve (granian) stopped {took:.2f} s after Ctrl-C")
    assert took < 4.0
    assert not any(alive(pid) for pid in serve.seen)


def test_donkeypost_web_becomes_the_server_the_setting_names(tmp_path):
    port = free_port()
    with RedisProcess(tmp_path / "redis") as redis_server:
        env = {**os.environ, "REDIS_URL": redis_server.url, "WEB_SERVER": "granian",
               "PORT": str(port), "DONKEYPOST_HEALTH_WORKERS": "none"}
        with open(tmp_path / "web.log", "wb") as log:
            proc = subprocess.Popen([sys.executable, "-m", "donkeypost.cli", "web",
                                     "--web-workers", "1"], env=env, stdout=log,
                                    stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        try:
            wait_until(lambda: _healthy(f"http://127.0.0.1:{port}") or proc.poll() is not None,
                       60, "the web process answering")
            assert proc.poll() is None, (tmp_path / "web.log").read_text()
            # The Procfile's process is the server itself: the platform's signals reach it.
            assert " -m granian " in cmdline(proc.pid)
            assert len(children_of(proc.pid)) == 1
            proc.terminate()
            assert proc.wait(timeout=15) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
