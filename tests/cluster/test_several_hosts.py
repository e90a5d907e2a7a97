"""Several web hosts and workers on one Redis Cluster, as deployed: two gunicorn instances
(gevent, `donkeypost.wsgi:app`, on two ports) and two `donkeypost worker` processes, with
the games on the cluster (`REDIS_CLUSTER_URL`) and the queues on a plain Redis
(`RQ_REDIS_URL`). Nothing ties a game to a host: a client alternating between them plays
to the end, a stream on one host sees the moves posted on the other, deadlines fire once
with two workers racing for them, and a host's streams hold a bounded number of
connections to each node however many games they watch."""

from __future__ import annotations

import contextlib
import itertools
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
import redis
from rq import Worker

from domain.connection import MAX_CONNECTIONS
from tests.support.games import games_under_test
from tests.support.gunicorn import Gunicorn
from tests.support.live import SseMessage, open_stream
from tests.support.redis_cluster import Cluster
from tests.support.workers import WorkerProcess, moves_of, timeouts, wait_until

pytestmark = pytest.mark.timeout(180)


@dataclass
class Hosts:
    web: list[Gunicorn]  # the two web hosts
    workers: list[WorkerProcess]

    @property
    def urls(self) -> list[str]:
        return [w.url for w in self.web]


@pytest.fixture(scope="module")
def hosts(redis_cluster: Cluster, redis_url: str,
          tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hosts]:
    """Started once for this module's tests (each test empties the cluster and the queues'
    Redis, as every test does: the processes carry on, nothing of theirs lives there but
    what a test made)."""
    tmp_path = tmp_path_factory.mktemp("hosts")
    redis_cluster.wait_healthy()
    env = {"REDIS_CLUSTER_URL": redis_cluster.seeds_url, "RQ_REDIS_URL": redis_url,
           "RATE_LIMITS": "off", "SSE_KEEPALIVE_S": "1"}
    # The workers start while the web hosts do.
    workers = [WorkerProcess(redis_url, tmp_path / f"worker{i}.log",
                             cluster_url=redis_cluster.seeds_url) for i in range(2)]
    try:
        with contextlib.ExitStack() as stack:
            web = []
            for name in ("web1", "web2"):
                (tmp_path / name).mkdir()
                web.append(stack.enter_context(Gunicorn(
                    None, workers=1, log_dir=tmp_path / name, app="donkeypost.wsgi:app",
                    env=env)))
            queues = redis.Redis.from_url(redis_url)
            wait_until(lambda: Worker.count(connection=queues) == 2, 60, "two workers")
            queues.close()
            yield Hosts(web, workers)
    finally:
        codes = [w.stop() for w in workers]
    assert codes == [0, 0], [w.output()[-2000:] for w in workers]


def _tcp_connections(pid: int) -> set[tuple[int, int]]:
    """The (local port, remote port) of each TCP socket that process `pid` holds. A local
    port alone does not name a connection: the kernel gives one ephemeral port to several
    outgoing connections when their destinations differ, so another process's connection
    to a node may share it with this one's connection to another node."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            target = os.readlink(fd)
            if target.startswith("socket:["):
                inodes.add(target[len("socket:["):-1])
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[9] in inodes:
                found.add((int(fields[1].rsplit(":", 1)[1], 16),
                           int(fields[2].rsplit(":", 1)[1], 16)))
    return found


class Alternating:
    """An HTTP client that sends each request to the next host in turn."""

    def __init__(self, bases: list[str]) -> None:
        self.clients = [httpx.Client(base_url=b, timeout=30) for b in bases]
        self._next = itertools.cycle(self.clients)
        self.sent = [0] * len(bases)

    def request(self, method: str, path: str, token: str | None = None,
                **kwargs: Any) -> httpx.Response:
        client = next(self._next)
        self.sent[self.clients.index(client)] += 1
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return client.request(method, path, headers=headers, **kwargs)

    def close(self) -> None:
        for client in self.clients:
            client.close()


def _new_game(http: Alternating, seats: list[dict[str, Any]],
              **extra: Any) -> tuple[str, list[str]]:
    created = http.request("POST", "/games", json={
        "type": "ochs-und-esel", "options": {"rounds": 1, "first_player": 0},
        "seats": seats, **extra})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    tokens = [""] * len(seats)
    for n, seat in enumerate(seats):
        if seat["kind"] == "human":
            joined = http.request("POST", f"/games/{game_id}/players", json={"name": f"p{n}"})
            assert joined.status_code == 201, joined.text
            tokens[joined.json()["seat"]] = joined.json()["token"]
    return game_id, tokens


def _stream_until_the_end(base: str, game_id: str, got: list[SseMessage],
                          ready: threading.Event) -> None:
    with open_stream(base, game_id, after=0, timeout_s=60) as (response, messages):
        assert response.status_code == 200
        ready.set()
        for message in messages:
            if isinstance(message, SseMessage):
                got.append(message)
                if message.event == "game_finished":
                    return


def test_a_client_alternating_between_two_hosts_plays_to_the_end_seen_live_on_each(
        hosts, cluster_client):
    http = Alternating(hosts.urls)
    try:
        game_id, tokens = _new_game(http, [{"kind": "human"}] * 3, deadline_s=None)
        streams: list[list[SseMessage]] = [[], []]
        readers = []
        for base, got in zip(hosts.urls, streams, strict=True):
            ready = threading.Event()
            readers.append(threading.Thread(target=_stream_until_the_end,
                                            args=(base, game_id, got, ready), daemon=True))
            readers[-1].start()
            assert ready.wait(30)
        posted = []  # (host, version) of each move
        for _ in range(500):
            spectator = http.request("GET", f"/games/{game_id}").json()
            if spectator["status"] == "finished":
                break
            seat = spectator["to_act"][0]
            view = http.request("GET", f"/games/{game_id}", tokens[seat]).json()
            host = http.sent.index(min(http.sent))  # the host the next request goes to
            moved = http.request("POST", f"/games/{game_id}/actions", tokens[seat],
                                 json=view["legal_actions"][0])
            assert moved.status_code == 200, moved.text
            posted.append((host, moved.json()["version"]))
        final = http.request("GET", f"/games/{game_id}").json()
        for reader in readers:
            reader.join(timeout=30)
    finally:
        http.close()
    assert final["status"] == "finished"
    assert {host for host, _v in posted} == {0, 1}  # each host took moves
    # Each host's stream has the whole log once, in order: the other host's moves too.
    for got in streams:
        assert [int(m.id) for m in got] == list(range(1, final["version"] + 1))


def test_deadlines_fire_once_with_two_workers_while_clients_use_both_hosts(
        hosts, components):
    """The human never plays: two deadlines pass, then the seat is away and played at once
    to the end; the bots' turns and the deadlines are jobs that either worker may take."""
    http = Alternating(hosts.urls)
    try:
        game_id, _tokens = _new_game(http, [{"kind": "human"},
                                            {"kind": "bot", "level": "basic"},
                                            {"kind": "bot", "level": "random"}], deadline_s=1)
        wait_until(lambda: http.request("GET", f"/games/{game_id}").json()["status"]
                   == "finished", 90, "the end of the game", every_s=0.25)
    finally:
        http.close()
    service = components.service
    log = service.store.read(game_id)
    missed = timeouts(log)
    assert [e.data["seat"] for e in missed] == [0, 0]  # each deadline once, never twice
    for ev in missed:
        before = service.rebuild(game_id, until=ev.seq - 1)
        assert before.deadline(0) is not None and before.deadline(0) <= ev.at
    played = moves_of(log, 0)
    assert [e.data.get("auto") for e in played[:2]] == ["timeout", "timeout"]
    assert played[2:] and all(e.data.get("auto") == "away" for e in played[2:])


def _connections(cluster: Cluster,
                 held: set[tuple[int, int]]) -> dict[int, list[dict[str, Any]]]:
    """Each live node's clients that are one of the connections `held` (`_tcp_connections`:
    from the client's port to the node's)."""
    found = {}
    for node in cluster.nodes:
        if node.alive():
            admin = node.client()
            found[node.port] = [c for c in admin.client_list()
                                if (int(c["addr"].rsplit(":", 1)[1]), node.port) in held]
            admin.close()
    return found


def test_a_hosts_streams_hold_a_bounded_number_of_connections_to_each_node(
        hosts, components, redis_cluster):
    """Sixty games watched on one host, each game moving while it is watched: the host's
    process holds one subscription in all and at most its pool's connections to each node,
    not one per game (a blocking read per watched game would take about twenty per node)."""
    service = components.service
    games = []
    for n in range(60):
        table = service.create("ochs-und-esel", {"rounds": 1, "first_player": 0},
                               [{"kind": "human"}] * 3, deadline_s=None)
        for i in range(3):
            table = service.join(table.id, f"p{n}-{i}")[2]
        games.append((table.id, table))
    stop = threading.Event()
    seen: dict[str, int] = {}

    def watch(game_id: str, ready: threading.Event) -> None:
        try:
            with open_stream(hosts.urls[0], game_id, after=0, timeout_s=60) as (_r, messages):
                ready.set()
                for message in messages:
                    if isinstance(message, SseMessage):
                        seen[game_id] = int(message.id)
                    if stop.is_set():
                        return
        except httpx.HTTPError:
            ready.set()

    watchers = []
    for game_id, _table in games:
        ready = threading.Event()
        watchers.append(threading.Thread(target=watch, args=(game_id, ready), daemon=True))
        watchers[-1].start()
        assert ready.wait(30)
    try:
        base = {g: t.version for g, t in games}
        wait_until(lambda: all(seen.get(g) == base[g] for g, _t in games), 30,
                   "every stream at its game's version")
        for game_id, table in games:  # every game moves: every feed reads at once
            action = games_under_test().game(table.type).legal_actions(table.game, 0)[0]
            service.act(game_id, 0, msgspec.to_builtins(action))  # the first player's
        wait_until(lambda: all(seen.get(g) == base[g] + 1 for g, _t in games), 30,
                   "every stream at the move")
        (web_process,) = hosts.web[0].worker_pids()
        held = _connections(redis_cluster, _tcp_connections(web_process))
    finally:
        stop.set()
    subscriptions = [c for clients in held.values() for c in clients
                     if c.get("cmd") == "subscribe"]
    assert len(subscriptions) == 1, subscriptions
    for port, clients in held.items():
        # Its pool's (at most MAX_CONNECTIONS per node) and the subscription, on one node.
        assert len(clients) <= MAX_CONNECTIONS + 1, (port, [c.get("cmd") for c in clients])
    assert sum(len(c) for c in held.values()) < len(games)
