"""The event store: one Redis stream per game, appended by one Lua script.

Keys of a game share the hash tag `{<id>}` so the script stays legal on Redis Cluster:
- `game:{id}:events`  stream; entry id `0-<seq>` makes the stream its own version counter
- `game:{id}:snap`    the table after the last event (written by the same script)
- `game:{id}:ckpt`    hash seq -> table after that seq, every CHECKPOINT_EVERY events (replay)
- `game:{id}:idem:<k>` the first answer to an idempotent request (SET NX EX)
- `game:{id}:tokens`  hash sha256(token) -> seat
- `game:{id}:secret`  the game's seed until it is revealed
Listing indexes (`games:*`) live outside the game's slot and are written after the append.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import msgspec
import redis

from domain import events as ev_codec
from domain.errors import VersionConflict
from domain.events import Event

CHECKPOINT_EVERY = 128
IDEMPOTENCY_TTL_S = 24 * 3600
# The longest single blocking read: below the Redis client's socket timeout.
MAX_BLOCK_S = 2.0

_APPEND = """
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local version = 0
if #last > 0 then version = tonumber(string.sub(last[1][1], 3)) end
if KEYS[5] ~= KEYS[1] then
  local first = redis.call('GET', KEYS[5])
  if first then return {'duplicate', first} end
end
if version ~= tonumber(ARGV[1]) then return {'conflict', tostring(version)} end
local n = tonumber(ARGV[2])
for i = 1, n do
  redis.call('XADD', KEYS[1], '0-' .. (version + i), 'e', ARGV[9 + i])
end
redis.call('SET', KEYS[2], ARGV[3])
if ARGV[4] ~= '' then redis.call('HSET', KEYS[3], ARGV[4], ARGV[5]) end
if ARGV[6] ~= '' then redis.call('HSET', KEYS[4], ARGV[6], ARGV[7]) end
if KEYS[5] ~= KEYS[1] then redis.call('SET', KEYS[5], ARGV[8], 'EX', ARGV[9]) end
return {'ok', tostring(version + n)}
"""


def _key(game_id: str, what: str) -> str:
    return f"game:{{{game_id}}}:{what}"


class AppendResult(msgspec.Struct, frozen=True):
    version: int
    duplicate: bytes | None = None  # the first answer, when an idempotency key was re-used


class RedisEventStore:
    """Events, snapshots and per-game secrets in Redis (>= 6.2)."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self._append = client.register_script(_APPEND)

    # --- writing -------------------------------------------------------------------------
    def append(self, game_id: str, expected_version: int, events: list[Event], snapshot: bytes,
               checkpoint: tuple[int, bytes] | None = None,
               token: tuple[str, int] | None = None,
               idempotency: tuple[str, bytes] | None = None) -> AppendResult:
        """Append stamped events if the game is still at `expected_version`.

        In the same atomic step: the snapshot, an optional replay checkpoint, an optional
        seat token hash (a join), and the idempotency record. Raises VersionConflict when
        someone else appended first; returns the first answer instead when the idempotency
        key was already used."""
        stream = _key(game_id, "events")
        idem_key = _key(game_id, f"idem:{idempotency[0]}") if idempotency else stream
        args: list[Any] = [
            expected_version, len(events), snapshot,
            str(checkpoint[0]) if checkpoint else "", checkpoint[1] if checkpoint else b"",
            token[0] if token else "", token[1] if token else 0,
            idempotency[1] if idempotency else b"", IDEMPOTENCY_TTL_S,
        ]
        args.extend(ev_codec.encode(e) for e in events)
        keys = [stream, _key(game_id, "snap"), _key(game_id, "ckpt"), _key(game_id, "tokens"),
                idem_key]
        status, value = self._append(keys=keys, args=args)
        if status == b"duplicate":
            return AppendResult(version=expected_version, duplicate=value)
        if status == b"conflict":
            raise VersionConflict(expected_version, int(value))
        return AppendResult(version=int(value))

    def save_secrets(self, game_id: str, seed: str) -> None:
        self.redis.set(_key(game_id, "secret"), seed)

    def seed(self, game_id: str) -> str | None:
        raw = self.redis.get(_key(game_id, "secret"))
        return raw.decode() if raw is not None else None

    def seat_for_token(self, game_id: str, token_hash: str) -> int | None:
        raw = self.redis.hget(_key(game_id, "tokens"), token_hash)
        return int(raw) if raw is not None else None

    def first_answer(self, game_id: str, idem_key: str) -> bytes | None:
        return self.redis.get(_key(game_id, f"idem:{idem_key}"))

    # --- reading -------------------------------------------------------------------------
    def snapshot(self, game_id: str) -> bytes | None:
        return self.redis.get(_key(game_id, "snap"))

    def read_table(self, game_id: str, token_hash: str | None = None,
                   with_seed: bool = False) -> tuple[bytes | None, int | None, str | None]:
        """The snapshot, the seat `token_hash` names and (if asked) the seed, in one round
        trip: every request starts with this read, and round trips are what a move costs."""
        if token_hash is None and not with_seed:
            return self.redis.get(_key(game_id, "snap")), None, None
        pipe = self.redis.pipeline(transaction=False)
        pipe.get(_key(game_id, "snap"))
        if token_hash is not None:
            pipe.hget(_key(game_id, "tokens"), token_hash)
        if with_seed:
            pipe.get(_key(game_id, "secret"))
        found = iter(pipe.execute())
        snap = next(found)
        seat = next(found) if token_hash is not None else None
        seed = next(found) if with_seed else None
        return (snap, int(seat) if seat is not None else None,
                seed.decode() if seed is not None else None)

    def checkpoint_at_or_before(self, game_id: str, seq: int) -> tuple[int, bytes] | None:
        at = seq - seq % CHECKPOINT_EVERY
        if at <= 0:
            return None
        raw = self.redis.hget(_key(game_id, "ckpt"), str(at))
        return (at, raw) if raw is not None else None

    def read(self, game_id: str, after: int = 0, until: int | None = None,
             count: int | None = None) -> list[Event]:
        end = f"0-{until}" if until is not None else "+"
        entries = self.redis.xrange(_key(game_id, "events"), f"(0-{after}", end, count=count)
        return _decode_entries(entries)

    def wait(self, game_id: str, after: int, timeout_s: float,
             count: int | None = None) -> list[Event]:
        """Events after `after`, waiting up to `timeout_s` for the first one (long-poll).

        The wait is cut into blocks of at most `MAX_BLOCK_S`: the client's socket timeout
        (redis-py's default is 5 s) would otherwise end a longer XREAD with an error."""
        stream = _key(game_id, "events")
        deadline = time.monotonic() + timeout_s
        while True:
            block_s = min(MAX_BLOCK_S, max(deadline - time.monotonic(), 0.001))
            found = self.redis.xread({stream: f"0-{after}"}, count=count,
                                     block=max(1, int(block_s * 1000)))
            if found:
                return _decode_entries(found[0][1])
            if time.monotonic() >= deadline:
                return []

    def snapshots(self, game_ids: Sequence[str]) -> list[bytes | None]:
        """The snapshots of several games in one round trip (None for an unknown game)."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.get(_key(game_id, "snap"))
        return list(pipe.execute())

    def exists(self, game_id: str) -> bool:
        return bool(self.redis.exists(_key(game_id, "snap")))

    # --- listing indexes (outside the game's slot, so written after the append) -----------
    def index(self, game_id: str, game_type: str, status: str, created_at: float) -> None:
        pipe = self.redis.pipeline(transaction=False)
        for s in ("open", "active", "finished"):
            if s != status:
                pipe.zrem(f"games:status:{s}", game_id)
        pipe.zadd(f"games:status:{status}", {game_id: created_at})
        pipe.zadd(f"games:type:{game_type}", {game_id: created_at})
        pipe.zadd("games:all", {game_id: created_at})
        pipe.execute()

    def scan_ids(self, status: str, batch: int = 500) -> Iterator[str]:
        """Every game id with `status`, without holding the index: a game that keeps its
        status during the scan is returned (once or, rarely, twice)."""
        for raw, _created in self.redis.zscan_iter(f"games:status:{status}", count=batch):
            yield raw.decode()

    def list_ids(self, status: str | None, game_type: str | None, offset: int,
                 limit: int) -> tuple[list[str], int]:
        keys = []
        if status:
            keys.append(f"games:status:{status}")
        if game_type:
            keys.append(f"games:type:{game_type}")
        if not keys:
            key = "games:all"
        elif len(keys) == 1:
            key = keys[0]
        else:
            # An intersection cached for a few seconds keeps paging consistent and cheap.
            key = f"games:q:{status}:{game_type}"
            if not self.redis.exists(key):
                pipe = self.redis.pipeline()
                pipe.zinterstore(key, keys, aggregate="MIN")
                pipe.expire(key, 5)
                pipe.execute()
        total = self.redis.zcard(key)
        if offset >= total:
            return [], total  # past the end; also keeps huge page numbers away from Redis
        ids = self.redis.zrevrange(key, offset, offset + limit - 1)
        return [i.decode() for i in ids], total


def _decode_entries(entries: Iterable[tuple[bytes, dict[bytes, bytes]]]) -> list[Event]:
    return [ev_codec.decode(fields[b"e"]) for _id, fields in entries]
