"""The supervisor with real child processes (small Python scripts): restarts with backoff,
a start that fails, a stop stage by stage that leaves nothing running."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from donkeypost.supervisor import Backoff, Child, ChildFailed, Supervisor
from tests.support.workers import wait_until

QUICK = Backoff(first_s=0.05, factor=2.0, cap_s=0.4, reset_after_s=30.0)


def script(body: str) -> list[str]:
    return [sys.executable, "-c", textwrap.dedent(body)]


SLEEPER = script("import time; time.sleep(60)")


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.fixture
def supervisors():
    """Supervisors to stop after the test, whatever happened."""
    made: list[Supervisor] = []
    yield made
    for supervisor in made:
        supervisor.stop(grace_s=0.5, last_stage_grace_s=0.5)


def test_the_backoff_doubles_with_quick_deaths_up_to_its_cap():
    backoff = Backoff(first_s=0.5, factor=2.0, cap_s=3.0)
    assert [backoff.delay(n) for n in range(1, 6)] == [0.5, 1.0, 2.0, 3.0, 3.0]


def test_a_child_that_dies_is_restarted_and_the_others_are_left_alone(supervisors, caplog):
    caplog.set_level(logging.WARNING, logger="donkeypost.supervisor")
    supervisor = Supervisor([Child("a", SLEEPER), Child("b", SLEEPER)], backoff=QUICK)
    supervisors.append(supervisor)
    assert supervisor.start()
    before = supervisor.pids()
    os.kill(before["a"], signal.SIGKILL)
    wait_until(lambda: (supervisor.poll(), supervisor.pids()["a"] not in (None, before["a"]))[1],
               10, "a restarted")
    after = supervisor.pids()
    assert after["b"] == before["b"] and alive(after["a"])
    assert [r.getMessage() for r in caplog.records] == [
        f"a (pid {before['a']}) was killed by SIGKILL; restarting in 0.05 s",
        f"a restarted (pid {after['a']}, restart 1)"]


def test_a_child_that_keeps_dying_waits_longer_each_time(supervisors, caplog):
    caplog.set_level(logging.WARNING, logger="donkeypost.supervisor")
    supervisor = Supervisor([Child("flaky", script("import sys, time; time.sleep(0.05); "
                                                   "sys.exit(3)"))], backoff=QUICK)
    supervisors.append(supervisor)
    assert supervisor.start()
    deaths: list[str] = []

    def five_deaths() -> bool:
        supervisor.poll()
        deaths[:] = [r.getMessage() for r in caplog.records if "exited" in r.getMessage()]
        return len(deaths) >= 5

    wait_until(five_deaths, 20, "five deaths")
    assert [d.split("; ")[1] for d in deaths[:5]] == [
        "restarting in 0.05 s", "restarting in 0.1 s", "restarting in 0.2 s",
        "restarting in 0.4 s", "restarting in 0.4 s"]  # 0.05, 0.1, 0.2, then the cap
    assert all(" exited with code 3;" in d for d in deaths)


def test_a_child_that_exits_as_it_starts_fails_the_start(supervisors):
    supervisor = Supervisor([Child("broken", script("import sys; sys.exit(1)"),
                                   ready=lambda: False)])
    supervisors.append(supervisor)
    with pytest.raises(ChildFailed, match="broken exited with code 1 as it started"):
        supervisor.start()


def test_a_stage_starts_once_the_stage_before_is_ready(tmp_path, supervisors):
    flag = tmp_path / "ready"
    first = Child("first", script(f"""
        import pathlib, time
        time.sleep(0.3)
        pathlib.Path({str(flag)!r}).write_text("yes")
        time.sleep(60)"""), stage=0, ready=flag.exists)
    second = Child("second", script(f"""
        import pathlib, time
        pathlib.Path({str(tmp_path / 'saw')!r}).write_text(str(pathlib.Path({str(flag)!r})
                                                              .exists()))
        time.sleep(60)"""), stage=1)
    supervisor = Supervisor([first, second])
    supervisors.append(supervisor)
    assert supervisor.start()
    saw = tmp_path / "saw"  # (created, then written: wait for its text)
    wait_until(lambda: saw.exists() and saw.read_text() != "", 10, "the second child")
    assert saw.read_text() == "True"


def test_stop_goes_stage_by_stage_and_kills_what_does_not_stop(tmp_path, caplog):
    caplog.set_level(logging.WARNING, logger="donkeypost.supervisor")
    order = tmp_path / "order"

    def polite(name: str) -> list[str]:
        return script(f"""
            import signal, sys, time
            def bye(*_):
                with open({str(order)!r}, "a") as f:
                    f.write("{name}\\n")
                sys.exit(0)
            signal.signal(signal.SIGTERM, bye)
            open({str(tmp_path / name)!r}, "w").close()  # listening for SIGTERM now
            time.sleep(60)""")

    grandchild = tmp_path / "grandchild"
    stubborn = script(f"""
        import signal, subprocess, sys, time, pathlib
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        pathlib.Path({str(grandchild)!r}).write_text(str(child.pid))
        time.sleep(60)""")
    supervisor = Supervisor([Child("redis", polite("redis"), stage=0),
                             Child("web", polite("web"), stage=1),
                             Child("stubborn", stubborn, stage=1)])
    assert supervisor.start()
    wait_until(grandchild.exists, 10, "the stubborn child's own child")
    # (A busy machine may not have run a polite child's handler setup yet.)
    wait_until(lambda: (tmp_path / "web").exists() and (tmp_path / "redis").exists(), 10,
               "the polite children listening for SIGTERM")
    pids = [*supervisor.pids().values(), int(grandchild.read_text())]
    started = time.monotonic()
    supervisor.stop(grace_s=0.5, last_stage_grace_s=2.0)
    took = time.monotonic() - started
    assert order.read_text().split() == ["web", "redis"]
    assert not any(alive(pid) for pid in pids)
    assert 0.5 <= took < 3.0
    assert [r.getMessage() for r in caplog.records] == [
        f"stubborn (pid {pids[2]}) did not stop within 0.5 s: killed"]


def test_the_children_go_when_the_supervisor_is_killed(tmp_path):
    pid_file = tmp_path / "pids"
    runner = subprocess.Popen(script(f"""
        import pathlib, sys
        from donkeypost.supervisor import Child, Supervisor
        sup = Supervisor([Child("a", [sys.executable, "-c", "import time; time.sleep(60)"])])
        sup.start()
        pathlib.Path({str(pid_file)!r}).write_text(str(sup.pids()["a"]))
        sup.run(lambda: False)"""), cwd=Path(__file__).resolve().parents[2])
    try:
        wait_until(lambda: pid_file.exists() and pid_file.read_text(), 20, "the child")
        child = int(pid_file.read_text())
        assert alive(child)
    finally:
        runner.kill()
        runner.wait(timeout=10)
    wait_until(lambda: not alive(child), 10, "the orphan to get its SIGTERM")
