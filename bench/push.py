"""Push benchmark: many open Server-Sent Event streams on the production web tier.

    python -m bench.push [--streams 500] [--moves 30] [--pause 0.3] [--web-workers 2]

Starts the embedded Redis and a real gunicorn with gevent workers (the shape of the Procfile
and `donkeypost serve`), creates a 3-player Ochs & Esel game, and then:
1. plays `--moves` moves with no stream open: the API's move latency (POST .../actions);
2. opens `--streams` streams on the game (seats 0-2 and spectators in turn) from an asyncio
   client in a separate process, plays `--moves` more moves, one every `--pause` seconds,
   and records when each move's last event reached each stream. Meanwhile a probe reads
   the game (`GET /games/{id}`) every 20 ms, to see whether the API stays responsive.
Prints the time from sending a move until it reached every stream (p50/p99 over the
moves), the per-stream delivery time, and the move and probe latencies with and without
the streams. Everything runs on this machine, so the figures include the client's own CPU.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.push", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--streams", type=int, default=500)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--pause", type=float, default=0.3, help="seconds between moves")
    parser.add_argument("--web-workers", type=int, default=2)
    parser.add_argument("--client", nargs=4, metavar=("PORT", "GAME", "AFTER", "TOKENS"),
                        help=argparse.SUPPRESS)  # the stream client's own process
    args = parser.parse_args(argv)
    if args.client:
        port, game_id, after, tokens = args.client
        asyncio.run(run_client(int(port), game_id, int(after), tokens.split(","),
                               args.streams))
        return 0
    return run(args)


# --- the benchmark -----------------------------------------------------------------------
def run(args: argparse.Namespace) -> int:
    from tests.support.redis_process import RedisProcess

    folder = tempfile.TemporaryDirectory(prefix="donkeypost-bench-push-")
    data = folder.name
    redis_server = RedisProcess(Path(data) / "redis").__enter__()
    port = _free_port()
    # No workers run here: /healthz requires none.
    env = {**os.environ, "REDIS_URL": redis_server.url, "DONKEYPOST_HEALTH_WORKERS": "none"}
    log = open(Path(data) / "gunicorn.log", "w")  # noqa: SIM115 - closed at the end
    web = subprocess.Popen([sys.executable, "-m", "gunicorn", "--worker-class", "gevent",
                            "--workers", str(args.web_workers), "--worker-connections", "2000",
                            "--bind",
                            f"127.0.0.1:{port}", "donkeypost.wsgi:app"],
                           env=env, cwd=ROOT, stdout=log, stderr=log)
    base = f"http://127.0.0.1:{port}"
    try:
        http = httpx.Client(base_url=base, timeout=30)
        _wait_until_up(http)
        game_id, tokens = _new_game(http)
        quiet = _play(http, game_id, tokens, args.moves, args.pause)
        version = http.get(f"/games/{game_id}").json()["version"]
        client = subprocess.Popen(
            [sys.executable, "-m", "bench.push", "--streams", str(args.streams), "--client",
             str(port), game_id, str(version), ",".join(tokens)],
            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert client.stdout is not None and client.stdin is not None
        ready = client.stdout.readline().strip()
        assert ready == "ready", f"the stream client says {ready!r}"
        busy = _play(http, game_id, tokens, args.moves, args.pause)
        time.sleep(2)  # let the last move arrive everywhere
        client.stdin.close()
        arrivals = json.loads(client.stdout.readline())
        client.wait(timeout=30)
        _report(args, quiet, busy, arrivals)
    except Exception:
        log.flush()
        print("the server's log ends with:\n"
              + "".join((Path(data) / "gunicorn.log").read_text().splitlines(True)[-30:]))
        raise
    finally:
        web.send_signal(signal.SIGINT)  # a quick stop: open streams need not drain
        web.wait(timeout=30)
        log.close()
        redis_server.__exit__()
        folder.cleanup()
    return 0


def _play(http: httpx.Client, game_id: str, tokens: list[str], moves: int,
          pause: float) -> dict[str, list]:
    """Play `moves` moves; a probe thread reads the game meanwhile."""
    probe: list[float] = []
    stop = threading.Event()

    def read_the_game() -> None:
        with httpx.Client(base_url=str(http.base_url), timeout=30) as own:
            while not stop.is_set():
                started = time.perf_counter()
                own.get(f"/games/{game_id}").raise_for_status()
                probe.append(time.perf_counter() - started)
                stop.wait(0.02)

    prober = threading.Thread(target=read_the_game)
    prober.start()
    sent: list[tuple[int, float]] = []  # (the move's last seq, when it was sent)
    latency: list[float] = []
    try:
        for _ in range(moves):
            seat = http.get(f"/games/{game_id}").json()["to_act"][0]
            auth = {"Authorization": f"Bearer {tokens[seat]}"}
            action = http.get(f"/games/{game_id}", headers=auth).json()["legal_actions"][0]
            at, started = time.time(), time.perf_counter()
            r = http.post(f"/games/{game_id}/actions", json=action, headers=auth)
            latency.append(time.perf_counter() - started)
            r.raise_for_status()
            sent.append((r.json()["version"], at))
            time.sleep(pause)
    finally:
        stop.set()
        prober.join()
    return {"sent": sent, "latency": latency, "probe": probe}


def _report(args: argparse.Namespace, quiet: dict, busy: dict,
            arrivals: dict[str, list[list[float]]]) -> None:
    per_stream = [dict((int(seq), at) for seq, at in got) for got in arrivals["streams"]]
    reach_all: list[float] = []
    deliveries: list[float] = []
    missing = 0
    for seq, sent_at in busy["sent"]:
        times = [got[seq] - sent_at for got in per_stream if seq in got]
        missing += len(per_stream) - len(times)
        deliveries.extend(times)
        if len(times) == len(per_stream):
            reach_all.append(max(times))
    print(f"push benchmark: {args.streams} SSE streams, {args.moves} moves, "
          f"gunicorn gevent x{args.web_workers}, embedded Redis")
    print(f"  streams connected: {arrivals['connected']}/{args.streams}; "
          f"deliveries missing: {missing}")
    _line("move reached every stream", reach_all)
    _line("move reached one stream", deliveries)
    _line("move latency, no streams", quiet["latency"])
    _line(f"move latency, {args.streams} streams", busy["latency"])
    _line("GET /games/{id}, no streams", quiet["probe"])
    _line(f"GET /games/{{id}}, {args.streams} streams", busy["probe"])


def _line(label: str, seconds: list[float]) -> None:
    if not seconds:
        print(f"  {label:34} no data")
        return
    ms = sorted(s * 1000 for s in seconds)
    print(f"  {label:34} p50 {_pct(ms, 50):7.1f} ms  p99 {_pct(ms, 99):7.1f} ms  "
          f"max {ms[-1]:7.1f} ms  (n={len(ms)})")


def _pct(ordered: list[float], p: float) -> float:
    if len(ordered) == 1:
        return ordered[0]
    return statistics.quantiles(ordered, n=100, method="inclusive")[int(p) - 1]


def _new_game(http: httpx.Client) -> tuple[str, list[str]]:
    game = http.post("/games", json={"type": "ochs-und-esel", "seats": [{"kind": "human"}] * 3,
                                     "deadline_s": None}).json()
    tokens = [""] * 3
    for name in ("ann", "bob", "cy"):
        joined = http.post(f"/games/{game['id']}/players", json={"name": name}).json()
        tokens[joined["seat"]] = joined["token"]
    return game["id"], tokens


def _wait_until_up(http: httpx.Client) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if http.get("/healthz").status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise RuntimeError("the server did not start")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# --- the stream client (its own process) ---------------------------------------------------
async def run_client(port: int, game_id: str, after: int, tokens: list[str],
                     streams: int) -> None:
    """Open the streams, say `ready`, record arrivals until stdin closes, print them."""
    arrivals: list[list[tuple[int, float]]] = [[] for _ in range(streams)]
    connected = [asyncio.Event() for _ in range(streams)]
    gate = asyncio.Semaphore(50)  # open connections 50 at a time
    viewers = [*tokens, None]
    tasks = [asyncio.create_task(_follow(port, f"/games/{game_id}/events/stream?after={after}",
                                         viewers[i % len(viewers)], arrivals[i],
                                         connected[i], gate))
             for i in range(streams)]
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*(c.wait() for c in connected)), timeout=120)
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    print(json.dumps({"connected": sum(c.is_set() for c in connected),
                      "streams": arrivals}), flush=True)


async def _follow(port: int, path: str, token: str | None, out: list[tuple[int, float]],
                  connected: asyncio.Event, gate: asyncio.Semaphore) -> None:
    async with gate:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        auth = f"Authorization: Bearer {token}\r\n" if token else ""
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                     f"Accept: text/event-stream\r\n{auth}\r\n".encode())
        await writer.drain()
        status = await reader.readline()
        assert b" 200 " in status, status
        chunked = False
        while (line := await reader.readline()) not in (b"\r\n", b""):
            chunked = chunked or line.lower().startswith(b"transfer-encoding: chunked")
    pending = b""
    try:
        while True:
            if chunked:
                size = int((await reader.readline()).strip(), 16)
                if size == 0:
                    return
                data = await reader.readexactly(size + 2)
                data = data[:-2]
            else:
                data = await reader.read(65536)
                if not data:
                    return
            now = time.time()
            connected.set()
            pending += data
            *lines, pending = pending.split(b"\n")
            out.extend((int(line[4:]), now) for line in lines if line.startswith(b"id: "))
    finally:
        writer.close()


if __name__ == "__main__":
    sys.exit(main())
