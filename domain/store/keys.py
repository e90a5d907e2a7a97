"""Every Redis key name of the games' data, in one place (nothing else spells one).

Keys of one game share the hash tag `{<id>}`, so that the append script and every pipeline
of one game stay in one slot of a Redis Cluster:
- `game:{id}:events`  stream; entry id `0-<seq>` makes the stream its own version counter
- `game:{id}:snap`    the table after the last event (written by the append script)
- `game:{id}:ckpt`    hash seq -> table after that seq, every CHECKPOINT_EVERY events (replay)
- `game:{id}:idem:<k>` the first answer to an idempotent request (SET NX EX)
- `game:{id}:tokens`  hash sha256(token) -> seat
- `game:{id}:secret`  the game's seed until it is revealed
- `game:{id}:ticket:<sha256>` a stream ticket's seat until it is used (SET EX, GETDEL)
- `game:{id}:creator` sha256 of the creator's token
- `game:{id}:hooks`   hash registration id -> webhook registration
- `game:{id}:delivery:<delivery id>` one webhook delivery with its attempts
- `game:{id}:hook:<registration id>:deliveries` the registration's latest delivery ids
- `game:{id}:chat`    stream of the table chat's entries, `0-<n>` (`domain.store.redis_chat`)
- `game:{id}:chat:text` hash n -> message n's text, until the message is hidden
- `game:{id}:analysis` the post-game analysis once made (`domain.bots.analysis`, JSON)
- `game:{id}:archive` a finished game's archive record (`domain.archive`), in place of its
  stream, snapshot, checkpoints, tokens, seed and creator
- `game:{id}:read`    what reads of an archived game's table need that its record does
  not hold, from its expansion (`domain.archive.reading.Kept`; of a record without a
  summary, all of it: `Final`): a cache shared by the processes (SET EX)

Keys of one player share the hash tag `{<player id>}` (one slot per player, so that the
rating script and each player's inbox writes stay in one slot):
- `player:{id}`         hash: id, name, created_at, key (sha256 of the player key)
- `player:{id}:inbox:<bucket>` sorted set game id -> position (`domain.players.inbox`)
- `player:{id}:ratings` hash game type -> standing (rating, deviation, volatility, games, wins)
- `player:{id}:rated`   hash game id -> what that game did to the rating (rated once)
- `player:{id}:events`  stream: the player's own events (`domain.players.notes`), bounded
- `player:{id}:ticket:<sha256>` a player stream ticket until it is used (SET EX, GETDEL)
- `player:{id}:notify`  hash: notification preferences, e-mail address (and one waiting
  for its confirmation), the notifier's place in the stream (`domain.store.redis_notify`)
- `player:{id}:push`    hash subscription id -> a Web Push subscription
- `player:{id}:hooks`   hash registration id -> a player-level webhook (all their games)
- `player:{id}:present` sorted set game id (or `*`: the player's own stream) -> until when
  an event stream of the player's is open on it
- `player:{id}:moved`   sorted set game id -> when the player last moved in it

The listing indexes (`games:*`, sorted sets scored by creation time; `games:free*`, the open
games with a seat anyone may take) live outside any game's slot and are written after the
append; so are the other indexes of many players: `players:names` (hash name key -> player
id), `ratings:board:<type>` (sorted set player id or bot -> rating) and `ratings:awaited`
(sorted set game id -> when it finished, until it is rated), `archive:due` and
`archive:refused` (`domain.archive`). The queues' keys (RQ's, and
the workers' `donkeypost:*` timers and sweep lock) belong to the workers, on the queues'
Redis.

On a Redis Cluster each of those keys lives in a slot of its own, so no command may name
two of them: every listing a client can ask for is one key, kept on write (a status and a
type together: `games:status:<status>:type:<type>`), never an intersection computed on
read; and nothing names two players' keys or two games' keys at once except
non-transactional pipelines, which the cluster client splits by node.
"""

from __future__ import annotations


def _game(game_id: str, what: str) -> str:
    return f"game:{{{game_id}}}:{what}"


def events(game_id: str) -> str:
    return _game(game_id, "events")


def snapshot(game_id: str) -> str:
    return _game(game_id, "snap")


def checkpoints(game_id: str) -> str:
    return _game(game_id, "ckpt")


def idempotency(game_id: str, key: str) -> str:
    return _game(game_id, f"idem:{key}")


def tokens(game_id: str) -> str:
    return _game(game_id, "tokens")


def secret(game_id: str) -> str:
    return _game(game_id, "secret")


def stream_ticket(game_id: str, digest: str) -> str:
    return _game(game_id, f"ticket:{digest}")


def creator(game_id: str) -> str:
    return _game(game_id, "creator")


def webhooks(game_id: str) -> str:
    return _game(game_id, "hooks")


def delivery(game_id: str, delivery_id: str) -> str:
    return _game(game_id, f"delivery:{delivery_id}")


def hook_deliveries(game_id: str, hook_id: str) -> str:
    return _game(game_id, f"hook:{hook_id}:deliveries")


def chat(game_id: str) -> str:
    return _game(game_id, "chat")


def chat_texts(game_id: str) -> str:
    return _game(game_id, "chat:text")


def analysis(game_id: str) -> str:
    return _game(game_id, "analysis")


def archive(game_id: str) -> str:
    return _game(game_id, "archive")


def archive_read(game_id: str) -> str:
    return _game(game_id, "read")


def archived_away(game_id: str) -> list[str]:
    """The keys an archive record replaces (the stream first)."""
    return [events(game_id), snapshot(game_id), checkpoints(game_id), tokens(game_id),
            secret(game_id), creator(game_id)]


def of_game(game_id: str) -> list[str]:
    """The game's keys of the event store besides its stream (not its idempotency
    records, which expire, nor its webhooks')."""
    return [snapshot(game_id), checkpoints(game_id), tokens(game_id), secret(game_id),
            creator(game_id), chat(game_id), chat_texts(game_id), archive(game_id),
            archive_read(game_id), analysis(game_id)]


def webhook_receiver(receiver_key: str) -> str:
    """A webhook receiver's failing streak (`domain.webhooks.receivers`), outside any game's
    slot: it is shared by every game whose webhooks point there."""
    return f"webhooks:receiver:{receiver_key}"


# Not a key: the channel on which the append script publishes "<game id> <version>" (and
# the chat's scripts "<game id> chat").
APPENDED = "donkeypost:appended"

ALL_GAMES = "games:all"


def by_status(status: str) -> str:
    return f"games:status:{status}"


def by_type(game_type: str) -> str:
    return f"games:type:{game_type}"


def by_status_and_type(status: str, game_type: str) -> str:
    """The games of one type in one status (kept beside the two indexes it combines)."""
    return f"games:status:{status}:type:{game_type}"


FREE_SEATS = "games:free"


def free_seats_of_type(game_type: str) -> str:
    return f"games:free:type:{game_type}"


def _player(player_id: str, what: str = "") -> str:
    return f"player:{{{player_id}}}" + (f":{what}" if what else "")


def player(player_id: str) -> str:
    return _player(player_id)


def inbox(player_id: str, bucket: str) -> str:
    return _player(player_id, f"inbox:{bucket}")


def standings(player_id: str) -> str:
    return _player(player_id, "ratings")


def rating_changes(player_id: str) -> str:
    return _player(player_id, "rated")


def player_events(player_id: str) -> str:
    return _player(player_id, "events")


def player_ticket(player_id: str, digest: str) -> str:
    return _player(player_id, f"ticket:{digest}")


def player_notice(player_id: str) -> str:
    """Not a key: what a player's stream publishes on APPENDED ("<this> 0") when it grows,
    in place of a game id (no game id starts with "@")."""
    return f"@{player_id}"


# The players whose stream the notifier should look at (sorted set player id -> when).
NOTIFY_DUE = "notify:due"
NOTIFY_SECRET = "notify:secret"  # signs the e-mails' links, unless NOTIFY_SECRET is set
VAPID_KEY = "notify:vapid"  # the Web Push key pair (PEM), unless VAPID_PRIVATE_KEY is set


def player_notify(player_id: str) -> str:
    return _player(player_id, "notify")


def push_subscriptions(player_id: str) -> str:
    return _player(player_id, "push")


def player_hooks(player_id: str) -> str:
    return _player(player_id, "hooks")


def player_present(player_id: str) -> str:
    return _player(player_id, "present")


def player_moved(player_id: str) -> str:
    return _player(player_id, "moved")


def of_player_notifications(player_id: str) -> list[str]:
    """What a player's notifications keep (their address, subscriptions, stream): erasing
    a player deletes these."""
    return [player_notify(player_id), push_subscriptions(player_id),
            player_present(player_id), player_moved(player_id), player_events(player_id),
            player_hooks(player_id)]
PLAYER_NAMES = "players:names"
# Every operator's action and every erasure: a stream of {action, target, by, why, at}.
AUDIT = "donkeypost:audit"
# Games over (finished, aborted, cancelled) -> when they ended, until archived; and those
# whose archive was refused (game id -> why), kept whole.
ARCHIVE_DUE = "archive:due"
ARCHIVE_REFUSED = "archive:refused"
RATINGS_AWAITED = "ratings:awaited"


def leaderboard(game_type: str) -> str:
    return f"ratings:board:{game_type}"


def bot_standings(game_type: str) -> str:
    """The bots' calibrated standings in a game type: level -> standing."""
    return f"ratings:bots:{game_type}"
