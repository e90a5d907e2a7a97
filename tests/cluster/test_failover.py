"""A master of the cluster dies while players move (SIGKILL, as a crash), its replica takes
over, and the dead node comes back as a replica. With `REDIS_WAIT_REPLICAS=1` a move is
acknowledged only once a replica holds it: the players see `200` or `503` with
`Retry-After`, nothing else, and every move acknowledged with `200` is in the log after
the failover, the very event (its chained hash) that the player was answered."""

from __future__ import annotations

import dataclasses
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import pytest

from domain.service import NoHooks
from donkeypost.bootstrap import bootstrap, web_app
from tests.e2e.api_client import ApiClient
from tests.support.redis_cluster import Cluster
from tests.support.workers import wait_until

GAMES_ON_VICTIM = 2
GAMES_ELSEWHERE = 2
MOVES_BEFORE = 3  # acknowledged moves per game before the kill, and again after the return


@dataclass
class Played:
    """What the players were answered, shared by their threads."""

    acked: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # game → events
    refused: list[tuple[int, str | None, str | None]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def ack(self, game_id: str, events: list[dict[str, Any]]) -> None:
        with self.lock:
            self.acked.setdefault(game_id, []).extend(events)

    def refuse(self, answer: Any) -> None:
        with self.lock:
            body = answer.get_json(silent=True) or {}
            self.refused.append((answer.status_code, answer.headers.get("Retry-After"),
                                 body.get("code")))

    def moves(self, game_id: str) -> int:
        with self.lock:
            return len({e["seq"] for e in self.acked.get(game_id, [])})


def _play(api: ApiClient, game_id: str, tokens: list[str], played: Played,
          stop: threading.Event) -> None:
    """Move as whoever is to act until told to stop; a refused request is sent again (the
    move with its Idempotency-Key) after a short pause."""
    def get(token: str | None = None) -> dict[str, Any]:
        while True:
            answer = api.http.get(f"/games/{game_id}", headers=api.auth(token))
            if answer.status_code == 200:
                return answer.get_json()
            played.refuse(answer)
            if answer.status_code != 503 or stop.is_set():
                raise RuntimeError(f"GET answered {answer.status_code}")
            time.sleep(0.1)

    while not stop.is_set():
        spectator = get()
        if spectator["status"] == "finished":
            return
        seat = spectator["to_act"][0]
        view = get(tokens[seat])
        headers = {"Idempotency-Key": f"{game_id}-v{view['version']}"}
        while True:
            answer = api.act(game_id, tokens[seat], view["legal_actions"][0], headers)
            if answer.status_code == 200:
                played.ack(game_id, answer.get_json()["events"])
                break
            played.refuse(answer)
            if answer.status_code != 503:
                return
            time.sleep(0.1)


def _games(api: ApiClient, cluster: Cluster) -> tuple[int, list[tuple[str, list[str]]]]:
    """The port of the master that will die, and games on it and on the other masters."""
    victim, on, off = None, [], []
    while len(on) < GAMES_ON_VICTIM or len(off) < GAMES_ELSEWHERE:
        game = api.new_game("ochs-und-esel", 3, {"rounds": 3})
        master = cluster.master_for_key(f"game:{{{game[0]}}}:events").port
        victim = victim or master
        (on if master == victim else off).append(game)
    assert victim is not None
    return victim, on[:GAMES_ON_VICTIM] + off[:GAMES_ELSEWHERE]


@pytest.mark.timeout(120)
def test_a_master_dies_during_moves_503_at_most_and_every_acknowledged_move_is_kept(
        cluster_settings, redis_cluster):
    settings = dataclasses.replace(cluster_settings, wait_replicas=1, wait_timeout_ms=500)
    app = web_app(bootstrap(settings, hooks=NoHooks()), {"TESTING": True})
    victim_port, games = _games(ApiClient(app.test_client()), redis_cluster)
    played, stop = Played(), threading.Event()
    players = [threading.Thread(target=_play, args=(ApiClient(app.test_client()), g, t,
                                                    played, stop), daemon=True)
               for g, t in games]
    for player in players:
        player.start()
    try:
        wait_until(lambda: all(played.moves(g) >= MOVES_BEFORE for g, _t in games), 30,
                   "moves before the crash")
        before = {g: played.moves(g) for g, _t in games}
        victim = redis_cluster.node_at(victim_port)
        redis_cluster.kill(victim)
        wait_until(lambda: redis_cluster.master_for_key(f"game:{{{games[0][0]}}}:events")
                   .port != victim_port, 30, "a replica taking over", every_s=0.2)
        redis_cluster.revive(victim)  # back as the new master's replica
        redis_cluster.wait_replicas_synced(3)
        wait_until(lambda: all(played.moves(g) >= before[g] + MOVES_BEFORE
                               for g, _t in games), 60, "moves after the failover")
    finally:
        stop.set()
        for player in players:
            player.join(timeout=10)
        redis_cluster.wait_healthy()
        redis_cluster.wait_replicas_synced(3)

    # While the master was away (and until a replica held each move again): 503, retried.
    assert played.refused, "the failover went unnoticed: nothing tested"
    assert {(status, code) for status, _after, code in played.refused} == \
        {(503, "store_unavailable")}, played.refused
    assert all(after for _status, after, _code in played.refused)
    # Every acknowledged move is there, as it was answered, on whichever node serves it.
    reader = ApiClient(app.test_client())
    for game_id, _tokens in games:
        log = {e["seq"]: e["hash"] for e in reader.events(game_id)["events"]}
        acked = played.acked[game_id]
        assert [e["hash"] for e in acked] == [log.get(e["seq"]) for e in acked], game_id
