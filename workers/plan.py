"""What the workers owe a table now: a bot's turn, an away seat's move, or a deadline.

Everything derives from the table (its seats, who is to act and since when, `deadline_s`,
`bot_delay_s`), so the hooks after an append and the rebuild when a worker starts plan the
very same jobs, with the very same ids, from the stored state alone.

A bot's turn is a `strong` or `expert` duty when the bot searches (up to its level's budget:
~0.75 s, a few seconds) and a `bot` duty otherwise (milliseconds): they go to different
queues, so that a quick bot's reply never waits behind other games' slow ones. A table gets
at most one turn played for it (a bot's or an away seat's) at a time: a job acts only at
the version it was planned for, so where several such seats may act at once (a simultaneous
phase) all but the first would be dropped after their work, and a table of slow bots would
fill the queue with them. The next seat's turn is planned when the first one's move is
appended.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, cast

from domain.game import Game
from domain.table import Table, to_act

DutyKind = Literal["bot", "strong", "expert", "away", "deadline", "soon"]
# `soon`: warn a player that 80 % of their time to move has gone (`workers.hooks`).
KINDS: tuple[DutyKind, ...] = ("bot", "strong", "expert", "away", "deadline", "soon")
# Bot levels whose move takes their budget: each has a duty (and a queue) of its own.
SEARCHING_LEVELS: dict[str, DutyKind] = {"strong": "strong", "expert": "expert"}


@dataclass(frozen=True)
class Duty:
    """One job a table needs: act for `seat` of game `game_id` at `version`, from `due` on."""

    kind: DutyKind
    game_id: str
    version: int
    seat: int
    due: float  # epoch seconds

    @property
    def job_id(self) -> str:
        # RQ job ids allow letters, digits, "_" and "-"; game ids are URL-safe base64.
        return f"{self.kind}-{self.game_id}-v{self.version}-s{self.seat}"

    @classmethod
    def from_job_id(cls, job_id: str, due: float) -> Duty:
        kind, rest = job_id.split("-", 1)
        game_id, version, seat = rest.rsplit("-", 2)  # a game id may hold "-" itself
        if kind not in KINDS or version[:1] != "v" or seat[:1] != "s":
            raise ValueError(f"not a duty's job id: {job_id!r}")
        return cls(cast(DutyKind, kind), game_id, int(version[1:]), int(seat[1:]), due)


def duties(table: Table, game: Game[Any, Any]) -> list[Duty]:
    """The jobs `table` needs at its current version: one per waiting human with a
    deadline, and one turn played for it (the first bot or away seat to act), if any."""
    if table.status != "active":
        return []
    out: list[Duty] = []
    played_for = False
    for seat in sorted(to_act(table, game)):
        since = table.waiting_since.get(seat, table.updated_at)
        deadline = table.deadline(seat)
        kind = seat_duty(table, seat)
        if kind != "deadline":
            if not played_for:
                delay = table.bot_delay_s if kind != "away" else 0.0
                out.append(Duty(kind, table.id, table.version, seat, since + delay))
                played_for = True
        elif deadline is not None:
            out.append(Duty("deadline", table.id, table.version, seat, deadline))
    return out


def seat_duty(table: Table, seat: int) -> DutyKind:
    """What the workers do for `seat` when it is to act (`deadline`: wait for its owner)."""
    level = table.seats[seat].bot_level  # a bot seat, or one its player resigned or left
    if level is not None:
        return SEARCHING_LEVELS.get(level, "bot")
    return "away" if table.is_away(seat) else "deadline"
