"""Section app: the CPU the web application spends on a move's two requests, in process.

    python -m bench.app_cpu                      # 3 rounds of 2,000 moves, limits off and on
    python -m bench.app_cpu --moves 500 --profile --limits on
    python -m bench --sections app

A move is `GET /games/{id}` with the seat's token, then `POST /games/{id}/actions` with
`If-Match` and an `Idempotency-Key`. Both are handed to the WSGI application directly (no
server, no sockets of a client: what is left is the application's own work, Flask and
Werkzeug included, and its Redis client's), and the process's CPU time around each call is
added up. The application is wired as `donkeypost serve` wires it (the RQ and webhook hooks
after each append), once with the rate limits off and once with the defaults on, on one
embedded Redis; the two take turns round by round (the order swapped each round) so that
the shared machine's drift hits both, and each figure is the median of the rounds.

With the limits on, every game plays from an address of its own and many games take turns
(a seat moves a few times a second, far below its 10/second), so no request is refused:
the figure is the cost of counting, not of refusing.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import ipaddress
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
from rich.console import Console

from api.observe import Observed
from api.rate_limits import RateLimits
from bench import jsonfile, report
from bench.config import BenchConfig
from bench.context import BenchContext
from bench.progress import Steps
from bench.request_lines import request_lines_to_nowhere
from donkeypost.bootstrap import bootstrap, web_app
from donkeypost.settings import Settings

GAME = "ochs-und-esel"
SEATS = 3
MODES = ("off", "on")
# Games taking turns: each seat moves about once per round of them, so a few times a
# second (the `act` limit allows 10 a second and 300 a minute per seat).
POOL = 150
_FIRST_ADDRESS = int(ipaddress.IPv4Address("10.20.0.1"))

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def _environ(method: str, path: str, address: str, body: bytes = b"",
             headers: dict[str, str] | None = None) -> dict[str, Any]:
    """A request as a WSGI server hands it over (built before the clock starts)."""
    environ: dict[str, Any] = {
        "REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": "", "SCRIPT_NAME": "",
        "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000", "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": address, "HTTP_HOST": "127.0.0.1:8000", "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body), "wsgi.errors": sys.stderr, "wsgi.version": (1, 0),
        "wsgi.multithread": False, "wsgi.multiprocess": True, "wsgi.run_once": False,
    }
    if body:
        environ["CONTENT_TYPE"] = "application/json"
        environ["CONTENT_LENGTH"] = str(len(body))
    for name, value in (headers or {}).items():
        environ["HTTP_" + name.upper().replace("-", "_")] = value
    return environ


def call(app: WsgiApp, environ: dict[str, Any]) -> tuple[int, bytes, float]:
    """Status, body and the process CPU seconds the application took for them."""
    status: list[int] = []

    def start_response(line: str, _headers: Any, _exc: Any = None) -> None:
        status.append(int(line.split(" ", 1)[0]))

    t0 = time.process_time()
    chunks = app(environ, start_response)
    body = b"".join(chunks)
    close = getattr(chunks, "close", None)
    if close is not None:
        close()
    spent = time.process_time() - t0
    return status[0], body, spent


def _ok(status: int, body: bytes, what: str) -> Any:
    if status >= 300:
        raise RuntimeError(f"{what}: {status} {body[:300]!r}")
    return msgspec.json.decode(body)


@dataclass
class _Game:
    id: str
    address: str
    tokens: list[str]
    to_act: list[int]


@dataclass
class _Spent:
    """CPU seconds of the timed requests, and how many moves they made."""

    get_s: float = 0.0
    post_s: float = 0.0
    moves: int = 0

    def per_move_ms(self) -> tuple[float, float]:
        return self.get_s / self.moves * 1000, self.post_s / self.moves * 1000


@dataclass
class Player:
    """Plays moves on one application, over a pool of games that take turns."""

    app: WsgiApp
    pool_size: int
    seed: int
    games: list[_Game] = field(default_factory=list)
    addresses: Iterator[int] = field(default_factory=lambda: iter(range(10**9)))
    rng: random.Random = field(init=False)
    moves_made: int = 0

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def _address(self) -> str:
        return str(ipaddress.IPv4Address(_FIRST_ADDRESS + next(self.addresses)))

    def new_game(self) -> _Game:
        """A started game of three humans, created and joined from an address of its own
        (the `create` and `join` limits count per address)."""
        address = self._address()
        created = _ok(*call(self.app, _environ("POST", "/games", address, msgspec.json.encode(
            {"type": GAME, "seats": [{"kind": "human"}] * SEATS})))[:2], "create")
        tokens = [""] * SEATS
        to_act: list[int] = []
        for n in range(SEATS):
            joined = _ok(*call(self.app, _environ(
                "POST", f"/games/{created['id']}/players", address,
                msgspec.json.encode({"name": f"p{n}"})))[:2], "join")
            tokens[joined["seat"]] = joined["token"]
            to_act = joined["game"]["to_act"]
        return _Game(created["id"], address, tokens, to_act)

    def fill(self, step: Callable[[], None] = lambda: None) -> None:
        while len(self.games) < self.pool_size:
            self.games.append(self.new_game())
            step()

    def play(self, moves: int, step: Callable[[], None] = lambda: None) -> _Spent:
        """`moves` moves, one per game in turn; a finished game is replaced (untimed)."""
        spent = _Spent()
        while spent.moves < moves:
            for n, game in enumerate(self.games):
                if spent.moves >= moves:
                    break
                if not self._move(game, spent):
                    self.games[n] = self.new_game()
                    continue
                step()
        return spent

    def _move(self, game: _Game, spent: _Spent) -> bool:
        if not game.to_act:
            return False
        seat = game.to_act[0]
        auth = {"Authorization": f"Bearer {game.tokens[seat]}"}
        status, body, cpu = call(self.app, _environ("GET", f"/games/{game.id}", game.address,
                                                    headers=auth))
        view = _ok(status, body, "view")
        if view["status"] != "active" or not view["legal_actions"]:
            return False
        action = self.rng.choice(view["legal_actions"])
        self.moves_made += 1
        environ = _environ("POST", f"/games/{game.id}/actions", game.address,
                           msgspec.json.encode(action), {
                               **auth, "If-Match": f'"{view["version"]}"',
                               "Idempotency-Key": f"move-{self.seed}-{self.moves_made}"})
        status, body, post_cpu = call(self.app, environ)
        acted = _ok(status, body, "action")
        game.to_act = acted["to_act"]
        spent.get_s += cpu
        spent.post_s += post_cpu
        spent.moves += 1
        return True


# What the operator's observation costs (rate limits off in each): `bare` without request
# ids, request lines or metrics (the WSGI layer that makes ids taken away); `ids`: request
# ids and a JSON line per request (written to /dev/null); `metrics`: request ids and the
# metrics (prometheus_client in this process), no request lines; `off` is the default
# application, both on.
OBSERVE_MODES = ("bare", "ids", "metrics", "off")
ALL_MODES = (*MODES, "bare", "ids", "metrics")


def app_for(redis_url: str, mode: str) -> WsgiApp:
    """The application as served: the default hooks, the limits `on` (defaults) or off,
    or one of `OBSERVE_MODES`."""
    rate_limits = RateLimits() if mode == "on" else RateLimits.off()
    settings = Settings(redis_url=redis_url, rate_limits=rate_limits,
                        metrics=mode in ("on", "off", "metrics"),
                        log_requests=mode in ("on", "off", "ids"))
    app = web_app(bootstrap(settings))
    if mode == "bare":
        observed = app.wsgi_app
        assert isinstance(observed, Observed)
        app.wsgi_app = observed.app  # type: ignore[method-assign]
    return app


def _summary(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def measure(redis_url: str, moves: int, rounds: int, modes: tuple[str, ...],
            steps: Steps, seed: int = 1, pool: int = POOL,
            profiler: cProfile.Profile | None = None) -> dict[str, Any]:
    """`rounds` rounds of `moves` moves per mode, the modes in turn (after untimed warm-up
    moves); the figures in ms of CPU per request. `profiler`
    runs during the rounds only (new games are made in them too, as old ones end)."""
    with request_lines_to_nowhere():
        return _measure(redis_url, moves, rounds, modes, steps, seed, pool, profiler)


def _measure(redis_url: str, moves: int, rounds: int, modes: tuple[str, ...],
             steps: Steps, seed: int, pool: int,
             profiler: cProfile.Profile | None) -> dict[str, Any]:
    players = {mode: Player(app_for(redis_url, mode), pool, seed + n)
               for n, mode in enumerate(modes)}
    with steps.step(f"app: {pool} games per application", total=pool * len(modes)) as step:
        for player in players.values():
            player.fill(step.advance)
    # Untimed: every seat of the pool moves once or so first (a token's first request in a
    # process is checked against the refused-token counters in Redis; later ones are not).
    for player in players.values():
        player.play(max(moves // 10, 2 * SEATS * pool))
    per_round: dict[str, list[tuple[float, float]]] = {mode: [] for mode in modes}
    with steps.step("app: moves in process, rounds alternating",
                    total=moves * rounds * len(modes)) as step:
        for r in range(rounds):
            order = modes if r % 2 == 0 else tuple(reversed(modes))
            for mode in order:
                if profiler is not None:
                    profiler.enable()
                spent = players[mode].play(moves, step.advance)
                if profiler is not None:
                    profiler.disable()
                per_round[mode].append(spent.per_move_ms())
    rows = []
    for mode in modes:
        gets = [g for g, _ in per_round[mode]]
        posts = [p for _, p in per_round[mode]]
        rows.append({"rate_limits": mode, "get_ms": _summary(gets), "post_ms": _summary(posts),
                     "move_ms": _summary([g + p for g, p in per_round[mode]])})
    return {"game": GAME, "moves_per_round": moves, "rounds": rounds, "pool": pool,
            "rows": rows}


def run(cfg: BenchConfig, ctx: BenchContext, steps: Steps) -> dict[str, Any]:
    """The `app` section of `python -m bench`."""
    return measure(ctx.redis.url, cfg.app_moves, cfg.app_rounds, MODES, steps,
                   seed=cfg.seed, pool=cfg.app_pool)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.app_cpu", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=2000, help="moves per round and mode")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--limits", "--modes", dest="limits",
                        type=lambda s: tuple(x for x in s.split(",") if x), default=MODES,
                        help="modes, of off,on (the rate limits, default both) and "
                             "bare,ids,metrics (request ids and metrics, limits off; "
                             f"--modes {','.join(OBSERVE_MODES)} compares them)")
    parser.add_argument("--pool", type=int, default=POOL, help="games taking turns")
    parser.add_argument("--profile", action="store_true",
                        help="cProfile the rounds; the costliest functions are printed")
    parser.add_argument("--profile-lines", type=int, default=60)
    parser.add_argument("--json", dest="json_file", type=Path, default=None,
                        help="write the figures there")
    parser.add_argument("--quiet", action="store_true", help="no progress display")
    args = parser.parse_args(argv)
    if not set(args.limits) <= set(ALL_MODES):
        parser.error(f"--modes: of {','.join(ALL_MODES)}")
    console = Console()
    profiler = cProfile.Profile() if args.profile else None
    with BenchContext() as ctx, Steps(console, args.quiet) as steps:
        result = measure(ctx.redis.url, args.moves, args.rounds, args.limits, steps,
                         pool=args.pool, profiler=profiler)
    console.print(report.app_table(result))
    if profiler is not None:
        stats = pstats.Stats(profiler, stream=sys.stdout)
        stats.sort_stats("cumulative").print_stats(args.profile_lines)
    if args.json_file:
        jsonfile.write(args.json_file, result)
        console.print(f"results: {args.json_file}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
