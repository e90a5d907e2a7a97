"""The operator's figures: a metrics scrape on a store of many games, and an erasure on one.

    python -m bench.ops scrape --games 10000    # GET /metrics: time per scrape
    python -m bench.ops erase --games 1000      # DELETE /players/me: time, and what is left
    python -m bench.ops costs                   # µs of CPU per request id, line, metrics

`scrape` fills an embedded Redis with `--games` games (open, and a tenth of them started),
then times `GET /metrics` (with its token) in process: the requests' series, and the
state read from Redis at each scrape (a fixed number of keys, whatever the games).

`erase` fills a store with `--games` games of three seats, the erased player sitting at
`--theirs` of them (finished ones, games being played and open ones, with chat), then
times `DELETE /players/me` and searches every key and every value of the store for their
name and their key afterwards.
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import sys
import time
from typing import Any

from api.rate_limits import RateLimits
from bench.context import BenchContext
from bench.request_lines import request_lines_to_nowhere
from domain.service import NoHooks
from donkeypost.bootstrap import bootstrap, web_app
from donkeypost.settings import Settings

TOKEN = "bench-metrics-token"
NAME = "Zebulon Quist"


def _client(redis_url: str) -> Any:
    settings = Settings(redis_url=redis_url, rate_limits=RateLimits.off(), health_workers=(),
                        metrics_token=TOKEN, log_requests=False)
    return web_app(bootstrap(settings, hooks=NoHooks())).test_client()


def _auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def _ok(response: Any) -> Any:
    if response.status_code >= 300:
        raise RuntimeError(f"{response.status_code} {response.get_data()[:300]!r}")
    return response.get_json()


def fill(client: Any, games: int, started_every: int = 10) -> None:
    for n in range(games):
        game = _ok(client.post("/games", json={
            "type": "ochs-und-esel", "deadline_s": None,
            "seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]}))
        if n % started_every == 0:
            _ok(client.post(f"/games/{game['id']}/players", json={"name": f"p{n}"}))
        if n and n % 2000 == 0:
            print(f"  {n} games", file=sys.stderr, flush=True)


def scrape(games: int, scrapes: int) -> dict[str, Any]:
    with BenchContext() as ctx:
        client = _client(ctx.redis.url)
        times: dict[int, list[float]] = {}
        for size in (0, games):
            if size:
                fill(client, size)
            took = []
            for _ in range(scrapes):
                t0 = time.perf_counter()
                r = client.get("/metrics", headers=_auth(TOKEN))
                took.append(time.perf_counter() - t0)
                assert r.status_code == 200
            times[size] = took
            body = r.get_data(as_text=True)
        games_line = [line for line in body.splitlines()
                      if line.startswith('donkeypost_games{status="open"')]
    return {"games": games, "scrapes": scrapes, "bytes": len(body),
            "ms": {size: {"median": statistics.median(t) * 1000, "max": max(t) * 1000}
                   for size, t in times.items()},
            "open_games_series": games_line}


def erase(games: int, theirs: int) -> dict[str, Any]:
    from tests.e2e.test_erasure import everything

    with BenchContext() as ctx:
        client = _client(ctx.redis.url)
        zeb = _ok(client.post("/players", json={"name": NAME}))
        ann = _ok(client.post("/players", json={"name": "Ann"}))
        fill(client, games - theirs)
        for n in range(theirs):
            game = _ok(client.post("/games", headers=_auth(zeb["key"]), json={
                "type": "ochs-und-esel", "deadline_s": None, "options": {"rounds": 1},
                "seats": [{"kind": "human", "me": True},
                          {"kind": "human", "invite": "Ann"}, {"kind": "bot"}]}))
            if n % 3 == 2:
                continue  # open: Ann never came
            _ok(client.post(f"/games/{game['id']}/players", headers=_auth(ann["key"])))
            _ok(client.post(f"/games/{game['id']}/messages", headers=_auth(zeb["key"]),
                            json={"text": f"hello from {NAME} #{n}"}))
            if n % 3 == 0:  # finished: both resign, the bot is left alone
                _ok(client.post(f"/games/{game['id']}/resign", headers=_auth(ann["key"])))
                _ok(client.post(f"/games/{game['id']}/resign", headers=_auth(zeb["key"])))
        import redis

        store = redis.Redis.from_url(ctx.redis.url)
        keys_before = store.dbsize()
        t0 = time.perf_counter()
        answer = _ok(client.delete("/players/me", headers=_auth(zeb["key"])))
        took = time.perf_counter() - t0
        blob = everything(store)
        found = {what: blob.count(what.encode())
                 for what in (NAME, zeb["key"], f"hello from {NAME}")}
        return {"games": games, "theirs": theirs, "keys": keys_before, "answer": answer,
                "seconds": took, "found_after": found,
                "name_free_again": client.post("/players", json={"name": NAME}
                                               ).status_code == 201}


def costs(calls: int) -> dict[str, float]:
    """Microseconds of CPU per call of each part, alone (the app section measures them
    inside whole moves, where a loaded machine's noise is larger than they are)."""
    with request_lines_to_nowhere() as lines:
        return _costs(calls, lines)


def _costs(calls: int, lines: logging.Logger) -> dict[str, float]:
    from api.metrics import RequestMetrics, count_appended, observe_append
    from api.observe import accepted_id

    sink = RequestMetrics()
    route = "/games/{game_id}/actions"

    def made_id() -> None:
        accepted_id(None)

    def line() -> None:
        lines.info("%s %s %d %.1f ms", "POST", route, 200, 1.2, extra={
            "request_id": "x", "route": route, "method": "POST", "status": 200,
            "duration_ms": 1.2, "game_id": "g"})

    def request_metrics() -> None:
        sink.routed(route)()
        sink.observe_request("POST", route, 200, 0.0012)

    def append_metrics() -> None:
        count_appended("ochs-und-esel", ("cards_played", "trick_won", "turn_passed"))
        observe_append(0.0004)

    out = {}
    for name, part in (("request id", made_id), ("request line (JSON)", line),
                       ("metrics per request", request_metrics),
                       ("metrics per append", append_metrics)):
        t0 = time.process_time()
        for _ in range(calls):
            part()
        out[name] = (time.process_time() - t0) / calls * 1e6
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ops", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    s = sub.add_parser("scrape")
    s.add_argument("--games", type=int, default=10_000)
    s.add_argument("--scrapes", type=int, default=20)
    e = sub.add_parser("erase")
    e.add_argument("--games", type=int, default=1000)
    e.add_argument("--theirs", type=int, default=60)
    c = sub.add_parser("costs")
    c.add_argument("--calls", type=int, default=50_000)
    args = parser.parse_args(argv)
    os.environ.pop("PROMETHEUS_MULTIPROC_DIR", None)
    if args.what == "scrape":
        result: Any = scrape(args.games, args.scrapes)
    elif args.what == "erase":
        result = erase(args.games, args.theirs)
    else:
        result = costs(args.calls)
    print(result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
