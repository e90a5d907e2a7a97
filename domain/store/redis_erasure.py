"""Erasing a player from Redis: their own keys, and their name from every game they sat at.

A game keeps its log: the player's `player_joined` events keep their seat, their player
id (a random id, no name) and their hash, with the name replaced by `DELETED_NAME` and
`name_erased: true` in the event's data (`donkeypost verify` then takes that event's
stored hash for the chain, and says so; every other event is checked as before). The
table's snapshot and replay checkpoints get the same name in the seat; the chat's entries
of theirs get it too and lose their texts (hidden); the game's idempotency records (first
answers, which hold views with names) are dropped.

Each game is rewritten in one transaction on its slot, watched: an append meanwhile makes
it start again (a stream's entries cannot be changed in place, so the stream is written
anew with the same ids).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

import msgspec
import redis

import domain.store.keys as keys
from domain.chat import ChatEntry
from domain.events import Event
from domain.players.inbox import BUCKETS
from domain.table import DELETED_NAME, decode_envelope, encode_table

ATTEMPTS = 20

_event_codec = msgspec.json.Decoder(Event)
_chat_codec = msgspec.json.Decoder(ChatEntry)
_encode = msgspec.json.Encoder().encode


class RedisErasure:
    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def games_of(self, player_id: str) -> list[str]:
        """The games in the player's inbox (open, active, finished)."""
        pipe = self.redis.pipeline(transaction=False)
        for bucket in BUCKETS:
            pipe.zrange(keys.inbox(player_id, bucket), 0, -1)
        return list(dict.fromkeys(g.decode() for found in pipe.execute() for g in found))

    def erase_from_game(self, game_id: str, player_id: str,
                        idempotency_keys: Sequence[str] = ()) -> bool:
        """The player's name out of one game; False if they were never named there."""
        events_key, chat_key = keys.events(game_id), keys.chat(game_id)
        snap_key, ckpt_key = keys.snapshot(game_id), keys.checkpoints(game_id)
        texts_key = keys.chat_texts(game_id)
        for _ in range(ATTEMPTS):
            with self.redis.pipeline(transaction=True) as pipe:
                try:
                    pipe.watch(events_key, chat_key)
                    entries = pipe.xrange(events_key)
                    chat = pipe.xrange(chat_key)
                    snapshot = pipe.get(snap_key)
                    checkpoints = pipe.hgetall(ckpt_key)
                    new_entries, named = _events(entries, player_id)
                    new_chat, hidden = _chat(chat, player_id)
                    pipe.multi()
                    if named:
                        pipe.delete(events_key)
                        for entry_id, raw in new_entries:
                            pipe.xadd(events_key, {"e": raw}, id=entry_id)
                    if hidden is not None:
                        pipe.delete(chat_key)
                        for entry_id, raw in new_chat:
                            pipe.xadd(chat_key, {"e": raw}, id=entry_id)
                        if hidden:
                            pipe.hdel(texts_key, *hidden)
                    if snapshot is not None:
                        pipe.set(snap_key, _table(snapshot, player_id))
                    if checkpoints:
                        pipe.hset(ckpt_key, mapping={
                            seq: _table(raw, player_id) for seq, raw in checkpoints.items()})
                    if idempotency_keys:
                        pipe.delete(*idempotency_keys)
                    pipe.execute()
                    return named or hidden is not None
                except redis.WatchError:
                    continue
        raise RuntimeError(f"game {game_id} kept changing while its player was erased")

    def idempotency_keys(self, game_ids: Iterable[str]) -> dict[str, list[str]]:
        """Each game's idempotency records (one pass over the keyspace)."""
        wanted = {keys.idempotency(g, ""): g for g in game_ids}
        found: dict[str, list[str]] = {}
        for raw in self.redis.scan_iter(match="game:*:idem:*", count=1000):
            key = raw.decode()
            prefix = key[:key.index(":idem:") + len(":idem:")]
            game = wanted.get(prefix)
            if game is not None:
                found.setdefault(game, []).append(key)
        return found

    def game_keys(self, game_id: str) -> list[str]:
        """Every key of the game's slot (one pass over the keyspace: an operator's
        command, not a request's)."""
        return [k.decode() for k in self.redis.scan_iter(
            match=keys.events(game_id).replace(":events", ":*"), count=1000)]

    def delete_game(self, game_id: str, found: Sequence[str], game_type: str | None,
                    player_ids: Sequence[str]) -> None:
        """The game's keys, its places in its players' inboxes and in the queues of games
        to rate and to archive (its listings: the event store's `unlist`)."""
        pipe = self.redis.pipeline(transaction=False)
        if found:
            pipe.delete(*found)
        for key in (keys.RATINGS_AWAITED, keys.ARCHIVE_DUE):
            pipe.zrem(key, game_id)
        pipe.hdel(keys.ARCHIVE_REFUSED, game_id)
        for player_id in player_ids:
            for bucket in BUCKETS:
                pipe.zrem(keys.inbox(player_id, bucket), game_id)
        pipe.execute()

    def erase_name_from_streams(self, player_ids: Iterable[str], name: str) -> None:
        """The name, as a JSON string, out of these players' own event streams (what
        happened at their tables, told with the other seats' names)."""
        written = json.dumps(name, ensure_ascii=False).encode()
        deleted = json.dumps(DELETED_NAME).encode()
        for player_id in player_ids:
            key = keys.player_events(player_id)
            for _ in range(ATTEMPTS):
                with self.redis.pipeline(transaction=True) as pipe:
                    try:
                        pipe.watch(key)
                        entries = pipe.xrange(key)
                        if not any(written in f[b"e"] for _i, f in entries):
                            break
                        pipe.multi()
                        pipe.delete(key)
                        for entry_id, fields in entries:
                            pipe.xadd(key, {"e": fields[b"e"].replace(written, deleted)},
                                      id=entry_id)
                        pipe.execute()
                        break
                    except redis.WatchError:
                        continue

    def erase_player_keys(self, player_id: str, name_key: str | None,
                          game_types: Sequence[str]) -> None:
        """The player's own keys: record (name, key hash), name, inboxes, ratings, stream,
        tickets, and their place on every leaderboard."""
        own = [keys.player(player_id), *(keys.inbox(player_id, b) for b in BUCKETS),
               keys.standings(player_id), keys.rating_changes(player_id),
               *keys.of_player_notifications(player_id)]
        tickets = list(self.redis.scan_iter(match=keys.player_ticket(player_id, "*"),
                                            count=1000))
        pipe = self.redis.pipeline(transaction=False)
        pipe.delete(*own, *tickets)
        if name_key is not None:
            # Only if the name is still theirs (HDEL of a name another player took since
            # would free theirs): a check then a delete, in one script.
            pipe.eval("if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then "
                      "return redis.call('HDEL', KEYS[1], ARGV[1]) end return 0",
                      1, keys.PLAYER_NAMES, name_key, player_id)
        for game_type in game_types:
            pipe.zrem(keys.leaderboard(game_type), player_id)
        pipe.zrem(keys.NOTIFY_DUE, player_id)
        pipe.execute()


def _events(entries: list[tuple[bytes, dict[bytes, bytes]]], player_id: str
            ) -> tuple[list[tuple[bytes, bytes]], bool]:
    """The events with the player's name erased wherever it stands beside their id (a
    seat they joined, a seat they were invited to), each such event marked."""
    out, named = [], False
    for entry_id, fields in entries:
        raw = fields[b"e"]
        if player_id.encode() in raw:
            ev = _event_codec.decode(raw)
            data, changed = _erased(ev.data, player_id)
            if changed:
                raw = _encode(msgspec.structs.replace(ev, data={**data, "name_erased": True}))
                named = True
        out.append((entry_id, raw))
    return out, named


def _erased(value: Any, player_id: str) -> tuple[Any, bool]:
    """`value` with every `name` beside `player` or `invited` = `player_id` erased."""
    if isinstance(value, dict):
        changed = False
        out = {}
        for key, item in value.items():
            out[key], inner = _erased(item, player_id)
            changed = changed or inner
        if "name" in out and player_id in (out.get("player"), out.get("invited")) and \
                out["name"] != DELETED_NAME:
            out["name"] = DELETED_NAME
            changed = True
        return out, changed
    if isinstance(value, list):
        items = [_erased(item, player_id) for item in value]
        return [i for i, _c in items], any(c for _i, c in items)
    return value, False


def _chat(entries: list[tuple[bytes, dict[bytes, bytes]]], player_id: str
          ) -> tuple[list[tuple[bytes, bytes]], list[str] | None]:
    """The chat's entries with the player's name erased, and the numbers of their
    messages (None: nothing of theirs)."""
    out: list[tuple[bytes, bytes]] = []
    theirs: list[str] | None = None
    for entry_id, fields in entries:
        raw = fields[b"e"]
        if player_id.encode() in raw:
            entry = _chat_codec.decode(raw)
            if entry.player == player_id:
                raw = _encode(msgspec.structs.replace(entry, name=DELETED_NAME))
                theirs = theirs or []
                theirs.append(entry_id.decode().split("-")[1])
        out.append((entry_id, raw))
    return out, theirs


def _table(raw: bytes, player_id: str) -> bytes:
    table = decode_envelope(raw)
    seats = [msgspec.structs.replace(s, name=DELETED_NAME)
             if player_id in (s.player, s.invited) else s for s in table.seats]
    return encode_table(msgspec.structs.replace(table, seats=seats))


