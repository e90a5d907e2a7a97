"""Bot turns, deadlines, away seats, ratings and retention with the games on a Redis Cluster
and the queues on a plain Redis (RQ does not run on a cluster): the tests written for one
Redis (tests/integration) collected here again with this directory's `components`, and
retention's deletion of every key of a game, on whichever master it lives."""

from __future__ import annotations

import pytest

from donkeypost.bootstrap import rq_worker
from donkeypost.cli import main
from tests.integration.test_ratings import (  # noqa: F401 - collected here, on the cluster
    test_a_lost_rating_job_is_queued_again_by_the_sweep,
    test_concurrent_first_runs_apply_the_rating_once,
)
from tests.integration.test_timers_in_appends import (  # noqa: F401
    test_the_workers_see_the_timers_a_move_armed,
)
from tests.integration.test_workers import (  # noqa: F401
    test_a_bot_delay_arms_a_timer_for_the_bot_turn,
    test_a_bot_job_acts_once_however_often_it_runs,
    test_a_bot_to_act_gets_one_job_named_by_game_version_and_seat,
    test_a_deadline_does_not_fire_before_it_passes,
    test_a_deadline_job_beaten_by_the_player_is_dropped,
    test_a_due_timer_is_released_into_one_job,
    test_a_job_run_by_a_plain_rq_worker_fails_saying_what_to_run,
    test_a_timer_that_was_never_armed_fires_when_a_worker_starts,
    test_a_waiting_human_gets_a_timer_that_a_move_supersedes,
    test_a_worker_starting_rearms_lost_timers_once,
    test_a_worker_starting_releases_overdue_timers,
    test_an_away_seat_that_comes_back_waits_for_its_owner_again,
    test_two_missed_deadlines_mark_the_seat_away_until_its_owner_acts,
)

HOUR = 3600.0


def _game_keys(cluster_client, game_id: str) -> list[bytes]:
    return sorted(cluster_client.scan_iter(match=f"game:{{{game_id}}}:*"))  # every master


def _listed(cluster_client, game_id: str) -> list[bytes]:
    return [k for k in cluster_client.scan_iter(match="games:*")
            if cluster_client.zscore(k, game_id) is not None]


@pytest.fixture
def old_and_new(service, clock, cluster_client):
    """A game created 8 days ago and never started, one started then, one created now."""
    clock.advance(-8 * 24 * HOUR)
    stale = service.create("ochs-und-esel", None, [{"kind": "human"}] * 3, deadline_s=None)
    service.join(stale.id, "ann")
    started = service.create("ochs-und-esel", None, [{"kind": "human"}, {"kind": "bot"},
                                                     {"kind": "bot"}], deadline_s=None)
    service.join(started.id, "bob")
    clock.advance(8 * 24 * HOUR)
    young = service.create("ochs-und-esel", None, [{"kind": "human"}] * 3, deadline_s=None)
    assert _game_keys(cluster_client, stale.id) and _listed(cluster_client, stale.id)
    return stale.id, started.id, young.id


def test_the_workers_sweep_deletes_the_games_never_started_from_the_cluster(
        old_and_new, components, cluster_client):
    stale, started, young = old_and_new
    rq_worker(components).run_maintenance_tasks()
    assert _game_keys(cluster_client, stale) == [] and _listed(cluster_client, stale) == []
    for kept in (started, young):
        assert _game_keys(cluster_client, kept) and _listed(cluster_client, kept)


def test_donkeypost_gc_on_a_cluster(old_and_new, redis_cluster, redis_url, cluster_client,
                                    monkeypatch, capsys):
    stale, started, young = old_and_new
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.setenv("REDIS_CLUSTER_URL", redis_cluster.seeds_url)
    monkeypatch.setenv("RQ_REDIS_URL", redis_url)
    assert main(["gc", "--all"]) == 0
    assert "1 games deleted" in capsys.readouterr().out
    assert _game_keys(cluster_client, stale) == [] and _listed(cluster_client, stale) == []
    assert _game_keys(cluster_client, started) and _game_keys(cluster_client, young)
