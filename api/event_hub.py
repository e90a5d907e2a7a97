"""A per-process fan-out of games' new events to the streams and long-polls that wait for
them, on one Redis connection for the whole process.

One listener thread (a greenlet under gevent) holds the process's subscription to the
notices of appends (`AppendFeed.appends`: the append script publishes "<game> <version>"):
it is the only connection held while streams and long-polls wait, however many there are
and however many games they watch. Each game watched in this process has a `GameFeed`
whose reader (a thread, a greenlet under gevent) sleeps until a notice says the game moved,
then reads the new events once through the connection pool, keeps the latest in memory
and wakes its waiters: a stream takes what it has not sent from that buffer, or reads the
store itself when it is further behind (catching up after a reconnect); a long-poll reads
its answer once woken. The reader starts at the game's current version, never at `$`, and
waiters always compare seqs, so nothing appended between a waiter's own read and the
reader's first read is lost. When the subscription (re)starts, every feed looks at its
game again. A reader stops when its last waiter leaves or once the game's `game_finished`
has been read (nothing can follow it); the listener stops when no feed is left for a while.
If Redis is lost, every feed is marked broken: streams end (their clients resume), waiting
long-polls answer, and the next watcher subscribes again.

The hub is also one of the process's hooks (`after_append`): an append made by this
process hands its events to the game's feed at once, so the feed reads nothing back and
its streams send them while the move's other hooks still run; the notice that follows finds
the feed already there. Appends of other processes are read as before.

A game's chat rides along: a chat write publishes "<game> chat" on the same channel, and
the feed's reader then reads the chat's new entries into a buffer of their own, in which
a hiding erases the text of the message it hides (streams send them as `message` events).

So do players' own streams (`GET /players/me/events/stream`): a write to a player's
stream publishes "@<player id> 0" on the same channel, and a `PlayerFeed` (one per player
watched in this process, under that name) reads the new entries once for all the
streams of that player, as a game's feed does.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Sequence

from api.outage import STORE_ERRORS
from domain.chat import ChatEntry, without_hidden
from domain.events import Event
from domain.players.notes import PlayerEntry
from domain.players.notes import entry_order as _order
from domain.store import keys
from domain.store.port import AppendNotices, PlayerStore, StreamSource, TimerChanges
from domain.table import Table
from domain.webhooks.registration import Registration

log = logging.getLogger(__name__)
BUFFERED_EVENTS = 256
# How often an idle reader checks whether anyone still listens.
READ_BLOCK_S = 2.0
# How long one wait for notices lasts, and how long the listener outlives its last feed.
LISTEN_BLOCK_S = 1.0
LISTENER_IDLE_S = 30.0
# Streams are woken in groups of this many, with a short pause between groups, so that a
# process with hundreds of streams still answers its other requests while it fans out.
WAKE_GROUP = 32
WAKE_GROUPS = 32  # beyond WAKE_GROUP * WAKE_GROUPS streams, groups grow
WAKE_PAUSE_S = 0.0005


class GameFeed:
    """The new events of one game, and the new entries of its chat, as read by this
    process's reader for it (a chat notice, `ring(None)`, makes it read the chat too).

    The reader publishes `(version, recent events)` as one immutable pair and then sets the
    `threading.Event` that a group of waiters waits on, replacing it with a fresh one:
    waking them costs no lock they must take in turn. Between two groups the reader
    pauses briefly, which under gevent lets the process serve the requests whose answers
    arrived meanwhile (the move that caused the fan-out among them)."""

    def __init__(self, hub: EventHub, game_id: str) -> None:
        self.hub = hub
        self.game_id = game_id
        # The last seq read (None until the reader starts) and the events up to it.
        self._seen: tuple[int | None, tuple[Event, ...]] = (None, ())
        # The same for the chat: the last entry read, and the entries up to it.
        self._chat_seen: tuple[int | None, tuple[ChatEntry, ...]] = (None, ())
        self._chat_rung = False  # a notice said the chat changed
        self._arrivals = [threading.Event() for _ in range(WAKE_GROUPS)]
        self._in_group = [0] * WAKE_GROUPS  # waiters in each group
        self._doorbell = threading.Event()  # rung by the listener: the game moved
        self._noticed = 0  # the latest version a notice told of
        self._look = False  # rung without a version: read whatever there is
        self._publishing = threading.Lock()  # the reader and this process's appends
        self.finished = False
        self.broken = False  # Redis was lost: streams end, clients reconnect
        self.listeners = 0

    def wait_beyond(self, after: int, timeout_s: float, group: int = 0,
                    chat_after: int | None = None) -> bool:
        """Wait until an event after `after` is known, or (given `chat_after`) a chat entry
        after that one (True), or `timeout_s` passed."""
        deadline = time.monotonic() + timeout_s
        while True:
            arrival = self._arrivals[group]  # taken before looking: a publish after sets it
            if self._beyond(after) or (chat_after is not None and
                                       (self._chat_seen[0] or 0) > chat_after):
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

    def chat_after(self, after: int) -> list[ChatEntry] | None:
        """The buffered chat entries after entry `after`, or None if the buffer cannot tell
        (a message hidden since it was read is in it without its text)."""
        version, recent = self._chat_seen
        if version is None:
            return None
        if version <= after:
            return []
        if not recent or recent[0].n > after + 1:
            return None
        return [e for e in recent if e.n > after]

    def ring(self, version: int | None) -> None:
        """The game reached `version` (None: it may have moved, or its chat did: look)."""
        if version is None:
            self._look = True
            self._chat_rung = True
            self._doorbell.set()
        elif version > self._noticed:
            self._noticed = version
            self._doorbell.set()

    def offer(self, events: Sequence[Event]) -> None:
        """Events this process just appended: published at once when they follow what
        the feed holds (else the reader reads them, as it would have)."""
        version = self._seen[0]
        if events and version is not None and events[0].seq == version + 1:
            self._publish(list(events), events[-1].seq)

    def _read(self) -> None:
        store = self.hub.store
        try:
            after = store.version(self.game_id)
            chat = store.chat_version(self.game_id)
            self._publish_chat([], chat)
            self._publish([], after)
            while not self.finished and not self.broken and self.hub._keep_reading(self):
                if not self._doorbell.wait(self.hub.read_block_s):
                    continue
                self._doorbell.clear()
                if self._chat_rung:
                    self._chat_rung = False
                    while entries := store.read_chat(self.game_id, chat, BUFFERED_EVENTS):
                        chat = entries[-1].n
                        self._publish_chat(entries, chat)
                held = self._seen[0] or 0
                if not self._look and self._noticed <= held:
                    continue  # offered by this process's own append: nothing to read
                self._look = False
                after = max(after, held)
                while not self.finished:  # until the log has nothing more after `after`
                    events = store.read(self.game_id, after=after, count=BUFFERED_EVENTS)
                    if not events:
                        break
                    after = events[-1].seq
                    self._publish(events, after)
        except STORE_ERRORS as err:  # (a cluster client's errors too)
            # Also what a worker's shutdown looks like; the streams end and clients resume.
            self.hub.lost(err)
            self.broken = True
            self._wake()
        finally:
            self.hub._forget(self)

    def _publish(self, events: list[Event], version: int) -> None:
        with self._publishing:  # the reader's and an offer's: never back, never twice
            held, recent = self._seen
            if held is not None:
                if version <= held:
                    return
                events = [e for e in events if e.seq > held]
            self.finished = self.finished or any(e.type == "game_finished" for e in events)
            self._seen = (version, (*recent, *events)[-BUFFERED_EVENTS:])
        self._wake()

    def _publish_chat(self, entries: list[ChatEntry], version: int) -> None:
        # A hiding erases the text of the message it hides from the buffer, too.
        recent = without_hidden([*self._chat_seen[1], *entries])[-BUFFERED_EVENTS:]
        self._chat_seen = (version, tuple(recent))
        if entries:
            self._wake()

    def _break(self) -> None:
        self.broken = True
        self._wake()

    def _wake(self) -> None:
        groups = [g for g in range(WAKE_GROUPS) if self._in_group[g] or g == 0]
        for i, group in enumerate(groups):
            arrival, self._arrivals[group] = self._arrivals[group], threading.Event()
            arrival.set()
            if i + 1 < len(groups):
                time.sleep(WAKE_PAUSE_S)


class PlayerFeed:
    """The new entries of one player's stream, read by this process once for all of that
    player's streams here (a player has few: no wake-up groups)."""

    def __init__(self, hub: EventHub, player_id: str) -> None:
        self.hub = hub
        self.player_id = player_id
        self.game_id = keys.player_notice(player_id)  # its name among the hub's feeds
        self._seen: tuple[str | None, tuple[PlayerEntry, ...]] = (None, ())
        self._arrival = threading.Event()
        self._doorbell = threading.Event()
        self._in_group = [0] * WAKE_GROUPS
        self.finished = False  # (a player's stream never ends)
        self.broken = False
        self.listeners = 0

    def wait_beyond(self, after: str, timeout_s: float) -> bool:
        """Wait until an entry after `after` is known (True), or `timeout_s` passed."""
        deadline = time.monotonic() + timeout_s
        while True:
            arrival = self._arrival
            last = self._seen[0]
            if self.broken or (last is not None and _order(last) > _order(after)):
                return True
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            arrival.wait(remaining)

    def entries_after(self, after: str) -> list[PlayerEntry] | None:
        """The buffered entries after `after`; None if the buffer cannot tell."""
        last, recent = self._seen
        if last is None:
            return None
        if _order(last) <= _order(after):
            return []
        if not recent or _order(recent[0].id) > _order(after):
            return None  # the buffer starts after `after`: it may miss some
        return [e for e in recent if _order(e.id) > _order(after)]

    def ring(self, version: int | None) -> None:
        self._doorbell.set()

    def _read(self) -> None:
        players = self.hub.players
        assert players is not None
        try:
            after = players.last_player_event(self.player_id)
            self._publish([], after)
            while not self.broken and self.hub._keep_reading(self):
                if not self._doorbell.wait(self.hub.read_block_s):
                    continue
                self._doorbell.clear()
                while entries := players.player_events(self.player_id, after,
                                                       BUFFERED_EVENTS):
                    after = entries[-1].id
                    self._publish(entries, after)
        except STORE_ERRORS as err:
            self.hub.lost(err)
            self._break()
        finally:
            self.hub._forget(self)

    def _publish(self, entries: list[PlayerEntry], last: str) -> None:
        recent = self._seen[1]
        if entries:
            # The first read's position is the stream's end: the buffer holds what follows.
            recent = (*recent, *entries)[-BUFFERED_EVENTS:]
        elif self._seen[0] is None:
            recent = (PlayerEntry(last, b""),)  # a marker: the buffer reaches back to here
        self._seen = (last, recent)
        self._wake()

    def _break(self) -> None:
        self.broken = True
        self._wake()

    def _wake(self) -> None:
        arrival, self._arrival = self._arrival, threading.Event()
        arrival.set()


class EventHub:
    """Hands out one `GameFeed` per watched game (and a `PlayerFeed` per watched player);
    `watch`/`leave` count its waiters; one listener per process rings the feeds of the
    games that moved."""

    def __init__(self, store: StreamSource, read_block_s: float = READ_BLOCK_S,
                 listener_idle_s: float = LISTENER_IDLE_S,
                 players: PlayerStore | None = None,
                 presence: Callable[[str, str, float], None] | None = None) -> None:
        self.store = store
        self.players = players
        self._presence = presence
        self.read_block_s = read_block_s
        self.listener_idle_s = listener_idle_s
        self._feeds: dict[str, GameFeed] = {}
        self._lock = threading.Lock()
        self._listening = False
        self._outage_logged = False

    def watch(self, game_id: str) -> tuple[GameFeed, int]:
        """The game's feed, and the wake-up group the new waiter waits in."""
        with self._lock:
            feed = self._feeds.get(game_id)
            if feed is None:
                feed = self._feeds[game_id] = GameFeed(self, game_id)
                threading.Thread(target=feed._read, name=f"feed-{game_id}",
                                 daemon=True).start()
            if not self._listening:
                self._listening = True
                threading.Thread(target=self._listen, name="event-hub-listener",
                                 daemon=True).start()
            feed.listeners += 1
            # The first group with room, so a small audience is woken at once.
            sizes = feed._in_group
            group = next((g for g in range(WAKE_GROUPS) if sizes[g] < WAKE_GROUP),
                         sizes.index(min(sizes)))
            sizes[group] += 1
            return feed, group

    def leave(self, feed: GameFeed | PlayerFeed, group: int) -> None:
        with self._lock:
            feed.listeners -= 1
            feed._in_group[group] -= 1

    def present(self, player_id: str | None, what: str, for_s: float) -> None:
        """A stream of the player's is open on game `what` (`*`: their own stream) for
        the next `for_s` seconds at least: the notifier leaves them alone there. Said
        when a stream opens and at each keep-alive; never fails a stream."""
        if player_id is None or self._presence is None:
            return
        try:
            self._presence(player_id, what, time.time() + for_s)
        except STORE_ERRORS as err:
            self.lost(err)

    def watch_player(self, player_id: str) -> PlayerFeed:
        """The player's feed (leave it with `leave(feed, 0)`)."""
        name = keys.player_notice(player_id)
        with self._lock:
            feed = self._feeds.get(name)
            if not isinstance(feed, PlayerFeed):
                feed = PlayerFeed(self, player_id)
                self._feeds[name] = feed  # type: ignore[assignment]
                threading.Thread(target=feed._read, name=f"feed-{name}", daemon=True).start()
            if not self._listening:
                self._listening = True
                threading.Thread(target=self._listen, name="event-hub-listener",
                                 daemon=True).start()
            feed.listeners += 1
            feed._in_group[0] += 1
            return feed

    def timer_changes(self, table: Table, new_events: Sequence[Event]) -> TimerChanges | None:
        return None  # (it arms no timers)

    def after_append(self, table: Table, new_events: Sequence[Event],
                     webhooks: Sequence[Registration] | None = None,
                     timers: TimerChanges | None = None) -> None:
        """A hook: this process appended `new_events`; the game's feed, if it is watched
        here, takes them without reading them back."""
        with self._lock:
            feed = self._feeds.get(table.id)
        if feed is not None:
            feed.offer(new_events)

    def after_chat(self, table: Table, entries: Sequence[ChatEntry]) -> None:
        """A hook too: chat entries reach the feeds through their notice (one read of the
        chat's new entries, where a hiding is applied)."""

    def lost(self, err: BaseException) -> None:
        """Redis was lost: said once until the listener hears notices again."""
        if not self._outage_logged:
            self._outage_logged = True
            log.warning("the event streams lost Redis (%s); they end and their clients "
                        "resume", err)

    def _listen(self) -> None:
        notices: AppendNotices | None = None
        idle_since: float | None = None
        try:
            notices = self.store.appends()
            while True:
                found = notices.next(LISTEN_BLOCK_S)
                with self._lock:
                    feeds = dict(self._feeds)
                    if feeds:
                        idle_since = None
                    elif idle_since is None:
                        idle_since = time.monotonic()
                    elif time.monotonic() - idle_since >= self.listener_idle_s:
                        self._listening = False
                        return
                if found is None:
                    self._outage_logged = False
                    for feed in feeds.values():
                        feed.ring(None)
                    continue
                for game_id, version in found:
                    feed = feeds.get(game_id)
                    if feed is not None:
                        feed.ring(version)
        except STORE_ERRORS as err:
            self.lost(err)
            with self._lock:
                self._listening = False  # the next watcher subscribes again
                feeds = dict(self._feeds)
            for feed in feeds.values():
                feed._break()
        finally:
            if notices is not None:
                with contextlib.suppress(*STORE_ERRORS):
                    notices.close()

    def _keep_reading(self, feed: GameFeed | PlayerFeed) -> bool:
        """Called by a reader between reads: stop (and be forgotten) if nobody listens."""
        with self._lock:
            if feed.listeners > 0:
                return True
            self._feeds.pop(feed.game_id, None)
            return False

    def _forget(self, feed: GameFeed | PlayerFeed) -> None:
        with self._lock:
            if self._feeds.get(feed.game_id) is feed:
                del self._feeds[feed.game_id]

    def watched(self) -> int:
        with self._lock:
            return len(self._feeds)
