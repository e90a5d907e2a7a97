"""The log and its atomic append in Redis (>= 6.2): one stream per game, appended by one Lua
script (`GameLog`).

The script checks the expected version, appends, and writes the snapshot, the replay
checkpoint, the seat token and the idempotency record in one atomic step, and answers
with the game's webhook registrations (what the hooks after the append need) (key names:
`domain.store.keys`, every key of a game under its hash tag, so it stays legal on Redis
Cluster). On one server (not a cluster) the same step also applies the timer changes it is
given (the workers' deadlines, `TimerChanges`): the move's hooks then need no round trip
for them. Every read of a game is one round trip (a pipeline).

The client is one Redis server's or a Redis Cluster's (`domain.connection`): every script
names all its keys, in one slot (but for the append's timers, which only one server
takes). With `wait_replicas`, an append is followed by `WAIT` on the same connection, in
the same round trip, so that the move is acknowledged only once that many replicas hold
it (a failover then keeps it).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any

import redis
from redis.cluster import RedisCluster

import domain.store.keys as keys
from domain import events as ev_codec
from domain.errors import VersionConflict
from domain.events import Event
from domain.store.port import (
    CHECKPOINT_EVERY,
    IDEMPOTENCY_TTL_S,
    SNAPSHOT_EVERY,
    AppendResult,
    Idempotency,
    Stored,
    TimerChanges,
)
from domain.webhooks.registration import decode_registration

# The longest single blocking read: below the Redis client's socket timeout.
MAX_BLOCK_S = 2.0

# KEYS: the game's stream, snapshot, checkpoints, tokens, idempotency record (the stream's
# name when there is none) and webhooks; optionally (one server only) a sorted set of
# timers. ARGV: the expected version, the number of events n, the snapshot, the checkpoint
# (seq, table), the token (hash, seat), the idempotency record and its TTL, the notices'
# channel and the game id; then the n events; then, with the timers, how many members to
# drop, those members, and the score-member pairs to add.
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
  redis.call('XADD', KEYS[1], '0-' .. (version + i), 'e', ARGV[11 + i])
end
if ARGV[3] ~= '' then redis.call('SET', KEYS[2], ARGV[3]) end
if ARGV[4] ~= '' then redis.call('HSET', KEYS[3], ARGV[4], ARGV[5]) end
if ARGV[6] ~= '' then redis.call('HSET', KEYS[4], ARGV[6], ARGV[7]) end
if KEYS[5] ~= KEYS[1] then redis.call('SET', KEYS[5], ARGV[8], 'EX', ARGV[9]) end
if KEYS[7] then
  local at = 12 + n
  local drop = tonumber(ARGV[at])
  if drop > 0 then redis.call('ZREM', KEYS[7], unpack(ARGV, at + 1, at + drop)) end
  if #ARGV > at + drop then redis.call('ZADD', KEYS[7], unpack(ARGV, at + drop + 1)) end
end
redis.call('PUBLISH', ARGV[10], ARGV[11] .. ' ' .. (version + n))
return {'ok', tostring(version + n), redis.call('HVALS', KEYS[6])}
"""


# Delete a game's keys (KEYS[2..]) if its stream (KEYS[1]) is still at version ARGV[1].
_DELETE = """
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if #last == 0 then return 0 end
if tonumber(string.sub(last[1][1], 3)) ~= tonumber(ARGV[1]) then return 0 end
redis.call('DEL', unpack(KEYS))
return 1
"""


class RedisGameLog:
    """The `GameLog` port in Redis (a server, or a cluster). An append waits until
    `wait_replicas` replicas have it, at most `wait_timeout_ms` (0: it does not wait)."""

    def __init__(self, client: redis.Redis | RedisCluster, wait_replicas: int = 0,
                 wait_timeout_ms: int = 200) -> None:
        self.redis = client
        self.wait_replicas = wait_replicas
        self.wait_timeout_ms = wait_timeout_ms
        self._append = client.register_script(_APPEND)
        # A key outside the game's slot may join its append on one server only.
        self._one_server = not isinstance(client, RedisCluster)
        self._delete = client.register_script(_DELETE)

    def append(self, game_id: str, expected_version: int, events: list[Event],
               snapshot: bytes | None, checkpoint: tuple[int, bytes] | None = None,
               token: tuple[str, int] | None = None,
               idempotency: Idempotency | None = None,
               timers: TimerChanges | None = None) -> AppendResult:
        """See `EventStore.append`: one EVALSHA, whatever the batch. `timers` are applied
        on one server (the set is written in the store's database), never on a cluster
        (the set is in another slot than the game's)."""
        stream = keys.events(game_id)
        idem_key = keys.idempotency(game_id, idempotency.key) if idempotency else stream
        args: list[Any] = [
            expected_version, len(events), snapshot or b"",
            str(checkpoint[0]) if checkpoint else "", checkpoint[1] if checkpoint else b"",
            token[0] if token else "", token[1] if token else 0,
            _encode_record(idempotency) if idempotency else b"", IDEMPOTENCY_TTL_S,
            keys.APPENDED, game_id,
        ]
        args.extend(ev_codec.encode(e) for e in events)
        script_keys = [stream, keys.snapshot(game_id), keys.checkpoints(game_id),
                       keys.tokens(game_id), idem_key, keys.webhooks(game_id)]
        with_timers = timers is not None and self._one_server
        if with_timers:
            assert timers is not None
            script_keys.append(timers.key)
            args.append(len(timers.drop))
            args.extend(timers.drop)
            for member, due in timers.arm.items():
                args.extend((due, member))
        replicated = True
        if self.wait_replicas:
            answer, replicated = self._append_and_wait(stream, script_keys, args)
        else:
            answer = self._append(keys=script_keys, args=args)
        status, value, *found = answer
        if status == b"duplicate":
            assert idempotency is not None
            return AppendResult(version=expected_version,
                                duplicate=_decode_record(idempotency.key, value))
        if status == b"conflict":
            raise VersionConflict(expected_version, int(value))
        # The game's webhook registrations come back with the append (none: an empty
        # hash, which costs nothing), so that the webhook hooks read nothing themselves.
        return AppendResult(version=int(value), replicated=replicated, webhooks=sorted(
            (decode_registration(raw) for raw in found[0]), key=lambda r: r.created_at),
            timers_applied=with_timers)

    def _append_and_wait(self, stream: str, script_keys: list[str],
                         args: list[Any]) -> tuple[Any, bool]:
        """The append script, then `WAIT`, in one round trip on one connection (WAIT counts
        the replicas that have this connection's writes): the script's answer, and whether
        enough replicas confirmed it."""
        for _attempt in range(3):
            node = self.redis
            if isinstance(node, RedisCluster):  # the connection must be the game's node's
                node = node.get_redis_connection(node.get_node_from_key(stream))
            pipe = node.pipeline(transaction=False)
            pipe.execute_command("EVALSHA", self._append.sha, len(script_keys),
                                 *script_keys, *args)
            pipe.execute_command("WAIT", self.wait_replicas, self.wait_timeout_ms)
            answer, acknowledged = pipe.execute(raise_on_error=False)
            # The script did not run in these cases: load it, or learn where the game's
            # slot went (the cluster client follows MOVED by itself, this bypasses it).
            if isinstance(answer, redis.exceptions.NoScriptError):
                node.script_load(_APPEND)
                continue
            if isinstance(answer, redis.exceptions.MovedError) and \
                    isinstance(self.redis, RedisCluster):
                self.redis.nodes_manager.initialize()
                continue
            for found in (answer, acknowledged):
                if isinstance(found, Exception):
                    raise found
            return answer, int(acknowledged) >= self.wait_replicas
        raise redis.exceptions.TryAgainError("the append could not reach the game's node")

    def read_table(self, game_id: str, token_hash: str | None = None,
                   with_seed: bool = False) -> tuple[Stored | None, int | None, str | None]:
        """See `EventStore.read_table`: one pipeline (one round trip)."""
        pipe = self.redis.pipeline(transaction=False)
        _read_stored(pipe, game_id)
        if token_hash is not None:
            pipe.hget(keys.tokens(game_id), token_hash)
        if with_seed:
            pipe.get(keys.secret(game_id))
        found = iter(pipe.execute())
        stored = _stored(next(found), next(found))
        seat = next(found) if token_hash is not None else None
        seed = next(found) if with_seed else None
        return (stored, int(seat) if seat is not None else None,
                seed.decode() if seed is not None else None)

    def read_after(self, game_id: str, version: int, token_hash: str | None = None,
                   with_seed: bool = False) -> tuple[list[Event] | None, int | None,
                                                     str | None]:
        """See `EventStore.read_after`: one pipeline; the snapshot's existence stands for
        the game's (a game deleted by retention loses it with its log)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.exists(keys.snapshot(game_id))
        pipe.xrange(keys.events(game_id), f"(0-{version}", "+", count=SNAPSHOT_EVERY)
        if token_hash is not None:
            pipe.hget(keys.tokens(game_id), token_hash)
        if with_seed:
            pipe.get(keys.secret(game_id))
        found = iter(pipe.execute())
        exists, entries = next(found), next(found)
        seat = next(found) if token_hash is not None else None
        seed = next(found) if with_seed else None
        newer = _decode_entries(entries) if exists and len(entries) < SNAPSHOT_EVERY else None
        return (newer, int(seat) if seat is not None else None,
                seed.decode() if seed is not None else None)

    def snapshots(self, game_ids: Sequence[str]) -> list[Stored | None]:
        """The stored tables of several games in one round trip (None: unknown game)."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            _read_stored(pipe, game_id)
        found = pipe.execute()
        return [_stored(snap, tail) for snap, tail in zip(found[::2], found[1::2], strict=True)]

    def first_answer(self, game_id: str, idem_key: str) -> Idempotency | None:
        raw = self.redis.get(keys.idempotency(game_id, idem_key))
        return _decode_record(idem_key, raw) if raw is not None else None

    def checkpoint_at_or_before(self, game_id: str, seq: int) -> tuple[int, bytes] | None:
        at = seq - seq % CHECKPOINT_EVERY
        if at <= 0:
            return None
        raw = self.redis.hget(keys.checkpoints(game_id), str(at))
        return (at, raw) if raw is not None else None

    def read(self, game_id: str, after: int = 0, until: int | None = None,
             count: int | None = None) -> list[Event]:
        end = f"0-{until}" if until is not None else "+"
        entries = self.redis.xrange(keys.events(game_id), f"(0-{after}", end, count=count)
        return _decode_entries(entries)

    def read_logged(self, game_id: str, after: int = 0, until: int | None = None,
                    count: int | None = None) -> list[Event] | None:
        """See `GameLog.read_logged`: the range is read from event `after` itself, whose
        presence says that the log is there (it is not decoded)."""
        if after <= 0:
            found = self.read(game_id, 0, until, count)
            return found or None
        end = f"0-{until}" if until is not None else "+"
        entries = self.redis.xrange(keys.events(game_id), f"0-{after}", end,
                                    count=count + 1 if count is not None else None)
        if not entries or entries[0][0] != f"0-{after}".encode():
            return None
        return _decode_entries(entries[1:])

    def wait(self, game_id: str, after: int, timeout_s: float,
             count: int | None = None) -> list[Event]:
        """Events after `after`, waiting up to `timeout_s` for the first one (long-poll).

        The wait is cut into blocks of at most `MAX_BLOCK_S`: the client's socket timeout
        (redis-py's default is 5 s) would otherwise end a longer XREAD with an error."""
        stream = keys.events(game_id)
        deadline = time.monotonic() + timeout_s
        while True:
            block_s = min(MAX_BLOCK_S, max(deadline - time.monotonic(), 0.001))
            found = self.redis.xread({stream: f"0-{after}"}, count=count,
                                     block=max(1, int(block_s * 1000)))
            if found:
                return _decode_entries(found[0][1])
            if time.monotonic() >= deadline:
                return []

    def version(self, game_id: str) -> int:
        last = self.redis.xrevrange(keys.events(game_id), count=1)
        return int(last[0][0].split(b"-")[1]) if last else 0

    def delete(self, game_id: str, version: int) -> bool:
        """One script over the game's keys (its idempotency records expire on their own)."""
        return bool(self._delete(keys=[keys.events(game_id), *keys.of_game(game_id)],
                                 args=[version]))


def _read_stored(pipe: Any, game_id: str) -> None:
    """Queue the reads of a stored table: the snapshot, and the log's last events (the
    snapshot is never more than SNAPSHOT_EVERY - 1 events behind the log)."""
    pipe.get(keys.snapshot(game_id))
    pipe.xrevrange(keys.events(game_id), count=SNAPSHOT_EVERY - 1)


def _stored(snapshot: bytes | None, newest_first: list[Any]) -> Stored | None:
    if snapshot is None:
        return None
    return Stored(snapshot, _decode_entries(reversed(newest_first)))


def _encode_record(record: Idempotency) -> bytes:
    """`<request hash> LF <answer>`: one value, written by the append script's SET."""
    return record.request.encode() + b"\n" + record.answer


def _decode_record(key: str, raw: bytes) -> Idempotency:
    if raw.startswith(b"{"):  # kept before requests were hashed: the answer alone
        return Idempotency(key=key, request="", answer=raw)
    request, _, answer = raw.partition(b"\n")
    return Idempotency(key=key, request=request.decode(), answer=answer)


def _decode_entries(entries: Iterable[tuple[bytes, dict[bytes, bytes]]]) -> list[Event]:
    return [ev_codec.decode(fields[b"e"]) for _id, fields in entries]
