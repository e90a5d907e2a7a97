"""Donkey loads up the Grand Canyon (Stefaan Henderickx, Jolly Dutch 2022): `canyon-donkeys`.

Eight donkeys come up one by one. Each round every player loads a card face down, may
call a favour, then accepts or refuses the contract: if the donkey is not overloaded the
accepters win their own cards, if it is, each refuser wins one card at random from the
loads. The highest total of won card values wins.

A round as phases (players act in the first kind, the engine resolves the second at once):

    next_donkey → load → (lost: set_aside → round_end) → favours → looks → contract
    → late_favours → reveal → reward → score → round_end → next_donkey … → over

`decide` validates one action and returns its event followed by every automatic event it
leads to (the reveal, the random draws, the next donkey), so a stored state always waits
for a player or is over. `evolve` applies one event, moving to the next phase by itself
when a phase has nobody left to act; it never draws at random and never checks rules.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import msgspec

from domain.errors import (
    BadAction,
    BadOptions,
    GameNotStarted,
    GameOver,
    IllegalAction,
    NotYourTurn,
)
from domain.events import Event, event
from domain.game import OptionSpec, Outcome
from domain.games.canyon_donkeys import donkeys as dk
from domain.games.canyon_donkeys import favours as fv
from domain.games.canyon_donkeys import view as views
from domain.games.canyon_donkeys.actions import (
    ACTION_CLASSES,
    CanyonAction,
    CanyonAdjust,
    CanyonContract,
    CanyonExchange,
    CanyonFavour,
    CanyonKeep,
    CanyonLoad,
    CanyonLook,
    CanyonNoFavour,
    CanyonStopLooking,
    CanyonSwap,
    CanyonTake,
)
from domain.games.canyon_donkeys.donkeys import Card
from domain.games.canyon_donkeys.shapes import CANYON_SHAPES
from domain.games.canyon_donkeys.state import (
    AUTOMATIC_PHASES,
    CARD_VALUES,
    CONTRACT,
    FAVOURS,
    HIDDEN,
    LATE_FAVOURS,
    LOAD,
    LOOKS,
    NEXT_DONKEY,
    OVER,
    REVEAL,
    REWARD,
    ROUND_END,
    SCORE,
    SET_ASIDE,
    SETUP,
    CanyonState,
    clockwise,
    replaced,
    seats_to_act,
    standings,
)

GAME_ID = "canyon-donkeys"
TITLE = "Donkey loads up the Grand Canyon"
MIN_PLAYERS, MAX_PLAYERS = 3, 7

RULES = (
    # From the spec, as written there.
    "Assumption: the 10 load cards of a colour are valued 1–10 (70 cards / 7 colours; "
    "favours sit on 2, 4, 6, 8, 10; capacity is 5 × players).",
    "Assumption (the real split was not found; make it an option): normal ×4, giant ×2, "
    "puny ×2, precision ×2, holed ×2, attacked ×2, and one each of hurried, lost, double, "
    "stubborn, difficult, picky.",
    "Decision: at most one favour per player per round.",
    "Decision (attacked): the highest load cards are removed before the total is computed "
    "and are not in the refusers' pile.",
    # The project's further rulings.
    "Decision: the first player is chosen at random and recorded in the log, unless the "
    "first_player option names a seat.",
    "Decision: a player who may not call a favour for a public reason (hurried donkey, two "
    "favours used) is not asked; a player whose hand holds no favour card is still asked, "
    "so the table does not learn it.",
    "Decision: favour 10 looks and the holed donkey's look happen after the favour calls "
    "and before the contract, all players at once; each look is chosen one card at a time "
    "(a look may depend on the previous one), among other players' face-down load cards "
    "not seen yet; with fewer such cards, fewer looks.",
    "Decision: a look is optional (\"may look\"): a player with looks left may stop "
    "looking (action stop_looking); the legal actions list it after the looks.",
    "Decision: favour 2 callers decide last, clockwise from the first player among them.",
    "Decision: favours 4 and 6 resolve after all decisions, clockwise from the first "
    "player. Favour 4 exchanges one load card (either one on the double donkey) or keeps "
    "it; the new card lies face down, and a returned face-up card is known to all.",
    "Decision (favour 6): the caller must raise or lower by 2; a capacity has no bounds, "
    "the precision gap is clamped to 1–9.",
    "Decision (favour 8): right means accepted and not overloaded, or refused and "
    "overloaded. An accepter may swap one of their counted load cards for another "
    "player's counted load card, or keep; each card then counts as its new holder's load. "
    "A refuser chooses a card from the pile before the random draws; several callers act "
    "clockwise from the first player. A player scoring nothing this round (attacked) "
    "cannot use it.",
    "Decision: refusers draw clockwise from the first player; when the pile runs out the "
    "remaining refusers win nothing.",
    "Decision (picky): values are compared over all load cards of the round, any colour.",
    "Decision (stubborn): more than half means refusers × 2 > players; the removed loads "
    "stay face down (hidden until the end).",
    "Decision (lost): the first-player card passes when the lost donkey's loads are set "
    "aside; the resumed round (capacity 5 × players, favours allowed) is led by whoever "
    "holds the card then. Several lost donkeys (custom decks) resume in the order they "
    "were set aside.",
    "Decision (double): the donkey removed is the last one of the remaining deck, unseen "
    "until the end; the double donkey is the last donkey when the deck is empty after it "
    "(a set-aside lost round does not count).",
    "Decision (difficult): each player plays one card in turn, clockwise from the first "
    "player; the first and the last card lie face up.",
    "Decision: the final ranking is dense: the highest total wins, then the most won "
    "cards; players still tied share the place.",
)

OPTIONS = (
    OptionSpec(
        name="donkey_deck", type="composition_or_list", default=dict(dk.DEFAULT_COMPOSITION),
        description="the donkey cards shuffled at setup, 8 of which are drawn, as a mapping "
                    "type → count (at least 8 cards; the default is the spec's 20); or an "
                    f"explicit ordered list of {dk.DECK_SIZE} donkey types, top of the deck "
                    "first (tests, tournaments). Types: " + ", ".join(dk.TYPES) + "."),
    OptionSpec(
        name="first_player", type="seat_or_random", default="random",
        description="who holds the first-player card in round 1"),
)


class CanyonDonkeys:
    """The game object: pure functions over `CanyonState`."""

    id = GAME_ID
    title = TITLE
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options = OPTIONS
    rules = RULES
    action_type: Any = CanyonAction
    state_type = CanyonState
    shapes = CANYON_SHAPES

    # -- the start -------------------------------------------------------------------------

    def new_state(self, options: Mapping[str, Any], players: int) -> CanyonState:
        if isinstance(players, bool) or not isinstance(players, int) \
                or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise BadOptions(f"{GAME_ID} is for {MIN_PLAYERS}–{MAX_PLAYERS} players",
                             code="bad_player_count")
        raw = options.get("donkey_deck")
        deck = _checked_deck(raw) if isinstance(raw, list | tuple) else None
        composition = _checked_composition(raw) if deck is None else dk.DEFAULT_COMPOSITION
        return CanyonState(players=players, deck_option=deck, composition=composition,
                           first_option=_checked_first(options.get("first_player"), players))

    def setup(self, state: CanyonState, rng: random.Random) -> list[Event]:
        # Shuffle the 20 donkeys and draw 8 as a face-down deck (or take the given deck).
        if state.deck_option is not None:
            deck = list(state.deck_option)
        else:
            cards = dk.composition_deck(state.composition)
            rng.shuffle(cards)
            deck = cards[:dk.DECK_SIZE]
        # A random first player holds the first-player card.
        first = state.first_option if state.first_option is not None \
            else rng.randrange(state.players)
        # The deck is face down: its order is a private part no seat receives (HIDDEN).
        started = event("donkeys_drawn", players=state.players, first_player=first,
                        donkeys=len(deck), private={HIDDEN: {"deck": deck}})
        return [started, *self._automatic(self.evolve(state, started), rng)]

    # -- legal actions, decide, evolve -----------------------------------------------------

    def to_act(self, state: CanyonState) -> frozenset[int]:
        return seats_to_act(state)

    def legal_actions(self, state: CanyonState, seat: int) -> list[Any]:
        if seat not in seats_to_act(state):
            return []
        return _LEGAL[state.phase](state, seat)

    def decide(self, state: CanyonState, seat: int, action: Any,
               rng: random.Random) -> list[Event]:
        if state.phase == OVER:
            raise GameOver("the game is over")
        if state.phase == SETUP:
            raise GameNotStarted("the game has not started")
        if not isinstance(action, ACTION_CLASSES):
            raise BadAction(f"not a {GAME_ID} action: {action!r}")
        if seat not in seats_to_act(state):
            raise NotYourTurn(f"seat {seat} may not act now")
        events = _DECIDE[state.phase](state, seat, action)
        for ev in events:
            state = self.evolve(state, ev)
        return events + self._automatic(state, rng)

    def evolve(self, state: CanyonState, ev: Event) -> CanyonState:
        apply = _EVOLVE.get(ev.type)
        # Events of other kinds (timeouts, notes) leave the game as it is.
        return state if apply is None else apply(state, ev)

    def _automatic(self, state: CanyonState, rng: random.Random) -> list[Event]:
        """The events nobody chooses, until a player must act or the game is over."""
        out: list[Event] = []
        while state.phase in AUTOMATIC_PHASES:
            for ev in _AUTOMATIC[state.phase](state, rng):
                state = self.evolve(state, ev)
                out.append(ev)
        return out

    # -- terminal, returns -----------------------------------------------------------------

    def outcome(self, state: CanyonState) -> Outcome | None:
        if state.phase != OVER:
            return None
        totals, _, places = standings(state)
        return Outcome(places=places, scores=[float(t) for t in totals],
                       score_name="points", lower_is_better=False)

    # -- what a seat may see ---------------------------------------------------------------

    def view(self, state: CanyonState, viewer: int | None,
             reveal_all: bool = False) -> dict[str, Any]:
        return views.view(state, viewer, reveal_all)

    def determinize(self, view: dict[str, Any], seat: int,
                    rng: random.Random) -> CanyonState:
        """A full state consistent with what `seat` sees in `view` (for search bots)."""
        return views.determinize(view, seat, rng)


# -- decide, phase by phase ----------------------------------------------------------------

def _decide_load(state: CanyonState, seat: int, action: Any) -> list[Event]:
    if not isinstance(action, CanyonLoad):
        raise _wrong_phase(state, seat, action)
    need = dk.loads_each(state.effect)
    cards = tuple(action.cards)
    if len(cards) != need:
        raise IllegalAction(f"play exactly {need} load card(s)", code="wrong_count")
    if len(set(cards)) != len(cards):
        raise IllegalAction("the same card twice", code="duplicate_card")
    _require_in_hand(state, seat, cards)
    face_up: list[int] = []
    if state.effect == dk.DIFFICULT and state.turn in (0, state.players - 1):
        # The difficult donkey: the first and the last player load face up.
        face_up = list(cards)
    return [event("load_played", actor=seat, seat=seat, count=len(cards), face_up=face_up,
                  private={seat: {"cards": sorted(cards)}})]


def _decide_favours(state: CanyonState, seat: int, action: Any) -> list[Event]:
    if isinstance(action, CanyonNoFavour):
        return [event("favour_declined", actor=seat, seat=seat)]
    if not isinstance(action, CanyonFavour):
        raise _wrong_phase(state, seat, action)
    if action.card not in fv.FAVOUR_CARDS:
        raise IllegalAction(f"favours are called with a 2, 4, 6, 8 or 10, not {action.card}",
                            code="bad_favour_card")
    _require_in_hand(state, seat, (action.card,))
    return [event("favour_called", actor=seat, seat=seat, card=action.card)]


def _decide_looks(state: CanyonState, seat: int, action: Any) -> list[Event]:
    if isinstance(action, CanyonStopLooking):
        return [event("looks_declined", actor=seat, seat=seat)]
    if not isinstance(action, CanyonLook):
        raise _wrong_phase(state, seat, action)
    target = (action.seat, action.slot)
    if target not in _look_targets(state, seat):
        raise IllegalAction("look at another player's face-down load card you have not "
                            "seen yet", code="bad_look")
    value = state.loads[action.seat][action.slot][1]
    return [event("card_looked", actor=seat, seat=seat, target=action.seat, slot=action.slot,
                  private={seat: {"value": value}})]


def _decide_contract(state: CanyonState, seat: int, action: Any) -> list[Event]:
    if not isinstance(action, CanyonContract):
        raise _wrong_phase(state, seat, action)
    return [event("contract_chosen", actor=seat, seat=seat, accept=action.accept)]


def _decide_late(state: CanyonState, seat: int, action: Any) -> list[Event]:
    favour = state.favour[seat]
    if favour == fv.EXCHANGE and isinstance(action, CanyonKeep):
        return [event("exchange_declined", actor=seat, seat=seat)]
    if favour == fv.EXCHANGE and isinstance(action, CanyonExchange):
        own = [value for _, value in state.loads[seat]]
        if action.load not in own:
            raise IllegalAction(f"{action.load} is not your load card", code="not_your_load")
        _require_in_hand(state, seat, (action.card,))
        slot = own.index(action.load)
        # A face-up card goes back to the hand in full view; the new one lies face down.
        public = (seat, action.load) in state.shown
        return [event("load_exchanged", actor=seat, seat=seat, slot=slot,
                      returned=action.load if public else None,
                      private={seat: {"returned": action.load, "card": action.card}})]
    if favour == fv.ADJUST and isinstance(action, CanyonAdjust):
        if action.delta not in (fv.ADJUST_STEP, -fv.ADJUST_STEP):
            raise IllegalAction("raise or lower by 2", code="bad_adjust")
        limit = fv.adjusted(state.effect, state.limit, action.delta)
        return [event("limit_adjusted", actor=seat, seat=seat, delta=action.delta, limit=limit)]
    raise _wrong_phase(state, seat, action)


def _decide_reward(state: CanyonState, seat: int, action: Any) -> list[Event]:
    if state.overloaded:
        if not isinstance(action, CanyonTake):
            raise _wrong_phase(state, seat, action)
        card = tuple(action.card)
        if card not in _pile(state):
            raise IllegalAction("choose a card of the pile", code="not_in_pile")
        return [event("card_chosen", actor=seat, seat=seat, card=list(card))]
    if isinstance(action, CanyonKeep):
        return [event("swap_declined", actor=seat, seat=seat)]
    if not isinstance(action, CanyonSwap):
        raise _wrong_phase(state, seat, action)
    give, take = tuple(action.give), tuple(action.take)
    if (give, take) not in _swaps(state, seat):
        raise IllegalAction("swap one of your counted load cards for another player's",
                            code="bad_swap")
    holder = next(s for s, load in enumerate(state.loads) if take in load)
    return [event("loads_swapped", actor=seat, seat=seat, give=list(give), take=list(take),
                  target=holder)]


def _wrong_phase(state: CanyonState, seat: int, action: Any) -> IllegalAction:
    """The most helpful error for an action that does not fit the current step."""
    if isinstance(action, CanyonFavour | CanyonNoFavour):
        if state.effect == dk.HURRIED:
            return IllegalAction("the hurried donkey allows no favours",
                                 code="no_favours_this_round")
        if state.favours_used[seat] >= fv.MAX_PER_GAME:
            return IllegalAction("two favours per game", code="favour_limit")
        if state.favour[seat]:
            return IllegalAction("one favour per round", code="favour_limit")
    return IllegalAction(f"{type(action).__name__} does not fit the {state.phase} step",
                         code="wrong_phase")


def _require_in_hand(state: CanyonState, seat: int, cards: Iterable[int]) -> None:
    hand = state.hands[seat]
    for card in cards:
        if card not in hand:
            raise IllegalAction(f"{card} is not in your hand", code="not_in_hand")


# -- legal actions, phase by phase ---------------------------------------------------------

def _legal_load(state: CanyonState, seat: int) -> list[Any]:
    need = dk.loads_each(state.effect)
    return [CanyonLoad(cards=combo) for combo in itertools.combinations(state.hands[seat], need)]


def _legal_favours(state: CanyonState, seat: int) -> list[Any]:
    calls = [CanyonFavour(card=c) for c in state.hands[seat] if c in fv.FAVOUR_CARDS]
    return [CanyonNoFavour(), *calls]


def _legal_looks(state: CanyonState, seat: int) -> list[Any]:
    return [*(CanyonLook(seat=t, slot=s) for t, s in _look_targets(state, seat)),
            CanyonStopLooking()]


def _legal_contract(state: CanyonState, seat: int) -> list[Any]:
    return [CanyonContract(accept=True), CanyonContract(accept=False)]


def _legal_late(state: CanyonState, seat: int) -> list[Any]:
    if state.favour[seat] == fv.ADJUST:
        return [CanyonAdjust(delta=fv.ADJUST_STEP), CanyonAdjust(delta=-fv.ADJUST_STEP)]
    return [CanyonKeep(), *(CanyonExchange(load=value, card=card)
                            for _, value in state.loads[seat] for card in state.hands[seat])]


def _legal_reward(state: CanyonState, seat: int) -> list[Any]:
    if state.overloaded:
        return [CanyonTake(card=card) for card in _pile(state)]
    return [CanyonKeep(), *(CanyonSwap(give=g, take=t) for g, t in _swaps(state, seat))]


def _look_targets(state: CanyonState, seat: int) -> list[tuple[int, int]]:
    """Other players' face-down load cards this seat has not looked at yet."""
    seen = {(t, s) for t, s, _ in state.looks[seat]}
    return [(t, s) for t in range(state.players) if t != seat
            for s, card in enumerate(state.loads[t])
            if card not in state.shown and (t, s) not in seen]


def _pile(state: CanyonState) -> list[Card]:
    """The overloaded donkey's pile: every load card still on the table that counts."""
    return [c for load in state.loads for c in load if c not in state.removed]


def _swaps(state: CanyonState, seat: int) -> list[tuple[Card, Card]]:
    mine = [c for c in state.loads[seat] if c not in state.removed]
    theirs = [c for s, load in enumerate(state.loads) if s != seat
              for c in load if c not in state.removed]
    return [(g, t) for g in mine for t in theirs]


# -- the automatic steps -------------------------------------------------------------------

def _auto_next_donkey(state: CanyonState, rng: random.Random) -> list[Event]:
    n = state.players
    if state.deck:
        # Reveal the next donkey.
        donkey, left = state.deck[0], len(state.deck) - 1
        effect = dk.effect_of(donkey, left)
        limit = dk.limit_of(effect, n)
        size = {"gap": limit} if effect == dk.PRECISION else {"capacity": limit}
        out = [event("donkey_revealed", round=state.round + 1, donkey=donkey, effect=effect,
                     left=left, **size)]
        if effect == dk.DOUBLE:
            # The double donkey counts as two: the last donkey of the deck is removed unseen.
            out.append(event("donkey_removed", left=left - 1,
                             private={HIDDEN: {"donkey": state.deck[-1]}}))
        return out
    if state.set_aside:
        # After every other donkey, the lost round resumes from step 2 (5 × players).
        return [event("lost_resumed", round=state.round + 1,
                      capacity=dk.limit_of(dk.NORMAL, n))]
    totals, counts, places = standings(state)
    return [event("game_ended", totals=totals, won_cards=counts, places=places)]


def _auto_set_aside(state: CanyonState, rng: random.Random) -> list[Event]:
    # The lost donkey: all loads go under it, face down, until the end.
    return [event("loads_set_aside", round=state.round)]


def _auto_reveal(state: CanyonState, rng: random.Random) -> list[Event]:
    refusers = sum(1 for c in state.contract if c is False)
    if dk.balks(state.effect, refusers, state.players):
        # The stubborn donkey: no reveal, every load card is removed, nobody scores.
        return [event("loads_buried", refused=refusers)]
    cards = [c for load in state.loads for c in load]
    removed = dk.removed_at_reveal(state.effect, cards)
    excluded = dk.excluded_at_reveal(state.effect, state.loads, removed)
    counted = [c for c in cards if c not in removed]
    over = dk.is_overloaded(state.effect, counted, state.limit)
    return [event("loads_revealed", loads=[[list(c) for c in load] for load in state.loads],
                  removed=[list(c) for c in removed], excluded=list(excluded),
                  total=sum(v for _, v in counted), overloaded=over)]


def _auto_score(state: CanyonState, rng: random.Random) -> list[Event]:
    order = clockwise(state.first, state.players)
    won: list[tuple[int, Card]] = []
    if not state.overloaded:
        # Not overloaded: every accepter wins their own load card(s).
        won = [(s, c) for s in order if state.contract[s] and s not in state.excluded
               for c in state.loads[s] if c not in state.removed]
    else:
        # Overloaded: the loads are shuffled into a pile and each refuser, clockwise from
        # the first player, wins one card at random (favour 8 callers chose already).
        pile = _pile(state)
        rng.shuffle(pile)
        for s in order:
            if pile and state.contract[s] is False and s not in state.excluded \
                    and s not in state.order:
                won.append((s, pile.pop()))
    taken = {c for _, c in won}
    discarded = [c for load in state.loads for c in load if c not in taken]
    return [event("round_scored", overloaded=state.overloaded,
                  won=[[s, list(c)] for s, c in won], discarded=[list(c) for c in discarded])]


def _auto_round_end(state: CanyonState, rng: random.Random) -> list[Event]:
    # The first-player card passes clockwise.
    return [event("round_ended", round=state.round,
                  first_player=(state.first + 1) % state.players)]


# -- evolve, event by event ----------------------------------------------------------------

def _on_donkeys_drawn(state: CanyonState, ev: Event) -> CanyonState:
    n = state.players
    empty: tuple[tuple[Any, ...], ...] = ((),) * n
    state = msgspec.structs.replace(
        state, first=ev.data["first_player"], deck=tuple(ev.private[HIDDEN]["deck"]),
        hands=(CARD_VALUES,) * n, loads=empty, favours_used=(0,) * n, won=empty,
        buried=empty, memory=empty)
    return _fresh_round(state, NEXT_DONKEY)


def _on_donkey_revealed(state: CanyonState, ev: Event) -> CanyonState:
    data = ev.data
    effect = data["effect"]
    order = clockwise(state.first, state.players) if effect == dk.DIFFICULT else ()
    return msgspec.structs.replace(
        state, phase=LOAD, round=data["round"], deck=state.deck[1:],
        seen=(*state.seen, data["donkey"]), donkey=data["donkey"], effect=effect,
        limit=data["gap"] if effect == dk.PRECISION else data["capacity"], order=order, turn=0)


def _on_donkey_removed(state: CanyonState, ev: Event) -> CanyonState:
    return msgspec.structs.replace(state, deck=state.deck[:-1],
                                   removed_donkeys=(*state.removed_donkeys, state.deck[-1]))


def _on_lost_resumed(state: CanyonState, ev: Event) -> CanyonState:
    state = msgspec.structs.replace(
        state, round=ev.data["round"], loads=state.set_aside[0], set_aside=state.set_aside[1:],
        donkey=dk.LOST, effect=dk.NORMAL, limit=ev.data["capacity"])
    return _to_favours(state)


def _on_load_played(state: CanyonState, ev: Event) -> CanyonState:
    seat = ev.data["seat"]
    cards = ev.private[seat]["cards"]
    hand = tuple(v for v in state.hands[seat] if v not in cards)
    load = (*state.loads[seat], *((seat, v) for v in cards))
    state = msgspec.structs.replace(
        state, hands=replaced(state.hands, seat, hand),
        loads=replaced(state.loads, seat, load),
        shown=(*state.shown, *((seat, v) for v in ev.data["face_up"])))
    if state.effect == dk.DIFFICULT:
        state = msgspec.structs.replace(state, turn=state.turn + 1)
        if state.turn < len(state.order):
            return state
    elif seats_to_act(state):
        return state
    if state.effect == dk.LOST:
        return msgspec.structs.replace(state, phase=SET_ASIDE, order=(), turn=0)
    return _to_favours(state)


def _on_loads_set_aside(state: CanyonState, ev: Event) -> CanyonState:
    n = state.players
    return msgspec.structs.replace(state, set_aside=(*state.set_aside, state.loads),
                                   loads=((),) * n, phase=ROUND_END)


def _on_favour_called(state: CanyonState, ev: Event) -> CanyonState:
    seat, card = ev.data["seat"], ev.data["card"]
    state = msgspec.structs.replace(
        state, hands=replaced(state.hands, seat, tuple(v for v in state.hands[seat] if v != card)),
        favour_cards=(*state.favour_cards, (seat, card)),
        favour=replaced(state.favour, seat, card),
        favours_used=replaced(state.favours_used, seat, state.favours_used[seat] + 1))
    return _next_turn(state, _to_looks)


def _on_favour_declined(state: CanyonState, ev: Event) -> CanyonState:
    return _next_turn(state, _to_looks)


def _on_card_looked(state: CanyonState, ev: Event) -> CanyonState:
    seat, target, slot = ev.data["seat"], ev.data["target"], ev.data["slot"]
    seen = (target, slot, state.loads[target][slot][1])
    state = msgspec.structs.replace(
        state, looks=replaced(state.looks, seat, (*state.looks[seat], seen)),
        looks_left=replaced(state.looks_left, seat, state.looks_left[seat] - 1))
    return state if any(state.looks_left) else _to_contract(state)


def _on_looks_declined(state: CanyonState, ev: Event) -> CanyonState:
    state = msgspec.structs.replace(
        state, looks_left=replaced(state.looks_left, ev.data["seat"], 0))
    return state if any(state.looks_left) else _to_contract(state)


def _on_contract_chosen(state: CanyonState, ev: Event) -> CanyonState:
    state = msgspec.structs.replace(
        state, contract=replaced(state.contract, ev.data["seat"], bool(ev.data["accept"])))
    return _next_turn(state, _to_late_favours)


def _on_load_exchanged(state: CanyonState, ev: Event) -> CanyonState:
    seat, slot = ev.data["seat"], ev.data["slot"]
    new = ev.private[seat]["card"]
    old = state.loads[seat][slot][1]
    hand = tuple(sorted((*(v for v in state.hands[seat] if v != new), old)))
    state = msgspec.structs.replace(
        state, hands=replaced(state.hands, seat, hand),
        loads=replaced(state.loads, seat, replaced(state.loads[seat], slot, (seat, new))),
        exchanges=(*state.exchanges, (seat, slot, old)))
    return _next_turn(state, _to_reveal)


def _on_exchange_declined(state: CanyonState, ev: Event) -> CanyonState:
    return _next_turn(state, _to_reveal)


def _on_limit_adjusted(state: CanyonState, ev: Event) -> CanyonState:
    return _next_turn(msgspec.structs.replace(state, limit=ev.data["limit"]), _to_reveal)


def _on_loads_buried(state: CanyonState, ev: Event) -> CanyonState:
    n = state.players
    gone = {c for load in state.loads for c in load}
    return msgspec.structs.replace(
        state, phase=ROUND_END, loads=((),) * n,
        buried=tuple((*state.buried[s], *(v for _, v in state.loads[s])) for s in range(n)),
        # What a player looked at stays known to them: those cards left the game.
        memory=tuple((*state.memory[s], *((t, v) for t, _, v in state.looks[s]
                                          if (t, v) in gone)) for s in range(n)))


def _on_loads_revealed(state: CanyonState, ev: Event) -> CanyonState:
    n = state.players
    state = msgspec.structs.replace(
        state, revealed=True, overloaded=bool(ev.data["overloaded"]),
        removed=tuple(_cards(ev.data["removed"])), excluded=tuple(ev.data["excluded"]),
        # Every load is face up now: looks are no longer secrets. Exchanges stay: a card
        # favour 4 sent back is in its owner's hand, known only to whoever saw it.
        looks=((),) * n)
    return _to_reward(state)


def _on_loads_swapped(state: CanyonState, ev: Event) -> CanyonState:
    seat, target = ev.data["seat"], ev.data["target"]
    give, take = _card(ev.data["give"]), _card(ev.data["take"])
    loads = replaced(state.loads, seat,
                     tuple(take if c == give else c for c in state.loads[seat]))
    loads = replaced(loads, target, tuple(give if c == take else c for c in loads[target]))
    return _next_turn(msgspec.structs.replace(state, loads=loads), _to_score)


def _on_swap_declined(state: CanyonState, ev: Event) -> CanyonState:
    return _next_turn(state, _to_score)


def _on_card_chosen(state: CanyonState, ev: Event) -> CanyonState:
    seat, card = ev.data["seat"], _card(ev.data["card"])
    state = msgspec.structs.replace(
        state, loads=tuple(tuple(c for c in load if c != card) for load in state.loads),
        won=replaced(state.won, seat, (*state.won[seat], card)))
    return _next_turn(state, _to_score)


def _on_round_scored(state: CanyonState, ev: Event) -> CanyonState:
    won = list(state.won)
    taken: set[Card] = set()
    for seat, raw in ev.data["won"]:
        card = _card(raw)
        won[seat] = (*won[seat], card)
        taken.add(card)
    # All other cards are discarded.
    rest = tuple(c for load in state.loads for c in load if c not in taken)
    return msgspec.structs.replace(state, won=tuple(won), discard=(*state.discard, *rest),
                                   loads=((),) * state.players, phase=ROUND_END)


def _on_round_ended(state: CanyonState, ev: Event) -> CanyonState:
    state = msgspec.structs.replace(state, first=ev.data["first_player"])
    return _fresh_round(state, NEXT_DONKEY)


def _on_game_ended(state: CanyonState, ev: Event) -> CanyonState:
    return msgspec.structs.replace(state, phase=OVER)


# -- phase transitions (used by evolve) ----------------------------------------------------

def _fresh_round(state: CanyonState, phase: str) -> CanyonState:
    n = state.players
    return msgspec.structs.replace(
        state, phase=phase, donkey="", effect="", limit=0, shown=(), favour=(0,) * n,
        order=(), turn=0, looks_left=(0,) * n, looks=((),) * n, contract=(None,) * n,
        exchanges=(), revealed=False, overloaded=False, removed=(), excluded=())


def _next_turn(state: CanyonState,
               then: Callable[[CanyonState], CanyonState]) -> CanyonState:
    """Pass a sequential step to the next seat in order, or on to the next step."""
    turn = state.turn + 1
    if turn < len(state.order):
        return msgspec.structs.replace(state, turn=turn)
    return then(state)


def _to_favours(state: CanyonState) -> CanyonState:
    # 2. From the first player clockwise, each says whether they call a favour.
    order = tuple(s for s in clockwise(state.first, state.players)
                  if fv.may_call(state.effect, state.favours_used[s]))
    if not order:
        return _to_looks(state)
    return msgspec.structs.replace(state, phase=FAVOURS, order=order, turn=0)


def _to_looks(state: CanyonState) -> CanyonState:
    # Favour 10 (⌊P/2⌋ cards) and the holed donkey (one card), before deciding.
    played = sum(len(load) for load in state.loads)
    looks = []
    for seat in range(state.players):
        wanted = (fv.looks_granted(played) if state.favour[seat] == fv.LOOK else 0) \
            + (1 if state.effect == dk.HOLED else 0)
        looks.append(min(wanted, len(_look_targets(state, seat))) if wanted else 0)
    state = msgspec.structs.replace(state, looks_left=tuple(looks), order=(), turn=0)
    if any(looks):
        return msgspec.structs.replace(state, phase=LOOKS)
    return _to_contract(state)


def _to_contract(state: CanyonState) -> CanyonState:
    # 3. From the first player clockwise, each accepts or refuses (favour 2 callers last).
    order = fv.contract_order(clockwise(state.first, state.players), state.favour)
    return msgspec.structs.replace(state, phase=CONTRACT, order=order, turn=0)


def _to_late_favours(state: CanyonState) -> CanyonState:
    # Favours 4 and 6 act after all decisions, clockwise from the first player.
    order = fv.late_order(clockwise(state.first, state.players), state.favour)
    if not order:
        return _to_reveal(state)
    return msgspec.structs.replace(state, phase=LATE_FAVOURS, order=order, turn=0)


def _to_reveal(state: CanyonState) -> CanyonState:
    return msgspec.structs.replace(state, phase=REVEAL, order=(), turn=0)


def _to_reward(state: CanyonState) -> CanyonState:
    # Favour 8, for a caller who was right (and scores this round at all).
    callers = [s for s in clockwise(state.first, state.players)
               if state.favour[s] == fv.REWARD and s not in state.excluded
               and fv.was_right(bool(state.contract[s]), state.overloaded)]
    if state.overloaded:
        # Refusers choose their card from the pile, as long as it lasts.
        order = tuple(callers[:len(_pile(state))])
    else:
        order = tuple(s for s in callers if _swaps(state, s))
    state = msgspec.structs.replace(state, order=order, turn=0)
    return msgspec.structs.replace(state, phase=REWARD) if order else _to_score(state)


def _to_score(state: CanyonState) -> CanyonState:
    # `order` still names the favour 8 callers: refusers among them chose already.
    return msgspec.structs.replace(state, phase=SCORE)


# -- helpers -------------------------------------------------------------------------------

def _card(raw: Sequence[int]) -> Card:
    return (int(raw[0]), int(raw[1]))


def _cards(raw: Iterable[Sequence[int]]) -> list[Card]:
    return [_card(c) for c in raw]


def _checked_deck(raw: Sequence[Any]) -> tuple[str, ...]:
    if len(raw) != dk.DECK_SIZE:
        raise BadOptions(f"an explicit donkey_deck lists {dk.DECK_SIZE} donkey types",
                         code="bad_donkey_deck")
    unknown = [d for d in raw if d not in dk.TYPES]
    if unknown:
        raise BadOptions(f"unknown donkey type(s) in donkey_deck: {unknown}; known: "
                         f"{', '.join(dk.TYPES)}", code="bad_donkey_deck")
    return tuple(raw)


def _checked_composition(raw: Any) -> tuple[tuple[str, int], ...]:
    if raw is None:
        return dk.DEFAULT_COMPOSITION
    if not isinstance(raw, Mapping):
        raise BadOptions("donkey_deck is a mapping type → count or a list of donkey types",
                         code="bad_donkey_deck")
    unknown = [d for d in raw if d not in dk.TYPES]
    counts = list(raw.values())
    if unknown or any(isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in counts):
        raise BadOptions(f"donkey_deck maps donkey types ({', '.join(dk.TYPES)}) to "
                         "counts ≥ 0", code="bad_donkey_deck")
    if sum(counts) < dk.DECK_SIZE:
        raise BadOptions(f"donkey_deck needs at least {dk.DECK_SIZE} donkeys",
                         code="bad_donkey_deck")
    return tuple((d, raw[d]) for d in dk.TYPES if raw.get(d))


def _checked_first(raw: Any, players: int) -> int | None:
    if raw is None or raw == "random":
        return None
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw < players:
        raise BadOptions(f"first_player must be a seat 0–{players - 1} or \"random\"",
                         code="bad_option")
    return raw


_DECIDE: dict[str, Callable[[CanyonState, int, Any], list[Event]]] = {
    LOAD: _decide_load, FAVOURS: _decide_favours, LOOKS: _decide_looks,
    CONTRACT: _decide_contract, LATE_FAVOURS: _decide_late, REWARD: _decide_reward,
}
_LEGAL: dict[str, Callable[[CanyonState, int], list[Any]]] = {
    LOAD: _legal_load, FAVOURS: _legal_favours, LOOKS: _legal_looks,
    CONTRACT: _legal_contract, LATE_FAVOURS: _legal_late, REWARD: _legal_reward,
}
_AUTOMATIC: dict[str, Callable[[CanyonState, random.Random], list[Event]]] = {
    NEXT_DONKEY: _auto_next_donkey, SET_ASIDE: _auto_set_aside, REVEAL: _auto_reveal,
    SCORE: _auto_score, ROUND_END: _auto_round_end,
}
_EVOLVE: dict[str, Callable[[CanyonState, Event], CanyonState]] = {
    "donkeys_drawn": _on_donkeys_drawn,
    "donkey_revealed": _on_donkey_revealed,
    "donkey_removed": _on_donkey_removed,
    "lost_resumed": _on_lost_resumed,
    "load_played": _on_load_played,
    "loads_set_aside": _on_loads_set_aside,
    "favour_called": _on_favour_called,
    "favour_declined": _on_favour_declined,
    "card_looked": _on_card_looked,
    "looks_declined": _on_looks_declined,
    "contract_chosen": _on_contract_chosen,
    "load_exchanged": _on_load_exchanged,
    "exchange_declined": _on_exchange_declined,
    "limit_adjusted": _on_limit_adjusted,
    "loads_buried": _on_loads_buried,
    "loads_revealed": _on_loads_revealed,
    "loads_swapped": _on_loads_swapped,
    "swap_declined": _on_swap_declined,
    "card_chosen": _on_card_chosen,
    "round_scored": _on_round_scored,
    "round_ended": _on_round_ended,
    "game_ended": _on_game_ended,
}

GAME = CanyonDonkeys()
