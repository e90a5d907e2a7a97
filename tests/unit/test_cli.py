"""The command line refuses what it cannot run, with a message and exit code 2."""

from __future__ import annotations

from donkeypost.cli import main


def test_a_worker_on_an_unknown_queue_is_refused(capsys):
    assert main(["worker", "--queues", "bots,nope"]) == 2
    assert "nope" in capsys.readouterr().err


def test_a_worker_needs_the_games_redis(monkeypatch, capsys):
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert main(["worker", "--queues", "notifications"]) == 2
    assert "REDIS_URL" in capsys.readouterr().err
