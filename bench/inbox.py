"""Section 8: a player's inbox page against a single view, as the player's games grow.

For each size (`inbox_sizes`: 10 and 1,000 games), one player sits at that many started
three-seat Ochs & Esel games, each with a second player and a bot (nothing moves: the
hooks do nothing), with deadlines spread over a day; the player leads in each, so every
game waits for them and a page is full (10 entries) at every size. Then, interleaved so
that the shared machine's drift hits both alike, through the WSGI app in process and with
the player's key: `GET /players/me/games?my_turn=true` (the first page, soonest deadline
first) and `GET /games/{id}` of one of those games (the player's view, legal actions
included).

The inbox is read from the player's slot (the key's hash and the index) and the page's
stored tables (two round trips, decoded without their game state), so its time should not
grow with the games behind it; the view is the most frequent request there is, the
yardstick.
"""

from __future__ import annotations

import time
from typing import Any

from bench.config import BenchConfig
from bench.context import BenchContext
from bench.progress import Step, Steps
from bench.stats import percentile

GAME = "ochs-und-esel"
DAY_S = 24 * 3600


def _games_of(ctx: BenchContext, size: int, run: int, step: Step) -> tuple[str, str, int]:
    """A new player with `size` started games; their key, one game id, and how many of
    the games wait for them (all)."""
    service = ctx.service
    player, key = service.register_player(f"Bench {run}-{size}")
    other, _ = service.register_player(f"Other {run}-{size}")
    mine = 0
    game_id = ""
    for n in range(size):
        table = service.create(GAME, {"rounds": 1, "first_player": 0}, [
            {"kind": "human", "me": True}, {"kind": "human", "invite": other.name},
            {"kind": "bot", "level": "basic"}], deadline_s=3600 + DAY_S * n / size, by=player)
        _seat, _token, table = service.join(table.id, None, other)
        step.advance()
        if 0 in table.waiting_since:
            mine += 1
            game_id = table.id
    return key, game_id or table.id, mine


def _ms(samples: list[float]) -> dict[str, float]:
    return {"p50": percentile(samples, 50), "p95": percentile(samples, 95),
            "max": max(samples)}


def run(cfg: BenchConfig, ctx: BenchContext, steps: Steps) -> dict[str, Any]:
    client = ctx.app.test_client()
    built = []
    for size in cfg.inbox_sizes:
        with steps.step(f"inbox: a player with {size} games", total=size) as step:
            built.append((size, *_games_of(ctx, size, int(time.time()), step)))
    timings: dict[int, tuple[list[float], list[float]]] = {
        size: ([], []) for size, *_ in built}
    entries: dict[int, int] = {}
    with steps.step("inbox: pages and views, interleaved",
                    total=cfg.inbox_samples) as step:
        for _ in range(cfg.inbox_samples):
            step.advance()
            for size, key, game_id, _mine in built:
                headers = {"Authorization": f"Bearer {key}"}
                t0 = time.perf_counter()
                page = client.get("/players/me/games?my_turn=true", headers=headers)
                t1 = time.perf_counter()
                view = client.get(f"/games/{game_id}", headers=headers)
                t2 = time.perf_counter()
                assert page.status_code == 200 and view.status_code == 200
                entries[size] = len(page.get_json())
                timings[size][0].append((t1 - t0) * 1000)
                timings[size][1].append((t2 - t1) * 1000)
    rows = []
    for size, _key, _game, mine in built:
        inbox_ms, view_ms = timings[size]
        row = {"games": size, "my_turn": mine, "page_entries": entries[size],
               "inbox_ms": _ms(inbox_ms), "view_ms": _ms(view_ms)}
        row["inbox_per_view"] = row["inbox_ms"]["p50"] / row["view_ms"]["p50"]
        rows.append(row)
    return {"game": GAME, "samples": cfg.inbox_samples, "rows": rows}
