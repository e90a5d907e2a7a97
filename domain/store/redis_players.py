"""The `PlayerStore` port in Redis: a hash per player, one hash of names, a sorted set per
player and inbox bucket (key names: `domain.store.keys`).

Every command touches one slot: a player's keys share the tag `{<player id>}`, the names'
hash is one key. Adding a player writes its record first and claims the name second (and
takes the record back if the name is held), so a crash between the two leaves at most a
record nobody has the key of, never a name held by nobody.
"""

from __future__ import annotations

from collections.abc import Sequence

import redis
from redis.cluster import RedisCluster

import domain.store.keys as keys
from domain.players.inbox import BUCKETS, InboxMove
from domain.players.notes import PlayerEntry, PlayerNote, encode_note
from domain.players.records import Player
from domain.store.port import PLAYER_EVENTS_KEPT, InboxPage

# Replace the key hash of a player who exists.
_SET_KEY = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'key', ARGV[1])
return 1
"""
# Redis takes LIMIT offsets up to 2^63 - 1; a larger page number is past any end anyway.
_MAX_OFFSET = 2**53


class RedisPlayerStore:
    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self._set_key = client.register_script(_SET_KEY)
        self._cluster = isinstance(client, RedisCluster)

    def add(self, player: Player, name_key: str, key_hash: str) -> bool:
        record = keys.player(player.id)
        self.redis.hset(record, mapping={"id": player.id, "name": player.name,
                                         "created_at": repr(player.created_at),
                                         "key": key_hash,
                                         **({"bot": 1} if player.bot else {})})
        if self.redis.hsetnx(keys.PLAYER_NAMES, name_key, player.id):
            return True
        self.redis.delete(record)
        return False

    def player(self, player_id: str) -> Player | None:
        return self.players([player_id])[0]

    def players(self, player_ids: Sequence[str]) -> list[Player | None]:
        pipe = self.redis.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.hmget(keys.player(player_id), "name", "created_at", "bot")
        return [Player(id=player_id, name=name.decode(), created_at=float(created),
                       bot=bot is not None)
                if name is not None and created is not None else None
                for player_id, (name, created, bot)
                in zip(player_ids, pipe.execute(), strict=True)]

    def named(self, name_key: str) -> str | None:
        raw = self.redis.hget(keys.PLAYER_NAMES, name_key)
        return raw.decode() if raw is not None else None

    def with_key_hash(self, player_id: str) -> tuple[Player, str] | None:
        return _with_key_hash(player_id, self.redis.hmget(keys.player(player_id), *_RECORD))

    def set_key_hash(self, player_id: str, key_hash: str) -> bool:
        return bool(self._set_key(keys=[keys.player(player_id)], args=[key_hash]))

    def place(self, moves: Sequence[InboxMove], notes: Sequence[PlayerNote] = (),
              moved: Sequence[tuple[str, str, float]] = ()) -> None:
        if not moves and not notes and not moved:
            return
        pipe = self.redis.pipeline(transaction=False)
        for move in moves:
            for bucket in BUCKETS:
                if move.position is None or bucket != move.position.bucket:
                    pipe.zrem(keys.inbox(move.player_id, bucket), move.game_id)
            if move.position is not None:
                pipe.zadd(keys.inbox(move.player_id, move.position.bucket),
                          {move.game_id: move.position.score})
        for player_id, game_id, at in moved:  # (pruned by the notifier as it reads them)
            pipe.zadd(keys.player_moved(player_id), {game_id: at})
        due: dict[str, float] = {}
        for note in notes:
            pipe.xadd(keys.player_events(note.player), {"e": encode_note(note)},
                      maxlen=PLAYER_EVENTS_KEPT, approximate=True)
            due.setdefault(note.player, note.at)
        if not self._cluster:
            for player_id in due:
                pipe.publish(keys.APPENDED, f"{keys.player_notice(player_id)} 0")
        if due:  # (LT: an earlier look wins over one planned for later)
            pipe.zadd(keys.NOTIFY_DUE, due, lt=True)
        pipe.execute()
        if self._cluster:  # (a cluster's pipelines may not PUBLISH: one each, after)
            for player_id in due:
                self.redis.publish(keys.APPENDED, f"{keys.player_notice(player_id)} 0")

    def player_events(self, player_id: str, after: str = "0-0",
                      count: int = 100) -> list[PlayerEntry]:
        found = self.redis.xrange(keys.player_events(player_id), f"({after}", "+", count=count)
        return [PlayerEntry(i.decode(), fields[b"e"]) for i, fields in found]

    def last_player_event(self, player_id: str) -> str:
        last = self.redis.xrevrange(keys.player_events(player_id), count=1)
        return last[0][0].decode() if last else "0-0"

    def inbox_ids(self, player_id: str, bucket: str, offset: int, limit: int,
                  low: float = float("-inf"), high: float = float("inf"),
                  newest_first: bool = False) -> InboxPage:
        key = keys.inbox(player_id, bucket)
        lo = "-inf" if low == float("-inf") else repr(low)
        hi = "+inf" if high == float("inf") else f"({high!r}"
        start = min(offset, _MAX_OFFSET)
        pipe = self.redis.pipeline(transaction=False)  # one slot: the player's
        pipe.hmget(keys.player(player_id), *_RECORD)
        pipe.zcount(key, lo, hi)
        if newest_first:
            pipe.zrevrangebyscore(key, hi, lo, start=start, num=limit, withscores=True)
        else:
            pipe.zrangebyscore(key, lo, hi, start=start, num=limit, withscores=True)
        record, total, found = pipe.execute()
        return InboxPage([i.decode() for i, _s in found], int(total),
                         _with_key_hash(player_id, record), [float(s) for _i, s in found])


_RECORD = ("name", "created_at", "key", "bot")


def _with_key_hash(player_id: str, record: list[bytes | None]) -> tuple[Player, str] | None:
    name, created, key, bot = record
    if name is None or created is None or key is None:
        return None
    return Player(id=player_id, name=name.decode(), created_at=float(created),
                  bot=bot is not None), key.decode()
