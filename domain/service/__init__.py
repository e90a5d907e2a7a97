"""The service layer: each use case loads a table, decides, appends, and tells the hooks.

One module per job; `GameService` (built once by the application's bootstrap) is the
entry object that hands each call to them. Nothing here knows about HTTP or queues.
- `deps` — the collaborators: the store (`domain.store`'s port), clock, hooks, memory;
- `hooks` — the `Hooks` port (what follows an append) and two plain ones;
- `process_memory` — what one process remembers: facts that never change;
- `loading` — the latest table, in one read at most;
- `folding`, `appending`, `retry` — a batch of new events, its append, the retry loop;
- `create`, `seats`, `act` (with `decide`), `lobby`, `rematch` — the commands;
- `resign`, `leave`, `abort` (through `table_change`, their one loop), `chat` — the table's
  life;
- `queries`, `replay`, `views`, `creator`, `tokens` — reading, and the tokens.
"""

from __future__ import annotations

from domain.service.act import ActResult
from domain.service.create import BOT_LEVELS, DEFAULT_DEADLINE_S, TIMEOUT_POLICIES
from domain.service.game_service import GameService
from domain.service.hooks import FanOutHooks, Hooks, NoHooks
from domain.service.loading import Loaded
from domain.service.process_memory import Remembered
from domain.service.views import table_view

__all__ = [
    "BOT_LEVELS",
    "DEFAULT_DEADLINE_S",
    "TIMEOUT_POLICIES",
    "ActResult",
    "FanOutHooks",
    "GameService",
    "Hooks",
    "Loaded",
    "NoHooks",
    "Remembered",
    "table_view",
]
