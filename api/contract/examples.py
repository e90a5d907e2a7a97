"""Examples for the document, taken from real play: each game is set up and played a few
seeded random moves, and what it shows then is the example of its view, its actions and
its events. The seed makes them the same on every build (the committed document does not
drift); a change to a game's rules or view changes its examples with it."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import msgspec

from api.encoding import encode_game_view
from api.errors import status_for
from domain.errors import DomainError
from domain.events import Event, stamp
from domain.game import Game, resolve_options
from domain.redaction import redact
from domain.service import table_view
from domain.service.decide import parse_action
from domain.table import SeatInfo, Table

SEED = 2026
MOVES = 400  # long enough for each game to show most of its actions


@dataclass
class Sample:
    """What one seeded game showed: the state, view and legal actions of the seat to act
    a few moves in, and the events of its move (as it sees them); the first events of the
    game and an example of each action type and of each event type (redacted for seat
    0)."""

    players: int
    seat: int = 0
    state: Any = None
    view: dict[str, Any] = field(default_factory=dict)
    legal: list[Any] = field(default_factory=list)
    acted: list[dict[str, Any]] = field(default_factory=list)
    acted_to_act: list[int] = field(default_factory=list)
    after: Any = None  # the state after the seat's move
    first: list[dict[str, Any]] = field(default_factory=list)
    actions: dict[str, Any] = field(default_factory=dict)
    events: dict[str, dict[str, Any]] = field(default_factory=dict)


@cache  # the games are fixed objects; the same examples serve every app of a process
def sample(game: Game[Any, Any]) -> Sample:
    players = game.min_players + 1 if game.min_players + 1 <= game.max_players else \
        game.min_players
    rng = random.Random(SEED)
    state = game.new_state(resolve_options(game.options, {}, players), players)
    log: list[Event] = []

    def apply(events: list[Event]) -> Any:
        nonlocal state
        for ev in events:
            state = game.evolve(state, ev)
        log.extend(stamp(events, len(log) + 1, 1_790_000_000.0 + len(log), "",
                         key=b"an example's commitment key"))
        return state

    apply(game.setup(state, rng))
    out = Sample(players)
    for move in range(MOVES):
        if game.outcome(state) is not None:
            break
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        for action in legal:
            out.actions.setdefault(action.__struct_config__.tag, msgspec.to_builtins(action))
        before = len(log)
        if move == 3:
            out.seat, out.state = seat, state
            out.view = msgspec.to_builtins(game.view(state, seat))
            out.legal = [msgspec.to_builtins(a) for a in legal]
        apply(game.decide(state, seat, rng.choice(legal), rng))
        if move == 3:
            out.acted = [msgspec.to_builtins(redact(ev, seat)) for ev in log[before:]]
            out.acted_to_act, out.after = sorted(game.to_act(state)), state
    for ev in log:
        out.events.setdefault(ev.type, msgspec.to_builtins(redact(ev, 0)))
    out.first = [msgspec.to_builtins(redact(ev, 0)) for ev in log[:3]]
    return out


NAMES = ["ann", "bob", "cy", "dee", "eve", "fay"]
CREATED_AT = 1_790_000_000.0
SEED_HASH = "9f2c1e0b7a4d3c2b1a0f9e8d7c6b5a49382716a5b4c3d2e1f0a9b8c7d6e5f4a3"


def _table(of: Game[Any, Any], **fields: Any) -> Table:
    players = sample(of).players
    defaults: dict[str, Any] = {
        "seats": tuple(SeatInfo(kind="human") for _ in range(players)),
        "updated_at": CREATED_AT}
    return Table(id="Xq3vK9mTtQ2a", type=of.id,
                 options=resolve_options(of.options, {}, players), deadline_s=259200.0,
                 on_timeout="autoplay", bot_delay_s=0.0, seed_hash=SEED_HASH,
                 created_at=CREATED_AT, timeouts_in_row=(0,) * players,
                 **{**defaults, **fields})


def _answer(table: Table, game: Game[Any, Any], viewer: int | None) -> dict[str, Any]:
    """What GET /games/{id} answers for this table (the view the service builds, encoded
    as the API sends it)."""
    view: dict[str, Any] = msgspec.json.decode(encode_game_view(
        table_view(table, game, viewer, CREATED_AT + 60)))
    return view


def game_view(game: Game[Any, Any]) -> dict[str, Any]:
    """The view of the sample's seat to act, a few moves into the game (a few of its legal
    actions)."""
    example = sample(game)
    view = _played(game, example.state, _version(example), [example.seat])
    return {**view, "legal_actions": view["legal_actions"][:3]}


def _played(game: Game[Any, Any], state: Any, version: int, acting: list[int]
            ) -> dict[str, Any]:
    """The sample's seat's view of the game being played at `state`."""
    example = sample(game)
    seats = tuple(SeatInfo(kind="human", name=name, taken=True)
                  for name in NAMES[:example.players])
    at = CREATED_AT + version
    table = _table(game, seats=seats, status="active", version=version, game=state,
                   updated_at=at, waiting_since={seat: at for seat in acting})
    return _answer(table, game, example.seat)


def _version(example: Sample) -> int:
    """The game's version when the sample's seat is to act: the seq before its move's."""
    return int(example.acted[0]["seq"]) - 1


def refused(game: Game[Any, Any]) -> dict[str, Any]:
    """The error answering an action the rules forbid to the sample's seat to act: the
    first action type it has seen that is not legal then."""
    example = sample(game)
    for body in example.actions.values():
        if body in example.legal:
            continue
        try:
            game.decide(example.state, example.seat, parse_action(game, body),
                        random.Random(SEED))
        except DomainError as err:
            return {"code": err.code, "status": status_for(err), "message": err.message,
                    "version": _version(example), "legal_actions": example.legal[:3]}
    raise ValueError(f"the sample of {game.id} shows no refused action")


def created_game(game: Game[Any, Any]) -> dict[str, Any]:
    """A new game as its creator sees it: every seat free, and the creator's token."""
    return {**_answer(_table(game, version=1), game, None),
            "creator_token": "ctk_eABdKMyzgy0w_7BlKAXX_dWZBl7o4MUX"}


def joined(game: Game[Any, Any]) -> dict[str, Any]:
    """The answer to a join: the seat, its token, and the game as the view example
    shows it."""
    return {"seat": sample(game).seat, "token": "4AO3yih7DcggiV3yhtxHmnjGlPk6CTQ5",
            "game": game_view(game)}


def acted(game: Game[Any, Any]) -> dict[str, Any]:
    """The answer to the sample's move: the events it caused, as the mover sees them,
    and the mover's view after it."""
    example = sample(game)
    version = int(example.acted[-1]["seq"])
    return {"version": version, "to_act": example.acted_to_act, "events": example.acted,
            "view": _played(game, example.after, version, example.acted_to_act)}


def events_page(game: Game[Any, Any]) -> dict[str, Any]:
    """The first events of a game, as seat 0 sees them."""
    first = sample(game).first
    return {"version": first[-1]["seq"], "status": "active", "events": first}
