"""What the workers owe a table now: a bot's turn, an away seat's move, or a deadline.

Everything derives from the table (its seats, who is to act and since when, `deadline_s`,
`bot_delay_s`), so the hooks after an append and the rebuild when a worker starts plan the
very same jobs, with the very same ids, from the stored state alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, cast

from domain.game import Game
from domain.table import Table, to_act

DutyKind = Literal["bot", "away", "deadline"]
KINDS: tuple[DutyKind, ...] = ("bot", "away", "deadline")


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
    """The jobs `table` needs at its current version, one per seat to act (if any)."""
    if table.status != "active":
        return []
    out: list[Duty] = []
    for seat in sorted(to_act(table, game)):
        since = table.waiting_since.get(seat, table.updated_at)
        deadline = table.deadline(seat)
        if table.seats[seat].bot_level is not None:  # a bot seat, or one given up to a bot
            out.append(Duty("bot", table.id, table.version, seat, since + table.bot_delay_s))
        elif table.is_away(seat):
            out.append(Duty("away", table.id, table.version, seat, since))
        elif deadline is not None:
            out.append(Duty("deadline", table.id, table.version, seat, deadline))
    return out
