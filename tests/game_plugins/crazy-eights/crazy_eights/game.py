"""Crazy Eights: shed your hand by matching the top card of the discard pile.

The rules, as this game plays them (its Decision lines, served with the game's type):
each player is dealt `hand_size` cards from one 52-card deck; the next card is turned up to
start the discard pile. In turn, a player lays one card of the suit to follow or of the top
card's rank; an eight may be laid on anything, and its player names the suit to follow.
A player who can lay nothing draws from the stock, one card at a time, until they can; with
the stock empty, they pass. The first to lay their last card wins; when every player has
passed in a row, nobody can lay any more and the hand ends there. Every card left in a hand
costs points (an eight 50, a picture 10, an ace 1, the others their number): the places go
by what is left, fewest points first.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import msgspec

from crazy_eights import texts
from crazy_eights.cards import (
    CARD,
    CODES,
    DECK_SIZE,
    SUITS,
    cards,
    codes,
    is_eight,
    penalty,
    rank,
    suit,
)
from crazy_eights.shapes import EIGHTS_SHAPES
from domain.errors import IllegalAction
from domain.events import Event, event
from domain.game import OptionSpec, Outcome
from domain.games import common
from domain.games.common import HIDDEN, Play
from domain.texts import ActionText, Layout, Text

NOBODY = -1


# --- what a seat may send ------------------------------------------------------------------
class LayCard(msgspec.Struct, frozen=True, tag_field="type", tag="lay_card", omit_defaults=True):
    """Lay `card` on the discard pile; an eight names the suit to follow (`suit`)."""

    card: str
    suit: str | None = None


class DrawCard(msgspec.Struct, frozen=True, tag_field="type", tag="draw_card"):
    """Draw the stock's top card (only when no card in hand can be laid)."""


class PassTurn(msgspec.Struct, frozen=True, tag_field="type", tag="pass_turn"):
    """Pass (only when no card can be laid and the stock is empty)."""


EightsAction = LayCard | DrawCard | PassTurn


# --- the state -----------------------------------------------------------------------------
class EightsState(msgspec.Struct, frozen=True):
    players: int
    hand_size: int
    hands: tuple[tuple[int, ...], ...] = ()
    stock: tuple[int, ...] = ()  # its top card last
    discard: tuple[int, ...] = ()  # its top card last
    suit: int = NOBODY  # the suit to follow
    turn: int = NOBODY
    passes: int = 0  # players who passed in a row
    over: bool = False
    winner: int = NOBODY
    penalties: tuple[int, ...] = ()  # what each hand left cost, once over


def _matches(state: EightsState, card: int) -> bool:
    top = state.discard[-1]
    return is_eight(card) or suit(card) == state.suit or rank(card) == rank(top)


def _penalties(state: EightsState) -> list[int]:
    return [sum(penalty(c) for c in hand) for hand in state.hands]


# --- the game ------------------------------------------------------------------------------
RULES = (
    "Decision: one 52-card deck, 2 to 5 players; each is dealt `hand_size` cards (7 by "
    "default) and the next card is turned up to start the discard pile; an eight turned up "
    "asks for its own suit.",
    "Decision: the first player is drawn at random (recorded in the log).",
    "Decision: a player lays one card of the suit to follow or of the top card's rank, or an "
    "eight on anything, naming the suit to follow (its own suit too).",
    "Decision: a player may draw only when no card in hand can be laid, and draws one card "
    "per action until one can; with the stock empty they pass. The discard pile is not "
    "turned over into a new stock.",
    "Decision: the first player to lay their last card wins; when every player has passed "
    "in a row, the hand ends there.",
    "Decision: each card left in a hand costs points (an eight 50, a king, queen or jack 10, "
    f"an ace 1, the others their number); places go by those points, fewest first; "
    f"{common.TIES_SHARE}.",
    f"Decision (resigning): a seat that resigns is placed last; {common.CONCEDED_LAST}.",
    f"Decision: the game is one hand: until it is over, {common.ABORT_BY_AGREEMENT}.",
)


class CrazyEights:
    id = "crazy-eights"
    title = "Crazy Eights"
    min_players = 2
    max_players = 5
    options = (OptionSpec(name="hand_size", type="int", default=7, minimum=5, maximum=8,
                          description="the cards dealt to each player"),)
    rules = RULES
    action_type = EightsAction
    state_type = EightsState
    shapes = EIGHTS_SHAPES

    # -- the start ----------------------------------------------------------------------
    def new_state(self, options: Mapping[str, Any], players: int) -> EightsState:
        common.check_player_count(self, players)
        return EightsState(players=players, hand_size=int(options.get("hand_size", 7)))

    def setup(self, state: EightsState, rng: random.Random) -> list[Event]:
        deck = list(range(DECK_SIZE))
        rng.shuffle(deck)
        n, size = state.players, state.hand_size
        hands = [deck[s * size:(s + 1) * size] for s in range(n)]
        starter, stock = deck[n * size], deck[n * size + 1:]
        private: dict[int, Any] = {s: {"hand": codes(sorted(h))} for s, h in enumerate(hands)}
        private[HIDDEN] = {"stock": codes(stock)}
        return [event("eights_dealt", private=private, first=rng.randrange(n),
                      starter=CODES[starter], hand_sizes=[size] * n, stock=len(stock))]

    # -- legal actions, decide, evolve --------------------------------------------------
    def to_act(self, state: EightsState) -> frozenset[int]:
        if state.over or state.turn == NOBODY:
            return frozenset()
        return frozenset({state.turn})

    def legal_actions(self, state: EightsState, seat: int) -> list[EightsAction]:
        if seat not in self.to_act(state):
            return []
        laid: list[EightsAction] = []
        for card in state.hands[seat]:
            if is_eight(card):
                laid += [LayCard(card=CODES[card], suit=s) for s in SUITS]
            elif _matches(state, card):
                laid.append(LayCard(card=CODES[card]))
        if laid:
            return laid
        return [DrawCard()] if state.stock else [PassTurn()]

    def decide(self, state: EightsState, seat: int, action: EightsAction,
               rng: random.Random) -> list[Event]:
        common.check_turn(self, state, seat)
        legal = self.legal_actions(state, seat)
        if action not in legal:
            raise _refusal(state, seat, action, legal)
        play = Play(state, self.evolve)
        if isinstance(action, LayCard):
            card = CARD[action.card]
            follow = action.suit if action.suit is not None else SUITS[suit(card)]
            after = play.emit(event("card_laid", actor=seat, seat=seat, card=action.card,
                                    suit=follow))
            if not after.hands[seat]:
                play.emit(self._ended(after, seat))
        elif isinstance(action, DrawCard):
            play.emit(event("stock_drawn", actor=seat, private={seat: {
                "card": CODES[state.stock[-1]]}}, seat=seat))
        else:
            after = play.emit(event("player_passed", actor=seat, seat=seat))
            if after.passes >= after.players:
                play.emit(self._ended(after, NOBODY))
        return play.events

    def _ended(self, state: EightsState, winner: int) -> Event:
        scores = _penalties(state)
        return event("hand_ended", winner=None if winner == NOBODY else winner,
                     penalties=scores, places=common.places(scores, lower_is_better=True))

    def evolve(self, state: EightsState, ev: Event) -> EightsState:
        d = ev.data
        if ev.type == "eights_dealt":
            hands = tuple(tuple(sorted(cards(ev.private[s]["hand"])))
                          for s in range(state.players))
            starter = CARD[d["starter"]]
            return msgspec.structs.replace(
                state, hands=hands, stock=cards(ev.private[HIDDEN]["stock"]),
                discard=(starter,), suit=suit(starter), turn=d["first"])
        if ev.type == "card_laid":
            seat, card = d["seat"], CARD[d["card"]]
            hand = tuple(c for c in state.hands[seat] if c != card)
            return msgspec.structs.replace(
                state, hands=common.replaced(state.hands, seat, hand),
                discard=(*state.discard, card), suit=SUITS.index(d["suit"]),
                turn=(seat + 1) % state.players if hand else seat, passes=0)
        if ev.type == "stock_drawn":
            seat = d["seat"]
            hand = tuple(sorted((*state.hands[seat], state.stock[-1])))
            return msgspec.structs.replace(state, hands=common.replaced(state.hands, seat, hand),
                                           stock=state.stock[:-1])
        if ev.type == "player_passed":
            return msgspec.structs.replace(state, turn=(d["seat"] + 1) % state.players,
                                           passes=state.passes + 1)
        if ev.type == "hand_ended":
            winner = NOBODY if d["winner"] is None else d["winner"]
            return msgspec.structs.replace(state, over=True, winner=winner, turn=NOBODY,
                                           penalties=tuple(d["penalties"]))
        return state

    # -- the end --------------------------------------------------------------------------
    def outcome(self, state: EightsState) -> Outcome | None:
        return self.standing(state) if state.over else None

    def standing(self, state: EightsState) -> Outcome:
        scores = list(state.penalties) if state.over else _penalties(state)
        return common.outcome(scores or [0] * state.players, score_name="penalty",
                           lower_is_better=True)

    def round_scored(self, state: EightsState) -> bool:
        """The game is one hand: scored when it is over."""
        return state.over

    # -- what a seat may see --------------------------------------------------------------
    def view(self, state: EightsState, viewer: int | None,
             reveal_all: bool = False) -> dict[str, Any]:
        dealt = bool(state.hands)
        out: dict[str, Any] = {
            "game": self.id, "players": state.players,
            "turn": None if state.turn == NOBODY else state.turn,
            "discard": codes(state.discard),
            "suit": SUITS[state.suit] if state.suit != NOBODY else None,
            "stock": len(state.stock), "hand_sizes": [len(h) for h in state.hands],
            "passes": state.passes, "over": state.over,
            "winner": None if state.winner == NOBODY else state.winner,
            "penalties": list(state.penalties) if state.over else None,
        }
        if dealt and viewer is not None and 0 <= viewer < state.players:
            out["hand"] = codes(state.hands[viewer])
        if dealt and reveal_all:
            out["hands"] = [codes(h) for h in state.hands]
        return out

    def determinize(self, view: Mapping[str, Any], seat: int,
                    rng: random.Random) -> EightsState:
        """A full state agreeing with what `seat` sees: the cards it has not seen dealt at
        random to the other hands and the stock."""
        own = cards(view.get("hand", ()))
        discard = cards(view["discard"])
        seen = set(own) | set(discard)
        unseen = [c for c in range(DECK_SIZE) if c not in seen]
        rng.shuffle(unseen)
        hands = []
        for s, size in enumerate(view["hand_sizes"]):
            if s == seat:
                hands.append(own)
            else:
                hands.append(tuple(sorted(unseen[:size])))
                unseen = unseen[size:]
        return EightsState(
            players=view["players"], hand_size=0, hands=tuple(hands),
            stock=tuple(unseen[:view["stock"]]), discard=discard,
            suit=NOBODY if view["suit"] is None else SUITS.index(view["suit"]),
            turn=NOBODY if view["turn"] is None else view["turn"], passes=view["passes"],
            over=view["over"], winner=NOBODY if view["winner"] is None else view["winner"],
            penalties=tuple(view["penalties"] or ()))

    # -- what a person reads (texts.py) -----------------------------------------------------
    def action_label(self, view: Mapping[str, Any], action: EightsAction) -> ActionText:
        return texts.action_label(view, action)

    def event_sentence(self, event: Mapping[str, Any]) -> Text | None:
        return texts.event_sentence(event)

    def layout(self, view: Mapping[str, Any], viewer: int | None) -> Layout:
        return texts.layout(view, viewer)


def _refusal(state: EightsState, seat: int, action: EightsAction,
             legal: list[EightsAction]) -> IllegalAction:
    """Why an action that is not among the legal ones is refused, with its code."""
    if isinstance(action, LayCard):
        card = CARD.get(action.card)
        if card is None or card not in state.hands[seat]:
            return IllegalAction(f"you hold no {action.card}", code="not_in_hand")
        if is_eight(card):
            return IllegalAction("an eight names the suit to follow: one of C, D, H, S",
                                 code="name_a_suit")
        if action.suit is not None:
            return IllegalAction("only an eight names a suit", code="not_an_eight")
        return IllegalAction(f"{action.card} follows neither the suit "
                             f"{SUITS[state.suit]} nor the rank of {CODES[state.discard[-1]]}",
                             code="does_not_match")
    if isinstance(action, DrawCard):
        if not state.stock:
            return IllegalAction("the stock is empty: pass", code="stock_empty")
        return IllegalAction("you can lay a card: draw only when you cannot",
                             code="must_lay")
    if any(isinstance(a, LayCard) for a in legal):
        return IllegalAction("you can lay a card", code="must_lay")
    return IllegalAction("draw from the stock first", code="must_draw")


GAME = CrazyEights()
