"""What one benchmark run measures, and on what sizes."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

SECTIONS = ("http", "state", "replay", "engine", "bots", "timers", "aof", "peer", "inbox",
            "cluster", "app", "soak")
# The soak takes half an hour: it runs when named (`--sections soak`), or in a quick run.
DEFAULT_SECTIONS = tuple(s for s in SECTIONS if s != "soak")


def _last_cpu() -> int:
    return max(os.sched_getaffinity(0))


@dataclass
class BenchConfig:
    sections: tuple[str, ...] = DEFAULT_SECTIONS
    # 1. moves over HTTP
    clients: tuple[int, ...] = (1, 8, 32, 64)
    duration_s: float = 10.0  # measured seconds per load run
    warmup_s: float = 2.0  # seconds before each measurement window
    slice_s: float = 1.0  # ceiling and moves take turns this long
    web_workers: int = 2  # as `donkeypost serve`
    reuse_port: bool = True  # gunicorn --reuse-port, as `donkeypost serve` and the Procfile
    # The server's rate limits: "off" (RATE_LIMITS=off), as one load generator plays many
    # moves a second from one address, which the limits are there to stop; "on": the
    # defaults, to measure what they cost.
    rate_limits: str = "off"
    # The embedded Redis's appendfsync for the HTTP runs: with several, each number of
    # clients runs under each in turn (switched live with CONFIG SET), in one run.
    appendfsync: tuple[str, ...] = ("everysec",)
    game: str = "ochs-und-esel"
    players: int = 3
    loadgen_cpu: int | None = field(default_factory=_last_cpu)
    profile: bool = False  # py-spy on the web workers during an extra run
    profile_s: float = 15.0
    profile_clients: int = 32
    profile_moves: int = 2000  # moves profiled in process (pyinstrument)
    # 2-3. state load vs log length, replay
    sizes: tuple[int, ...] = (10, 1_000, 10_000)
    load_samples: int = 300  # timed loads per size (interleaved across sizes)
    replays: int = 300  # random seqs replayed in the longest log
    # 4. engine
    engine_s: float = 3.0  # seconds of random games per game type
    engine_players: int = 4  # clamped to each game's range
    # 5. bots
    bot_samples: int = 40  # positions per game for the random and basic levels
    strong_samples: int = 10  # positions per game for the strong level
    strong_ms: float | None = None  # None: the strong bot's own budget
    search_iterations: int = 300  # per strong position, to count the search's playouts/s
    # 6. timers
    timer_moves: int = 300
    rebuild_games: int = 1000  # active games created with lost timers, then rebuilt
    # 7. AOF bytes per move
    aof_moves: int = 2000  # per mode
    aof_load_samples: int = 20  # loads timed at each version of one game
    # soak: memory over a long run of games created, played, finished and swept
    soak_minutes: float = 30.0
    soak_unstarted_ttl_s: float = 120.0  # never-started games expire after (7 days in use)
    soak_sample_s: float = 30.0
    # 7. peer: donkeypost against boardgame.io, both pinned to one CPU, in turns
    peer_slice_s: float = 5.0  # each system's turn
    peer_duration_s: float = 15.0  # measured seconds per system and number of clients
    peer_guard_s: float = 0.5  # after a switch, before a slice is measured
    peer_install: bool = True  # npm install boardgame.io into the cache when missing
    peer_server_cpu: int | None = None  # None: a CPU other than the load generator's
    # donkeypost's web servers in the peer section (`WEB_SERVER`): each is a system of its
    # own, with both shapes of client, on the same Redis and workers
    peer_web: tuple[str, ...] = ("gunicorn", "granian")
    # 8. a player's inbox page vs a view, as the player's games grow
    inbox_sizes: tuple[int, ...] = (10, 1_000)
    inbox_samples: int = 300  # pages and views timed per size, interleaved
    # 9. one Redis vs a three-master Redis Cluster, moves over HTTP
    cluster_clients: tuple[int, ...] = (32, 128)
    cluster_duration_s: float = 10.0  # measured seconds per store and number of clients
    cluster_notices: int = 20_000  # append notices published to time the broadcast
    # app: the WSGI app's CPU per request in process, rate limits off and on in turns
    app_moves: int = 2000  # per round and mode
    app_rounds: int = 3
    app_pool: int = 150  # games taking turns (a seat stays far below its rate limit)
    seed: int = 1

    @classmethod
    def quick(cls, **overrides: object) -> BenchConfig:
        """Tiny sizes: every section runs, in seconds (a smoke test, not figures)."""
        small: dict[str, object] = dict(
            sections=SECTIONS,
            clients=(1, 4), duration_s=0.6, warmup_s=0.2, slice_s=0.3, profile_s=2.0,
            profile_clients=4, profile_moves=20,
            sizes=(10, 200), load_samples=10, replays=10, engine_s=0.1, bot_samples=2,
            strong_samples=1, strong_ms=10.0, search_iterations=20, timer_moves=10,
            rebuild_games=20, aof_moves=50, aof_load_samples=2, soak_minutes=0.1,
            soak_unstarted_ttl_s=1.0, soak_sample_s=1.0,
            # no npm install in a smoke test: the peer runs if already installed
            peer_slice_s=0.4, peer_duration_s=0.4, peer_guard_s=0.1, peer_install=False,
            inbox_sizes=(3, 30), inbox_samples=5, cluster_clients=(4,),
            # (fresh web hosts: their first moves alone can take a second on a busy machine)
            cluster_duration_s=1.5, cluster_notices=200, app_moves=20, app_rounds=1,
            app_pool=4)
        small.update(overrides)
        return cls(**small)  # type: ignore[arg-type]
