"""What a larger search budget changes in the searching bots' choices, decision by decision.

    python -m bench.arena.search_budgets --game canyon-donkeys [--players 3] [--games 4]
        [--seed 0] [--budgets 300,2000] [--reference 8000] [--pool-scale 8]
        [--seats strong,basic,random] [--options JSON]

Plays games (seat 0 searching at the first budget, the others at the levels of `--seats`:
by default every seat searches at the first budget) and, at each decision of seat 0 with
more than one legal action, searches the same view again (`domain.bots.search.search`, the
game's kit): at each budget, a second time at the first budget with another RNG (how much
the choice is noise), and at the reference budget twice: when the kit weighs its samples,
once with the kit's sample pool and once with a pool `--pool-scale` times larger (how much
the pool of sampled deals limits what more iterations learn); otherwise twice with two RNGs
(how settled the reference itself is). The reference searches judge the others' choices:
the share of decisions where a budget chose what the reference chose, and the reward the
reference's statistics say a budget's choice gives up (its regret, in the kit's reward
units: the judge's mean reward for its own choice minus its mean for the budget's).
Also per budget the iterations the search really ran (it stops once its choice is settled),
the share of its choices that are the `basic` heuristic's, and per decision how many
equally weighted deals the kit's pool of weighted samples is worth.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bench.stats import mean_ci
from domain.bots.levels import basic_bot, kit_for, make_bot
from domain.bots.observation import observe
from domain.bots.search import search
from domain.bots.search_terms import Budget, Kit, SearchStats
from domain.game import Game
from domain.play import begin, play_on
from domain.registry import installed
from domain.rng import rng_for


@dataclass
class Look:
    """One decision searched at every budget."""

    legal: int
    basic: Any = None  # the `basic` heuristic's choice
    choices: dict[str, Any] = field(default_factory=dict)  # by run name
    stats: dict[str, SearchStats] = field(default_factory=dict)
    effective: float = math.nan  # effective deals in a pool of the kit's size (Kish)


def judges(kit: Kit) -> tuple[str, str]:
    """The two reference runs: with a wider pool when the kit weighs its samples, else the
    same reference again with another RNG."""
    return ("reference", "reference, wide pool" if kit.weigh is not None else
            "reference again")


def _search(game: Game[Any, Any], obs: Any, kit: Kit, iterations: int, seed: str,
            number: int) -> tuple[Any, SearchStats]:
    stats = SearchStats()
    choice = search(game, obs.view, obs.seat, obs.legal_actions, rng_for(seed, number), kit,
                    Budget(seconds=None, iterations=iterations), stats)
    return choice, stats


def look(game: Game[Any, Any], players: int, games: int, seed: int, budgets: Sequence[int],
         reference: int, pool_scale: int, others: Sequence[str] | None = None,
         options: Mapping[str, Any] | None = None,
         on_game: Callable[[int, int], None] | None = None) -> list[Look]:
    """Every decision of seat 0 with a choice, in `games` games, searched at each budget;
    `others`: the levels of seats 1.. (default: searching at the first budget);
    `on_game(number, decisions so far)` sees each game end."""
    kit = kit_for(game)
    wide = dataclasses.replace(kit, pool=kit.pool * pool_scale)
    first = Budget(seconds=None, iterations=budgets[0])
    bots = [make_bot(level, first) for level in (others or ["strong"] * (players - 1))]
    if len(bots) != players - 1:
        raise ValueError(f"{players} players need {players - 1} other seats' levels")
    looks: list[Look] = []
    name = f"search-budgets:{game.id}:{seed}"
    judge, second = judges(kit)

    for number in range(games):
        game_rng = rng_for(name, number)
        bot_rng = rng_for(name + ":bot", number)

        def choose(state: Any, seat: int, legal: Sequence[Any],
                   bot_rng: random.Random = bot_rng) -> Any:
            obs = observe(game, state, seat, legal)
            if len(obs.legal_actions) < 2:
                return obs.legal_actions[0]
            if seat != 0:
                return bots[seat - 1](game, obs, bot_rng)
            k = len(looks)
            one = Look(legal=len(obs.legal_actions),
                       basic=basic_bot(game, obs, rng_for(name + ":basic", k)))
            runs = [(str(b), kit, b) for b in budgets]
            runs += [(f"{budgets[0]} again", kit, budgets[0]), (judge, kit, reference),
                     (second, wide if kit.weigh is not None else kit, reference)]
            for i, (run, run_kit, iterations) in enumerate(runs):
                one.choices[run], one.stats[run] = _search(
                    game, obs, run_kit, iterations, f"{name}:{run}:{i}", k)
            one.effective = effective_deals(game, obs.view, seat, kit, rng_for(name, k))
            looks.append(one)
            played = one.choices[str(budgets[0])]
            return played if played is not None else obs.legal_actions[0]

        state, _ = begin(game, options, players, game_rng)
        play_on(game, state, choose, game_rng, pick=game_rng.choice)
        if on_game is not None:
            on_game(number, len(looks))
    return looks


def effective_deals(game: Game[Any, Any], view: dict[str, Any], seat: int, kit: Kit,
                    rng: random.Random) -> float:
    """How many equally weighted deals a pool of `kit.pool` weighted samples is worth
    (Kish: (sum w)^2 / sum w^2); the pool's size when the kit does not weigh."""
    if kit.weigh is None:
        return float(kit.pool)
    weights = [max(0.0, float(kit.weigh(game, game.determinize(view, seat, rng), view, seat)))
               for _ in range(kit.pool)]
    squares = math.fsum(w * w for w in weights)
    return math.fsum(weights) ** 2 / squares if squares > 0 else float(kit.pool)


def regret(one: Look, run: str, judge: str) -> float:
    """What the run's choice gives up by the judge's statistics: the judge's mean reward
    for its own choice minus its mean reward for the run's (NaN when the judge never
    tried the run's choice; below 0 when the judge's choice was not its best mean)."""
    visits = one.stats[judge].visits
    mine, theirs = visits.get(one.choices[judge]), visits.get(one.choices[run])
    if mine is None or theirs is None or not theirs[0]:
        return math.nan
    return mine[1] - theirs[1]


def report(looks: Sequence[Look], budgets: Sequence[int], kit: Kit) -> list[str]:
    runs = [str(b) for b in budgets] + [f"{budgets[0]} again"]
    judge, second = judges(kit)
    pool = (f", effective deals in the kit's pool {_ci([x.effective for x in looks], 1)}"
            if kit.weigh is not None else "")
    lines = [f"{len(looks)} decisions of seat 0, legal actions per decision "
             f"{_ci([float(x.legal) for x in looks])}{pool}"]
    for run in [*runs, judge, second]:
        its = [float(x.stats[run].iterations) for x in looks]
        outs = [float(x.stats[run].playouts) for x in looks]
        same = [1.0 if x.choices[run] == x.basic else 0.0 for x in looks]
        lines.append(f"{run:>22}: iterations run {_ci(its, 0)}, rollouts {_ci(outs, 0)}, "
                     f"basic's choice {_ci(same)}")
    for one_judge in (judge, second):
        for run in runs + ([judge] if one_judge != judge else []):
            same = [1.0 if x.choices[run] == x.choices[one_judge] else 0.0 for x in looks]
            reg = [r for x in looks if not math.isnan(r := regret(x, run, one_judge))]
            lines.append(f"{run:>22} against {one_judge}: same choice {_ci(same)}, "
                         f"regret {_ci(reg, 4)}")
    return lines


def _ci(values: Sequence[float], digits: int = 3) -> str:
    m, h = mean_ci(values)
    return f"{m:.{digits}f}" if math.isnan(h) else f"{m:.{digits}f} ± {h:.{digits}f}"


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.arena.search_budgets",
                                description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="canyon-donkeys")
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--budgets", default="300,2000")
    p.add_argument("--reference", type=int, default=8000)
    p.add_argument("--pool-scale", type=int, default=8)
    p.add_argument("--seats", default=None,
                   help="the levels of seats 1.. (comma-separated; default: searching at "
                        "the first budget)")
    p.add_argument("--options", default=None, help="game options as a JSON object")
    args = p.parse_args(argv)
    budgets = [int(b) for b in args.budgets.split(",")]
    game = installed().game(args.game)
    others = [s.strip() for s in args.seats.split(",")] if args.seats else None
    started = time.perf_counter()

    def progress(number: int, decisions: int) -> None:
        print(f"game {number + 1}/{args.games} done, {decisions} decisions, "
              f"{time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)

    looks = look(game, args.players, args.games, args.seed, budgets, args.reference,
                 args.pool_scale, others, json.loads(args.options) if args.options else None,
                 progress)
    if not looks:
        print("no decision with a choice", file=sys.stderr)
        return 1
    print("\n".join(report(looks, budgets, kit_for(game))))
    print(f"{time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
