"""A per-process fan-out of games' new events to the open streams that watch them.

Each game watched by at least one stream in this process has one reader thread (a greenlet
under gevent) blocked in `XREAD` on the game's stream: one Redis connection per watched
game and process, not one per stream, so hundreds of streams leave the connection pool to
the API. The reader keeps the latest events in memory and wakes its streams; a stream
takes what it has not sent from that buffer, or reads the store itself when it is further
behind (catching up after a reconnect). The reader starts at the game's current version,
never at `$`, and a stream always compares seqs, so nothing appended between a stream's
catch-up and the reader's first read is lost. A reader stops when its last stream leaves
or once the game's `game_finished` has been read (nothing can follow it).
"""

from __future__ import annotations

import logging
import threading
import time

import redis

from domain.events import Event
from domain.store.port import EventLog

log = logging.getLogger(__name__)
BUFFERED_EVENTS = 256
# How long one XREAD blocks, which is also how often an idle reader checks whether anyone
# still listens. It must stay below the client's socket timeout (redis-py's default: 5 s).
READ_BLOCK_S = 2.0
# Streams are woken in groups of this many, with a short pause between groups, so that a
# process with hundreds of streams still answers its other requests while it fans out.
WAKE_GROUP = 32
WAKE_GROUPS = 32  # beyond WAKE_GROUP * WAKE_GROUPS streams, groups grow
WAKE_PAUSE_S = 0.0005


class GameFeed:
    """The new events of one game, as read by this process's reader for it.

    The reader publishes `(version, recent events)` as one immutable pair and then sets the
    `threading.Event` that a group of streams waits on, replacing it with a fresh one:
    waking streams costs no lock they must take in turn. Between two groups the reader
    pauses briefly, which under gevent lets the process serve the requests whose answers
    arrived meanwhile (the move that caused the fan-out among them)."""

    def __init__(self, hub: EventHub, game_id: str) -> None:
        self.hub = hub
        self.game_id = game_id
        # The last seq read (None until the reader starts) and the events up to it.
        self._seen: tuple[int | None, tuple[Event, ...]] = (None, ())
        self._arrivals = [threading.Event() for _ in range(WAKE_GROUPS)]
        self._in_group = [0] * WAKE_GROUPS  # streams waiting in each group
        self.finished = False
        self.broken = False  # the reader lost Redis: streams end, clients reconnect
        self.listeners = 0

    def wait_beyond(self, after: int, timeout_s: float, group: int = 0) -> bool:
        """Wait until an event after `after` is known (True) or `timeout_s` passed."""
        deadline = time.monotonic() + timeout_s
        while True:
            arrival = self._arrivals[group]  # taken before looking: a publish after sets it
            if self._beyond(after):
                return True
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            arrival.wait(remaining)

    def _beyond(self, after: int) -> bool:
        version = self._seen[0]
        return self.broken or (version is not None and version > after)

    def events_after(self, after: int) -> list[Event] | None:
        """The buffered events after `after`, or None if the buffer cannot tell (it does not
        reach back that far, or the reader has not started)."""
        version, recent = self._seen
        if version is None:
            return None  # the reader has not started: the store knows
        if version <= after:
            return []
        if not recent or recent[0].seq > after + 1:
            return None
        return [e for e in recent if e.seq > after]

    def _read(self) -> None:
        store = self.hub.store
        try:
            after = store.version(self.game_id)
            self._publish([], after)
            while not self.finished and self.hub._keep_reading(self):
                try:
                    events = store.wait(self.game_id, after, self.hub.read_block_s,
                                        count=BUFFERED_EVENTS)
                except redis.TimeoutError:
                    continue  # a socket timeout shorter than the block: read again
                if events:
                    after = events[-1].seq
                    self._publish(events, after)
        except redis.RedisError as err:
            # Also what a worker's shutdown looks like; the streams end and clients resume.
            log.warning("reading game %s for its streams failed: %s", self.game_id, err)
            self.broken = True
            self._wake()
        finally:
            self.hub._forget(self)

    def _publish(self, events: list[Event], version: int) -> None:
        self.finished = self.finished or any(e.type == "game_finished" for e in events)
        self._seen = (version, (*self._seen[1], *events)[-BUFFERED_EVENTS:])
        self._wake()

    def _wake(self) -> None:
        groups = [g for g in range(WAKE_GROUPS) if self._in_group[g] or g == 0]
        for i, group in enumerate(groups):
            arrival, self._arrivals[group] = self._arrivals[group], threading.Event()
            arrival.set()
            if i + 1 < len(groups):
                time.sleep(WAKE_PAUSE_S)


class EventHub:
    """Hands out one `GameFeed` per watched game; `watch`/`leave` count its streams."""

    def __init__(self, store: EventLog, read_block_s: float = READ_BLOCK_S) -> None:
        self.store = store
        self.read_block_s = read_block_s
        self._feeds: dict[str, GameFeed] = {}
        self._lock = threading.Lock()

    def watch(self, game_id: str) -> tuple[GameFeed, int]:
        """The game's feed, and the wake-up group the new stream waits in."""
        with self._lock:
            feed = self._feeds.get(game_id)
            if feed is None:
                feed = self._feeds[game_id] = GameFeed(self, game_id)
                threading.Thread(target=feed._read, name=f"feed-{game_id}",
                                 daemon=True).start()
            feed.listeners += 1
            # The first group with room, so a small audience is woken at once.
            sizes = feed._in_group
            group = next((g for g in range(WAKE_GROUPS) if sizes[g] < WAKE_GROUP),
                         sizes.index(min(sizes)))
            sizes[group] += 1
            return feed, group

    def leave(self, feed: GameFeed, group: int) -> None:
        with self._lock:
            feed.listeners -= 1
            feed._in_group[group] -= 1

    def _keep_reading(self, feed: GameFeed) -> bool:
        """Called by a reader between reads: stop (and be forgotten) if nobody listens."""
        with self._lock:
            if feed.listeners > 0:
                return True
            self._feeds.pop(feed.game_id, None)
            return False

    def _forget(self, feed: GameFeed) -> None:
        with self._lock:
            if self._feeds.get(feed.game_id) is feed:
                del self._feeds[feed.game_id]

    def watched(self) -> int:
        with self._lock:
            return len(self._feeds)
