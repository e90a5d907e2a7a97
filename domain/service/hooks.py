"""What the service tells after every append: the `Hooks` port and two plain ones."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Protocol

import redis

from domain.chat import ChatEntry
from domain.events import Event
from domain.store.port import TimerChanges
from domain.table import Table
from domain.webhooks.registration import Registration

_log = logging.getLogger(__name__)


class Hooks(Protocol):
    """What happens after an append (bot jobs, deadlines, notifications), and after a new
    entry of a game's chat (notifications).

    Before the append, the hooks may hand over their timer changes (`timer_changes`), for
    the store to apply in the append's own step; the append then tells `after_append`
    whether it did (`timers`), and the hooks do not apply them again. (At most one of the
    hooks behind a `FanOutHooks` has timers.)"""

    def timer_changes(self, table: Table, new_events: Sequence[Event]) -> TimerChanges | None:
        """The timer changes that `new_events`, leading to `table`, imply, if the store
        may apply them with the append (None: none, or the hooks apply them)."""
        ...

    def after_append(self, table: Table, new_events: Sequence[Event],
                     webhooks: Sequence[Registration] | None = None,
                     timers: TimerChanges | None = None) -> None:
        """`webhooks`: the game's registrations as the append found them (None: not
        read; a hook that needs them reads them). `timers`: the hooks' timer changes,
        which the append applied (None: it applied none)."""
        ...

    def after_chat(self, table: Table, entries: Sequence[ChatEntry]) -> None: ...


class NoHooks:
    def timer_changes(self, table: Table, new_events: Sequence[Event]) -> TimerChanges | None:
        return None

    def after_append(self, table: Table, new_events: Sequence[Event],
                     webhooks: Sequence[Registration] | None = None,
                     timers: TimerChanges | None = None) -> None:
        pass

    def after_chat(self, table: Table, entries: Sequence[ChatEntry]) -> None:
        pass


class FanOutHooks:
    """Several hooks objects behind the one the service calls, each told of every append.

    The events are stored before any hook runs, so a hook that fails must not turn a
    recorded move into an error for the caller, nor keep the next hooks from running: the
    failure is logged (with its traceback, unless Redis went away just after the append: a
    line then), and what the hook missed is rebuilt from the stored games (the workers
    rebuild bot turns and deadlines when they start, on every sweep and when Redis is back
    after an outage)."""

    def __init__(self, hooks: Sequence[Hooks]) -> None:
        self.hooks = tuple(hooks)

    def timer_changes(self, table: Table, new_events: Sequence[Event]) -> TimerChanges | None:
        """The first hook's changes. A hook that fails here is logged, and the append goes
        on without its changes (its `after_append` will say what is wrong)."""
        for hook in self.hooks:
            try:
                changes = hook.timer_changes(table, new_events)
            except Exception:
                _log.exception("hook %s failed to plan the timers of game %s (version %s)",
                               type(hook).__name__, table.id, table.version)
                continue
            if changes is not None:
                return changes
        return None

    def after_append(self, table: Table, new_events: Sequence[Event],
                     webhooks: Sequence[Registration] | None = None,
                     timers: TimerChanges | None = None) -> None:
        for hook in self.hooks:
            try:
                hook.after_append(table, new_events, webhooks, timers)
            except (redis.ConnectionError, redis.TimeoutError) as err:
                _log.warning("hook %s could not run after an append to game %s (version %s): "
                             "Redis unavailable (%s)", type(hook).__name__, table.id,
                             table.version, type(err).__name__)
            except Exception:
                _log.exception("hook %s failed after an append to game %s (version %s)",
                               type(hook).__name__, table.id, table.version)

    def after_chat(self, table: Table, entries: Sequence[ChatEntry]) -> None:
        for hook in self.hooks:
            try:
                hook.after_chat(table, entries)
            except (redis.ConnectionError, redis.TimeoutError) as err:
                _log.warning("hook %s could not run after a chat entry of game %s: Redis "
                             "unavailable (%s)", type(hook).__name__, table.id,
                             type(err).__name__)
            except Exception:
                _log.exception("hook %s failed after a chat entry of game %s",
                               type(hook).__name__, table.id)
