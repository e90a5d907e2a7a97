"""The trick engine shared by the Ochs & Esel family: Ochs & Esel and Crazy Donkey.

Rules: `rules/ochs-und-esel.md` (the base) and `rules/crazy-donkey.md` (its differences).
One engine, configured per game by a `TrickConfig`: the number of jokers, the deal table,
how the donkey is dealt, the values a joker may take in a donkey trick, whether the ox
variant is offered, and the name of the option that counts rounds (deals).

Cards are small ints: number cards 1-13, `JOKER` 14, `OX` 15, `DONKEY` 20, so a card's id is
also its penalty when it is left in a hand. Hands are sorted tuples of ids. On the wire
(actions, events, views) number cards are ints and the others are named: "joker", "ox",
"donkey".

Actions (tag field `type`):
- `{"type": "play_set", "value": 11, "numbers": 2, "jokers": 1}`: a set in a normal trick
  (jokers only: value 14, numbers 0);
- `{"type": "pass"}`;
- `{"type": "play_donkey"}`, `{"type": "play_ox"}`: lead the donkey / the ox alone;
- `{"type": "play_card", "card": 7}` or `{"type": "play_card", "card": "joker"}`: the one
  card of a donkey or ox trick (Crazy Donkey: `"value": 1` or `14` declares the joker).

Errors. `BadAction` (code `bad_action`): not an action of this game, or malformed (a set of
no cards, a value outside 1-14, jokers alone not worth 14, a joker value Crazy Donkey does
not know). `NotYourTurn`, `GameOver`, `GameNotStarted`. `IllegalAction` codes:
- `not_in_hand`: the cards (or the donkey, the ox) are not in the player's hand;
- `cannot_pass`: the leader of a normal trick, or anyone holding a number card or joker in
  a donkey/ox trick, may not pass;
- `must_play_set`: `play_card` outside a donkey/ox trick;
- `must_follow_count`: a set of another size than the leader's;
- `too_low`: a set not strictly higher than the last set played;
- `only_leader_plays_donkey` / `only_leader_plays_ox`: the donkey or ox played when not
  leading;
- `donkey_locked` / `ox_locked`: the card was received in the previous trick (lock);
- `must_play_one_card`: a set in a donkey/ox trick (one card each);
- `must_pass`: a hand of only the donkey and/or the ox in a donkey/ox trick;
- `joker_value_fixed`: a joker declared other than 1 where it is always worth 1.

Events: `first_player_chosen`, `round_dealt` (hands in private parts), `set_played`,
`passed`, `donkey_led`, `ox_led`, `card_played`, `trick_won`, `donkey_trick_taken`,
`ox_trick_taken`, `ox_taken`, `donkey_taken`, `round_scored`, `game_ended`.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Union

import msgspec
from msgspec.structs import replace

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
from domain.games.trick_shapes import TRICK_SHAPES

# ---------------------------------------------------------------------------------------
# Constants
# ---------------------------------------------------------------------------------------

NUMBERS = range(1, 14)  # values 1-13
COPIES = 8  # eight copies of each value
DECK_NUMBERS = tuple(v for v in NUMBERS for _ in range(COPIES))  # the 104 number cards
JOKER = 14
OX = 15
DONKEY = 20
SPECIALS = (OX, DONKEY)
JOKERS_ALONE = 14  # a set of jokers only is worth 14 and cannot be beaten

CARD_NAMES: dict[int, str] = {JOKER: "joker", OX: "ox", DONKEY: "donkey"}
CARD_IDS: dict[str, int] = {name: card for card, name in CARD_NAMES.items()}

NORMAL, DONKEY_TRICK, OX_TRICK = 0, 1, 2
TRICK_KINDS = ("normal", "donkey", "ox")

NOBODY = -1


# ---------------------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------------------

class TrickPlaySet(msgspec.Struct, frozen=True, tag_field="type", tag="play_set",
                   omit_defaults=True):
    """A set in a normal trick: `numbers` cards of `value` plus `jokers` jokers."""

    value: int
    numbers: int = 0
    jokers: int = 0


class TrickPass(msgspec.Struct, frozen=True, tag_field="type", tag="pass"):
    """Pass (normal trick), or the forced pass of a hand of only donkey/ox."""


class TrickPlayDonkey(msgspec.Struct, frozen=True, tag_field="type", tag="play_donkey"):
    """Lead the donkey alone: a donkey trick."""


class TrickPlayOx(msgspec.Struct, frozen=True, tag_field="type", tag="play_ox"):
    """Lead the ox alone: an ox trick (ox variant)."""


class TrickPlayCard(msgspec.Struct, frozen=True, tag_field="type", tag="play_card",
                    omit_defaults=True):
    """The one card of a donkey or ox trick; `value` declares a joker (1 or 14)."""

    card: int | Literal["joker"]
    value: int | None = None


TrickAction = TrickPlaySet | TrickPass | TrickPlayDonkey | TrickPlayOx | TrickPlayCard


# ---------------------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------------------

class TrickEnginePlay(msgspec.Struct, frozen=True, array_like=True):
    """One play of the current trick. A pass has no cards; a donkey/ox lead has `special`;
    a set or a single card has `numbers` cards of `value` and `jokers` jokers (in a
    donkey/ox trick `value` is the card's worth, so a joker's declared value)."""

    seat: int
    value: int = 0
    numbers: int = 0
    jokers: int = 0
    special: int = 0

    def cards(self) -> tuple[int, ...]:
        out = (self.value,) * self.numbers + (JOKER,) * self.jokers
        return (*out, self.special) if self.special else out


class TrickEngineState(msgspec.Struct, frozen=True, kw_only=True):
    players: int
    rounds: int
    ox_variant: bool = False
    first_player: int = NOBODY  # option; NOBODY = drawn at random in setup
    round: int = 0  # 1-based; 0 before the first deal
    trick: int = 0  # 1-based within the round
    hands: tuple[tuple[int, ...], ...] = ()
    known: tuple[tuple[int, ...], ...] = ()  # cards everyone saw go into each hand
    centre: tuple[int, ...] = ()  # ox variant: specials not taken yet
    piles: tuple[tuple[int, ...], ...] = ()  # ox penalty piles, face down
    discards: tuple[int, ...] = ()  # count per card id of cards out of play this round
    leader: int = NOBODY
    turn: int = NOBODY
    kind: int = NORMAL
    count: int = 0  # cards per set, fixed by the leader
    high: int = 0  # value of the highest play so far
    high_seat: int = NOBODY  # who made it (the trick's winner or taker so far)
    plays: tuple[TrickEnginePlay, ...] = ()
    donkey_from: int = 1  # first trick in which the donkey may be led (lock)
    ox_from: int = 1
    scores: tuple[tuple[int, ...], ...] = ()  # penalties per round, per seat
    over: bool = False


# ---------------------------------------------------------------------------------------
# Configuration
# ---------------------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class TrickConfig:
    """What differs between the games of the family."""

    id: str
    title: str
    jokers: int
    hand_sizes: Mapping[int, int]  # players -> cards per player
    rounds_option: str  # the option counting rounds: "rounds" or "deals"
    options: tuple[OptionSpec, ...]
    rules: tuple[str, ...]
    # The donkey: False = the first player holds it on top of the deal (Ochs & Esel);
    # True = shuffled in among the first `donkey_within` cards, dealt one at a time.
    donkey_shuffled_in: bool = False
    donkey_within: int = 39
    joker_values: tuple[int, ...] = (1,)  # a joker's worth in a donkey trick; first = default
    has_ox: bool = False  # the ox variant may be chosen (option `ox_variant`)
    min_players: int = 3
    max_players: int = 12


# ---------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------

class TrickGame:
    """A game of the Ochs & Esel family: the Game protocol over `TrickEngineState`."""

    state_type = TrickEngineState
    shapes = TRICK_SHAPES

    def __init__(self, config: TrickConfig) -> None:
        self.config = config
        self.id = config.id
        self.title = config.title
        self.min_players = config.min_players
        self.max_players = config.max_players
        self.options = config.options
        self.rules = config.rules
        classes: tuple[type, ...] = (TrickPlaySet, TrickPass, TrickPlayDonkey, TrickPlayCard)
        if config.has_ox:
            classes = (TrickPlaySet, TrickPass, TrickPlayDonkey, TrickPlayOx, TrickPlayCard)
        self._classes = classes
        self.action_type: Any = Union[classes]  # noqa: UP007 - built from a tuple

    # -- start ------------------------------------------------------------------------

    def new_state(self, options: Mapping[str, Any], players: int) -> TrickEngineState:
        if not self.min_players <= players <= self.max_players:
            raise BadOptions(f"{self.title} is for {self.min_players}-{self.max_players} players",
                             code="bad_players")
        first = options.get("first_player", "random")
        return TrickEngineState(
            players=players,
            rounds=int(options.get(self.config.rounds_option, 5)),
            ox_variant=bool(self.config.has_ox and options.get("ox_variant", False)),
            first_player=NOBODY if first in ("random", None) else int(first),
        )

    def setup(self, state: TrickEngineState, rng: random.Random) -> list[Event]:
        if self.config.donkey_shuffled_in:
            # Crazy Donkey: whoever is dealt the donkey leads.
            return [self._deal(state, 1, None, rng)]
        # Round 1: the first player is chosen ("the longest ears"), or drawn at random.
        drawn = state.first_player == NOBODY
        first = rng.randrange(state.players) if drawn else state.first_player
        return [event("first_player_chosen", seat=first, random=drawn),
                self._deal(state, 1, first, rng)]

    def dealt(self, number: int, hands: Sequence[Sequence[int]], leader: int,
              centre: Sequence[int] = (), **public: Any) -> Event:
        """The `round_dealt` event: hands (ids, the donkey included) go in private parts."""
        donkey = next((s for s, h in enumerate(hands) if DONKEY in h), None)
        return event(
            "round_dealt",
            private={s: {"hand": _names(sorted(h))} for s, h in enumerate(hands)},
            round=number, leader=leader, hand_sizes=[len(h) for h in hands],
            donkey=donkey, centre=_names(centre), **public)

    # -- legal actions ----------------------------------------------------------------

    def to_act(self, state: TrickEngineState) -> frozenset[int]:
        if state.over or state.turn < 0:
            return frozenset()
        return frozenset((state.turn,))

    def legal_actions(self, state: TrickEngineState, seat: int) -> list[TrickAction]:
        if state.over or seat != state.turn or state.turn < 0:
            return []
        hand = state.hands[seat]
        if state.kind != NORMAL:
            # Donkey/ox trick: one card each, any value; only donkey/ox in hand -> pass.
            out: list[TrickAction] = [TrickPlayCard(card=v) for v in sorted(set(hand)) if v <= 13]
            if JOKER in hand:
                out += self._joker_cards()
            return out or [TrickPass()]
        if not state.plays:
            return self._leads(state, hand)
        return [TrickPass(), *_sets(hand, state.count, state.high)]

    # -- apply ------------------------------------------------------------------------

    def decide(self, state: TrickEngineState, seat: int, action: Any,
               rng: random.Random) -> list[Event]:
        if state.over:
            raise GameOver("the game is over")
        if state.round == 0:
            raise GameNotStarted("the cards have not been dealt")
        self._check_shape(action)
        if seat != state.turn:
            raise NotYourTurn(f"it is seat {state.turn}'s turn")
        ev = self._play_event(state, seat, action)
        if _next_in_trick(state, seat, state.hands) >= 0:
            return [ev]
        # Everyone acted once: the trick ends; automatic follow-ups.
        return self._end_trick(self.evolve(state, ev), [ev], rng)

    def evolve(self, state: TrickEngineState, ev: Event) -> TrickEngineState:
        d = ev.data
        match ev.type:
            case "set_played":
                return self._apply_play(state, TrickEnginePlay(
                    ev.actor, d["value"], d["numbers"], d["jokers"]))
            case "passed":
                return self._apply_play(state, TrickEnginePlay(ev.actor))
            case "card_played":
                card = _card_id(d["card"])
                if card == JOKER:
                    return self._apply_play(state, TrickEnginePlay(ev.actor, d["value"], 0, 1))
                return self._apply_play(state, TrickEnginePlay(ev.actor, card, 1))
            case "donkey_led":
                return self._apply_play(state, TrickEnginePlay(ev.actor, special=DONKEY))
            case "ox_led":
                return self._apply_play(state, TrickEnginePlay(ev.actor, special=OX))
            case "trick_won":
                # Played cards are discarded face down and play no further part.
                discards = list(state.discards)
                for play in state.plays:
                    for card in play.cards():
                        discards[card] += 1
                return _next_trick(state, d["seat"], discards=tuple(discards))
            case "donkey_trick_taken":
                # The taker takes all cards, donkey included, into their hand; locked.
                seat = d["seat"]
                cards = _table(state.plays)
                return _next_trick(
                    state, seat,
                    hands=_put(state.hands, seat, _sorted(state.hands[seat] + cards)),
                    known=_put(state.known, seat, _sorted(state.known[seat] + cards)),
                    donkey_from=d["trick"] + 2)
            case "ox_trick_taken":
                # The taker puts all cards, ox included, face down as a penalty pile.
                seat = d["seat"]
                cards = _table(state.plays)
                return _next_trick(
                    state, seat, piles=_put(state.piles, seat, _sorted(state.piles[seat] + cards)))
            case "ox_taken":
                # Received at the end of trick T: locked in trick T+1.
                return replace(_from_centre(state, d["seat"], OX), ox_from=d["trick"] + 2)
            case "donkey_taken":
                return replace(_from_centre(state, d["seat"], DONKEY),
                               donkey_from=d["trick"] + 2)
            case "round_scored":
                return replace(state, scores=(*state.scores, tuple(d["penalties"])),
                               turn=NOBODY)
            case "round_dealt":
                return self._apply_deal(state, ev)
            case "game_ended":
                return replace(state, over=True, turn=NOBODY)
            case _:
                return state  # informational events (first_player_chosen)

    # -- terminal and returns ---------------------------------------------------------

    def outcome(self, state: TrickEngineState) -> Outcome | None:
        if not state.over:
            return None
        totals = _totals(state)
        return Outcome(places=_places(totals), scores=[float(t) for t in totals],
                       score_name="penalty", lower_is_better=True)

    # -- observation ------------------------------------------------------------------

    def view(self, state: TrickEngineState, viewer: int | None,
             reveal_all: bool = False) -> dict[str, Any]:
        """What `viewer` (a seat, or None for a spectator) may see. Everything but the
        viewer's own hand is public: hand sizes, the current trick (played face up), the
        cards everyone saw go into each hand (`known_cards`) and go out of play this round
        (`out_of_play`: discarded tricks and ox piles), where the specials are and their
        locks. Ox piles lie face down: only their size, unless `reveal_all`."""
        n = state.players
        out: dict[str, Any] = {
            "game": self.id,
            "players": n,
            "round": state.round,
            "rounds": state.rounds,
            "ox_variant": state.ox_variant,
            "over": state.over,
            "to_act": state.turn if state.turn >= 0 and not state.over else None,
            "trick": {
                "number": state.trick,
                "leader": state.leader if state.leader >= 0 else None,
                "kind": TRICK_KINDS[state.kind],
                "count": state.count or None,
                "high": state.high if state.high_seat >= 0 else None,
                "high_seat": state.high_seat if state.high_seat >= 0 else None,
                "plays": [_play_view(p) for p in state.plays],
            },
            "hand_sizes": [len(h) for h in state.hands],
            "known_cards": [_names(k) for k in state.known],
            "centre": _names(state.centre),
            "specials": self._specials_view(state),
            "penalty_piles": [{"count": len(p)} for p in state.piles],
            "out_of_play": _names(_out_of_play(state)),
            "scores": [list(r) for r in state.scores],
            "totals": _totals(state),
        }
        if viewer is not None and 0 <= viewer < len(state.hands):
            out["hand"] = _names(state.hands[viewer])
        if reveal_all:
            out["hands"] = [_names(h) for h in state.hands]
            for pile, shown in zip(state.piles, out["penalty_piles"], strict=True):
                shown["cards"] = _names(pile)
        return out

    def determinize(self, view: Mapping[str, Any], seat: int,
                    rng: random.Random) -> TrickEngineState:
        """A full state consistent with `view` (seat `seat`'s): its own hand as shown, the
        other hands drawn uniformly from the cards this seat has not seen (publicly known
        cards stay where they are), ox pile contents drawn from the cards seen going out of
        play. Undealt cards are simply the ones no hand received."""
        n = view["players"]
        own = _ids(view["hand"])
        known = [_ids(k) for k in view["known_cards"]]
        trick = view["trick"]
        plays = tuple(_play_from_view(p) for p in trick["plays"])
        out_of_play = _ids(view["out_of_play"])
        # Ox piles (face down): the ox and cards drawn from those seen going out of play.
        seen_out = [c for c in out_of_play if c not in SPECIALS]
        rng.shuffle(seen_out)
        piles: list[tuple[int, ...]] = []
        for p in view["penalty_piles"]:
            size = p["count"]
            piles.append(_sorted((OX, *seen_out[:size - 1])) if size else ())
            seen_out = seen_out[size - 1:] if size else seen_out
        discards = [0] * (DONKEY + 1)
        for card in seen_out:
            discards[card] += 1
        # Hidden cards: the deck minus everything this seat saw.
        unseen = Counter(DECK_NUMBERS)
        unseen[JOKER] = self.config.jokers
        seen = [*own, *out_of_play, *_table(plays)]
        seen += [c for s in range(n) if s != seat for c in known[s]]
        unseen.subtract(c for c in seen if c not in SPECIALS)
        if min(unseen.values()) < 0:
            raise ValueError("the view shows more cards than the deck holds")
        pool = list(unseen.elements())
        rng.shuffle(pool)
        hands: list[tuple[int, ...]] = []
        for s, size in enumerate(view["hand_sizes"]):
            if s == seat:
                hands.append(own)
                continue
            need = size - len(known[s])
            hands.append(_sorted(known[s] + tuple(pool[:need])))
            pool = pool[need:]
        specials = view["specials"]
        return TrickEngineState(
            players=n, rounds=view["rounds"], ox_variant=view["ox_variant"],
            round=view["round"], trick=trick["number"], hands=tuple(hands),
            known=tuple(known), centre=_ids(view["centre"]), piles=tuple(piles),
            discards=tuple(discards),
            leader=NOBODY if trick["leader"] is None else trick["leader"],
            turn=NOBODY if view["to_act"] is None else view["to_act"],
            kind=TRICK_KINDS.index(trick["kind"]), count=trick["count"] or 0,
            high=trick["high"] or 0,
            high_seat=NOBODY if trick["high_seat"] is None else trick["high_seat"],
            plays=plays,
            donkey_from=specials.get("donkey", {}).get("playable_from_trick", 1),
            ox_from=specials.get("ox", {}).get("playable_from_trick", 1),
            scores=tuple(tuple(r) for r in view["scores"]), over=view["over"])

    # -- helpers: the deal ------------------------------------------------------------

    def _deal(self, state: TrickEngineState, number: int, leader: int | None,
              rng: random.Random) -> Event:
        """Shuffle everything but the specials (a full reshuffle every round) and deal."""
        n = state.players
        size = self.config.hand_sizes[n]
        deck = [*DECK_NUMBERS, *(JOKER,) * self.config.jokers]
        rng.shuffle(deck)
        if self.config.donkey_shuffled_in:
            # Crazy Donkey: the donkey goes at a random place among the first 39 cards,
            # then the cards are dealt one at a time (it counts among a hand's cards).
            # The dealing starts one seat further every deal.
            position = rng.randrange(self.config.donkey_within)
            deck.insert(position, DONKEY)
            start = (number - 1) % n
            hands = [deck[(s - start) % n: n * size: n] for s in range(n)]
            return self.dealt(number, hands, (start + position) % n,
                              donkey_position=position, first_card_to=start)
        hands = [deck[s * size:(s + 1) * size] for s in range(n)]
        if state.ox_variant:
            # Ox variant: nobody gets the donkey; ox and donkey lie in the centre.
            assert leader is not None
            return self.dealt(number, hands, leader, centre=(OX, DONKEY))
        # Base game: the first player (later: the donkey's holder) holds the donkey.
        assert leader is not None
        hands[leader].append(DONKEY)
        return self.dealt(number, hands, leader)

    def _apply_deal(self, state: TrickEngineState, ev: Event) -> TrickEngineState:
        d = ev.data
        n = state.players
        hands = tuple(_sorted(_ids(ev.private[s]["hand"])) for s in range(n))
        known = tuple((DONKEY,) if s == d["donkey"] else () for s in range(n))
        return replace(
            state, round=d["round"], trick=1, hands=hands, known=known,
            centre=_ids(d["centre"]), piles=((),) * n, discards=(0,) * (DONKEY + 1),
            leader=d["leader"], turn=d["leader"], kind=NORMAL, count=0, high=0,
            high_seat=NOBODY, plays=(), donkey_from=1, ox_from=1)

    # -- helpers: plays ---------------------------------------------------------------

    def _joker_cards(self) -> list[TrickPlayCard]:
        if len(self.config.joker_values) == 1:
            return [TrickPlayCard(card="joker")]
        return [TrickPlayCard(card="joker", value=v) for v in self.config.joker_values]

    def _leads(self, state: TrickEngineState, hand: tuple[int, ...]) -> list[TrickAction]:
        out: list[TrickAction] = _sets(hand, 0, 0)
        # Only the leader may play the donkey (the ox), alone, unless it is locked.
        waived = _lock_waived(state, hand)
        if DONKEY in hand and (state.trick >= state.donkey_from or waived):
            out.append(TrickPlayDonkey())
        if OX in hand and (state.trick >= state.ox_from or waived):
            out.append(TrickPlayOx())
        return out

    def _check_shape(self, action: Any) -> None:
        """BadAction for anything that is not a well-formed action of this game."""
        if not isinstance(action, self._classes):
            raise BadAction(f"not an action of {self.title}: {action!r}")
        if isinstance(action, TrickPlaySet):
            v, k, j = action.value, action.numbers, action.jokers
            if not (_is_int(v) and _is_int(k) and _is_int(j)) or k < 0 or j < 0 or k + j == 0:
                raise BadAction("a set has a value, numbers >= 0, jokers >= 0, and a card")
            if not 1 <= v <= JOKERS_ALONE or (v == JOKERS_ALONE) != (k == 0):
                raise BadAction("a set's value is 1-13 with number cards, 14 for jokers alone")
        elif isinstance(action, TrickPlayCard):
            card, value = action.card, action.value
            if card != "joker" and not (_is_int(card) and 1 <= card <= 13):
                raise BadAction("a card is a number 1-13 or \"joker\"")
            if value is not None and not _is_int(value):
                raise BadAction("a card's value is an integer")
            if card != "joker" and value not in (None, card):
                raise BadAction("only a joker may be declared a value")
            if card == "joker" and value not in (None, 1, JOKERS_ALONE):
                raise BadAction("a joker in a donkey or ox trick is worth 1 or 14")

    def _play_event(self, state: TrickEngineState, seat: int, action: Any) -> Event:
        """Check `action` against the rules; the event it causes."""
        hand = state.hands[seat]
        if state.kind != NORMAL:
            return self._special_trick_event(state, seat, hand, action)
        leading = not state.plays
        if isinstance(action, TrickPlayDonkey | TrickPlayOx):
            return _special_lead_event(state, seat, hand, action, leading)
        if isinstance(action, TrickPass):
            if leading:
                raise IllegalAction("the leader must play a set", code="cannot_pass")
            return event("passed", actor=seat)
        if isinstance(action, TrickPlayCard):
            raise IllegalAction("this is a normal trick: play a set or pass",
                                code="must_play_set")
        value, numbers, jokers = action.value, action.numbers, action.jokers
        if not leading:
            # Follow: exactly as many cards as the leader, strictly higher.
            if numbers + jokers != state.count:
                raise IllegalAction(f"play exactly {state.count} card(s) or pass",
                                    code="must_follow_count")
            if value <= state.high:
                raise IllegalAction(f"play higher than {state.high} or pass", code="too_low")
        if (numbers and hand.count(value) < numbers) or hand.count(JOKER) < jokers:
            raise IllegalAction("those cards are not in your hand", code="not_in_hand")
        return event("set_played", actor=seat, value=value, numbers=numbers, jokers=jokers)

    def _special_trick_event(self, state: TrickEngineState, seat: int,
                             hand: tuple[int, ...], action: Any) -> Event:
        # In an ox or donkey trick, a hand of nothing but the donkey and/or ox must pass.
        if all(c in SPECIALS for c in hand):
            if not isinstance(action, TrickPass):
                raise IllegalAction("you hold only the donkey and/or the ox: pass",
                                    code="must_pass")
            return event("passed", actor=seat, forced=True)
        # Nobody may pass; everyone plays exactly one card of any value.
        if isinstance(action, TrickPass):
            raise IllegalAction(f"nobody may pass in a {TRICK_KINDS[state.kind]} trick",
                                code="cannot_pass")
        if isinstance(action, TrickPlaySet):
            raise IllegalAction("play exactly one card (play_card)", code="must_play_one_card")
        if isinstance(action, TrickPlayDonkey | TrickPlayOx):
            # Ox and donkey are never played in the same trick; only the leader plays them.
            return _special_lead_event(state, seat, hand, action, False)
        card = _card_id(action.card)
        if card not in hand:
            raise IllegalAction("that card is not in your hand", code="not_in_hand")
        if card != JOKER:
            return event("card_played", actor=seat, card=card, value=card)
        # A joker is worth 1 (Crazy Donkey: its player may declare 1 or 14).
        value = self.config.joker_values[0] if action.value is None else action.value
        if value not in self.config.joker_values:
            raise IllegalAction(f"a joker is worth {self.config.joker_values[0]} here",
                                code="joker_value_fixed")
        return event("card_played", actor=seat, card="joker", value=value)

    def _apply_play(self, state: TrickEngineState, play: TrickEnginePlay) -> TrickEngineState:
        seat = play.seat
        hands, known = state.hands, state.known
        if play.numbers or play.jokers or play.special:
            cards = play.cards()
            hands = _put(hands, seat, _take(hands[seat], cards))
            if known[seat]:
                known = _put(known, seat, _forget(known[seat], cards))
        kind, count, high, high_seat = state.kind, state.count, state.high, state.high_seat
        if play.special:
            kind = DONKEY_TRICK if play.special == DONKEY else OX_TRICK
            count, high, high_seat = 1, 0, seat  # the donkey (ox) is worth 0
        elif play.numbers or play.jokers:
            if kind == NORMAL:
                # The leader fixes the count; the last set played is the highest.
                count = count or play.numbers + play.jokers
                high, high_seat = play.value, seat
            elif play.value >= high:
                high, high_seat = play.value, seat  # on a tie the last one takes
        return replace(state, hands=hands, known=known, plays=(*state.plays, play), kind=kind,
                       count=count, high=high, high_seat=high_seat,
                       turn=_next_in_trick(state, seat, hands))

    # -- helpers: end of trick, round, game -------------------------------------------

    def _end_trick(self, state: TrickEngineState, events: list[Event],
                   rng: random.Random) -> list[Event]:
        trick, winner = state.trick, state.high_seat
        if state.kind == NORMAL:
            # The highest set (always the last one played) wins; the winner leads next.
            ev = event("trick_won", trick=trick, seat=winner)
        elif state.kind == DONKEY_TRICK:
            ev = event("donkey_trick_taken", trick=trick, seat=winner,
                       cards=_names(_table(state.plays)))
        else:
            ev = event("ox_trick_taken", trick=trick, seat=winner,
                       count=len(_table(state.plays)))
        events.append(ev)
        state = self.evolve(state, ev)
        # Ox variant: the winner of trick 1 takes the ox, of trick 2 the donkey.
        for card, when in ((OX, 1), (DONKEY, 2)):
            if trick == when and card in state.centre:
                ev = event(f"{CARD_NAMES[card]}_taken", trick=trick, seat=winner)
                events.append(ev)
                state = self.evolve(state, ev)
        # End of a round: once the cards are handed out, someone has an empty hand.
        if any(not h for h in state.hands):
            events += self._end_round(state, rng)
        return events

    def _end_round(self, state: TrickEngineState, rng: random.Random) -> list[Event]:
        in_hand = [sum(h) for h in state.hands]  # a card's id is its penalty in hand
        in_pile = [sum(_pile_penalty(c) for c in p) for p in state.piles]
        penalties = [h + p for h, p in zip(in_hand, in_pile, strict=True)]
        scored = event("round_scored", round=state.round, hand_penalties=in_hand,
                       pile_penalties=in_pile, penalties=penalties,
                       out=[s for s, h in enumerate(state.hands) if not h])
        state = self.evolve(state, scored)
        if state.round >= state.rounds:
            totals = _totals(state)
            return [scored, event("game_ended", totals=totals, places=_places(totals))]
        # The donkey's holder leads the next round; if nobody holds it (ox variant), the
        # winner of the last trick does.
        holder = next((s for s, h in enumerate(state.hands) if DONKEY in h), state.leader)
        return [scored, self._deal(state, state.round + 1, holder, rng)]

    def _specials_view(self, state: TrickEngineState) -> dict[str, Any]:
        out: dict[str, Any] = {}
        specials = (DONKEY, OX) if state.ox_variant else (DONKEY,)
        for card in specials:
            free_from = state.donkey_from if card == DONKEY else state.ox_from
            where, seat = "centre", None
            for s, h in enumerate(state.hands):
                if card in h:
                    where, seat = "hand", s
            if any(p.special == card for p in state.plays):
                where, seat = "table", None
            for s, p in enumerate(state.piles):
                if card in p:
                    where, seat = "pile", s
            out[CARD_NAMES[card]] = {
                "where": where, "seat": seat, "playable_from_trick": free_from,
                "locked": where == "hand" and state.trick < free_from}
        return out


# ---------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------

def _sets(hand: tuple[int, ...], count: int, above: int) -> list[TrickAction]:
    """Every distinct set from `hand` of `count` cards (any size if 0) worth more than
    `above`: number cards of one value plus jokers, or jokers alone (worth 14)."""
    jokers = hand.count(JOKER)
    out: list[TrickAction] = []
    for value in sorted(set(hand)):
        if value > 13:
            break
        if value <= above:
            continue
        have = hand.count(value)
        if count:
            for k in range(max(1, count - jokers), min(have, count) + 1):
                out.append(TrickPlaySet(value=value, numbers=k, jokers=count - k))
        else:
            for k in range(1, have + 1):
                out += [TrickPlaySet(value=value, numbers=k, jokers=j) for j in range(jokers + 1)]
    if above < JOKERS_ALONE:
        if count:
            sizes: Iterable[int] = (count,) if count <= jokers else ()
        else:
            sizes = range(1, jokers + 1)
        out += [TrickPlaySet(value=JOKERS_ALONE, jokers=j) for j in sizes]
    return out


def _special_lead_event(state: TrickEngineState, seat: int, hand: tuple[int, ...],
                        action: Any, leading: bool) -> Event:
    card = DONKEY if isinstance(action, TrickPlayDonkey) else OX
    name = CARD_NAMES[card]
    if card not in hand:
        raise IllegalAction(f"you do not hold the {name}", code="not_in_hand")
    # Only the leader may play the donkey (the ox), and only alone.
    if not leading:
        raise IllegalAction(f"only the leader may play the {name}",
                            code=f"only_leader_plays_{name}")
    # Lock: received during or at the end of trick T, it may be led from trick T+2.
    free_from = state.donkey_from if card == DONKEY else state.ox_from
    if state.trick < free_from and not _lock_waived(state, hand):
        raise IllegalAction(f"the {name} was received last trick; it may be led from "
                            f"trick {free_from}", code=f"{name}_locked")
    return event(f"{name}_led", actor=seat)


def _lock_waived(state: TrickEngineState, hand: tuple[int, ...]) -> bool:
    """Decision: a leader holding only locked special cards may lead one anyway."""
    if not hand or any(c not in SPECIALS for c in hand):
        return False
    return (DONKEY not in hand or state.trick < state.donkey_from) and \
        (OX not in hand or state.trick < state.ox_from)


def _next_in_trick(state: TrickEngineState, seat: int, hands: tuple[tuple[int, ...], ...]) -> int:
    """The next seat clockwise to act in this trick, skipping empty hands; NOBODY once
    every player has acted (the turn is back at the leader)."""
    n = state.players
    nxt = (seat + 1) % n
    while nxt != state.leader:
        if hands[nxt]:
            return nxt
        nxt = (nxt + 1) % n
    return NOBODY


def _from_centre(state: TrickEngineState, seat: int, card: int) -> TrickEngineState:
    """Ox variant: `seat` takes `card` from the centre into their hand, in view of all."""
    return replace(state, centre=tuple(c for c in state.centre if c != card),
                   hands=_put(state.hands, seat, _sorted((*state.hands[seat], card))),
                   known=_put(state.known, seat, _sorted((*state.known[seat], card))))


def _next_trick(state: TrickEngineState, winner: int, **changes: Any) -> TrickEngineState:
    """Clear the table; the trick's winner (taker) leads the next trick."""
    return replace(state, trick=state.trick + 1, leader=winner, turn=winner, kind=NORMAL,
                   count=0, high=0, high_seat=NOBODY, plays=(), **changes)


def _table(plays: Iterable[TrickEnginePlay]) -> tuple[int, ...]:
    return tuple(c for p in plays for c in p.cards())


def _pile_penalty(card: int) -> int:
    """In an ox pile: a number card its value, a joker 1, the ox 0."""
    return card if card <= 13 else 1 if card == JOKER else 0


def _out_of_play(state: TrickEngineState) -> tuple[int, ...]:
    """Cards everyone saw leave play this round: discarded tricks and the ox piles."""
    cards = [c for c, k in enumerate(state.discards) for _ in range(k)]
    return _sorted(tuple(cards) + tuple(c for p in state.piles for c in p))


def _totals(state: TrickEngineState) -> list[int]:
    return [sum(r[s] for r in state.scores) for s in range(state.players)]


def _places(totals: Sequence[int]) -> list[int]:
    """Fewest penalty points first; tied players share the place (1, 1, 3 ...)."""
    return [1 + sum(other < t for other in totals) for t in totals]


def _play_view(play: TrickEnginePlay) -> dict[str, Any]:
    if play.special:
        return {"seat": play.seat, "action": "lead", "card": CARD_NAMES[play.special]}
    if not (play.numbers or play.jokers):
        return {"seat": play.seat, "action": "pass"}
    return {"seat": play.seat, "action": "play", "value": play.value,
            "numbers": play.numbers, "jokers": play.jokers, "cards": _names(play.cards())}


def _play_from_view(p: Mapping[str, Any]) -> TrickEnginePlay:
    if p["action"] == "lead":
        return TrickEnginePlay(p["seat"], special=CARD_IDS[p["card"]])
    if p["action"] == "pass":
        return TrickEnginePlay(p["seat"])
    return TrickEnginePlay(p["seat"], p["value"], p["numbers"], p["jokers"])


def _put(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*items[:index], value, *items[index + 1:])


def _take(hand: tuple[int, ...], cards: Iterable[int]) -> tuple[int, ...]:
    """`hand` without `cards` (which it holds); stays sorted."""
    for card in cards:
        i = bisect_left(hand, card)
        hand = hand[:i] + hand[i + 1:]
    return hand


def _forget(known: tuple[int, ...], cards: Iterable[int]) -> tuple[int, ...]:
    """Known cards once `cards` left the hand: each leaves at most one known copy."""
    for card in cards:
        if card in known:
            known = _take(known, (card,))
    return known


def _sorted(cards: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(cards))


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _card_id(card: int | str) -> int:
    return card if isinstance(card, int) else CARD_IDS[card]


def _ids(cards: Iterable[int | str]) -> tuple[int, ...]:
    return _sorted(_card_id(c) for c in cards)


def _names(cards: Iterable[int]) -> list[int | str]:
    return [c if c <= 13 else CARD_NAMES[c] for c in cards]
