"""The two load generators as child processes the section drives line by line: `go`,
`start`, `stop`, `quit`, each answered by one JSON line (see `bench/peer/loadgen.js`)."""

from __future__ import annotations

import contextlib
import json
import queue
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from types import TracebackType
from typing import Any

from bench.peer.install import HERE
from bench.peer.processes import pinned_to, stop
from bench.peer.stacks import node_env


class Generator:
    """One load generator process, pinned to `cpu`."""

    def __init__(self, name: str, cmd: list[str], cpu: int | None, log: Path,
                 env: dict[str, str] | None = None) -> None:
        self.name = name
        self.cmd = cmd
        self.cpu = cpu
        self.log = log
        self.env = env
        self.proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()

    def __enter__(self) -> Generator:
        with open(self.log, "a") as log:
            self.proc = subprocess.Popen(self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=log, text=True, env=self.env,
                                         preexec_fn=pinned_to(self.cpu))
        threading.Thread(target=self._read, name=f"gen-{self.name}", daemon=True).start()
        return self

    def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put(None)  # it exited

    def command(self, word: str, timeout_s: float = 60.0) -> dict[str, Any]:
        assert self.proc is not None and self.proc.stdin is not None
        try:
            self.proc.stdin.write(word + "\n")
            self.proc.stdin.flush()
            line = self._lines.get(timeout=timeout_s)
        except (OSError, queue.Empty):
            line = None
        if line is None:
            raise RuntimeError(f"the {self.name} load generator did not answer `{word}`: "
                               f"see {self.log}")
        answer: dict[str, Any] = json.loads(line)
        if "error" in answer:
            raise RuntimeError(f"the {self.name} load generator: {answer['error']}")
        return answer

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.proc is None:
            return
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()  # end of input: the generator stops on its own
        stop(self.proc, timeout_s=5.0)


def donkeypost_generator(url: str, clients: int, cpu: int | None, log: Path,
                         game: str, players: int, shape: str = "get-post") -> Generator:
    return Generator(f"donkeypost {shape}", [
        sys.executable, "-m", "bench.peer.donkeypost_client", "--url", url, "--clients",
        str(clients), "--game", game, "--players", str(players), "--shape", shape], cpu, log)


def peer_generator(name: str, url: str, clients: int, cpu: int | None, log: Path,
                   node_modules: Path, seed: int) -> Generator:
    return Generator(name, [shutil.which("node") or "node", str(HERE / "loadgen.js"), "--url",
                            url, "--clients", str(clients), "--seed", str(seed)],
                     cpu, log, env=node_env(node_modules))
