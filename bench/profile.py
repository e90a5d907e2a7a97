"""Where the web workers spend their time under the moves load: py-spy samples each worker
(without pausing it) during an extra run that is not one of the measured ones, and the
samples are summed per function: `self` is time in the function itself, `total` includes
what it calls."""

from __future__ import annotations

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
    return summary


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
