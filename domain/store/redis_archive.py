"""The `ArchiveStore` port in Redis: a finished game's archive record in place of its keys.

`game:{id}:archive` holds the record; archiving writes it and deletes the stream, the
snapshot, the checkpoints, the tokens, the seed and the creator in one script (all in the
game's slot, so it stays legal on a Redis Cluster), only if the stream is still at the
version the record was made from: a crash, a kill or an append racing it leaves either
the whole game or its archive, never neither and never both. Restoring (a write to an
archived game, a rematch's link) is the same step the other way round. Imports write a
whole game, or its record, in one script each, refusing a game the store already holds.

The games waiting for their archive (`archive:due`) and those refused (`archive:refused`)
live outside any game's slot, like the other indexes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import redis
from redis.cluster import RedisCluster

import domain.store.keys as keys
from domain import events as ev_codec
from domain.store.port import StoredGame
from domain.store.redis_backup import WRITE_COMMANDS_LUA, Typed, write_commands

# KEYS: the stream, the archive, then the other keys an archive replaces.
# ARGV: the version, the record.
_ARCHIVE = """
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if #last == 0 then return 0 end
if tonumber(string.sub(last[1][1], 3)) ~= tonumber(ARGV[1]) then return -1 end
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('SET', KEYS[2], ARGV[2])
redis.call('DEL', KEYS[1], unpack(KEYS, 3))
return 1
"""

# Write a game's keys. KEYS: the stream, the archive, snapshot, checkpoints, tokens, seed,
# creator, then the game's other keys an import writes. ARGV: mode ('restore': only if
# the archive is ARGV[2], which is deleted; 'import': only if neither the stream nor an
# archive exists), the record, the number of events, the events, the snapshot, the
# number of checkpoints, (seq, table) pairs, the number of tokens, (hash, seat) pairs,
# the seed, the creator ('' for none), then the writes of the game's other keys
# (`redis_backup.write_commands`; none when restoring).
_WRITE = WRITE_COMMANDS_LUA + """
if ARGV[1] == 'restore' then
  if redis.call('GET', KEYS[2]) ~= ARGV[2] then return 0 end
  if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
else
  if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[2]) == 1 then
    return 0
  end
end
local at = 3
local n = tonumber(ARGV[at])
for i = 1, n do redis.call('XADD', KEYS[1], '0-' .. i, 'e', ARGV[at + i]) end
at = at + n + 1
if ARGV[at] ~= '' then redis.call('SET', KEYS[3], ARGV[at]) end
at = at + 1
n = tonumber(ARGV[at])
for i = 1, n do redis.call('HSET', KEYS[4], ARGV[at + 2 * i - 1], ARGV[at + 2 * i]) end
at = at + 2 * n + 1
n = tonumber(ARGV[at])
for i = 1, n do redis.call('HSET', KEYS[5], ARGV[at + 2 * i - 1], ARGV[at + 2 * i]) end
at = at + 2 * n + 1
if ARGV[at] ~= '' then redis.call('SET', KEYS[6], ARGV[at]) end
if ARGV[at + 1] ~= '' then redis.call('SET', KEYS[7], ARGV[at + 1]) end
if ARGV[1] == 'restore' then redis.call('DEL', KEYS[2]) end
if ARGV[at + 2] then run_writes(at + 2) end
return 1
"""

# Keep a record unless the game exists. KEYS: the stream, the archive, then the game's
# other keys. ARGV: the record, then the writes of those keys.
_PUT_ARCHIVED = WRITE_COMMANDS_LUA + """
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('SET', KEYS[2], ARGV[1])
if ARGV[2] then run_writes(2) end
return 1
"""


class RedisArchiveStore:
    def __init__(self, client: redis.Redis | RedisCluster) -> None:
        self.redis = client
        self._archive = client.register_script(_ARCHIVE)
        self._write = client.register_script(_WRITE)
        self._put_archived = client.register_script(_PUT_ARCHIVED)

    def stored_game(self, game_id: str) -> StoredGame | None:
        """One pipeline (one round trip; all the keys are in the game's slot)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.xrange(keys.events(game_id))
        pipe.get(keys.snapshot(game_id))
        pipe.hgetall(keys.checkpoints(game_id))
        pipe.hgetall(keys.tokens(game_id))
        pipe.get(keys.secret(game_id))
        pipe.get(keys.creator(game_id))
        entries, snapshot, checkpoints, tokens, seed, creator = pipe.execute()
        if not entries:
            return None
        return StoredGame(
            events=[ev_codec.decode(fields[b"e"]) for _id, fields in entries],
            snapshot=snapshot,
            checkpoints={int(seq): table for seq, table in checkpoints.items()},
            tokens={digest.decode(): int(seat) for digest, seat in tokens.items()},
            seed=seed.decode() if seed is not None else None,
            creator=creator.decode() if creator is not None else None)

    def archived(self, game_id: str) -> bytes | None:
        found: bytes | None = self.redis.get(keys.archive(game_id))
        return found

    def archives_of(self, game_ids: Sequence[str]) -> list[bytes | None]:
        """One pipeline (a cluster client splits it by node)."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.get(keys.archive(game_id))
        found: list[bytes | None] = pipe.execute()
        return found

    def archived_and_read(self, game_id: str) -> tuple[bytes | None, bytes | None]:
        """One pipeline (both keys are in the game's slot)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.get(keys.archive(game_id))
        pipe.get(keys.archive_read(game_id))
        record, copy = pipe.execute()
        return record, copy

    def keep_read(self, game_id: str, copy: bytes, ttl_s: float) -> None:
        if math.isinf(ttl_s):  # kept as long as the record (`forever`)
            self.redis.set(keys.archive_read(game_id), copy)
        else:
            self.redis.set(keys.archive_read(game_id), copy, px=max(1, round(ttl_s * 1000)))

    def replace_with_archive(self, game_id: str, version: int, record: bytes) -> bool:
        away = keys.archived_away(game_id)
        done = self._archive(keys=[away[0], keys.archive(game_id), *away[1:]],
                             args=[version, record])
        return int(done) == 1

    def restore_archived(self, game_id: str, record: bytes, game: StoredGame) -> bool:
        return self._write_game(game_id, game, "restore", record)

    def put_game(self, game_id: str, game: StoredGame,
                 others: Mapping[str, Typed] | None = None) -> bool:
        return self._write_game(game_id, game, "import", b"", others or {})

    def put_archived(self, game_id: str, record: bytes,
                     others: Mapping[str, Typed] | None = None) -> bool:
        names = [keys.events(game_id), keys.archive(game_id), *_own(game_id, others or {})]
        args: list[Any] = [record]
        if others:
            args.extend(write_commands(others, {k: n for n, k in enumerate(names, 1)}))
        done = self._put_archived(keys=names, args=args)
        return int(done) == 1

    def _write_game(self, game_id: str, game: StoredGame, mode: str, record: bytes,
                    others: Mapping[str, Typed] | None = None) -> bool:
        away = keys.archived_away(game_id)
        names = [away[0], keys.archive(game_id), *away[1:], *_own(game_id, others or {})]
        args: list[Any] = [mode, record, len(game.events)]
        args.extend(ev_codec.encode(e) for e in game.events)
        args.append(game.snapshot or b"")
        args.append(len(game.checkpoints))
        for seq, table in sorted(game.checkpoints.items()):
            args.extend((seq, table))
        args.append(len(game.tokens))
        for digest, seat in game.tokens.items():
            args.extend((digest, seat))
        args.extend((game.seed or "", game.creator or ""))
        if others:
            args.extend(write_commands(others, {k: n for n, k in enumerate(names, 1)}))
        done = self._write(keys=names, args=args)
        return int(done) == 1

    def archive_due(self, game_id: str, ended_at: float) -> None:
        self.redis.zadd(keys.ARCHIVE_DUE, {game_id: ended_at})

    def due_archives(self, before: float, limit: int) -> list[str]:
        found = self.redis.zrangebyscore(keys.ARCHIVE_DUE, "-inf", before, start=0, num=limit)
        return [i.decode() for i in found]

    def archive_done(self, game_id: str, refused: str | None = None) -> None:
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrem(keys.ARCHIVE_DUE, game_id)
        if refused is not None:
            pipe.hset(keys.ARCHIVE_REFUSED, game_id, refused[:500])
        pipe.execute()

    def refused_archives(self) -> dict[str, str]:
        found = self.redis.hgetall(keys.ARCHIVE_REFUSED)
        return {k.decode(): v.decode() for k, v in found.items()}

    def used_memory(self) -> tuple[int, int | None]:
        """`INFO memory`'s `used_memory` and `maxmemory` (0: none); on a cluster, summed
        over the masters."""
        if isinstance(self.redis, RedisCluster):
            found = self.redis.info("memory", target_nodes=RedisCluster.PRIMARIES)
            infos = list(found.values()) if isinstance(found, dict) and \
                "used_memory" not in found else [found]
        else:
            infos = [self.redis.info("memory")]
        used = sum(int(i.get("used_memory", 0)) for i in infos)
        limits = [int(i.get("maxmemory", 0)) for i in infos]
        limit = sum(limits) if limits and all(limits) else None
        return used, limit


def _own(game_id: str, others: Mapping[str, Typed]) -> list[str]:
    """The keys of `others`, each one of this game's (an import writes nothing else)."""
    tag = keys.events(game_id).removesuffix("events")
    for name in others:
        if not name.startswith(tag) or name.removeprefix(tag) in _OWN_KEYS:
            raise ValueError(f"{name!r} is not one of game {game_id}'s other keys")
    return list(others)


_OWN_KEYS = {k.removeprefix(keys.events("x").removesuffix("events"))
             for k in [*keys.archived_away("x"), keys.archive("x")]}
