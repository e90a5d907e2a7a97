"""What the service tells after every append: the `Hooks` port and two plain ones."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Protocol

from domain.chat import ChatEntry
from domain.events import Event
from domain.table import Table
from domain.webhooks.registration import Registration

_log = logging.getLogger(__name__)


class Hooks(Protocol):
    """What happens after an append (bot jobs, deadlines, notifications), and after a new
    entry of a game's chat (notifications)."""

    def after_append(self, table: Table, new_events: Sequence[Event],
                     webhooks: Sequence[Registration] | None = None) -> None:
        """`webhooks`: the game's registrations as the append found them (None: not
        read; a hook that needs them reads them)."""
        ...

    def after_chat(self, table: Table, entries: Sequence[ChatEntry]) -> None: ...


class NoHooks:
    def after_append(self, table: Table, new_events: Sequence[Event],
                     webhooks: Sequence[Registration] | None = None) -> None:
        pass

    def after_chat(self, table: Table, entries: Sequence[ChatEntry]) -> None:
        pass


class FanOutHooks:
    """Several hooks objects behind the one the service calls, each told of every append.

    The events are stored before any hook runs, so a hook that fails must not turn a
    recorded move into an error for the caller, nor keep the next hooks from running: the
    failure is logged with its traceback, and what the hook missed is rebuilt from the
    stored games (the workers rebuild bot turns and deadlines when they start and on every
    sweep)."""

    def __init__(self, hooks: Sequence[Hooks]) -> None:
        self.hooks = tuple(hooks)

    def after_append(self, table: Table, new_events: Sequence[Event],
                     webhooks: Sequence[Registration] | None = None) -> None:
        for hook in self.hooks:
            try:
                hook.after_append(table, new_events, webhooks)
            except Exception:
                _log.exception("hook %s failed after an append to game %s (version %s)",
                               type(hook).__name__, table.id, table.version)

    def after_chat(self, table: Table, entries: Sequence[ChatEntry]) -> None:
        for hook in self.hooks:
            try:
                hook.after_chat(table, entries)
            except Exception:
                _log.exception("hook %s failed after a chat entry of game %s",
                               type(hook).__name__, table.id)
