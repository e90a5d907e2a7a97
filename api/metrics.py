"""The service's metrics, in the Prometheus text format at `GET /metrics`.

Mode: `prometheus_client`'s multiprocess mode whenever `PROMETHEUS_MULTIPROC_DIR` names a
folder (`donkeypost serve` makes one under its data folder and empties it at each start;
under the Procfile set it to an empty folder of each host's, the same for its web and
worker processes). Each process, a web worker or an RQ worker (and each job's work horse),
writes its counters and histograms to memory-mapped files there, and a scrape adds them
up: a counter or histogram is the sum over every process that ever ran since the folder
was emptied, whichever web process answers the scrape. Without the variable the figures are
the answering process's only (right for one process, as in the tests).

What is measured where:
- per request (`api.observe.Observed` hands each finished request here):
  `donkeypost_http_requests_total{method,route,status}` and
  `donkeypost_http_request_duration_seconds{method,route}` (a move is `POST
  /games/{game_id}/actions`, a view `GET /games/{game_id}`); rate-limit refusals are the
  requests answered 429 (nothing else answers it); requests in flight per process
  (`donkeypost_http_requests_in_flight{route}`, one series per process: its `pid`) — the
  event streams and long-polls each process holds are those of the routes
  `/games/{game_id}/events/stream` and `/games/{game_id}/events`;
- per append, in every process that appends (`donkeypost.metrics_wiring`):
  `donkeypost_append_duration_seconds` (the append's one round trip and script, alone),
  `donkeypost_appends_total{game_type}` (a move, a join, a bot's move, a timeout) and
  `donkeypost_events_total{game_type,event_type}` (`game_finished`: the games that ended);
- per webhook attempt (the notifications worker): `donkeypost_webhook_deliveries_total
  {outcome}`; per notification the notifier sends (the notifications worker):
  `donkeypost_notifications_total{channel,outcome}` (`email`, `confirm`, `push`, `webhook`
  for a player's webhook; `sent` or `failed`: a failure is tried again as the notifier
  says, each attempt counted);
- at each scrape, read from Redis (`StateCollector`: one pipeline, a fixed number of keys
  whatever the number of games): games by type and status (the listing indexes' sizes),
  each queue's depth and the age of its oldest job, the timers due and not yet released
  and the oldest one's lateness, failed jobs per queue, each kind of worker's heartbeat age,
  Redis's used memory, and the round trip of a PING from the scraping process.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
# Buckets for requests and appends: a move takes a few ms; a long-poll up to a minute.
_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
            10.0, 30.0, 60.0)


def multiprocess() -> bool:
    return bool(os.environ.get(MULTIPROC_ENV))


# This process's metrics (in multiprocess mode their values go to the folder's files).
OWN = CollectorRegistry(auto_describe=True)

REQUESTS = Counter("donkeypost_http_requests", "HTTP requests answered",
                   ["method", "route", "status"], registry=OWN)
REQUEST_SECONDS = Histogram("donkeypost_http_request_duration_seconds",
                            "time from a request's arrival to its answer's last byte",
                            ["method", "route"], buckets=_BUCKETS, registry=OWN)
IN_FLIGHT = Gauge("donkeypost_http_requests_in_flight",
                  "requests being answered by this process (event streams and long-polls "
                  "included)", ["route"], multiprocess_mode="liveall", registry=OWN)
APPEND_SECONDS = Histogram("donkeypost_append_duration_seconds",
                           "an append to a game's log alone (one script run)",
                           buckets=_BUCKETS, registry=OWN)
APPENDS = Counter("donkeypost_appends",
                  "appends to a game's log (a move, a join, a bot's move, a timeout...)",
                  ["game_type"], registry=OWN)
EVENTS = Counter("donkeypost_events", "events appended, by type (`game_finished`: games "
                 "that ended)", ["game_type", "event_type"], registry=OWN)
WEBHOOKS = Counter("donkeypost_webhook_deliveries",
                   "webhook delivery attempts by outcome (delivered, failed)", ["outcome"],
                   registry=OWN)
NOTIFICATIONS = Counter("donkeypost_notifications",
                        "notifications sent by the notifier, by channel and outcome (sent, "
                        "failed)", ["channel", "outcome"], registry=OWN)


class RequestMetrics:
    """What `api.observe.Observed` hands each request to."""

    def __init__(self) -> None:
        self._in_flight: dict[str, Any] = {}

    def routed(self, route: str) -> Callable[[], None]:
        gauge = self._in_flight.get(route)
        if gauge is None:
            gauge = self._in_flight[route] = IN_FLIGHT.labels(route)
        gauge.inc()
        return gauge.dec

    def observe_request(self, method: str, route: str, status: int,
                        duration_s: float) -> None:
        REQUESTS.labels(method, route, str(status)).inc()
        REQUEST_SECONDS.labels(method, route).observe(duration_s)


def observe_append(seconds: float) -> None:
    APPEND_SECONDS.observe(seconds)


def count_appended(game_type: str, event_types: Iterable[str]) -> None:
    APPENDS.labels(game_type).inc()
    for event_type in event_types:
        EVENTS.labels(game_type, event_type).inc()


def count_webhook(delivered: bool) -> None:
    WEBHOOKS.labels("delivered" if delivered else "failed").inc()


def count_notifications(channel: str, sent: bool, n: int = 1) -> None:
    NOTIFICATIONS.labels(channel, "sent" if sent else "failed").inc(n)


class StateCollector:
    """The gauges read from Redis at each scrape (see the module's text). `read` returns
    the values: {name: [(labels, value)]}; kept apart so a test can check it."""

    def __init__(self, read: Callable[[], Mapping[str, Sequence[tuple[dict[str, str], float]]]]
                 ) -> None:
        self._read = read

    def describe(self) -> Iterable[Any]:
        return []

    def collect(self) -> Iterable[Any]:
        helps = STATE_HELP
        for name, samples in self._read().items():
            labels = sorted(samples[0][0]) if samples else []
            family = GaugeMetricFamily(name, helps.get(name, name), labels=labels)
            for sample_labels, value in samples:
                family.add_metric([sample_labels[k] for k in labels], value)
            yield family


STATE_HELP = {
    "donkeypost_games": "games by type and status (the listing indexes)",
    "donkeypost_queue_jobs": "jobs waiting in each queue",
    "donkeypost_queue_oldest_job_age_seconds": "how long the oldest waiting job has waited",
    "donkeypost_timers_due": "timers (deadlines, bot delays, retries) due and not released",
    "donkeypost_timers_oldest_due_seconds": "how late the most overdue timer is",
    "donkeypost_jobs_failed": "failed jobs kept per queue (kept a week)",
    "donkeypost_worker_heartbeat_age_seconds": "since each kind of worker last beat",
    "donkeypost_redis_used_memory_bytes": "the games' Redis's used memory",
    "donkeypost_redis_round_trip_seconds": "a PING to the games' Redis from this process",
    "donkeypost_scrape_read_seconds": "reading these gauges from Redis",
}


def scrape(state: StateCollector | None) -> tuple[bytes, str]:
    """A scrape: every process's metrics in multiprocess mode (else this process's), and
    the state read from Redis."""
    if multiprocess():
        processes = CollectorRegistry()
        MultiProcessCollector(processes)
    else:
        processes = OWN
    body = generate_latest(processes)
    if state is not None:
        read = CollectorRegistry(auto_describe=False)
        read.register(state)
        body += generate_latest(read)
    return body, CONTENT_TYPE_LATEST
