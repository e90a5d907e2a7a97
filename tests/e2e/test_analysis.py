"""`GET /games/{id}/analysis` with a real worker: refused before the end, 202 while the one
job makes it (however often asked), then the analysis, the same for everyone; it names
the costliest decisions with a better move, in the game's points."""

from __future__ import annotations

import pytest

from api.rate_limits import RateLimits
from domain.bots.analysis import MOMENTS_PER_SEAT
from donkeypost.bootstrap import bootstrap, web_app
from donkeypost.settings import Settings
from tests.support.workers import burst
from workers import jobs
from workers.hooks import ANALYSIS, analysis_job_id


@pytest.fixture
def components(redis_url, redis_client):
    return bootstrap(Settings(redis_url=redis_url, rate_limits=RateLimits.off()))


@pytest.fixture
def client(components):
    return web_app(components, {"TESTING": True}).test_client()


def _bots_game(client, components, game_type: str, options: dict) -> str:
    """Three bots (one random, two basic) play a game to its end on a real worker."""
    created = client.post("/games", json={"type": game_type, "options": options, "seats": [
        {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "basic"},
        {"kind": "bot", "level": "basic"}], "deadline_s": None})
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["id"]
    burst(components, queues=["bots"])
    assert client.get(f"/games/{game_id}").get_json()["status"] == "finished"
    return game_id


def test_the_analysis_of_a_finished_game(client, components, redis_client, monkeypatch):
    monkeypatch.setattr(jobs, "ANALYSIS_BUDGET", jobs.ANALYSIS_BUDGET.__class__(
        per_decision=120, per_game=4000, min_per_decision=32))
    game_id = _bots_game(client, components, "ochs-und-esel", {"rounds": 1})
    queue = components.rq_hooks.queues[ANALYSIS]
    for _ in range(3):  # asked again and again: one job
        answer = client.get(f"/games/{game_id}/analysis")
        assert answer.status_code == 202 and answer.headers["Retry-After"] == "5"
        assert answer.get_json() == {"status": "queued"}
    assert queue.job_ids == [analysis_job_id(game_id)]

    burst(components, queues=[ANALYSIS])
    first = client.get(f"/games/{game_id}/analysis")
    assert first.status_code == 200, first.get_json()
    doc = first.get_json()
    assert doc["game"] == game_id and doc["unit"] == "penalty points"
    assert doc["complete"] and doc["weighed"] == doc["choices"] > 0
    assert [s["seat"] for s in doc["seats"]] == [0, 1, 2]
    assert sum(s["decisions"] for s in doc["seats"]) == doc["decisions"]
    # The moments are the seats' costly decisions (that a random seat leaves some behind
    # is tested on fixed deals in tests/unit/test_analysis.py: here the deal is random).
    assert len(doc["moments"]) == sum(min(s["costly"], MOMENTS_PER_SEAT) for s in doc["seats"])
    for m in doc["moments"]:
        assert m["cost"] > 0 and m["better"] != m["played"]
        # The replay shows the moment: the seat was to act there.
        past = client.get(f"/games/{game_id}/states/{m['seq']}").get_json()
        assert past["version"] == m["seq"] and m["seat"] in past["to_act"]
    assert sorted((m["cost"] for m in doc["moments"]), reverse=True) == \
        [m["cost"] for m in doc["moments"]]
    # Asked again: the same document, and no new job.
    again = client.get(f"/games/{game_id}/analysis")
    assert again.status_code == 200 and again.get_data() == first.get_data()
    assert queue.job_ids == []
    # The job run again (a retry, a duplicate) keeps the first analysis.
    assert components.service.analyse_game(game_id, jobs.ANALYSIS_BUDGET) == "already"


def test_no_analysis_before_the_end_nor_of_an_unknown_game(client):
    created = client.post("/games", json={"type": "ochs-und-esel", "seats": [
        {"kind": "human"}] * 3, "deadline_s": None}).get_json()
    answer = client.get(f"/games/{created['id']}/analysis")
    assert answer.status_code == 409 and answer.get_json()["code"] == "game_not_finished"
    answer = client.get("/games/nosuchgame/analysis")
    assert answer.status_code == 404 and answer.get_json()["code"] == "unknown_game"


def test_a_failed_analysis_says_so_and_is_not_retried_at_once(client, components,
                                                              monkeypatch):
    game_id = _bots_game(client, components, "trash", {"target_slots": 9})
    assert client.get(f"/games/{game_id}/analysis").status_code == 202

    def broken(game_id: str) -> str:
        raise RuntimeError("a bug in the analysis")

    monkeypatch.setattr(jobs, "analyse_game", broken)
    for _ in range(3):  # the job and its retries
        burst(components, queues=[ANALYSIS])
    answer = client.get(f"/games/{game_id}/analysis")
    assert answer.status_code == 503, answer.get_json()
    assert answer.get_json()["code"] == "analysis_failed"
    assert answer.headers["Retry-After"] == "600"
    assert components.rq_hooks.queues[ANALYSIS].job_ids == []  # not queued again yet
