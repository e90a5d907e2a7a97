"""The table: the envelope around one game — its seats, status, deadlines and seed.

A game's log starts with the table's own events (`game_created`, `player_joined`,
`game_started`), then the game's events; `turn_timed_out`, `seat_returned`,
`game_finished`, `game_cancelled` (the creator called off a game that had not started) and
`rematch_created` (the game that follows a finished one) are the table's too, and so are
the clocks' (`vacation_started`, `vacation_ended`: `domain.clocks`) and the seats' own
setting for their forced moves (`forced_moves_set`: `domain.service.forced`). A seat's
last action may be taken back (`move_taken_back`) while nothing has happened since and its
game rules it may (`domain.rulings`): the action's first event says how many events it
made (`undoable`), the fold keeps the table before them (`Undo`) until any later event,
and `move_taken_back` puts that table back. A snapshot keeps only which events may be
taken back, not the table before them (the log has it: a reader that meets the take-back
folds it again, `UndoNotKept`). The log itself is never edited. So is the
table's life while a game is played: `seat_resigned` (the seat concedes; the basic bot
plays it on), `seat_left` (its player hands it to a bot of a level they chose),
`abort_voted` and `abort_vote_withdrawn` (the people playing agree to call the game off
before its first round is scored) and `game_aborted` (all of them did: no result).

A seat whose player resigned or left is no longer *in play*: it is placed behind every
seat in play, and when fewer than two seats are left in play, or none of them a person's,
nothing is left to play for and the game ends at once (`ruled_outcome`, the Decision lines
of every game).

A seat is a bot, or a human seat: open to anyone, held by an anonymous person (with a seat
token), held by a player (`player`: their id; their key finds the seat), invited (`invited`:
only that player may take it), or kept for whoever held seat `rematch_seat` of the game this
one is a rematch of. `evolve_table` applies the table's events itself and
hands every other event to the game's `evolve`, so one fold rebuilds both.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain import clocks
from domain.clocks import Correspondence, SeatClock
from domain.events import Event
from domain.game import Game, Outcome
from domain.games.common import places

TABLE_EVENTS = frozenset(
    {"game_created", "player_joined", "game_started", "turn_timed_out", "seat_returned",
     "game_finished", "game_cancelled", "rematch_created", "seat_resigned", "seat_left",
     "abort_voted", "abort_vote_withdrawn", "game_aborted", "vacation_started",
     "vacation_ended", "forced_moves_set", "move_taken_back", "player_erased"}
)
# The name of a seat whose player erased their account (`player_erased`).
DELETED_NAME = "deleted player"
# open -> active -> finished (a result) or aborted (by agreement, no result);
# open -> cancelled (by its creator, before the start)
STATUSES = ("open", "active", "finished", "cancelled", "aborted")
OVER = ("finished", "cancelled", "aborted")  # nothing more is played
# The events that put a table in one of those statuses.
OVER_EVENTS = ("game_finished", "game_cancelled", "game_aborted")
# After this many deadlines missed in a row a seat is marked away and auto-played at once.
AWAY_AFTER_TIMEOUTS = 2


class SeatInfo(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    kind: str  # "human" or "bot"
    level: str | None = None  # bot level
    name: str | None = None
    taken: bool = False
    player: str | None = None  # the player holding the seat
    invited: str | None = None  # the only player who may take it
    rematch_seat: int | None = None  # kept for the holder of that seat of `rematch_of`
    resigned: bool = False  # its player conceded
    left: bool = False  # its player handed it to a bot
    played_by: str | None = None  # the level of the bot playing a seat its player gave up
    bot_account: bool = False  # held by a player that is a bot account (a program)

    @property
    def bot_level(self) -> str | None:
        """The level of the bot that plays this seat now (None: a person plays it)."""
        return (self.level or "basic") if self.kind == "bot" else self.played_by

    @property
    def in_play(self) -> bool:
        """Still played by whoever sat there: a bot seat, or a person who did not give up."""
        return not (self.resigned or self.left)

    @property
    def free(self) -> bool:
        """May anyone take it?"""
        return (self.kind == "human" and not self.taken and self.invited is None
                and self.rematch_seat is None)


class Before(msgspec.Struct, frozen=True):
    """What an action changed of the table, as it was before it: the game's state, who
    waited since when, the clocks."""

    game: Any
    waiting_since: dict[int, float]
    clocks: tuple[SeatClock, ...]


class Undo(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A seat's last action while it may be taken back: its events (`first`..`last`) and
    the table as it was before them (`before`; None in a table read from a snapshot, which
    does not keep it: `UndoNotKept`). Never shown to anyone: views read the table."""

    seat: int
    first: int
    last: int
    before: Before | None = None


class UndoNotKept(Exception):
    """A take-back met a table read from a snapshot, which keeps which events may be taken
    back but not the table before them: fold the log up to `first - 1` for it
    (`with_before`) and fold the take-back again."""

    def __init__(self, first: int) -> None:
        super().__init__(f"the table before event {first} is not kept here")
        self.first = first


def with_before(table: Table, before: Table) -> Table:
    """`table` whose take-back keeps `before`, the table right before the action."""
    undo = table.undo
    assert undo is not None and before.version == undo.first - 1
    return msgspec.structs.replace(table, undo=msgspec.structs.replace(
        undo, before=Before(before.game, before.waiting_since, before.clocks)))


class Table(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    type: str
    options: dict[str, Any]
    seats: tuple[SeatInfo, ...]
    deadline_s: float | None
    on_timeout: str
    bot_delay_s: float
    seed_hash: str
    created_at: float
    status: str = "open"  # one of STATUSES
    version: int = 0
    last_hash: str = ""
    updated_at: float = 0.0
    seed: str | None = None  # revealed when the game ends
    game: Any = None  # the game's own state once started
    waiting_since: dict[int, float] = {}  # seat -> when it became one to act
    timeouts_in_row: tuple[int, ...] = ()
    outcome: dict[str, Any] | None = None
    ended_at: float | None = None  # when it finished or was cancelled
    created_by: str | None = None  # the player who created it, if a player did
    rematch_of: str | None = None  # the finished game this one follows
    rematch: str | None = None  # the game that follows this one, once asked for
    abort_votes: tuple[int, ...] = ()  # the seats that agree to abort the game
    # A correspondence time control (None: a deadline per move, `deadline_s`, or none),
    # each seat's clock under it, and the seats' vacations (seat -> until when).
    clock: Correspondence | None = None
    clocks: tuple[SeatClock, ...] = ()
    vacation_until: dict[int, float] = {}
    auto_forced: tuple[int, ...] = ()  # the seats whose forced moves play themselves
    undo: Undo | None = None  # the last action, while it may be taken back

    @property
    def players(self) -> int:
        return len(self.seats)

    def seat_of(self, player_id: str) -> int | None:
        """The seat `player_id` holds here, if any."""
        for i, seat in enumerate(self.seats):
            if seat.player == player_id:
                return i
        return None

    def has_free_seat(self) -> bool:
        return self.status == "open" and any(s.free for s in self.seats)

    def player_ids(self) -> set[str]:
        """The players seated or invited here."""
        return {p for s in self.seats for p in (s.player, s.invited) if p is not None}

    def people_in_play(self) -> list[int]:
        """The seats still played by the person who took them."""
        return [i for i, s in enumerate(self.seats) if s.kind == "human" and s.in_play]

    def nothing_to_play_for(self) -> bool:
        """Fewer than two seats in play, or none of them a person's: the result cannot
        change for anyone it rates, so the game ends at once."""
        in_play = [s for s in self.seats if s.in_play]
        return len(in_play) < 2 or not self.people_in_play()

    def abort_agreed(self) -> bool:
        """Every person still playing agrees to abort."""
        people = self.people_in_play()
        return bool(people) and set(people) <= set(self.abort_votes)

    def is_away(self, seat: int) -> bool:
        return self.timeouts_in_row[seat] >= AWAY_AFTER_TIMEOUTS

    def deadline(self, seat: int) -> float | None:
        """When the seat's time to act runs out if it does not act (None: no clock runs
        for it)."""
        if self.clock is not None:
            mine = self.clocks[seat]
            return None if mine.since is None else mine.since + mine.bank
        if self.deadline_s is None or seat not in self.waiting_since:
            return None
        return self.waiting_since[seat] + self.deadline_s

    def clock_started(self, seat: int) -> float | None:
        """When the seat's time to act began to run (None: it is not waited for): when it
        started waiting, or under a correspondence clock when its bank (re)started running,
        the end of a vacation that stopped it included."""
        if self.clock is not None:
            return self.clocks[seat].since
        return self.waiting_since.get(seat)

    @property
    def has_clock(self) -> bool:
        return self.clock is not None or self.deadline_s is not None

    def time_control(self) -> dict[str, Any]:
        return clocks.describe(self.deadline_s, self.clock)


def created_table(ev: Event) -> Table:
    d = ev.data
    control = msgspec.convert(d["time_control"], Correspondence) \
        if d.get("time_control") else None
    seats = tuple(SeatInfo(kind=s["kind"], level=s.get("level"), taken=s["kind"] == "bot",
                           name=s.get("name"), invited=s.get("invited"),
                           rematch_seat=s.get("rematch_seat")) for s in d["seats"])
    return Table(
        id=d["id"], type=d["type"], options=d["options"], seats=seats,
        deadline_s=d.get("deadline_s"), on_timeout=d.get("on_timeout", "autoplay"),
        bot_delay_s=d.get("bot_delay_s", 0.0), seed_hash=d["seed_hash"], created_at=ev.at,
        timeouts_in_row=(0,) * len(seats), created_by=d.get("created_by"),
        rematch_of=d.get("rematch_of"), clock=control,
        clocks=clocks.start_clocks(control, len(seats)) if control is not None else (),
    )


def evolve_table(table: Table | None, ev: Event, game: Game[Any, Any]) -> Table:
    """Apply one event of the log to the table (and, through it, to the game)."""
    if ev.type == "game_created":
        table = created_table(ev)
    else:
        assert table is not None, "a log starts with game_created"
        before = table
        if table.undo is not None and ev.seq > table.undo.last and \
                ev.type != "move_taken_back":
            table = msgspec.structs.replace(table, undo=None)  # something happened since
        if ev.type == "move_taken_back":
            table = taken_back(table)
        elif ev.type in TABLE_EVENTS:
            table = table_facts(table, ev)
            if ev.type == "game_started":
                table = msgspec.structs.replace(
                    table, game=game.new_state(table.options, table.players))
        else:
            table = msgspec.structs.replace(table, game=game.evolve(table.game, ev))
            made = ev.data.get("undoable")
            if made and ev.actor is not None:
                table = msgspec.structs.replace(table, undo=Undo(
                    seat=ev.actor, first=ev.seq, last=ev.seq + made - 1,
                    before=Before(before.game, before.waiting_since, before.clocks)))
    return _track_waiting(table, ev, game)


def taken_back(table: Table) -> Table:
    """The table as it was before the seat's last action (`table.undo`)."""
    undo = table.undo
    assert undo is not None, "a take-back follows an action that may be taken back"
    if undo.before is None:
        raise UndoNotKept(undo.first)
    kept = undo.before
    return msgspec.structs.replace(table, game=kept.game, waiting_since=kept.waiting_since,
                                   clocks=kept.clocks, undo=None)


def may_take_back(table: Table, seat: int) -> bool:
    """May `seat` take its last action back now? (Its own, and nothing happened since.)"""
    undo = table.undo
    return table.status == "active" and undo is not None and undo.seat == seat and \
        undo.last == table.version and table.seats[seat].in_play


def table_facts(table: Table, ev: Event) -> Table:
    """What one of the table's own events says of the table: seats, status, result, links
    (nothing here needs the game's state). A new table event is applied here."""
    replace = msgspec.structs.replace
    match ev.type:
        case "player_erased":
            seats = list(table.seats)
            for seat in ev.data["seats"]:
                seats[seat] = replace(seats[seat], name=DELETED_NAME)
            table = replace(table, seats=tuple(seats))
        case "player_joined":
            seat = ev.data["seat"]
            seats = list(table.seats)
            seats[seat] = replace(seats[seat], name=ev.data["name"], taken=True,
                                  player=ev.data.get("player"),
                                  bot_account=ev.data.get("bot", False))
            table = replace(table, seats=tuple(seats))
        case "game_started":
            table = replace(table, status="active")
        case "turn_timed_out":
            counts = list(table.timeouts_in_row)
            seat = ev.data["seat"]
            # The `away` ruling marks the seat away at the first timeout.
            counts[seat] = max(counts[seat] + 1, AWAY_AFTER_TIMEOUTS) \
                if ev.data.get("away") else counts[seat] + 1
            table = replace(table, timeouts_in_row=tuple(counts))
        case "seat_returned":
            counts = list(table.timeouts_in_row)
            counts[ev.data["seat"]] = 0
            table = replace(table, timeouts_in_row=tuple(counts))
        case "game_finished":
            table = replace(table, status="finished", seed=ev.data["seed"],
                            outcome=ev.data["outcome"], ended_at=ev.at)
        case "game_cancelled":
            table = replace(table, status="cancelled", ended_at=ev.at)
        case "rematch_created":
            table = replace(table, rematch=ev.data["game"])
        case "seat_resigned" | "seat_left":
            seat = ev.data["seat"]
            seats = list(table.seats)
            if ev.type == "seat_resigned":
                seats[seat] = replace(seats[seat], resigned=True, played_by="basic")
            else:
                seats[seat] = replace(seats[seat], left=True, played_by=ev.data["level"])
            table = replace(table, seats=tuple(seats),
                            abort_votes=tuple(v for v in table.abort_votes if v != seat))
        case "abort_voted":
            table = replace(table, abort_votes=tuple(sorted({*table.abort_votes,
                                                             ev.data["seat"]})))
        case "abort_vote_withdrawn":
            table = replace(table, abort_votes=tuple(v for v in table.abort_votes
                                                     if v != ev.data["seat"]))
        case "game_aborted":
            table = replace(table, status="aborted", ended_at=ev.at)
        case "forced_moves_set":
            seat = ev.data["seat"]
            others = [s for s in table.auto_forced if s != seat]
            table = replace(table, auto_forced=tuple(sorted(
                [*others, seat] if ev.data["auto"] else others)))
        case "vacation_started":
            seat, until = ev.data["seat"], ev.data["until"]
            table = replace(table, vacation_until={**table.vacation_until, seat: until},
                            clocks=clocks.stop_for_vacation(table.clocks, seat, ev.at, until)
                            if table.clock is not None else table.clocks)
        case "vacation_ended":
            seat = ev.data["seat"]
            table = replace(table, vacation_until={s: u for s, u in table.vacation_until.items()
                                                   if s != seat},
                            clocks=clocks.resume(table.clocks, seat, ev.at)
                            if table.clock is not None else table.clocks)
    return table


def evolve_envelope(table: Table, ev: Event) -> Table:
    """Apply one event to a table read without its game state (`decode_envelope`): its
    own facts, its version and time. Who is to act since when (`waiting_since`) follows
    from the game's state and is left as it was: a reader that needs it folds the whole
    table (`evolve_table`)."""
    if ev.type in TABLE_EVENTS and ev.type != "game_created":
        table = table_facts(table, ev)
    return msgspec.structs.replace(table, version=ev.seq, last_hash=ev.hash,
                                   updated_at=ev.at)


def _track_waiting(table: Table, ev: Event, game: Game[Any, Any]) -> Table:
    """Keep, for each seat to act, the time it started waiting: deadlines derive from it."""
    if table.status != "active":
        waiting: dict[int, float] = {}
    else:
        acting = game.to_act(table.game)
        waiting = {s: table.waiting_since.get(s, ev.at) for s in acting}
        if ev.actor is not None and ev.actor in waiting and ev.type not in TABLE_EVENTS:
            # A seat that acted and must act again (e.g. Trash's chained choices) keeps
            # its clock running from its new action, not from when it first waited.
            waiting[ev.actor] = ev.at
    if table.clock is not None:
        running = [s for s in waiting if table.seats[s].bot_level is None]
        acted = ev.actor if ev.type not in TABLE_EVENTS else None
        table = msgspec.structs.replace(table, clocks=clocks.run(
            table.clock, table.clocks, ev.at, running, acted, table.vacation_until))
    return msgspec.structs.replace(table, waiting_since=waiting, version=ev.seq,
                                   last_hash=ev.hash, updated_at=ev.at)


def ruled_outcome(table: Table, outcome: Outcome, early: bool = False) -> dict[str, Any]:
    """The game's result as the table records it: seats whose player resigned or left
    (`conceded`) placed behind every seat in play, sharing the last place; `early` when
    the game ended before its own end (nothing left to play for)."""
    conceded = [i for i, s in enumerate(table.seats) if not s.in_play]
    if conceded:
        ranks = [(1, 0) if i in conceded else (0, p) for i, p in enumerate(outcome.places)]
        outcome = msgspec.structs.replace(outcome, places=places(ranks, lower_is_better=True),
                                          conceded=conceded)
    if early:
        outcome = msgspec.structs.replace(outcome, early=True)
    result: dict[str, Any] = msgspec.to_builtins(outcome)
    return result


def to_act(table: Table, game: Game[Any, Any]) -> frozenset[int]:
    if table.status != "active":
        return frozenset()
    return game.to_act(table.game)


# Snapshots: the table with its game state, decoded in two steps because the game state's
# type depends on the game. A take-back's table before the action is not written (see
# `Undo`): its marks only (seat, first, last), some 30 bytes.
class _RawTable(Table, frozen=True, kw_only=True):
    game: msgspec.Raw = msgspec.Raw(b"null")  # type: ignore[assignment]


_encoder = msgspec.json.Encoder()
_raw_decoder = msgspec.json.Decoder(_RawTable)


def encode_table(table: Table) -> bytes:
    undo = table.undo
    if undo is not None and undo.before is not None:
        table = msgspec.structs.replace(table, undo=msgspec.structs.replace(undo, before=None))
    return _encoder.encode(table)


def decode_envelope(raw: bytes) -> Table:
    """The table without its game state (left undecoded, a `msgspec.Raw`): enough for
    what lists games by their seats, status and clocks, at a fraction of the cost."""
    return _raw_decoder.decode(raw)


def decode_table(raw: bytes, games: Any) -> Table:
    """`games` maps a game id to its game object (the registry)."""
    partial = _raw_decoder.decode(raw)
    fields = {f: getattr(partial, f) for f in Table.__struct_fields__}
    state = None
    if bytes(partial.game) != b"null":
        state = msgspec.json.decode(partial.game, type=games[partial.type].state_type)
    fields["game"] = state
    return Table(**fields)
