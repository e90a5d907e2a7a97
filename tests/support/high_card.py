"""A tiny game for testing the service and API without the real games' rules: each seat is
dealt three hidden cards and, in turn, plays one face up; the highest total wins."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, TypedDict

import msgspec

from domain.errors import IllegalAction, NotYourTurn
from domain.events import Event, event
from domain.game import EventShape, GameShapes, OptionSpec, Outcome
from domain.shapes import Empty, Played
from domain.texts import ActionText, Card, Layout, Seat, Text, Zone, text


class HighCardPlay(msgspec.Struct, frozen=True, tag_field="type", tag="play"):
    card: int


class HighCardTable(TypedDict):
    played: list[list[int]]
    hand: list[int] | None
    hands: list[list[int]] | None


class HighCardHand(TypedDict):
    hand: list[int]


class HighCardPlayed(Played):
    card: int


SHAPES = GameShapes(view=HighCardTable, events={
    "dealt": EventShape(Empty, private=HighCardHand), "played": EventShape(HighCardPlayed)})


class HighCardState(msgspec.Struct, frozen=True):
    hands: tuple[tuple[int, ...], ...]
    played: tuple[tuple[int, ...], ...]
    turn: int = 0


class HighCard:
    id = "high-card"
    title = "High card (test game)"
    min_players = 2
    max_players = 4
    options = (OptionSpec(name="cards", type="int", default=3, minimum=1, maximum=5),)
    rules = ("a test game",)
    action_type = HighCardPlay
    state_type = HighCardState
    shapes = SHAPES

    def new_state(self, options: Mapping[str, Any], players: int) -> HighCardState:
        return HighCardState(hands=((),) * players, played=((),) * players)

    def setup(self, state: HighCardState, rng: random.Random) -> list[Event]:
        n = len(state.hands)
        deck = rng.sample(range(1, 100), 3 * n)
        return [event("dealt", private={s: {"hand": sorted(deck[3 * s:3 * s + 3])}
                                        for s in range(n)})]

    def decide(self, state: HighCardState, seat: int, action: HighCardPlay,
               rng: random.Random) -> list[Event]:
        if seat != state.turn:
            raise NotYourTurn("not your turn")
        if action.card not in state.hands[seat]:
            raise IllegalAction("you do not hold that card", code="not_in_hand")
        return [event("played", actor=seat, card=action.card)]

    def evolve(self, state: HighCardState, ev: Event) -> HighCardState:
        if ev.type == "dealt":
            return msgspec.structs.replace(state, hands=tuple(
                tuple(ev.private[s]["hand"]) for s in range(len(state.hands))))
        seat = ev.actor
        assert seat is not None
        hands = list(state.hands)
        played = list(state.played)
        hands[seat] = tuple(c for c in hands[seat] if c != ev.data["card"])
        played[seat] = (*played[seat], ev.data["card"])
        return HighCardState(hands=tuple(hands), played=tuple(played),
                             turn=(seat + 1) % len(hands))

    def legal_actions(self, state: HighCardState, seat: int) -> list[HighCardPlay]:
        if seat not in self.to_act(state):
            return []
        return [HighCardPlay(card=c) for c in state.hands[seat]]

    def to_act(self, state: HighCardState) -> frozenset[int]:
        return frozenset() if not any(state.hands) else frozenset({state.turn})

    def view(self, state: HighCardState, viewer: int | None,
             reveal_all: bool = False) -> dict[str, Any]:
        return {"played": [list(p) for p in state.played],
                "hand": list(state.hands[viewer]) if viewer is not None else None,
                "hands": [list(h) for h in state.hands] if reveal_all else None}

    def outcome(self, state: HighCardState) -> Outcome | None:
        return self.standing(state) if self.round_scored(state) else None

    def standing(self, state: HighCardState) -> Outcome:
        totals = [sum(p) for p in state.played]
        return Outcome(places=[1 + sum(t > mine for t in totals) for mine in totals],
                       scores=[float(t) for t in totals], score_name="points",
                       lower_is_better=False)

    def round_scored(self, state: HighCardState) -> bool:
        """The whole game is one round."""
        return not any(state.hands) and any(state.played)

    def action_label(self, view: Mapping[str, Any], action: HighCardPlay) -> ActionText:
        return ActionText(text("Play {card}", card=action.card), (f"hand:{action.card}",))

    def event_sentence(self, event: Mapping[str, Any]) -> Text | None:
        if event["type"] == "dealt":
            return text("Three cards each were dealt.")
        if event["type"] == "played":
            return text("{seat} played {card}.", seat=Seat(event["actor"]),
                        card=event["data"]["card"])
        return None

    def layout(self, view: Mapping[str, Any], viewer: int | None) -> Layout:
        played = tuple(Zone(id=f"seat:{seat}", kind="seat", seat=seat,
                            cards=tuple(Card(text=str(c), name=str(c)) for c in cards))
                       for seat, cards in enumerate(view["played"]))
        hand = () if view["hand"] is None else (Zone(
            id="hand", kind="hand", seat=viewer, title=text("Your hand"),
            cards=tuple(Card(id=f"hand:{c}", text=str(c), name=str(c)) for c in view["hand"])),)
        return Layout(zones=played + hand)


GAME = HighCard()
