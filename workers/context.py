"""What a job acts through, handed to it by the worker that runs it.

A job takes ids only (they are what RQ stores); the objects it needs — the game service, the
webhook store and delivery settings — are built once per worker process by the composition
root (`donkeypost.bootstrap`) and held by the worker (`workers.runner.GameWorker`), which
makes them the job's context while it performs it (`running`). A job reads them with
`current()`. Nothing is built here and nothing lingers between jobs: a job run by a worker
that does not provide a context (e.g. a plain `rq worker`) fails with an error saying so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from domain.archive.reading import ReadCopies
from domain.bots.search_terms import Budget
from domain.service import GameService
from domain.service.retention import RetentionPolicy
from domain.store import WebhookStore
from domain.store.port import ArchiveStore
from domain.webhooks.deliveries import RetryPolicy
from domain.webhooks.receivers import ReceiverBackoff
from domain.webhooks.targets import TargetPolicy

if TYPE_CHECKING:
    from workers.notify import Notifier


@dataclass(frozen=True)
class WebhookDelivery:
    """What sending a webhook delivery needs."""

    store: WebhookStore
    retry: RetryPolicy
    targets: TargetPolicy
    timeout_s: float  # each read and write of an attempt
    connect_timeout_s: float = 2.0
    receivers: ReceiverBackoff = field(default_factory=ReceiverBackoff)
    # Told of each attempt's outcome (True: delivered), e.g. the metrics; None: nobody.
    on_attempt: Callable[[bool], None] | None = None


@dataclass(frozen=True)
class JobContext:
    service: GameService  # its hooks follow a job's move like any other (bots, deadlines, …)
    webhooks: WebhookDelivery
    retention: RetentionPolicy = field(default_factory=RetentionPolicy)  # what sweeps delete
    archives: ArchiveStore | None = None  # the finished games' archive records
    archive_after_s: float = 3600.0  # a game over is archived this long after its end
    # How long the copy of what an archived game's reads need is kept after its archiving.
    archive_copies: ReadCopies = field(default_factory=ReadCopies)
    # Turns players' streams into e-mail and Web Push (`workers.notify`), in the workers
    # serving the notifications queue; None: not here.
    notifier: Notifier | None = None
    # How long each searching bot level may think a move (`DONKEYPOST_STRONG_MS`, …); a
    # level not named: the bots' default (`domain.bots.levels`).
    bot_budgets: Mapping[str, Budget] = field(default_factory=dict)


_current: ContextVar[JobContext] = ContextVar("donkeypost_job_context")


class NoJobContext(RuntimeError):
    def __init__(self) -> None:
        super().__init__("this job needs the objects its worker holds: run it on "
                         "`donkeypost worker` (a plain `rq worker` does not provide them)")


def current() -> JobContext:
    """The context of the job being performed."""
    try:
        return _current.get()
    except LookupError:
        raise NoJobContext() from None


@contextmanager
def running(context: JobContext) -> Iterator[JobContext]:
    """Make `context` the current one for what runs inside (one job)."""
    token = _current.set(context)
    try:
        yield context
    finally:
        _current.reset(token)
