"""Ratings on the real stack: a finished game with players queues one rating job on RQ, a
worker runs it, and the game is rated once however often its job runs, in turn or at once;
a job lost on the way is queued again by the sweep."""

from __future__ import annotations

import threading

from rq.job import Job

from domain.service import GameService
from donkeypost.bootstrap import job_context
from tests.support.workers import burst
from workers import context, jobs
from workers.hooks import rating_job_id


def _finished_game(service: GameService, components) -> str:
    """Ann and Bob (players), a `basic` bot and an anonymous seat play to the end; the bot
    plays on a real worker."""
    ann, _ = service.register_player("Ann")
    bob, _ = service.register_player("Bob")
    table = service.create("high-card", None, [
        {"kind": "human", "me": True}, {"kind": "bot", "level": "basic"},
        {"kind": "human", "invite": "Bob"}, {"kind": "human"}], deadline_s=None, by=ann)
    service.join(table.id, None, bob)
    service.join(table.id, "anon")
    while True:
        table, _ = service.load(table.id)
        if table.status == "finished":
            return table.id
        seat = table.game.turn
        if table.seats[seat].kind == "bot":
            burst(components, queues=["bots"])
        else:
            service.act(table.id, seat, {"type": "play", "card": table.game.hands[seat][0]})


def _result(components, game_id: str) -> str:
    return Job.fetch(rating_job_id(game_id), connection=components.queue_redis).return_value()


def _at_once(components, game_id: str, runs: int) -> list[str]:
    """The rating job run `runs` times at the same moment, as workers would run it."""
    answers: list[str] = []
    barrier = threading.Barrier(runs)

    def run() -> None:
        with context.running(job_context(components)):
            barrier.wait()
            answers.append(jobs.rate_game(game_id))

    threads = [threading.Thread(target=run) for _ in range(runs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers


def _standings(service: GameService, game_type: str) -> list:
    board, _ = service.leaderboard(game_type, 0, 10)
    return [(e["kind"], e["level"] or e["player"]["name"], e["rating"], e["played"])
            for e in board]


def test_a_rating_is_applied_once_even_when_its_job_runs_twice(service, components, rq_hooks):
    game_id = _finished_game(service, components)
    assert rq_hooks.queues["ratings"].job_ids == [rating_job_id(game_id)]
    burst(components, queues=["ratings"])
    assert _result(components, game_id) == "rated"
    rated = _standings(service, "high-card")
    assert sorted(name for _kind, name, _r, _n in rated) == ["Ann", "Bob", "basic"]
    assert {n for kind, _name, _r, n in rated if kind == "player"} == {1}
    # The job runs again (a retry, a duplicate): nothing changes.
    assert rq_hooks.enqueue_ratings([game_id]) == 1
    burst(components, queues=["ratings"])
    assert _result(components, game_id) == "already"
    assert _standings(service, "high-card") == rated
    # Two more runs at the very same moment: still once.
    assert _at_once(components, game_id, 2) == ["already", "already"]
    assert _standings(service, "high-card") == rated


def test_concurrent_first_runs_apply_the_rating_once(service, components, rq_hooks):
    game_id = _finished_game(service, components)
    answers = _at_once(components, game_id, 4)
    assert "rated" in answers and set(answers) <= {"rated", "already"}
    board = _standings(service, "high-card")
    assert [n for kind, _name, _r, n in board if kind == "player"] == [1, 1]
    # Each player's profile counts the game, with the rating the leaderboard shows.
    for name in ("Ann", "Bob"):
        entry = next(e for e in service.leaderboard("high-card", 0, 10)[0]
                     if e["player"] and e["player"]["name"] == name)
        profile = service.profile(entry["player"]["id"])
        assert [(g["type"], g["played"]) for g in profile["games"]] == [("high-card", 1)]
        assert profile["games"][0]["rating"] == entry["rating"]


def test_a_lost_rating_job_is_queued_again_by_the_sweep(service, components, rq_hooks, clock):
    game_id = _finished_game(service, components)
    rq_hooks.queues["ratings"].empty()  # the job is lost
    assert service.awaiting_rating(clock() + 1) == [game_id]
    assert rq_hooks.enqueue_ratings(service.awaiting_rating(clock() + 1)) == 1
    burst(components, queues=["ratings"])
    assert _result(components, game_id) == "rated"
    assert service.awaiting_rating(clock() + 1) == []
