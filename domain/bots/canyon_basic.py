"""The `basic` heuristic of the Grand Canyon donkey-loading game, and the search kit the
`strong` bot uses on it.

Every choice is scored by what it should win this round plus what the cards kept in hand
are worth later:
- the chance that the donkey is overloaded comes from the load cards the seat can see (its
  own, face-up ones, those it looked at) and, for each one it cannot see, the values that
  card may still have (its owner's unseen cards), tilted by the owner's public contract
  choice: an accepter tends to have loaded low, a refuser high;
- accepting wins one's own counted cards if the donkey is not overloaded; refusing wins
  about an average card of the pile if it is;
- a card kept in hand is worth `ALPHA` of its value later, but only as many cards as the
  seat must still load count: the others are spare, which makes a favour cheap.
So the seat loads the card with the best round-plus-future score, calls a favour when the
round is uncertain enough to pay for the card, looks at the cards it knows least about,
and takes the side with the higher expected win.

The same decision runs on a seat's view (the `basic` bot) and on a determinized state (the
search's rollout policy): both are first reduced to a `Spot`, which holds only what that
seat may see. The search's `weigh` replays each other seat's public choices of the round
(favour called or not, accept or refuse) through the same model on a sampled deal, so the
samples that explain those choices best count most: the strong bot reads bluffs.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from domain.bots.kit import Kit
from domain.bots.observation import Observation
from domain.games.canyon_donkeys import donkeys as dk
from domain.games.canyon_donkeys import favours as fv
from domain.games.canyon_donkeys.actions import (
    CanyonAdjust,
    CanyonContract,
    CanyonExchange,
    CanyonFavour,
    CanyonKeep,
    CanyonLoad,
    CanyonLook,
    CanyonNoFavour,
    CanyonSwap,
    CanyonTake,
)
from domain.games.canyon_donkeys.state import (
    CARD_VALUES,
    FAVOURS,
    LOAD,
    CanyonState,
    clockwise,
)
from domain.games.canyon_donkeys.view import known_cards

ALPHA = 0.5  # a card kept for a later round is worth about half its value
TILT = 0.15  # how strongly an accept (refuse) suggests a low (high) hidden load
SAMPLES = 24  # draws for the donkeys whose overload test is not a plain total
ROLLOUT_SAMPLES = 8
# Favours: the share of the round's stake each one can swing when the round is a toss-up.
FAVOUR_SWING = {fv.LAST_WORD: 0.35, fv.EXCHANGE: 0.9, fv.ADJUST: 0.6, fv.LOOK: 0.5}
FAVOUR_THRESHOLD = 0.5
# Bluff reading: how sharply a seat's choice follows the model, and the floor that keeps
# a bluff possible.
BETA = 0.6
FLOOR = 0.1
BETA_LOAD = 1.5
LOAD_FLOOR = 0.1


# ---------------------------------------------------------------------------------------
# What one seat may see
# ---------------------------------------------------------------------------------------

@dataclass(slots=True)
class Hidden:
    """A load card of another seat that this seat cannot see: what it may be."""

    owner: int
    values: tuple[int, ...]
    weights: tuple[float, ...]  # normalized
    mean: float
    var: float
    below: tuple[float, ...]  # below[v]: the chance that the card is worth at most v


@dataclass(slots=True)
class Spot:
    seat: int
    players: int
    phase: str
    effect: str
    limit: int
    loads_each: int
    hand: tuple[int, ...]
    mine: tuple[int, ...]  # my load values (empty before I load)
    seen: tuple[tuple[int, int], ...]  # other seats' load cards I can see
    hidden: tuple[Hidden, ...]  # other seats' load cards I cannot see (or not loaded yet)
    contract: tuple[bool | None, ...]
    favour: tuple[int, ...]
    needed: int  # load cards I must still play after this round's
    overloaded: bool | None
    # Worked out once per spot: every candidate load is weighed against the same others.
    seen_sum: int = 0
    hidden_mean: float = 0.0
    hidden_var: float = 0.0
    draws: list[list[tuple[int, int]]] | None = None  # sampled hidden cards (lazily)

    def __post_init__(self) -> None:
        self.seen_sum = sum(v for _, v in self.seen)
        self.hidden_mean = sum(h.mean for h in self.hidden)
        self.hidden_var = sum(h.var for h in self.hidden)


@functools.lru_cache(maxsize=4096)
def _hidden(owner: int, pool: tuple[int, ...], choice: bool | None) -> Hidden:
    values = pool or CARD_VALUES
    if choice is None:
        weights = [1.0] * len(values)
    else:
        sign = -TILT if choice else TILT
        weights = [math.exp(sign * v) for v in values]
    total = sum(weights)
    norm = tuple(w / total for w in weights)
    mean = sum(w * v for w, v in zip(norm, values, strict=True))
    var = sum(w * (v - mean) ** 2 for w, v in zip(norm, values, strict=True))
    at = dict(zip(values, norm, strict=True))
    below, total = [0.0], 0.0
    for v in CARD_VALUES:
        total += at.get(v, 0.0)
        below.append(total)
    return Hidden(owner, values, norm, mean, var, tuple(below))


def spot_from_view(view: dict[str, Any], seat: int) -> Spot:
    you = view["you"]
    donkey = view["donkey"] or {}
    effect = donkey.get("effect") or dk.NORMAL
    limit = donkey.get("gap") if effect == dk.PRECISION else donkey.get("capacity")
    each = int(donkey.get("loads_each") or 1)
    exchanged = {(s, slot) for s, slot, _ in view["exchanges"]}
    looked = {(t, slot): v for t, slot, v in you["looks"] if (t, slot) not in exchanged}
    contract = tuple(None if s["contract"] is None else s["contract"] == "accept"
                     for s in view["seats"])
    seen: list[tuple[int, int]] = []
    hidden: list[Hidden] = []
    loading = view["phase"] == LOAD
    for s in view["seats"]:
        j = s["seat"]
        if j == seat:
            continue
        unknown = 0
        for slot, card in enumerate(s["load"]):
            if card is not None:
                seen.append((card[0], card[1]))
            elif (j, slot) in looked:
                seen.append((j, looked[(j, slot)]))
            else:
                unknown += 1
        if loading and not s["loaded"]:
            unknown += each
        hidden.extend([_hidden(j, tuple(view["unseen"][j]), contract[j])] * unknown)
    return Spot(
        seat=seat, players=view["players"], phase=view["phase"], effect=effect,
        limit=int(limit or 0), loads_each=each, hand=tuple(you["hand"]),
        mine=tuple(v for _, v in you["load"]), seen=tuple(seen), hidden=tuple(hidden),
        contract=contract, favour=tuple(s["favour"] or 0 for s in view["seats"]),
        needed=view["donkeys_left"], overloaded=view["overloaded"])


def spot_from_state(state: CanyonState, seat: int,
                    contract: tuple[bool | None, ...] | None = None) -> Spot:
    """The spot of `seat` on a full state, reading only what that seat could see.
    `contract` replaces the public contract choices (to replay an earlier moment)."""
    known = known_cards(state, seat)
    contract = state.contract if contract is None else contract
    each = dk.loads_each(state.effect)
    seen: list[tuple[int, int]] = []
    hidden: list[Hidden] = []
    loading = state.phase == LOAD
    for j in range(state.players):
        if j == seat:
            continue
        unknown = 0
        for card in state.loads[j]:
            if card in known:
                seen.append(card)
            else:
                unknown += 1
        if loading:
            unknown += each - len(state.loads[j])
        if unknown:
            pool = tuple(v for v in CARD_VALUES if (j, v) not in known)
            h = _hidden(j, pool, contract[j])
            hidden.extend([h] * unknown)
    return Spot(
        seat=seat, players=state.players, phase=state.phase, effect=state.effect or dk.NORMAL,
        limit=state.limit, loads_each=each, hand=state.hands[seat],
        mine=tuple(v for _, v in state.loads[seat]), seen=tuple(seen), hidden=tuple(hidden),
        contract=contract, favour=state.favour, needed=len(state.deck),
        overloaded=state.overloaded if state.revealed else None)


# ---------------------------------------------------------------------------------------
# The round's outlook
# ---------------------------------------------------------------------------------------

@dataclass(slots=True)
class Outlook:
    p_over: float
    win_accept: float  # what accepting wins if the donkey is not overloaded
    win_refuse: float  # what refusing wins if it is

    @property
    def accept(self) -> float:
        return (1.0 - self.p_over) * self.win_accept

    @property
    def refuse(self) -> float:
        return self.p_over * self.win_refuse

    @property
    def best(self) -> float:
        return max(self.accept, self.refuse)


def outlook(spot: Spot, mine: Sequence[int], rng: random.Random,
            samples: int = SAMPLES) -> Outlook:
    """Chance of an overload with `mine` loaded, and what each side then wins."""
    if spot.effect in (dk.ATTACKED, dk.PICKY):
        return _sampled_outlook(spot, mine, rng, samples)
    mean = sum(mine) + spot.seen_sum + spot.hidden_mean
    count = len(mine) + len(spot.seen) + len(spot.hidden)
    if spot.effect == dk.PRECISION:
        fixed = [*mine, *(v for _, v in spot.seen)]
        p = 1.0 - _p_within_gap(fixed, spot.hidden, spot.limit)
    else:
        var = spot.hidden_var
        if var < 1e-9:
            p = 1.0 if mean > spot.limit else 0.0
        else:
            z = (spot.limit + 0.5 - mean) / math.sqrt(var)
            p = 0.5 * math.erfc(z / math.sqrt(2.0))
    pile = mean / count if count else 0.0
    win_accept = float(sum(mine))
    win_refuse = pile + 0.5  # an overloaded pile runs a little high
    if spot.favour[spot.seat] == fv.REWARD:
        top = max([*mine, *(v for _, v in spot.seen), *(max(h.values) for h in spot.hidden)],
                  default=0)
        best_other = max([v for _, v in spot.seen] + [h.mean + math.sqrt(h.var)
                                                     for h in spot.hidden], default=0.0)
        if mine:
            win_accept += max(0.0, best_other - min(mine))
        win_refuse = max(win_refuse, 0.5 * (top + pile))
    return Outlook(p, win_accept, win_refuse)


def _p_within_gap(fixed: Sequence[int], hidden: Sequence[Hidden], gap: int) -> float:
    """P(highest − lowest ≤ gap): sum over the lowest value m of P(all in [m, m + gap])
    − P(all in [m + 1, m + gap])."""

    low, high = min(fixed, default=99), max(fixed, default=0)
    top = CARD_VALUES[-1]

    def all_in(lo: int, hi: int) -> float:
        hi = min(hi, top)
        if lo > hi or lo > low or hi < high:
            return 0.0
        p = 1.0
        for h in hidden:
            p *= h.below[hi] - h.below[lo - 1]
        return p

    return sum(all_in(m, m + gap) - all_in(m + 1, m + gap) for m in CARD_VALUES)


def _sampled_outlook(spot: Spot, mine: Sequence[int], rng: random.Random,
                     samples: int) -> Outlook:
    """The attacked and picky donkeys remove cards at the reveal: draw the hidden cards."""
    me = spot.seat
    fixed = [(me, v) for v in mine] + list(spot.seen)
    if spot.draws is None or len(spot.draws) != samples:
        spot.draws = [[(h.owner, _draw(h, rng)) for h in spot.hidden] for _ in range(samples)]
    over = 0
    acc_sum = ref_sum = 0.0
    for drawn in spot.draws:
        cards = fixed + drawn
        removed = dk.removed_at_reveal(spot.effect, cards)
        counted = [c for c in cards if c not in removed]
        shut_out = spot.effect == dk.ATTACKED and any(c[0] == me for c in removed)
        if dk.is_overloaded(spot.effect, counted, spot.limit):
            over += 1
            if not shut_out and counted:
                ref_sum += sum(v for _, v in counted) / len(counted)
        elif not shut_out:
            acc_sum += sum(v for owner, v in counted if owner == me)
    fits = samples - over
    return Outlook(over / samples, acc_sum / fits if fits else 0.0,
                   ref_sum / over if over else 0.0)


def _draw(h: Hidden, rng: random.Random) -> int:
    """One value of a hidden card, at its weight."""
    return bisect.bisect_left(h.below, rng.random(), 1, len(h.below) - 1)


def future(hand: Sequence[int], needed: int) -> float:
    """What the hand is worth later: the `needed` best cards, at ALPHA a point."""
    if needed <= 0:
        return 0.0
    return ALPHA * sum(sorted(hand, reverse=True)[:needed])


def _without(hand: Sequence[int], cards: Sequence[int]) -> list[int]:
    out = list(hand)
    for c in cards:
        out.remove(c)
    return out


# ---------------------------------------------------------------------------------------
# The decision
# ---------------------------------------------------------------------------------------

def decide(spot: Spot, legal: Sequence[Any], rng: random.Random,
           samples: int = SAMPLES) -> Any:
    first = legal[0]
    if isinstance(first, CanyonLoad):
        return _load(spot, legal, rng, samples)
    if isinstance(first, CanyonNoFavour | CanyonFavour):
        return _favour(spot, legal, rng, samples)
    if isinstance(first, CanyonLook):
        # Looking is free information: never stop early.
        looks = [a for a in legal if isinstance(a, CanyonLook)]
        return max(looks, key=lambda a: _look_value(spot, a))
    if isinstance(first, CanyonContract):
        out = outlook(spot, spot.mine, rng, samples)
        accept = out.accept >= out.refuse
        return next(a for a in legal if a.accept == accept)
    if isinstance(first, CanyonAdjust):
        # Favour 6: make room when accepting, squeeze when refusing.
        up = bool(spot.contract[spot.seat])
        return next(a for a in legal if (a.delta > 0) == up)
    if isinstance(first, CanyonKeep | CanyonExchange | CanyonSwap):
        if any(isinstance(a, CanyonExchange) for a in legal):
            return _exchange(spot, legal, rng, samples)
        return _swap(legal)
    if isinstance(first, CanyonTake):
        return max(legal, key=lambda a: a.card[1])
    return first


def _load(spot: Spot, legal: Sequence[Any], rng: random.Random, samples: int) -> Any:
    best, best_score = legal[0], -math.inf
    for action in legal:
        out = outlook(spot, action.cards, rng, samples)
        score = out.best + future(_without(spot.hand, action.cards), spot.needed)
        if score > best_score:
            best, best_score = action, score
    return best


def favour_scores(spot: Spot, rng: random.Random,
                  samples: int = SAMPLES) -> dict[int, float]:
    """What calling each favour card in hand is worth now, its card's cost taken off."""
    out = outlook(spot, spot.mine, rng, samples)
    toss_up = 2.0 * min(out.p_over, 1.0 - out.p_over)
    stake = max(out.win_accept, out.win_refuse, 1.0)
    keep = future(spot.hand, spot.needed)
    scores: dict[int, float] = {}
    for card in set(spot.hand) & set(fv.FAVOUR_CARDS):
        if card == fv.REWARD:
            others = [v for _, v in spot.seen] + [h.mean for h in spot.hidden]
            mine = min(spot.mine, default=0)
            gain = max(0.0, max(others, default=0.0) + 1.5 - mine)
            benefit = 0.5 * max(out.p_over, 1.0 - out.p_over) * gain
        else:
            benefit = FAVOUR_SWING[card] * toss_up * stake
        scores[card] = benefit - (keep - future(_without(spot.hand, [card]), spot.needed))
    return scores


def _favour(spot: Spot, legal: Sequence[Any], rng: random.Random, samples: int) -> Any:
    scores = favour_scores(spot, rng, samples)
    callable_ = [a for a in legal if isinstance(a, CanyonFavour) and a.card in scores]
    if not callable_:
        return next(a for a in legal if isinstance(a, CanyonNoFavour))
    best = max(callable_, key=lambda a: scores[a.card])
    if scores[best.card] > FAVOUR_THRESHOLD:
        return best
    return next(a for a in legal if isinstance(a, CanyonNoFavour))


def _look_value(spot: Spot, action: CanyonLook) -> float:
    """Look where the least is known: the owner whose unseen cards spread the most."""
    spread = [h.var for h in spot.hidden if h.owner == action.seat]
    return max(spread, default=0.0) - 0.01 * action.slot


def _exchange(spot: Spot, legal: Sequence[Any], rng: random.Random, samples: int) -> Any:
    """Favour 4, after every decision: the load that serves the side taken best."""
    accepted = bool(spot.contract[spot.seat])

    def score(action: Any) -> float:
        mine, hand = list(spot.mine), list(spot.hand)
        if isinstance(action, CanyonExchange):
            mine.remove(action.load)
            mine.append(action.card)
            hand.remove(action.card)
            hand.append(action.load)
        out = outlook(spot, mine, rng, samples)
        return (out.accept if accepted else out.refuse) + future(hand, spot.needed)

    return max(legal, key=score)


def _swap(legal: Sequence[Any]) -> Any:
    """Favour 8, accepted and right: trade my lowest counted card for the highest other."""
    swaps = [a for a in legal if isinstance(a, CanyonSwap)]
    best = max(swaps, key=lambda a: a.take[1] - a.give[1], default=None)
    if best is None or best.take[1] <= best.give[1]:
        return next(a for a in legal if isinstance(a, CanyonKeep))
    return best


# ---------------------------------------------------------------------------------------
# Bots and the search kit
# ---------------------------------------------------------------------------------------

def basic(game: Any, obs: Observation, rng: random.Random) -> Any:
    """The `basic` bot: the heuristic on the seat's view."""
    return decide(spot_from_view(obs.view, obs.seat), obs.legal_actions, rng)


def policy(game: Any, state: CanyonState, seat: int, legal: Sequence[Any],
           rng: random.Random) -> Any:
    """The rollout policy: the same heuristic on a (determinized) state."""
    return decide(spot_from_state(state, seat), legal, rng, ROLLOUT_SAMPLES)


SCALE = 12.0  # points that move the reward from 0.5 to 0 or 1


def worth(state: CanyonState, seat: int) -> float:
    """Points won, plus what the seat's hand and set-aside loads should still bring."""
    needed = len(state.deck)
    if state.phase == LOAD:
        needed += dk.loads_each(state.effect) - len(state.loads[seat])
    set_aside = sum(v for loads in state.set_aside for _, v in loads[seat])
    return (sum(v for _, v in state.won[seat]) + future(state.hands[seat], needed)
            + ALPHA * set_aside)


def evaluate(game: Any, root: CanyonState, state: CanyonState, seat: int) -> float:
    """This seat's gain since the root against the mean gain of the others."""
    gains = [worth(state, s) - worth(root, s) for s in range(state.players)]
    others = (sum(gains) - gains[seat]) / (state.players - 1)
    r = 0.5 + (gains[seat] - others) / (2.0 * SCALE)
    return 0.0 if r < 0.0 else 1.0 if r > 1.0 else r


def horizon(root: CanyonState, state: CanyonState) -> bool:
    """Rollouts stop at the end of the round."""
    return state.round != root.round


def _likely(p: float, happened: bool) -> float:
    p = min(1.0 - FLOOR, max(FLOOR, p))
    return p if happened else 1.0 - p


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


def weigh(game: Any, sample: CanyonState, view: dict[str, Any], seat: int) -> float:
    """How well a sampled deal explains the other seats' choices this round: the card each
    loaded given the hand it held, each favour called (or not) and each accept or refuse,
    replayed through the heuristic from that seat's side with only what it knew then.
    Each factor keeps a floor, so a bluff or an odd play stays possible."""
    if sample.revealed:
        return 1.0  # every load is face up: nothing left to read
    rng = random.Random(0)
    n = sample.players
    weight = 1.0
    for j in range(n):
        if j != seat:
            weight *= _load_likelihood(sample, j, rng)
    undecided: tuple[bool | None, ...] = (None,) * n
    for j in _asked(sample):
        if j == seat:
            continue
        spot = spot_from_state(sample, j, contract=undecided)
        called = sample.favour[j]
        if called:  # the card was still in hand when the call was made
            spot.hand = tuple(sorted((*spot.hand, called)))
        scores = favour_scores(spot, rng, ROLLOUT_SAMPLES)
        if scores:
            p_call = _sigmoid(BETA * (max(scores.values()) - FAVOUR_THRESHOLD))
            weight *= _likely(p_call, called != 0)
    decided: list[bool | None] = [None] * n
    for j in fv.contract_order(clockwise(sample.first, n), sample.favour):
        choice = sample.contract[j]
        if choice is None:
            break
        if j != seat:
            spot = spot_from_state(sample, j, contract=tuple(decided))
            spot.mine = _first_load(sample, j)  # favour 4 changes it only afterwards
            out = outlook(spot, spot.mine, rng, ROLLOUT_SAMPLES)
            weight *= _likely(_sigmoid(BETA * (out.accept - out.refuse)), choice)
        decided[j] = choice
    return weight


def _first_load(state: CanyonState, seat: int) -> tuple[int, ...]:
    """The values `seat` loaded this round, before any favour 4 exchange."""
    values = [v for _, v in state.loads[seat]]
    for s, slot, old in state.exchanges:
        if s == seat:
            values[slot] = old
    return tuple(values)


def _load_likelihood(state: CanyonState, seat: int, rng: random.Random) -> float:
    """The chance that the heuristic, holding this sample's hand, loads this sample's card:
    a softmax over the cards it could have loaded, mixed with a uniform floor."""
    resumed = state.donkey == dk.LOST and state.effect != dk.LOST
    if state.revealed or resumed or not state.loads[seat]:
        return 1.0
    loaded = _first_load(state, seat)
    # The hand it loaded from: what it holds, plus the load, plus a favour card discarded.
    hand = [*state.hands[seat], *(v for _, v in state.loads[seat])]
    if state.favour[seat]:
        hand.append(state.favour[seat])
    # What it knew then: not this round's looks, favour calls or exchanges.
    known = known_cards(state, seat)
    known -= {(t, v) for t, _, v in state.looks[seat]}
    known -= {(k, f) for k, f in enumerate(state.favour) if f}
    each = dk.loads_each(state.effect)
    seen = [c for k in range(state.players) if k != seat for c in state.loads[k]
            if c in state.shown]
    hidden: list[Hidden] = []
    for k in range(state.players):
        if k != seat:
            pool = tuple(v for v in CARD_VALUES if (k, v) not in known)
            shown = sum(1 for c in state.loads[k] if c in state.shown)
            hidden.extend([_hidden(k, pool, None)] * (each - shown))
    spot = Spot(seat=seat, players=state.players, phase=LOAD, effect=state.effect,
                limit=dk.limit_of(state.effect, state.players), loads_each=each,
                hand=tuple(sorted(hand)), mine=(), seen=tuple(seen), hidden=tuple(hidden),
                contract=(None,) * state.players, favour=(0,) * state.players,
                needed=len(state.deck), overloaded=None)
    options = list(itertools.combinations(spot.hand, each))
    scores = [outlook(spot, cards, rng, ROLLOUT_SAMPLES).best
              + future(_without(spot.hand, cards), spot.needed) for cards in options]
    top = max(scores)
    total = sum(math.exp(BETA_LOAD * (x - top)) for x in scores)
    chosen = scores[options.index(tuple(sorted(loaded)))]
    return (1.0 - LOAD_FLOOR) * math.exp(BETA_LOAD * (chosen - top)) / total \
        + LOAD_FLOOR / len(options)


def _asked(state: CanyonState) -> list[int]:
    """The seats that have answered the favour question this round, in order."""
    if state.phase == FAVOURS:
        return list(state.order[:state.turn])
    if state.phase == LOAD:
        return []
    return [j for j in clockwise(state.first, state.players)
            if fv.may_call(state.effect, state.favours_used[j] - (1 if state.favour[j] else 0))]


KIT = Kit(policy=policy, evaluate=evaluate, horizon=horizon, weigh=weigh, exploration=0.35,
          max_depth=5, pool=48)

__all__ = ["KIT", "basic", "decide", "policy", "spot_from_state", "spot_from_view", "weigh"]
