"""A webhook receiver that never answers cannot hold up other games' deliveries: one attempt
waits out its timeout, then the receiver is blocked and its other deliveries go back to
the schedule without an attempt, while the next game's delivery is sent at once."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import msgspec

from domain.table import to_act
from domain.webhooks.deliveries import PENDING
from domain.webhooks.registration import new_registration
from donkeypost.bootstrap import bootstrap, rq_worker
from donkeypost.settings import Settings
from tests.support.games import games_under_test
from tests.support.receiver import receiving
from workers.hooks import NOTIFICATIONS

TIMEOUT_S = 1.0
STUCK_DELIVERIES = 10


@contextmanager
def never_answering() -> Iterator[str]:
    """A loopback port that takes connections (the kernel's backlog) and never answers."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/hook"


def _game(service):
    table = service.create("ochs-und-esel", None, [{"kind": "human"}] * 3, deadline_s=None)
    for name in ("ann", "bob", "cy"):
        _seat, _token, table = service.join(table.id, name)
    return table


def _move(service, table):
    game = games_under_test().game(table.type)
    seat = min(to_act(table, game))
    action = msgspec.to_builtins(game.legal_actions(table.game, seat)[0])
    return service.act(table.id, seat, action).table


def test_a_receiver_that_never_answers_does_not_delay_another_games_delivery(
        monkeypatch, redis_url, redis_client):
    for name, value in {"WEBHOOK_ALLOWED_NETWORKS": "127.0.0.0/8",
                        "WEBHOOK_ALLOWED_PORTS": "1024-65535",
                        "WEBHOOK_TIMEOUT_S": str(TIMEOUT_S),
                        "WEBHOOK_CONNECT_TIMEOUT_S": str(TIMEOUT_S),
                        "REDIS_URL": redis_url}.items():
        monkeypatch.setenv(name, value)
    components = bootstrap(Settings.from_env())
    service, hooks = components.service, components.webhook_store
    with never_answering() as stuck_url, receiving() as receiver:
        stuck, other = _game(service), _game(service)
        now = time.time()
        hooks.add(new_registration(stuck.id, None, stuck_url, ("events",), now), limit=5)
        hooks.add(new_registration(other.id, None, receiver.url, ("events",), now), limit=5)
        for _ in range(STUCK_DELIVERIES):  # queued first: every move a delivery
            stuck = _move(service, stuck)
        _move(service, other)

        worker = rq_worker(components, [NOTIFICATIONS])
        started = time.monotonic()
        arrived: list[float] = []

        def watch() -> None:
            while not receiver.requests and time.monotonic() - started < 30:
                time.sleep(0.01)
            arrived.append(time.monotonic() - started)

        watcher = threading.Thread(target=watch)
        watcher.start()
        worker.work(burst=True, logging_level="WARNING")
        watcher.join()

    # One attempt waited out its timeout; the other game's delivery came right after it,
    # not after ten of them.
    assert len(receiver.requests) == 1
    assert arrived[0] < TIMEOUT_S + 1.5, arrived
    stuck_hook = hooks.registrations(stuck.id)[0]
    deliveries = hooks.deliveries(stuck.id, stuck_hook.id)
    assert len(deliveries) == STUCK_DELIVERIES
    assert all(d.status == PENDING for d in deliveries)
    attempted = [d for d in deliveries if d.attempts]
    assert len(attempted) == 1 and attempted[0].attempts[0].status_code is None
    assert "Timeout" in (attempted[0].attempts[0].error or "")
    # The others were put back in the schedule for when the receiver's block ends.
    scheduled = redis_client.zcard(f"rq:scheduled:{NOTIFICATIONS}")
    assert scheduled == STUCK_DELIVERIES  # nine held, and the failed one's retry
