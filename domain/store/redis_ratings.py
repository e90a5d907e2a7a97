"""The `RatingStore` port in Redis (key names: `domain.store.keys`).

A player's standings and the record of the games rated for them share the player's slot,
so `apply` is one script there: the check that the game was not rated yet, the check that
the standing is still the one the rating was computed from, and both writes, at once. The
leaderboards and the games awaiting their rating are one key each, written apart.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec
import redis

import domain.store.keys as keys
from domain.ratings.standing import RatingChange, Standing

# KEYS: standings, rating changes. ARGV: type, game, expected standing ('' = none), new
# standing, the change.
_APPLY = """
if redis.call('HEXISTS', KEYS[2], ARGV[2]) == 1 then return 'already' end
local current = redis.call('HGET', KEYS[1], ARGV[1])
if (current or '') ~= ARGV[3] then return 'conflict' end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[4])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[5])
return 'applied'
"""

_standing = msgspec.json.Decoder(Standing)
_change = msgspec.json.Decoder(RatingChange)
_encode = msgspec.json.Encoder().encode


class RedisRatingStore:
    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self._apply = client.register_script(_APPLY)

    def standings(self, game_type: str, player_ids: Sequence[str]) -> list[Standing | None]:
        pipe = self.redis.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.hget(keys.standings(player_id), game_type)
        return [_standing.decode(raw) if raw is not None else None for raw in pipe.execute()]

    def all_standings(self, player_id: str) -> dict[str, Standing]:
        found = self.redis.hgetall(keys.standings(player_id))
        return {t.decode(): _standing.decode(raw) for t, raw in sorted(found.items())}

    def changes(self, player_id: str, game_ids: Sequence[str]) -> list[RatingChange | None]:
        if not game_ids:
            return []
        found = self.redis.hmget(keys.rating_changes(player_id), list(game_ids))
        return [_change.decode(raw) if raw is not None else None for raw in found]

    def apply(self, player_id: str, expected: Standing | None, change: RatingChange) -> str:
        answer = self._apply(
            keys=[keys.standings(player_id), keys.rating_changes(player_id)],
            args=[change.type, change.game, _encode(expected) if expected else b"",
                  _encode(change.after), _encode(change)])
        return str(answer.decode())

    def rank(self, game_type: str, ratings: Mapping[str, float]) -> None:
        if ratings:
            self.redis.zadd(keys.leaderboard(game_type), dict(ratings))

    def bot_standings(self, game_type: str) -> dict[str, Standing]:
        found = self.redis.hgetall(keys.bot_standings(game_type))
        return {level.decode(): _standing.decode(raw) for level, raw in sorted(found.items())}

    def calibrated(self, game_type: str, standings: Mapping[str, Standing]) -> None:
        if standings:
            self.redis.hset(keys.bot_standings(game_type),
                            mapping={level: _encode(s) for level, s in standings.items()})

    def leaderboard(self, game_type: str, offset: int,
                    limit: int) -> tuple[list[tuple[str, float]], int]:
        key = keys.leaderboard(game_type)
        total = self.redis.zcard(key)
        if offset >= total:
            return [], total
        found = self.redis.zrevrange(key, offset, offset + limit - 1, withscores=True)
        return [(member.decode(), float(score)) for member, score in found], total

    def await_rating(self, game_id: str, finished_at: float) -> None:
        self.redis.zadd(keys.RATINGS_AWAITED, {game_id: finished_at})

    def awaiting(self, finished_before: float, limit: int) -> list[str]:
        found = self.redis.zrangebyscore(keys.RATINGS_AWAITED, "-inf",
                                         f"({finished_before!r}", start=0, num=limit)
        return [g.decode() for g in found]

    def rated(self, game_id: str) -> None:
        self.redis.zrem(keys.RATINGS_AWAITED, game_id)
