"""A game's chat in Redis (`TableChat`): the entries in a stream of its own, the texts in a
hash beside it.

`game:{id}:chat` holds the entries (stream id `0-<n>`: the stream numbers them, as the
game's stream numbers its events), each without its text; `game:{id}:chat:text` holds
message n's text under field n until the message is hidden: hiding deletes the text (it
is never served again) and adds the `message_hidden` entry, in one script. Both keys are
in the game's slot (hash tag) and go with the game (`keys.of_game`). Each write publishes
"<game id> chat" on the channel of the appends' notices, so streams wake for it too.
"""

from __future__ import annotations

from typing import Any

import msgspec
import redis
from redis.cluster import RedisCluster

import domain.store.keys as keys
from domain.chat import MESSAGE, ChatEntry
from domain.store.port import CHAT_PAGE

# KEYS: chat stream, texts. ARGV: entry, text, limit, channel, notice.
_POST = """
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local n = 0
if #last > 0 then n = tonumber(string.sub(last[1][1], 3)) end
if n >= tonumber(ARGV[3]) then return 0 end
n = n + 1
redis.call('XADD', KEYS[1], '0-' .. n, 'e', ARGV[1])
redis.call('HSET', KEYS[2], n, ARGV[2])
redis.call('PUBLISH', ARGV[4], ARGV[5])
return n
"""

# KEYS: chat stream, texts. ARGV: the message's n, the hiding entry, channel, notice.
# Returns the hiding's n; 0: hidden already; -1: no such message.
_HIDE = """
local found = redis.call('XRANGE', KEYS[1], '0-' .. ARGV[1], '0-' .. ARGV[1])
if #found == 0 then return -1 end
if cjson.decode(found[1][2][2])['type'] ~= 'message' then return -1 end
if redis.call('HDEL', KEYS[2], ARGV[1]) == 0 then return 0 end
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local n = tonumber(string.sub(last[1][1], 3)) + 1
redis.call('XADD', KEYS[1], '0-' .. n, 'e', ARGV[2])
redis.call('PUBLISH', ARGV[3], ARGV[4])
return n
"""

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(ChatEntry)
CHAT_NOTICE = "chat"  # the notice's second word, where an append's has the version


class RedisTableChat:
    """The `TableChat` port in Redis (a server, or a cluster)."""

    def __init__(self, client: redis.Redis | RedisCluster) -> None:
        self.redis = client
        self._post = client.register_script(_POST)
        self._hide = client.register_script(_HIDE)

    def post_message(self, game_id: str, entry: ChatEntry, limit: int) -> int | None:
        stored = _encoder.encode(msgspec.structs.replace(entry, text=None, n=0))
        n = self._post(keys=[keys.chat(game_id), keys.chat_texts(game_id)],
                       args=[stored, entry.text or "", limit, keys.APPENDED,
                             f"{game_id} {CHAT_NOTICE}"])
        return int(n) or None

    def hide_message(self, game_id: str, n: int, entry: ChatEntry) -> int | None:
        stored = _encoder.encode(msgspec.structs.replace(entry, n=0))
        found = int(self._hide(keys=[keys.chat(game_id), keys.chat_texts(game_id)],
                               args=[n, stored, keys.APPENDED, f"{game_id} {CHAT_NOTICE}"]))
        return None if found < 0 else found

    def read_chat(self, game_id: str, after: int = 0,
                  count: int = CHAT_PAGE) -> list[ChatEntry]:
        """One round trip: the entries, and the texts of the numbers they may have."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.xrange(keys.chat(game_id), f"(0-{after}", "+", count=count)
        pipe.hmget(keys.chat_texts(game_id), list(range(after + 1, after + count + 1)))
        entries, texts = pipe.execute()
        return [_entry(raw_id, fields, texts, after) for raw_id, fields in entries]

    def chat_version(self, game_id: str) -> int:
        last = self.redis.xrevrange(keys.chat(game_id), count=1)
        return int(last[0][0].split(b"-")[1]) if last else 0


def _entry(raw_id: bytes, fields: dict[bytes, bytes], texts: list[Any],
           after: int) -> ChatEntry:
    n = int(raw_id.split(b"-")[1])
    entry = _decoder.decode(fields[b"e"])
    text = texts[n - after - 1] if entry.type == MESSAGE else None
    return msgspec.structs.replace(entry, n=n,
                                   text=text.decode() if text is not None else None)
