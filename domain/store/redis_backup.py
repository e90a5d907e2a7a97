"""What a backup holds besides the games' logs and records, in Redis: each game's other
keys (its chat, webhook registrations, analysis), each player's keys (their record with
the key's hash, inboxes, ratings, rating changes, stream, notification settings, push
subscriptions, webhooks, clock settings), and the service's own (the names, the
leaderboards and the bots' standings, the games awaiting their rating, the e-mail links'
secret and the Web Push key pair, the audit of operators' actions and erasures).

They are found in one pass over the keyspace (`inventory`, SCAN: an operator's command),
sorted by the families of `domain.store.keys`; left out is what expires or is rebuilt:
idempotency records, stream tickets, webhook deliveries and receivers' failing streaks,
archived games' read copies, open streams (`present`), the listing indexes (written again
by the import), refused archives (tried again), the queues and timers (the workers
rebuild them).

Each key is written as a typed value (`dump`), JSON-ready: `{"string": v}`,
`{"hash": {field: v}}`, `{"zset": [[member, score], …]}`, `{"stream": [[id, {field: v}],
…]}`, `{"set": [v, …]}`, `{"list": [v, …]}`, where `v` is text (UTF-8) or `{"b64": …}`.
Loading never overwrites: a game's keys go in with the game (`redis_archive`'s scripts,
which run `write_commands`), a player's in one script only if the store has no such
player, and the service's keys are merged (a field, member or entry the store lacks is
added; what it has stays).
"""

from __future__ import annotations

import base64
from collections.abc import Iterable, Mapping
from typing import Any

import redis
from redis.cluster import RedisCluster

import domain.store.keys as keys
from domain.store.records import Inventory, Merged, Typed

# A game's keys that its line in the backup holds already, or that expire.
_GAME_OWN = {"events", "snap", "ckpt", "tokens", "secret", "creator", "archive", "read"}
_GAME_PASSING = ("idem:", "ticket:", "delivery:", "hook:")
# A player's keys that pass.
_PLAYER_PASSING = ("ticket:", "present")
# The service's keys a backup holds (exact names, or a family's start).
_GLOBAL_KEYS = {keys.PLAYER_NAMES, keys.RATINGS_AWAITED, keys.NOTIFY_DUE, keys.NOTIFY_SECRET,
                keys.VAPID_KEY, keys.AUDIT, keys.ARCHIVE_DUE}
_GLOBAL_FAMILIES = ("ratings:board:", "ratings:bots:")
# Arguments a command carries at most (a long hash is written in several).
_CHUNK = 500

# Run the write commands of ARGV from `at` (`write_commands`, in order): a count, then for
# each its name, the index of its key in KEYS, its number of arguments, its arguments.
# Only commands that add are run.
WRITE_COMMANDS_LUA = """
local function run_writes(at)
  local allowed = {SET = true, HSET = true, ZADD = true, XADD = true, SADD = true,
                   RPUSH = true}
  local count = tonumber(ARGV[at])
  at = at + 1
  for _ = 1, count do
    local name, key, n = ARGV[at], KEYS[tonumber(ARGV[at + 1])], tonumber(ARGV[at + 2])
    if not allowed[name] then return redis.error_reply('not a write of a backup: ' .. name) end
    redis.call(name, key, unpack(ARGV, at + 3, at + 2 + n))
    at = at + 3 + n
  end
  return at
end
"""

# A player's keys, if the store has no such player. KEYS: the player's record, then the
# keys the commands write. ARGV: the commands.
_PUT_PLAYER = WRITE_COMMANDS_LUA + """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
run_writes(1)
return 1
"""


def owner(key: str) -> tuple[str, str] | None:
    """("game", id), ("player", id) or ("service", key) for a key a backup holds; None
    for the others."""
    for kind in ("game", "player"):
        if key.startswith(kind + ":{"):
            tag_end = key.find("}", len(kind) + 2)
            if tag_end < 0:
                return None
            owner_id, rest = key[len(kind) + 2:tag_end], key[tag_end + 2:]
            if kind == "game" and (rest in _GAME_OWN or rest.startswith(_GAME_PASSING)):
                return None
            if kind == "player" and rest.startswith(_PLAYER_PASSING):
                return None
            return kind, owner_id
    if key in _GLOBAL_KEYS or key.startswith(_GLOBAL_FAMILIES):
        return "service", key
    return None


def suffix(key: str) -> str:
    """What follows a game's or a player's tag (`:` and the rest; "" for the record)."""
    return key[key.index("}") + 1:]


def write_commands(values: Mapping[str, Typed], key_index: Mapping[str, int]
                   ) -> list[Any]:
    """The ARGV of `WRITE_COMMANDS_LUA` writing `values` (key -> typed value) into the
    keys numbered by `key_index` (their places in KEYS, from 1)."""
    commands: list[tuple[str, int, list[Any]]] = []
    for key, typed in values.items():
        at = key_index[key]
        for name, args in _writes(typed):
            commands.append((name, at, args))
    argv: list[Any] = [len(commands)]
    for name, at, args in commands:
        argv.extend((name, at, len(args), *args))
    return argv


def _writes(typed: Typed) -> Iterable[tuple[str, list[Any]]]:
    ((kind, value),) = typed.items()
    if kind == "string":
        yield "SET", [_raw(value)]
    elif kind == "hash":
        yield from _chunked("HSET", [x for f, v in value.items() for x in (f, _raw(v))])
    elif kind == "zset":
        yield from _chunked("ZADD", [x for m, score in value for x in (repr(score), _raw(m))])
    elif kind == "stream":
        for entry_id, fields in value:
            yield "XADD", [entry_id, *(x for f, v in fields.items() for x in (f, _raw(v)))]
    elif kind in ("set", "list"):
        yield from _chunked("SADD" if kind == "set" else "RPUSH", [_raw(v) for v in value])
    else:
        raise ValueError(f"not a typed value of a backup: {kind!r}")


def _chunked(name: str, args: list[Any]) -> Iterable[tuple[str, list[Any]]]:
    for start in range(0, len(args), _CHUNK):  # (_CHUNK is even: pairs stay whole)
        yield name, args[start:start + _CHUNK]


def _text(raw: bytes) -> Any:
    try:
        return raw.decode()
    except UnicodeDecodeError:
        return {"b64": base64.b64encode(raw).decode()}


def _raw(value: Any) -> bytes:
    if isinstance(value, dict):
        return base64.b64decode(value["b64"], validate=True)
    return str(value).encode()


class RedisBackup:
    """The `KeyBackup` port in Redis (a server, or a cluster)."""

    def __init__(self, client: redis.Redis | RedisCluster) -> None:
        self.redis = client
        self._put_player = client.register_script(_PUT_PLAYER)

    def inventory(self) -> Inventory:
        found = Inventory()
        for raw in self.redis.scan_iter(count=1000):
            key = raw.decode() if isinstance(raw, bytes) else raw
            kind = owner(key)
            if kind is None:
                continue
            if kind[0] == "game":
                found.games.setdefault(kind[1], []).append(key)
            elif kind[0] == "player":
                found.players.setdefault(kind[1], []).append(key)
            else:
                found.service.append(key)
        # Keys left of a player who is gone (no record): not a player.
        found.players = {p: sorted(names) for p, names in found.players.items()
                         if keys.player(p) in names}
        for listed in found.games.values():
            listed.sort()
        found.service.sort()
        return found

    def dump(self, names: list[str]) -> dict[str, Typed]:
        """The keys' typed values (two round trips; a key gone meanwhile is left out)."""
        if not names:
            return {}
        pipe = self.redis.pipeline(transaction=False)
        for name in names:
            pipe.type(name)
        kinds = [k.decode() if isinstance(k, bytes) else k for k in pipe.execute()]
        pipe = self.redis.pipeline(transaction=False)
        read: list[tuple[str, str]] = []
        for name, kind in zip(names, kinds, strict=True):
            reader = {"string": pipe.get, "hash": pipe.hgetall, "stream": pipe.xrange,
                      "set": pipe.smembers}.get(kind)
            if kind == "zset":
                pipe.zrange(name, 0, -1, withscores=True)
            elif kind == "list":
                pipe.lrange(name, 0, -1)
            elif reader is not None:
                reader(name)
            else:
                continue  # gone ("none")
            read.append((name, kind))
        out: dict[str, Typed] = {}
        for (name, kind), value in zip(read, pipe.execute(), strict=True):
            if value is None:
                continue
            if kind == "string":
                out[name] = {"string": _text(value)}
            elif kind == "hash":
                out[name] = {"hash": {f.decode(): _text(v) for f, v in value.items()}}
            elif kind == "zset":
                out[name] = {"zset": [[_text(m), score] for m, score in value]}
            elif kind == "stream":
                out[name] = {"stream": [[i.decode(), {f.decode(): _text(v)
                                                      for f, v in fields.items()}]
                                        for i, fields in value]}
            elif kind == "set":
                out[name] = {"set": sorted(_text(v) for v in value)}
            else:
                out[name] = {"list": [_text(v) for v in value]}
        return out

    def put_player(self, player_id: str, values: Mapping[str, Typed]) -> bool:
        """Write a player's keys in one step, unless the store has that player (False,
        nothing written)."""
        record = keys.player(player_id)
        names = [record, *(k for k in values if k != record)]
        index = {name: n for n, name in enumerate(names, 1)}
        done = self._put_player(keys=names, args=write_commands(values, index))
        return int(done) == 1

    def merge_service(self, values: Mapping[str, Typed]) -> Merged:
        """Add to the service's keys what the store lacks (a key, a field, a member, a
        stream entry after its last); never change what it has."""
        merged = Merged()
        for name, typed in values.items():
            ((kind, value),) = typed.items()
            if kind == "string":
                merged.added += bool(self.redis.set(name, _raw(value), nx=True))
            elif kind == "hash":
                pipe = self.redis.pipeline(transaction=False)
                for f, v in value.items():
                    pipe.hsetnx(name, f, _raw(v))
                added = pipe.execute()
                merged.added += sum(added)
                if name == keys.PLAYER_NAMES:
                    taken = [f for f, done in zip(value, added, strict=True) if not done]
                    held = self.redis.hmget(name, taken) if taken else []
                    merged.names_taken += sum(
                        1 for f, h in zip(taken, held, strict=True)
                        if h is not None and h != _raw(value[f]))
            elif kind == "zset":
                if value:
                    merged.added += int(self.redis.zadd(
                        name, {_raw(m): score for m, score in value}, nx=True))
            elif kind == "stream":
                last = self.redis.xrevrange(name, count=1)
                after = _stream_id(last[0][0].decode()) if last else (0, 0)
                for entry_id, fields in value:
                    if _stream_id(entry_id) > after:
                        self.redis.xadd(name, {f: _raw(v) for f, v in fields.items()},
                                        id=entry_id)
                        merged.added += 1
            elif kind == "set":
                if value:
                    merged.added += int(self.redis.sadd(name, *(_raw(v) for v in value)))
            elif not self.redis.exists(name) and value:
                merged.added += int(bool(self.redis.rpush(name, *(_raw(v) for v in value))))
        return merged


def _stream_id(entry_id: str) -> tuple[int, int]:
    ms, _, seq = entry_id.partition("-")
    return int(ms), int(seq or 0)
