"""Sections 2 and 3: loading a game's state as its log grows, and replay in a long log.

Long logs are built in process through `GameService` (the path every move takes, minus
HTTP), on the run's embedded Redis. No game of the family ends on its own after 10,000
events, so the builder plays the longest game there is, Ochs & Esel with 12 seats and 20
rounds, and stretches it the way real tables do: the players pass when they may and play
their smallest set otherwise, and every other move of each seat is made for it when its
deadline passes (`turn_timed_out`, then `seat_returned` when it is back). That gives about
11,000 events; each size gets a game of its own, stopped at the first version at or past
the size (with 12 seats the shortest started log has 16 events, not 10).

State load is timed two ways, interleaved across the sizes so that the shared machine's
drift hits them alike: `GameService.load` (the snapshot and the token, one round trip),
and `GET /games/{id}` through the WSGI app in process, as the seat to act (its legal
actions included). Folding the whole log (`GameService.rebuild`) is timed too: what the
snapshot saves.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

import msgspec

from bench.config import BenchConfig
from bench.context import BenchContext
from bench.progress import Step, Steps
from bench.stats import percentile
from domain.service import GameService
from domain.store import CHECKPOINT_EVERY
from domain.table import to_act

LONG_GAME = "ochs-und-esel"
LONG_SEATS = 12
LONG_OPTIONS = {"rounds": 20}
PASS_SHARE = 0.9  # how often a stretching player passes when it may


@dataclass
class BuiltGame:
    id: str
    tokens: list[str]
    events: int


def stretching_action(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Pass most of the time when passing is allowed, else play the smallest, lowest set
    (or any card): in this family that makes the most moves per round."""
    passes = [a for a in legal if a["type"] == "pass"]
    if passes and rng.random() < PASS_SHARE:
        return passes[0]
    sets = [a for a in legal if a["type"] == "play_set"]
    if sets:
        return min(sets, key=lambda a: (a.get("numbers", 0) + a.get("jokers", 0),
                                        a.get("value", 0)))
    return rng.choice(legal)


def build_game(service: GameService, events: int, rng: random.Random,
               step: Step | None = None) -> BuiltGame:
    """A game whose log has at least `events` events (see the module's docstring)."""
    game = service.games.game(LONG_GAME)
    table = service.create(LONG_GAME, LONG_OPTIONS, [{"kind": "human"}] * LONG_SEATS)
    tokens = [""] * LONG_SEATS
    for n in range(LONG_SEATS):
        seat, token, table = service.join(table.id, f"p{n}")
        tokens[seat] = token
    while table.version < events:
        if table.status != "active":
            raise RuntimeError(f"the game ended after {table.version} events, "
                               f"short of {events}")
        seat = min(to_act(table, game))
        legal = [msgspec.to_builtins(a) for a in game.legal_actions(table.game, seat)]
        by = "timeout" if table.timeouts_in_row[seat] == 0 else "player"
        before = table.version
        table = service.act(table.id, seat, stretching_action(legal, rng), by=by).table
        if step is not None:
            step.advance(min(table.version, events) - min(before, events))
    return BuiltGame(table.id, tokens, table.version)


def built_games(cfg: BenchConfig, ctx: BenchContext, steps: Steps) -> dict[int, BuiltGame]:
    """The games of every size, built once per run (the replay section reuses them)."""
    cache: dict[int, BuiltGame] = ctx.cache.setdefault("logs", {})
    missing = [s for s in cfg.sizes if s not in cache]
    if missing:
        rng = random.Random(cfg.seed)
        with steps.step("logs: building games", total=sum(missing)) as step:
            for size in missing:
                cache[size] = build_game(ctx.service, size, rng, step)
    return {s: cache[s] for s in cfg.sizes}


def _ms(samples: list[float]) -> dict[str, float]:
    ms = [s * 1000.0 for s in samples]
    return {"p50": percentile(ms, 50), "p90": percentile(ms, 90), "p99": percentile(ms, 99),
            "max": max(ms)}


def _timed(fn: Any) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def run_state_load(cfg: BenchConfig, ctx: BenchContext, steps: Steps) -> dict[str, Any]:
    games = built_games(cfg, ctx, steps)
    service, client = ctx.service, ctx.app.test_client()
    seats: dict[int, int] = {}
    for size, built in games.items():
        table, _ = service.load(built.id)
        seats[size] = min(to_act(table, service.games.game(table.type)))
    load: dict[int, list[float]] = {s: [] for s in games}
    get: dict[int, list[float]] = {s: [] for s in games}
    fold: dict[int, list[float]] = {s: [] for s in games}
    folds = max(3, cfg.load_samples // 50)
    with steps.step("logs: state load", total=cfg.load_samples) as step:
        for n in range(cfg.load_samples):
            for size, built in games.items():
                token = built.tokens[seats[size]]
                headers = {"Authorization": f"Bearer {token}"}
                load[size].append(_timed(lambda b=built, t=token: service.load(b.id, t)))
                get[size].append(_timed(lambda b=built, h=headers: _get_ok(
                    client, f"/games/{b.id}", h)))
                if n < folds:
                    fold[size].append(_timed(lambda b=built: service.rebuild(b.id)))
            step.advance()
    base = cfg.sizes[0]
    rows = []
    for size, built in games.items():
        lo, ge, fo = _ms(load[size]), _ms(get[size]), _ms(fold[size])
        rows.append({
            "size": size, "events": built.events, "load_ms": lo, "get_ms": ge,
            "full_fold_ms": fo,
            "load_ratio": lo["p50"] / _ms(load[base])["p50"],
            "get_ratio": ge["p50"] / _ms(get[base])["p50"],
        })
    return {"game": f"{LONG_GAME}, {LONG_SEATS} seats, options {LONG_OPTIONS}",
            "samples": cfg.load_samples, "ratios": "p50 / p50 of the smallest log",
            "rows": rows}


def _get_ok(client: Any, path: str, headers: dict[str, str]) -> None:
    r = client.get(path, headers=headers)
    if r.status_code != 200:
        raise RuntimeError(f"GET {path} answered {r.status_code}: {r.get_data()[:200]!r}")


def run_replay(cfg: BenchConfig, ctx: BenchContext, steps: Steps) -> dict[str, Any]:
    games = built_games(cfg, ctx, steps)
    longest = games[max(games)]
    service, client = ctx.service, ctx.app.test_client()
    rng = random.Random(cfg.seed)
    # Random seqs, and the worst case: the seqs just before a checkpoint fold the most.
    worst = [s for s in range(CHECKPOINT_EVERY - 1, longest.events + 1, CHECKPOINT_EVERY)]
    seqs = [rng.randint(1, longest.events) for _ in range(cfg.replays)]
    seqs += rng.sample(worst, min(len(worst), max(1, cfg.replays // 10)))
    headers = {"Authorization": f"Bearer {longest.tokens[0]}"}
    direct: list[float] = []
    over_http: list[float] = []
    with steps.step("replay: random seqs", total=len(seqs)) as step:
        for seq in seqs:
            direct.append(_timed(lambda s=seq: service.state_at(longest.id, s, 0)))
            over_http.append(_timed(lambda s=seq: _get_ok(
                client, f"/games/{longest.id}/states/{s}", headers)))
            step.advance()
    return {"events": longest.events, "seqs": len(seqs), "checkpoint_every": CHECKPOINT_EVERY,
            "state_at_ms": _ms(direct), "get_states_ms": _ms(over_http)}
