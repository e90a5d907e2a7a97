"""What each of a Trash player's choices is worth: `basic` against itself with one choice
changed, over many games.

    python -m bench.arena.trash_choices [--games 2000] [--players 2] [--seed 7]

A Trash player chooses three things: where to draw from (the discard's top card may be
taken only when it is placeable), whether a number displaces a face-up wild, and on which
face-down slot a wild goes. `basic` takes the discard whenever it may, always displaces,
and puts a wild on the slot whose rank has the fewest copies left. Each variant below
changes one of those choices; if a choice mattered, the variant would lose clearly:

- `stock-first`: draws from the stock even when the discard could be taken;
- `keep-wild`: never displaces a wild (discards the number, ending the turn);
- `random-wild`: puts each wild on a face-down slot at random;
- `most-live-wild`: puts each wild on the slot whose rank has the most copies left.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from typing import Any

from bench.arena.games import GameRecord, seating
from bench.arena.stats import level_stats
from domain.bots import trash_basic
from domain.bots.match import play_match
from domain.bots.observation import Observation
from domain.games.trash.actions import TrashDiscard, TrashDraw, TrashPlaceWild
from domain.registry import installed

Bot = Callable[[Any, Observation, random.Random], Any]


def _variant(change: Callable[[Observation, random.Random], Any | None]) -> Bot:
    def bot(game: Any, obs: Observation, rng: random.Random) -> Any:
        choice = change(obs, rng)
        return choice if choice is not None else trash_basic.basic(game, obs, rng)

    return bot


def _stock_first(obs: Observation, rng: random.Random) -> Any | None:
    return next((a for a in obs.legal_actions if a == TrashDraw(source="stock")), None)


def _keep_wild(obs: Observation, rng: random.Random) -> Any | None:
    return next((a for a in obs.legal_actions if isinstance(a, TrashDiscard)), None)


def _random_wild(obs: Observation, rng: random.Random) -> Any | None:
    wilds = [a for a in obs.legal_actions if isinstance(a, TrashPlaceWild)]
    return rng.choice(wilds) if wilds else None


def _most_live_wild(obs: Observation, rng: random.Random) -> Any | None:
    wilds = [a for a in obs.legal_actions if isinstance(a, TrashPlaceWild)]
    if not wilds:
        return None
    slots = [a.slot for a in wilds]
    live = trash_basic._live(obs.view["options"]["decks"], slots,
                             trash_basic._dead_in_view(obs.view))
    return wilds[max(range(len(slots)), key=lambda i: (live[i], slots[i]))]


VARIANTS: dict[str, Bot] = {
    "stock-first": _variant(_stock_first),
    "keep-wild": _variant(_keep_wild),
    "random-wild": _variant(_random_wild),
    "most-live-wild": _variant(_most_live_wild),
}


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.arena.trash_choices",
                                description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--seed", type=int, default=7)
    args = p.parse_args(argv)
    game = installed().game("trash")
    print(f"Trash, {args.players} seats, {args.games} games per variant, seed {args.seed}: "
          "basic against basic with one choice changed (win rate ± 95% CI)")
    for name, bot in VARIANTS.items():
        seats = [name if s % 2 else "basic" for s in range(args.players)]
        records = []
        for number in range(args.games):
            m = play_match(game, seating(seats, number), f"trash-choices:{args.seed}", number,
                           others={name: bot})
            records.append(GameRecord(number, m.levels, m.places, m.scores, m.score_name,
                                      m.lower_is_better, m.moves, m.seconds))
        by = {s.level: s for s in level_stats(records)}
        b, v = by["basic"], by[name]
        print(f"  {name:15s} {v.win_rate:.3f} ± {v.win_ci:.3f}   basic "
              f"{b.win_rate:.3f} ± {b.win_ci:.3f}   mean slots left {v.mean_score:.2f} "
              f"against {b.mean_score:.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
