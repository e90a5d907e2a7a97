"""The players' clock settings (`domain.players.clock_settings`): the `PlayerClockStore`
port, and its Redis and in-memory implementations (one contract test).

In Redis a player's settings are one hash in the player's slot (`<player key>:clock`);
starting and ending a vacation are one script each, so two requests at once never both
start one, and the days used are counted once.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Protocol

import msgspec
import redis

import domain.store.keys as keys
from domain.players.clock_settings import ClockSettings, days_given_back

STARTED, RUNNING, ALLOWANCE = "started", "running", "allowance"
ENDED, NONE = "ended", "none"


class PlayerClockStore(Protocol):
    def settings(self, player_ids: Sequence[str]) -> list[ClockSettings]:
        """Each player's settings (the defaults for one who never set any)."""
        ...

    def set_auto_forced(self, player_id: str, auto: bool) -> None: ...

    def start_vacation(self, player_id: str, now: float, days: int, year: int,
                       allowance: int) -> tuple[str, ClockSettings]:
        """In one step: unless a vacation runs at `now` (RUNNING) or `days` more than the
        year's `allowance` would be used (ALLOWANCE), start one of `days` days (STARTED).
        Returns what happened and the settings after it."""
        ...

    def end_vacation(self, player_id: str, now: float) -> tuple[str, ClockSettings]:
        """In one step: end the vacation running at `now` (ENDED), giving back its whole
        days not begun; NONE if none runs."""
        ...


def clock_key(player_id: str) -> str:
    return f"{keys.player(player_id)}:clock"


_FIELDS = ("auto_forced", "year", "used", "start", "until")
_START = """
local f = redis.call('HMGET', KEYS[1], 'year', 'used', 'until')
local now, days, year = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local used = tonumber(f[2]) or 0
if (tonumber(f[3]) or 0) > now then return RUNNING end
if (tonumber(f[1]) or 0) ~= year then used = 0 end
if used + days > tonumber(ARGV[4]) then return ALLOWANCE end
redis.call('HSET', KEYS[1], 'year', ARGV[3], 'used', tostring(used + days),
           'start', ARGV[1], 'until', ARGV[5])
return STARTED
"""
_END = """
local f = redis.call('HMGET', KEYS[1], 'used', 'until')
local now, untl = tonumber(ARGV[1]), tonumber(f[2]) or 0
if untl <= now then return NONE end
local back = math.floor((untl - now) / tonumber(ARGV[2]))
redis.call('HSET', KEYS[1], 'used', tostring(math.max(0, (tonumber(f[1]) or 0) - back)),
           'until', ARGV[1])
return ENDED
"""


def _script(source: str) -> str:
    for word in (STARTED, RUNNING, ALLOWANCE, ENDED, NONE):
        source = source.replace(word.upper(), f"'{word}'")
    return source


class RedisPlayerClockStore:
    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self._start = client.register_script(_script(_START))
        self._end = client.register_script(_script(_END))

    def settings(self, player_ids: Sequence[str]) -> list[ClockSettings]:
        if not player_ids:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.hmget(clock_key(player_id), *_FIELDS)
        return [_settings(found) for found in pipe.execute()]

    def set_auto_forced(self, player_id: str, auto: bool) -> None:
        self.redis.hset(clock_key(player_id), "auto_forced", int(auto))

    def start_vacation(self, player_id: str, now: float, days: int, year: int,
                       allowance: int) -> tuple[str, ClockSettings]:
        until = now + days * 86400.0
        outcome = self._start(keys=[clock_key(player_id)],
                              args=[repr(now), days, year, allowance, repr(until)])
        return outcome.decode(), self.settings([player_id])[0]

    def end_vacation(self, player_id: str, now: float) -> tuple[str, ClockSettings]:
        outcome = self._end(keys=[clock_key(player_id)], args=[repr(now), 86400])
        return outcome.decode(), self.settings([player_id])[0]


def _settings(found: list[bytes | None]) -> ClockSettings:
    auto, year, used, start, until = found
    return ClockSettings(auto_forced=auto == b"1", year=int(year or 0), used=int(used or 0),
                         start=float(start or 0), until=float(until or 0))


class MemoryPlayerClockStore:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._settings: dict[str, ClockSettings] = {}

    def settings(self, player_ids: Sequence[str]) -> list[ClockSettings]:
        with self._lock:
            return [self._settings.get(p, ClockSettings()) for p in player_ids]

    def set_auto_forced(self, player_id: str, auto: bool) -> None:
        with self._lock:
            now = self._settings.get(player_id, ClockSettings())
            self._settings[player_id] = msgspec.structs.replace(now, auto_forced=auto)

    def start_vacation(self, player_id: str, now: float, days: int, year: int,
                       allowance: int) -> tuple[str, ClockSettings]:
        with self._lock:
            mine = self._settings.get(player_id, ClockSettings())
            if mine.until > now:
                return RUNNING, mine
            used = mine.used_in(year)
            if used + days > allowance:
                return ALLOWANCE, mine
            mine = msgspec.structs.replace(mine, year=year, used=used + days, start=now,
                                           until=now + days * 86400.0)
            self._settings[player_id] = mine
            return STARTED, mine

    def end_vacation(self, player_id: str, now: float) -> tuple[str, ClockSettings]:
        with self._lock:
            mine = self._settings.get(player_id, ClockSettings())
            if mine.until <= now:
                return NONE, mine
            used = max(0, mine.used - days_given_back(mine.until, now))
            mine = msgspec.structs.replace(mine, used=used, until=now)
            self._settings[player_id] = mine
            return ENDED, mine
