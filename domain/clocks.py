"""A game's clock: a deadline per move, a correspondence time bank per seat, or none.

A game's time control is chosen at its creation and recorded in `game_created`:

- `per_move` — every waiting seat has `deadline_s` seconds from when it started waiting
  (`Table.waiting_since`); the deadline of the first play-by-post games, kept as it was;
- `correspondence` — each seat has a bank of `bank_s` seconds that runs only while the
  game waits for that seat (in a simultaneous phase, for every seat that must decide);
  when the seat's turn passes the bank gets `increment_s` more, never above `bank_s`.
  With `vacation`, a player's vacation stops their banks (`vacation_started`, whose
  `until` the bank waits for; `vacation_ended` when they come back early);
- `none` — no clock (friendly games).

When a clock runs out the table's `on_timeout` ruling applies: `autoplay` (the basic bot
plays the move; two in a row and the seat is marked away) or `away` (the seat is marked
away at once and played by the bot until its owner acts again), both written as
`turn_timed_out`.

A correspondence clock is folded from the log like everything else (`run` after every
event): each seat's bank as it stood when it last stopped or started running, and when it
started running. So a deadline is `running_since + bank`, the same for the process that
wrote the move, the worker that starts later and a replay of the log: a restart neither
adds nor removes time.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

KINDS = ("per_move", "correspondence", "none")
DAY_S = 24 * 3600.0


class Correspondence(msgspec.Struct, frozen=True, kw_only=True):
    """A correspondence time control: the bank each seat starts with (and its cap), the
    increment a seat's bank gets each time its turn passes, and whether the players'
    vacations stop the clocks."""

    bank_s: float
    increment_s: float = 0.0
    vacation: bool = True


class SeatClock(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One seat's correspondence clock: `bank` seconds left as of `since` (None: not
    running now; a `since` in the future: stopped until then, by a vacation)."""

    bank: float
    since: float | None = None


def time_control(requested: Mapping[str, Any] | None,
                 deadline_s: float | None) -> tuple[float | None, Correspondence | None]:
    """The table's `deadline_s` and correspondence control for a requested time control
    (`{"kind": …, "deadline_s" | "bank_s", "increment_s", "vacation"}`; None: a deadline
    per move of `deadline_s`, none if that is None, as before time controls existed);
    ValueError with the reason when it does not hold together."""
    if requested is None:
        return deadline_s, None
    kind = requested.get("kind")
    deadline_s = requested.get("deadline_s", deadline_s)
    bank_s, increment_s = requested.get("bank_s"), requested.get("increment_s")
    vacation = bool(requested.get("vacation", True))
    if kind not in KINDS:
        raise ValueError(f"time_control must be one of {', '.join(KINDS)}")
    if kind == "none":
        return None, None
    if kind == "per_move":
        if deadline_s is None:
            raise ValueError("a per_move time control needs deadline_s")
        return deadline_s, None
    if bank_s is None:
        raise ValueError("a correspondence time control needs bank_s")
    increment = increment_s or 0.0
    if increment > bank_s:
        raise ValueError("increment_s may not exceed bank_s (the bank's cap)")
    return None, Correspondence(bank_s=bank_s, increment_s=increment, vacation=vacation)


def describe(deadline_s: float | None, control: Correspondence | None) -> dict[str, Any]:
    """The time control as views and listings show it."""
    if control is not None:
        return {"kind": "correspondence", "bank_s": control.bank_s,
                "increment_s": control.increment_s, "vacation": control.vacation}
    if deadline_s is None:
        return {"kind": "none"}
    return {"kind": "per_move", "deadline_s": deadline_s}


def start_clocks(control: Correspondence, seats: int) -> tuple[SeatClock, ...]:
    return tuple(SeatClock(bank=control.bank_s) for _ in range(seats))


def run(control: Correspondence, clocks: tuple[SeatClock, ...], at: float,
        running: Iterable[int], acted: int | None,
        vacation_until: Mapping[int, float]) -> tuple[SeatClock, ...]:
    """The clocks after an event at `at` that leaves `running` the seats whose clock runs
    (waiting for a person), `acted` the seat whose action it was (None: not an action).

    A clock that stops, or whose seat acted, is charged the time it ran (never below
    zero: a worker that fires late does not take the lateness from the seat); a seat
    whose turn passed gets the increment, up to the bank's size; a clock that starts
    runs from now, or from the end of its seat's vacation."""
    now_running = set(running)
    out = list(clocks)
    for seat, clock in enumerate(clocks):
        if clock.since is not None and (seat not in now_running or seat == acted):
            bank = max(0.0, clock.bank - max(0.0, at - clock.since))
            if seat == acted and seat not in now_running:
                bank = min(bank + control.increment_s, control.bank_s)
            out[seat] = SeatClock(bank=bank)
        if seat in now_running and out[seat].since is None:
            out[seat] = SeatClock(bank=out[seat].bank,
                                  since=max(at, vacation_until.get(seat, at)))
    return tuple(out)


def stop_for_vacation(clocks: tuple[SeatClock, ...], seat: int, at: float,
                      until: float) -> tuple[SeatClock, ...]:
    """The seat's clock, if running, is charged up to `at` and waits until `until`."""
    clock = clocks[seat]
    if clock.since is None:
        return clocks
    bank = max(0.0, clock.bank - max(0.0, at - clock.since))
    out = list(clocks)
    out[seat] = SeatClock(bank=bank, since=max(until, clock.since))
    return tuple(out)


def resume(clocks: tuple[SeatClock, ...], seat: int, at: float) -> tuple[SeatClock, ...]:
    """The seat's vacation ended at `at`: a clock waiting for it runs from now."""
    clock = clocks[seat]
    if clock.since is None or clock.since <= at:
        return clocks
    out = list(clocks)
    out[seat] = SeatClock(bank=clock.bank, since=at)
    return tuple(out)


def left(clock: SeatClock, now: float) -> float:
    """Seconds left on a clock at `now`."""
    if clock.since is None:
        return clock.bank
    return max(0.0, clock.bank - max(0.0, now - clock.since))
