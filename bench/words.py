"""What the game's words cost a view: `python -m bench.words` (from a checkout).

For each installed game, a table a few moves into a game (in process, on the memory store;
each game's deal is new, so compare the two columns of one run) is viewed by the seat to
act, built and encoded as `GET /games/{id}` answers it, without and with `words=true`
(labels, layout). The figure is CPU time per view, the best of a few rounds: what
`words=true` adds to a view.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from api.encoding import encode_game_view
from domain.registry import installed
from domain.service import GameService
from domain.service.views import table_view
from domain.store.memory import MemoryEventStore
from domain.table import Table, to_act
from domain.texts import english


def mid_game(service: GameService, game_id: str, players: int, moves: int,
             seed: int) -> Table:
    """A table `moves` random moves into a new game of `game_id`."""
    table = service.create(game_id, None, [{"kind": "human"}] * players, deadline_s=None)
    for n in range(players):
        service.join(table.id, f"p{n}")
    rng = random.Random(seed)
    game = service.games.game(game_id)
    for _ in range(moves):
        table, _ = service.load(table.id)
        if table.status != "active":
            break
        seat = min(to_act(table, game))
        service.act(table.id, seat, rng.choice(service.view(table, seat)["legal_actions"]))
    return service.load(table.id)[0]


def per_view_us(table: Table, service: GameService, words: bool, calls: int) -> float:
    game = service.games.game(table.type)
    acting = sorted(to_act(table, game))
    viewer = acting[0] if acting else None
    said = english if words else None
    started = time.process_time()
    for _ in range(calls):
        encode_game_view(table_view(table, game, viewer, 0.0, words=said))
    return (time.process_time() - started) / calls * 1e6


def run(calls: int, rounds: int, moves: int) -> list[dict[str, Any]]:
    games = installed()
    service = GameService(MemoryEventStore(), games)
    rows = []
    for game_id, game in games.items():
        players = min(max(3, game.min_players), game.max_players)
        table = mid_game(service, game_id, players, moves, seed=1)
        legal = len(service.view(table, min(to_act(table, game)))["legal_actions"]) \
            if table.status == "active" else 0
        plain = min(per_view_us(table, service, False, calls) for _ in range(rounds))
        worded = min(per_view_us(table, service, True, calls) for _ in range(rounds))
        rows.append({"game": game_id, "players": players, "legal_actions": legal,
                     "view_us": plain, "view_with_words_us": worded})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=1000, help="views per round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds (the best counts)")
    parser.add_argument("--moves", type=int, default=8, help="random moves before viewing")
    args = parser.parse_args()
    print(f"{'game':16} {'players':>7} {'legal':>5} {'view µs':>8} {'with words µs':>14} "
          f"{'added µs':>9}")
    for r in run(args.calls, args.rounds, args.moves):
        print(f"{r['game']:16} {r['players']:>7} {r['legal_actions']:>5} {r['view_us']:>8.0f} "
              f"{r['view_with_words_us']:>14.0f} "
              f"{r['view_with_words_us'] - r['view_us']:>9.0f}")


if __name__ == "__main__":
    main()
