"""The post-game analysis: each decision of each seat weighed against the alternatives it
had, with only what that seat knew then, and the decisions that cost the most.

A finished game's log is replayed (`decisions`): at each point where a seat acted, the
action it took is found among its legal actions (the one whose `decide`, with the game's
revealed seed, gives the logged events). Each decision with a choice is then weighed
(`weigh`) the way the searching bots think, from the seat's `Observation` at that moment
and nothing more: hidden cards are sampled consistently with the seat's view
(`domain.bots.sampler`: never the true deal, although it is known by now), every legal
action is played on the same samples and followed to the kit's horizon by the kit's
policy, and the actions are compared in the game's own points (`Kit.points`: penalty
points in the trick games, points won in the canyon game, rounds won in Trash), pair by
pair on shared samples. A decision costs what the best action gained over the one played,
when the samples show that gap clearly (more than `CLEAR_Z` standard errors); otherwise
it costs nothing.

The work is bounded per game (`AnalysisBudget`): a number of rollouts per decision, fewer
when the game has many decisions (a total per game), and a CPU time after which the
remaining decisions are not weighed (the answer says how many were).
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from domain.bots.levels import kit_for
from domain.bots.observation import Observation, observe
from domain.bots.rollouts import compare
from domain.bots.sampler import Sampler
from domain.bots.search_terms import Budget, Kit
from domain.errors import GameRuleError
from domain.events import Event
from domain.game import Game, SearchableGame
from domain.rng import rng_for
from domain.table import TABLE_EVENTS, Table, evolve_table, to_act

CLEAR_Z = 2.0  # a cost is named when the gap is this many standard errors
MOMENTS_PER_SEAT = 3  # the costliest decisions named for each seat
MIN_SAMPLES = 4  # samples per decision at least, whatever the budget
PREFIX_EVENTS = frozenset({"turn_timed_out", "seat_returned"})  # before an action's events


@dataclass(frozen=True)
class AnalysisBudget:
    """Rollouts per decision (at most), rollouts per game (shared among its decisions
    with a choice, at least `min_per_decision` each) and CPU seconds per game."""

    per_decision: int = 400
    per_game: int = 60_000
    min_per_decision: int = 48
    cpu_seconds: float = 120.0


@dataclass(frozen=True)
class Decision:
    """One seat's decision in the log: after event `seq` (the state it saw), it played
    `action` (`auto`: the server played it for an absent player), whose events start at
    `seq + 1` plus any prefix."""

    seq: int
    seat: int
    action: Any
    legal: tuple[Any, ...]
    observation: Observation
    auto: str | None = None


@dataclass(frozen=True)
class Verdict:
    """What a decision cost: the better action (None: the one played was as good as any
    the samples could tell), the expected points lost, its standard error."""

    better: Any | None
    cost: float
    error: float
    samples: int
    played_points: float
    best_points: float


def decisions(game: Game[Any, Any], events: Sequence[Event]) -> list[Decision]:
    """Every decision of the finished game whose whole log is `events` (private parts
    included, seed revealed), in order."""
    seed = next((e.data["seed"] for e in events if e.type == "game_finished"), None)
    if seed is None:
        raise ValueError("the game is not finished: its seed is still secret")
    found: list[Decision] = []
    table: Table | None = None
    i = 0
    while i < len(events):
        if table is not None and table.status == "active":
            match = _match(game, table, events, i, seed)
            if match is not None:
                decision, taken = match
                found.append(decision)
                for ev in events[i:i + taken]:
                    table = evolve_table(table, ev, game)
                i += taken
                continue
        table = evolve_table(table, events[i], game)
        i += 1
    return found


def _match(game: Game[Any, Any], table: Table, events: Sequence[Event], i: int,
           seed: str) -> tuple[Decision, int] | None:
    """The decision whose events start at `events[i]` (after a timeout's or a return's
    prefix), and how many events it spans; None if none starts there."""
    j = i
    auto = None
    while j < len(events) and events[j].type in PREFIX_EVENTS:
        if events[j].type == "turn_timed_out":
            auto = "timeout"
        j += 1
    if j >= len(events) or events[j].type in TABLE_EVENTS:
        return None
    first = events[j]
    seats = sorted(to_act(table, game), key=lambda s: s != first.actor)
    for seat in seats:
        legal = game.legal_actions(table.game, seat)
        for action in legal:
            try:
                produced = game.decide(table.game, seat, action, rng_for(seed, table.version))
            except GameRuleError:
                continue
            logged = events[j:j + len(produced)]
            if len(logged) == len(produced) and all(
                    _same(p, e) for p, e in zip(produced, logged, strict=True)):
                marks = {e.data.get("auto") for e in logged if e.actor == seat}
                by = next((m for m in marks if m), auto)
                return Decision(seq=table.version, seat=seat, action=action,
                                legal=tuple(legal),
                                observation=observe(game, table.game, seat, legal),
                                auto=by), j + len(produced) - i
    return None


# What the table adds to the events of a seat's action: who played it for the seat, and
# how many of its events may be taken back (`domain.service.decide`).
TABLE_MARKS = ("auto", "undoable")


def _same(produced: Event, logged: Event) -> bool:
    data = {k: v for k, v in logged.data.items() if k not in TABLE_MARKS}
    return (produced.type == logged.type and produced.actor == logged.actor
            and _plain(produced.data) == _plain(data)
            and _plain(produced.private) == _plain(logged.private))


def _plain(value: Any) -> Any:
    return msgspec.to_builtins(value, str_keys=True)


def weigh(game: Game[Any, Any], obs: Observation, played: Any, rng: random.Random,
          rollouts: int, kit: Kit | None = None) -> Verdict | None:
    """What playing `played` cost the seat of `obs` against its best alternative, judged
    from `obs` alone (its view and legal actions); None when no sample could be played."""
    if not isinstance(game, SearchableGame):
        return None
    kit = kit or kit_for(game)
    judged = dataclasses.replace(kit, evaluate=kit.points or kit.evaluate,
                                 horizon=kit.points_horizon or kit.horizon)
    sampler = Sampler(game, obs.view, obs.seat, judged, rng)
    ranked = compare(game, sampler, obs.seat, list(obs.legal_actions), rng, judged,
                     Budget(seconds=None, iterations=rollouts), anchor_action=played)
    if ranked is None:
        return None
    clear = ranked.leader is not ranked.anchor and ranked.gap > CLEAR_Z * ranked.error
    return Verdict(better=ranked.leader.action if clear else None,
                   cost=ranked.gap if clear else 0.0,
                   error=ranked.error if ranked.error != float("inf") else 0.0,
                   samples=ranked.samples, played_points=ranked.anchor.mean,
                   best_points=ranked.leader.mean)


def analyse(game: Game[Any, Any], events: Sequence[Event], budget: AnalysisBudget,
            rng: random.Random, clock: Callable[[], float] = time.process_time,
            on_progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """The analysis of a finished game (its whole log): each seat's decisions, the
    costliest named with the better move, as a JSON-ready document."""
    started = clock()
    found = decisions(game, events)
    choices = [d for d in found if len(d.legal) > 1]
    per = max(budget.min_per_decision,
              min(budget.per_decision, budget.per_game // max(1, len(choices))))
    kit = kit_for(game)
    weighed: list[tuple[Decision, Verdict]] = []
    for n, decision in enumerate(choices):
        if clock() - started > budget.cpu_seconds:
            break
        # Every action needs a few samples for a gap and its error to mean anything.
        rollouts = max(per, MIN_SAMPLES * len(decision.legal))
        verdict = weigh(game, decision.observation, decision.action, rng, rollouts, kit)
        if verdict is not None:
            weighed.append((decision, verdict))
        if on_progress is not None:
            on_progress(n + 1, len(choices))
    created = events[0].data.get("seats") if events and events[0].type == "game_created" \
        else None
    players = len(created) if created else max((d.seat for d in found), default=-1) + 1
    seats = []
    moments = []
    for seat in range(players):
        mine = [(d, v) for d, v in weighed if d.seat == seat]
        costly = sorted((dv for dv in mine if dv[1].better is not None),
                        key=lambda dv: -dv[1].cost)
        seats.append({"seat": seat,
                      "decisions": sum(d.seat == seat for d in found),
                      "choices": sum(d.seat == seat for d in choices),
                      "weighed": len(mine), "costly": len(costly),
                      "cost": round(sum(v.cost for _d, v in costly), 3)})
        moments += [_moment(d, v) for d, v in costly[:MOMENTS_PER_SEAT]]
    moments.sort(key=lambda m: -m["cost"])
    return {
        "unit": kit.points_unit if kit.points is not None else "reward",
        "decisions": len(found), "choices": len(choices), "weighed": len(weighed),
        "complete": len(weighed) == len(choices),
        "rollouts_per_decision": per,
        "cpu_seconds": round(clock() - started, 3),
        "seats": seats, "moments": moments,
    }


def _moment(d: Decision, v: Verdict) -> dict[str, Any]:
    return {"seq": d.seq, "seat": d.seat, "played": msgspec.to_builtins(d.action),
            "better": msgspec.to_builtins(v.better), "cost": round(v.cost, 3),
            "error": round(v.error, 3), "samples": v.samples,
            "alternatives": len(d.legal) - 1, "auto": d.auto}
