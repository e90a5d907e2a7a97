"""Retention on Redis: `donkeypost gc` and the workers' sweep delete the games nobody
started in time, every key of them, and nothing else."""

from __future__ import annotations

import pytest

from donkeypost.bootstrap import rq_worker
from donkeypost.cli import main

HOUR = 3600.0


def _game_keys(redis_client, game_id: str) -> list[bytes]:
    return sorted(redis_client.scan_iter(match=f"game:{{{game_id}}}:*"))


def _listed(redis_client, game_id: str) -> list[bytes]:
    return [k for k in redis_client.scan_iter(match="games:*")
            if redis_client.zscore(k, game_id) is not None]


@pytest.fixture
def old_and_new(service, clock, redis_client):
    """A game created 8 days ago and never started, one started then, one created now."""
    clock.advance(-8 * 24 * HOUR)
    stale = service.create("ochs-und-esel", None, [{"kind": "human"}] * 3, deadline_s=None)
    seat, _token, waiting = service.join(stale.id, "ann")
    service.post_message(waiting, seat, "anyone?")  # its chat goes with it
    started = service.create("ochs-und-esel", None, [{"kind": "human"}, {"kind": "bot"},
                                                     {"kind": "bot"}], deadline_s=None)
    service.join(started.id, "bob")
    clock.advance(8 * 24 * HOUR)
    young = service.create("ochs-und-esel", None, [{"kind": "human"}] * 3, deadline_s=None)
    assert _game_keys(redis_client, stale.id) and _listed(redis_client, stale.id)
    assert f"game:{{{stale.id}}}:chat".encode() in _game_keys(redis_client, stale.id)
    return stale.id, started.id, young.id


def test_donkeypost_gc_deletes_the_games_never_started_in_time(
        old_and_new, redis_url, redis_client, monkeypatch, capsys):
    stale, started, young = old_and_new
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setenv("DONKEYPOST_GC_BATCH", "1")
    assert main(["gc", "--all"]) == 0
    out = capsys.readouterr().out
    assert "1 games deleted" in out, out
    assert _game_keys(redis_client, stale) == [] and _listed(redis_client, stale) == []
    for kept in (started, young):
        assert _game_keys(redis_client, kept) and _listed(redis_client, kept)


def test_the_workers_sweep_deletes_them_too(old_and_new, components, redis_client):
    stale, started, young = old_and_new
    worker = rq_worker(components)
    worker.run_maintenance_tasks()
    assert _game_keys(redis_client, stale) == [] and _listed(redis_client, stale) == []
    assert _game_keys(redis_client, started) and _game_keys(redis_client, young)
