"""Where the time goes on the move path, seen two ways.

- The web workers under the moves load: py-spy samples each worker (without pausing it)
  during an extra run that is not one of the measured ones. It samples wall-clock time of
  a running worker, so time spent waiting for a CPU (the machine is shared) shows up where
  the worker was preempted, often in a socket call.
- The same requests in process (the WSGI app through Flask's test client, no server):
  pyinstrument, which sees the app's own code without gunicorn and the network.

Samples are summed per function: `self` is time in the function itself, `total` includes
what it calls."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from bench.config import BenchConfig
from bench.context import BenchContext
from bench.moves import loadgen
from bench.progress import Steps

TOP = 15
_FRAME = re.compile(r"^(?P<func>.*) \((?P<path>[^()]*?)(?::\d+)?\)$")
_ROOT = str(Path(__file__).resolve().parent.parent) + "/"
OWN_CODE = ("api/", "domain/", "bench/", "workers/")


def py_spy() -> str | None:
    beside = Path(sys.executable).parent / "py-spy"
    return str(beside) if beside.exists() else shutil.which("py-spy")


def run(cfg: BenchConfig, ctx: BenchContext, steps: Steps) -> dict[str, Any]:
    exe = py_spy()
    if exe is None:
        return {"error": "py-spy is not installed: pip install -e '.[bench]'"}
    server = ctx.server
    pids = server.worker_pids()
    seconds = int(cfg.warmup_s + cfg.profile_s) + 1
    outputs = [ctx.folder / f"py-spy-{pid}.txt" for pid in pids]
    with steps.step(f"profile: {cfg.profile_clients} clients under py-spy", total=1) as step:
        spies = [subprocess.Popen([exe, "record", "--pid", str(pid), "--duration", str(seconds),
                                   "--rate", "200", "--nonblocking", "--format", "raw",
                                   "--output", str(out)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                 for pid, out in zip(pids, outputs, strict=True)]
        loadgen(server.url, "moves", cfg.profile_clients, cfg,
                [*pids, ctx.redis.pid], duration_s=cfg.profile_s)
        problems = []
        for spy in spies:
            _, err = spy.communicate(timeout=seconds + 60)
            if spy.returncode != 0:
                problems.append(err.decode(errors="replace")[-500:])
        step.advance()
    stacks = [line for out in outputs if out.exists()
              for line in out.read_text().splitlines() if line.strip()]
    if not stacks:
        return {"error": "py-spy recorded nothing: " + " | ".join(problems)}
    summary = summarize(stacks)
    summary.update(clients=cfg.profile_clients, seconds=cfg.profile_s, rate_hz=200,
                   tool="py-spy record --nonblocking --format raw")
    with steps.step("profile: the same moves in process (pyinstrument)", total=1) as step:
        summary["in_process"] = in_process(ctx, cfg.profile_moves, cfg.game, cfg.players,
                                           cfg.seed)
        step.advance()
    return summary


def in_process(ctx: BenchContext, moves: int, game: str, players: int,
               seed: int) -> dict[str, Any]:
    """`moves` moves (view, then action with If-Match and an Idempotency-Key) through the
    WSGI app in process, under pyinstrument."""
    from pyinstrument import Profiler

    client = ctx.app.test_client()
    rng = random.Random(seed)

    def new_game() -> tuple[str, list[str], list[int]]:
        created = client.post("/games", json={"type": game,
                                              "seats": [{"kind": "human"}] * players})
        game_id = created.get_json()["id"]
        tokens = [""] * players
        to_act: list[int] = []
        for n in range(players):
            joined = client.post(f"/games/{game_id}/players", json={"name": f"p{n}"})
            tokens[joined.get_json()["seat"]] = joined.get_json()["token"]
            to_act = joined.get_json()["game"]["to_act"]
        return game_id, tokens, to_act

    game_id, tokens, to_act = new_game()
    profiler = Profiler(interval=0.0002)
    profiler.start()
    for n in range(moves):
        if not to_act:
            game_id, tokens, to_act = new_game()
        auth = {"Authorization": f"Bearer {tokens[to_act[0]]}"}
        view = client.get(f"/games/{game_id}", headers=auth).get_json()
        acted = client.post(f"/games/{game_id}/actions",
                            json=rng.choice(view["legal_actions"]),
                            headers={**auth, "If-Match": f'"{view["version"]}"',
                                     "Idempotency-Key": f"m{n}"})
        to_act = acted.get_json()["to_act"]
    profiler.stop()
    session = profiler.last_session
    root = session.root_frame() if session is not None else None
    if root is None:
        return {"error": "pyinstrument recorded nothing"}
    own: Counter[str] = Counter()
    total: Counter[str] = Counter()

    def walk(frame: Any, above: frozenset[str]) -> None:
        if frame.is_synthetic:  # pyinstrument's "[self]" leaves: in the parent's self time
            return
        name = function_name(f"{frame.function} ({frame.file_path}:{frame.line_no})")
        own[name] += frame.total_self_time
        if name not in above:  # recursion counts once
            total[name] += frame.time
        for child in frame.children:
            walk(child, above | {name})

    walk(root, frozenset())
    seconds = root.time

    def pct(t: float) -> float:
        return 100.0 * t / seconds

    ours = [(f, t) for f, t in total.most_common() if any(p in f for p in OWN_CODE)]
    return {"tool": "pyinstrument, interval 0.2 ms", "moves": moves, "seconds": seconds,
            "ms_per_move": 1000.0 * seconds / moves,
            "top_self": [{"function": f, "self_pct": pct(t), "total_pct": pct(total[f])}
                         for f, t in own.most_common(TOP)],
            "top_total_own_code": [{"function": f, "self_pct": pct(own[f]),
                                    "total_pct": pct(t)} for f, t in ours[:TOP]]}


def function_name(frame: str) -> str:
    """`func (path:line)` -> `func (short path)`: one entry per function, not per line."""
    m = _FRAME.match(frame.strip())
    if not m:
        return frame.strip()
    path = m["path"]
    if "site-packages/" in path:
        path = path.split("site-packages/", 1)[1]
    elif path.startswith(_ROOT):
        path = path[len(_ROOT):]
    elif "/lib/python" in path:
        path = "stdlib/" + path.rsplit("/", 1)[-1]
    return f"{m['func']} ({path})"


def summarize(lines: list[str]) -> dict[str, Any]:
    """py-spy's raw (collapsed) stacks -> the top functions by self and by total time."""
    own: Counter[str] = Counter()
    total: Counter[str] = Counter()
    samples = 0
    for line in lines:
        stack, _, count_text = line.rpartition(" ")
        count = int(count_text)
        frames = [function_name(f) for f in stack.split(";") if f]
        if not frames:
            continue
        samples += count
        own[frames[-1]] += count
        for name in set(frames):
            total[name] += count

    def pct(n: int) -> float:
        return 100.0 * n / samples

    top_self = [{"function": f, "self_pct": pct(n), "total_pct": pct(total[f])}
                for f, n in own.most_common(TOP)]
    ours = [(f, n) for f, n in total.most_common() if any(p in f for p in OWN_CODE)]
    top_total = [{"function": f, "self_pct": pct(own[f]), "total_pct": pct(n)}
                 for f, n in ours[:TOP]]
    return {"samples": samples, "top_self": top_self, "top_total_own_code": top_total}
