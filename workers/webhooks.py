"""Webhook deliveries as RQ jobs on the `notifications` queue.

`WebhookHooks.after_append` runs in the web process after every append (`after_chat` after
every entry of a game's chat): it asks each of the game's registrations (read by the append
itself, see `RedisEventStore.append`) what the append means to it
(`domain.webhooks.triggers`), records a pending delivery per notification and enqueues
`deliver` for it. `deliver` makes one attempt: it checks the URL again (DNS may have
changed), signs the body (`domain.webhooks.signing`; a chat message's text is put in then,
from the game's chat, so a message hidden meanwhile goes without it), posts it, records the
attempt, and either marks the delivery delivered or failed, or schedules the next attempt
with `enqueue_at` after the backoff of `RetryPolicy` (so each attempt is its own job, with
a deterministic id, and is recorded).
Scheduled attempts are moved into the queue when due by the timer pump of a worker on the
`notifications` queue (`RqHooks.release_scheduled`).

`deliver` reaches the webhook store and the delivery settings (`WEBHOOK_*`, see
`donkeypost.settings`) through its job's context (`workers.context`), which the worker's
composition root built; the hooks get their store and queue from the root as well.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

import redis
from rq import Queue, get_current_job

from domain.chat import ChatEntry
from domain.events import Event
from domain.store import ChatLog, TimerChanges, WebhookStore
from domain.table import Table
from domain.webhooks.deliveries import (
    PENDING,
    Attempt,
    Delivery,
    after_attempt,
    new_delivery_id,
)
from domain.webhooks.receivers import answered, origin_of
from domain.webhooks.registration import Registration
from domain.webhooks.signing import delivery_headers
from domain.webhooks.targets import TargetRefused, TargetUnresolvable
from domain.webhooks.triggers import (
    chat_notifications,
    delivery_body,
    notifications_for,
    with_texts,
)
from workers import context, webhook_sender
from workers.context import WebhookDelivery

QUEUE = "notifications"
JOB_RESULT_TTL_S = 3600
JOB_FAILURE_TTL_S = 7 * 24 * 3600  # (RQ keeps a failed job a year unless told)

log = logging.getLogger(__name__)


def job_id(delivery_id: str, attempt: int) -> str:
    return f"whk-{delivery_id}-{attempt}"


class WebhookHooks:
    """Turns appends into webhook deliveries (the `Hooks` of the service)."""

    def __init__(self, store: WebhookStore, queue: Queue,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.queue = queue
        self.clock = clock

    def timer_changes(self, table: Table, new_events: Sequence[Event]) -> TimerChanges | None:
        return None  # (it arms no timers)

    def after_append(self, table: Table, new_events: Sequence[Event],
                     webhooks: Sequence[Registration] | None = None,
                     timers: TimerChanges | None = None) -> None:
        try:
            self._enqueue(table, new_events, webhooks)
        except (redis.ConnectionError, redis.TimeoutError) as err:
            # Redis went away just after the append: a line, not a traceback per move.
            log.warning("could not queue the webhooks of game %s: Redis unavailable (%s)",
                        table.id, type(err).__name__)
        except Exception:
            # The append is stored and its answer must reach the player: a notification
            # that cannot be queued is logged, not turned into a failed move.
            log.exception("could not queue the webhooks of game %s", table.id)

    def after_chat(self, table: Table, entries: Sequence[ChatEntry]) -> None:
        try:
            self._enqueue(table, (), None, entries)
        except (redis.ConnectionError, redis.TimeoutError) as err:
            log.warning("could not queue the chat webhooks of game %s: Redis unavailable "
                        "(%s)", table.id, type(err).__name__)
        except Exception:
            log.exception("could not queue the chat webhooks of game %s", table.id)

    def _enqueue(self, table: Table, new_events: Sequence[Event],
                 webhooks: Sequence[Registration] | None,
                 chat: Sequence[ChatEntry] = ()) -> None:
        deliveries: list[Delivery] = []
        # The registrations came with the append (a game without any costs nothing).
        found = webhooks if webhooks is not None else self.store.registrations(table.id)
        for reg in found:
            notes = chat_notifications(reg, chat) if chat else \
                notifications_for(reg, table, new_events)
            for note in notes:
                delivery_id = new_delivery_id()
                deliveries.append(Delivery(
                    id=delivery_id, game_id=table.id, hook_id=reg.id, kind=note.kind,
                    version=table.version, created_at=self.clock(),
                    body=delivery_body(delivery_id, reg, table, note).decode()))
        if not deliveries:
            return
        self.store.add_deliveries(deliveries)
        self.queue.enqueue_many([
            Queue.prepare_data(deliver, args=(d.game_id, d.id, 1), job_id=job_id(d.id, 1),
                               result_ttl=JOB_RESULT_TTL_S, failure_ttl=JOB_FAILURE_TTL_S,
                               description=f"webhook {d.id}")
            for d in deliveries])


def deliver(game_id: str, delivery_id: str, attempt: int = 1) -> str:
    """RQ job: attempt number `attempt` of a delivery; returns the delivery's status, or
    "held" when its receiver is blocked after failing (`domain.webhooks.receivers`)."""
    current = context.current()
    webhooks = current.webhooks
    store = webhooks.store
    delivery = store.delivery(game_id, delivery_id)
    if delivery is None or delivery.status != PENDING or len(delivery.attempts) >= attempt:
        return "skipped"  # expired, finished, or this attempt already ran
    reg = store.registration(game_id, delivery.hook_id)
    origin = origin_of(reg.url) if reg is not None else None
    held = store.receiver(origin) if origin is not None else None
    if held is not None and held.blocked_until > time.time():
        # Not now, and not by waiting here: back in the schedule, no attempt counted.
        _schedule(game_id, delivery_id, attempt, held.blocked_until,
                  f"{job_id(delivery_id, attempt)}-held{int(held.blocked_until)}")
        return "held"
    delivery, answer = _attempt(webhooks, delivery, attempt, current.service.store)
    store.save_delivery(delivery)
    if webhooks.on_attempt is not None:
        webhooks.on_attempt(bool(delivery.attempts) and delivery.attempts[-1].succeeded)
    if origin is not None and answer is not None:
        if answered(answer.status_code):
            if held is not None:
                store.save_receiver(origin, None)
        else:
            store.save_receiver(origin, webhooks.receivers.after_failure(held, time.time()))
    if delivery.status == PENDING:
        assert delivery.next_attempt_at is not None
        _schedule(game_id, delivery_id, attempt + 1, delivery.next_attempt_at,
                  job_id(delivery_id, attempt + 1))
    return delivery.status


def _schedule(game_id: str, delivery_id: str, attempt: int, at: float, new_job_id: str) -> None:
    """Attempt `attempt` of the delivery, on this job's queue, at `at` (epoch seconds)."""
    job = get_current_job()
    if job is None:
        raise RuntimeError("deliver schedules its next attempt on its own job's queue: "
                           "run it as an RQ job")
    queue = Queue(job.origin, connection=job.connection)
    # Scheduled jobs are released in whole seconds: round up, so that none comes early.
    due = datetime.fromtimestamp(math.ceil(at), tz=UTC)
    queue.enqueue_at(due, deliver, game_id, delivery_id, attempt, job_id=new_job_id,
                     result_ttl=JOB_RESULT_TTL_S, failure_ttl=JOB_FAILURE_TTL_S,
                     description=f"webhook {delivery_id}")


def _attempt(webhooks: WebhookDelivery, delivery: Delivery, number: int,
             games: ChatLog) -> tuple[Delivery, webhook_sender.Answer | None]:
    """The delivery after one attempt, and the receiver's answer (None: none was asked)."""
    started = time.time()

    def failed(error: str, retryable: bool) -> tuple[Delivery, None]:
        record = Attempt(number=number, at=started, duration_ms=0.0, error=error)
        return after_attempt(delivery, record, webhooks.retry, retryable=retryable), None

    reg = webhooks.store.registration(delivery.game_id, delivery.hook_id)
    if reg is None:
        return failed("the registration was deleted", retryable=False)
    try:
        target = webhooks.targets.check(reg.url)
    except TargetUnresolvable as err:
        return failed(f"{err.code}: {err.message}", retryable=True)
    except TargetRefused as err:
        return failed(f"{err.code}: {err.message}", retryable=False)
    body = delivery.body.encode()
    if delivery.kind == "messages":  # the texts as they are now (a hidden one: none)
        body = with_texts(body, lambda n: _text(games, delivery.game_id, n))
    headers = delivery_headers(reg.secret, delivery.id, delivery.kind, body, started)
    answer = webhook_sender.post(target, body, headers, webhooks.timeout_s,
                                 webhooks.connect_timeout_s)
    record = Attempt(number=number, at=started, duration_ms=answer.duration_ms,
                     status_code=answer.status_code, error=answer.error)
    return after_attempt(delivery, record, webhooks.retry), answer


def _text(games: ChatLog, game_id: str, n: int) -> str | None:
    found = games.read_chat(game_id, after=n - 1, count=1)
    return found[0].text if found else None
