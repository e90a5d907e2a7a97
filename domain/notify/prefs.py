"""A player's notification preferences, and what they say about a moment.

- `channels`: `email` and/or `push` (none: nothing is sent; the stream still has it all);
- `kinds`: what is worth a message: `my_turn` (and `seat_taken_over`), `deadline_soon`,
  `invitations` (`invited`, `game_started`), `results` (`game_finished`), `chat`
  (`message`);
- `digest_hours`: 0 sends each e-mail at once (one per round of the notifier); N sends at
  most one e-mail per N hours, listing every game where it is the player's turn and what
  happened since the last one;
- `quiet_hours`: `{start, end}` (`HH:MM`, in `time_zone`, an IANA name): nothing is sent
  then, and what waited goes out once they end. Web Push is never batched: each entry is
  one push (a newer one of the same game replaces an unread older one, `Topic`).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

import msgspec

CHANNELS = ("email", "push")
KINDS = ("my_turn", "deadline_soon", "invitations", "results", "chat")
# The stream's entry types each kind covers.
ENTRY_KINDS = {"my_turn": "my_turn", "seat_taken_over": "my_turn",
               "deadline_soon": "deadline_soon", "invited": "invitations",
               "game_started": "invitations", "game_finished": "results", "message": "chat"}
MAX_DIGEST_HOURS = 168
CLOCK_PATTERN = r"^([01][0-9]|2[0-3]):([0-5][0-9])$"  # HH:MM, a time of day
_CLOCK = re.compile(CLOCK_PATTERN)


class BadPreferences(ValueError):
    """Preferences that cannot be kept; the message says why."""


class QuietHours(msgspec.Struct, frozen=True):
    start: str  # HH:MM
    end: str  # HH:MM


class Preferences(msgspec.Struct, frozen=True, kw_only=True):
    channels: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ("my_turn", "deadline_soon", "invitations")
    digest_hours: int = 0
    quiet_hours: QuietHours | None = None
    time_zone: str = "UTC"

    def wants(self, entry_type: str) -> bool:
        return ENTRY_KINDS.get(entry_type) in self.kinds

    def shown(self) -> dict[str, Any]:
        out: dict[str, Any] = msgspec.to_builtins(self)
        out["channels"], out["kinds"] = list(self.channels), list(self.kinds)
        return out


def preferences(raw: dict[str, Any]) -> Preferences:
    """Checked preferences from what a player sent (BadPreferences says what is wrong)."""
    channels = tuple(c for c in CHANNELS if c in raw.get("channels", ()))
    kinds = tuple(k for k in KINDS if k in raw.get("kinds", Preferences().kinds))
    zone = raw.get("time_zone") or "UTC"
    if not _known_zone(zone):
        raise BadPreferences(f"{zone!r} is not an IANA time zone (e.g. Europe/Berlin)")
    quiet = raw.get("quiet_hours")
    if quiet is not None:
        for end in ("start", "end"):
            if not _CLOCK.match(str(quiet.get(end, ""))):
                raise BadPreferences(f"quiet_hours.{end} is a time of day, HH:MM")
        if quiet["start"] == quiet["end"]:
            raise BadPreferences("quiet hours that start when they end are none: send null")
        quiet = QuietHours(quiet["start"], quiet["end"])
    hours = int(raw.get("digest_hours", 0))
    if not 0 <= hours <= MAX_DIGEST_HOURS:
        raise BadPreferences(f"digest_hours is 0 (at once) to {MAX_DIGEST_HOURS}")
    return Preferences(channels=channels, kinds=kinds, digest_hours=hours,
                       quiet_hours=quiet, time_zone=zone)


def quiet_until(prefs: Preferences, now: float) -> float | None:
    """When the player's quiet hours end, if `now` is inside them; else None."""
    if prefs.quiet_hours is None:
        return None
    zone = ZoneInfo(prefs.time_zone)
    local = dt.datetime.fromtimestamp(now, zone)
    start, end = (_minutes(prefs.quiet_hours.start), _minutes(prefs.quiet_hours.end))
    minute = local.hour * 60 + local.minute
    inside = start <= minute < end if start < end else (minute >= start or minute < end)
    if not inside:
        return None
    ends = local.replace(hour=end // 60, minute=end % 60, second=0, microsecond=0)
    if ends <= local:
        ends += dt.timedelta(days=1)
    # Wall-clock arithmetic in the zone: a change of daylight saving time moves the end
    # as the player's own clock does.
    return ends.replace(tzinfo=None).replace(tzinfo=zone).timestamp()


def _minutes(clock: str) -> int:
    hours, minutes = clock.split(":")
    return int(hours) * 60 + int(minutes)


def _known_zone(name: str) -> bool:
    if len(name) > 64 or name not in _zones():
        return False
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


_ZONES: set[str] = set()


def _zones() -> set[str]:
    if not _ZONES:
        _ZONES.update(available_timezones())
        _ZONES.add("UTC")
    return _ZONES


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(Preferences)


def encode_prefs(prefs: Preferences) -> bytes:
    return _encoder.encode(prefs)


def decode_prefs(raw: bytes) -> Preferences:
    return _decoder.decode(raw)
