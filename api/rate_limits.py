"""Rate limits: one table of who may do what how often, enforced by one limiter
(`RateLimiter`).

Each rule has a key — the client's address (an IPv6 client's /64, which one host holds
whole) or the caller's bearer token — and a limit in the `limits` library's notation
(`10/second;300/minute`: both apply). The routes a rule covers are listed in `ROUTES`,
by endpoint and method: a new route is limited by adding its line there.

| rule | key | what | counted |
|---|---|---|---|
| `create` | address | `POST /games`, `POST /games/{id}/rematch` | Redis |
| `join` | address | `POST /games/{id}/players` | Redis |
| `register` | address | `POST /players`, writes to `/players/me…`, e-mail unsubscribe | Redis |
| `act` | token | `POST …/actions`, `/back`, `/cancel`, `/resign`, `/leave`, `/abort` … | process |
| `act_address` | address | the same, from one address (many seats) | process |
| `webhooks` | token | webhooks, push subscriptions, notification preferences | Redis |
| `chat` | token | `POST /games/{id}/messages`, and hiding one | Redis |
| `stream_tickets` | token | `POST …/events/stream/tickets` (a game's, a player's) | Redis |
| `auth_failures` | address | every request with a token that is refused (401) | Redis |

(`act` also covers `POST …/take-back` and `PUT …/forced-moves`; `register` a player's keys,
settings and vacations.)

`auth_failures` counts only refusals, but is checked before the token is: once an address
has failed too often, its requests with a token are answered 429 whether the token is good
or not, so trying tokens teaches nothing. A seat's token or a player key this process
already found valid skips that check (it cannot be a guess), so playing costs no extra
round trip for it.

One algorithm counts them all, the sliding window counter, in one of two places
(`api.limit_counters`): the rarer rules in the games' Redis (the `limits` library's
counters, one script per window), exact across web processes, on a Redis Cluster spread
over its masters by key (docs/scaling.md); the two rules of a move, checked on every move,
where a script each would cost more than the move itself, in each web process's memory,
which costs microseconds (with N web processes a client may get up to N times their
limits). The limiter is two Flask hooks and nothing else of Flask's: no route is wrapped.
A refusal is `429 too_many_requests` in the shared error shape with `Retry-After`; every
limited answer carries `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`
(seconds) and `RateLimit-Policy` for the limit nearest to refusing. If Redis cannot count,
the request goes on (the store itself answers then).

The defaults let a bot client play many games at once from one address: a seat may move
10 times a second, an address 100 times a second across its seats; creating 20 games a
minute (200 an hour) and joining 60 seats a minute. `RATE_LIMITS=off` turns them all off
(the benchmarks do, and say so), `RATE_LIMIT_<RULE>` sets one (see `donkeypost.settings`).
"""

from __future__ import annotations

import functools
import hashlib
import ipaddress
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import redis
from flask import Flask, Response, g, request
from limits import parse_many
from limits.storage import storage_from_string

from api.errors import ApiError
from api.limit_counters import RedisCounts, SlidingCounts, Verdict, Window
from domain.players.credentials import is_player_key
from domain.service import GameService

log = logging.getLogger(__name__)

ADDRESS, TOKEN = "address", "token"


@dataclass(frozen=True)
class Rule:
    key: str  # ADDRESS or TOKEN
    what: str  # for people, in the 429's message
    in_process: bool = False  # counted in each web process (see the module), else in Redis


RULES: Mapping[str, Rule] = {
    "create": Rule(ADDRESS, "games created from one address"),
    "join": Rule(ADDRESS, "seats taken from one address"),
    "register": Rule(ADDRESS, "players registered or keys issued from one address"),
    "act": Rule(TOKEN, "actions of one seat", in_process=True),
    "act_address": Rule(ADDRESS, "actions from one address", in_process=True),
    "webhooks": Rule(TOKEN, "webhook changes with one token"),
    "chat": Rule(TOKEN, "chat messages (and hidings) with one token"),
    "stream_tickets": Rule(TOKEN, "stream tickets taken with one token"),
    "auth_failures": Rule(ADDRESS, "refused tokens from one address"),
}

DEFAULT_LIMITS: Mapping[str, str] = {
    "create": "20/minute;200/hour",
    "join": "60/minute;600/hour",
    "register": "10/minute;100/hour",
    "act": "10/second;300/minute",
    "act_address": "100/second;3000/minute",
    "webhooks": "20/minute;100/hour",
    "chat": "5/10seconds;30/minute;300/hour",
    # A browser takes one per (re)connection of its event stream.
    "stream_tickets": "30/minute;600/hour",
    "auth_failures": "30/minute;300/hour",
}

# (endpoint, method) -> the rules that limit it (`auth_failures` covers every route).
ROUTES: Mapping[tuple[str, str], tuple[str, ...]] = {
    ("games.Games", "POST"): ("create",),
    ("games.RematchResource", "POST"): ("create",),
    ("games.Players", "POST"): ("join",),
    ("players.Players", "POST"): ("register",),
    ("players.Keys", "POST"): ("register",),
    ("players.Me", "DELETE"): ("register",),
    ("games.Actions", "POST"): ("act", "act_address"),
    ("games.Back", "POST"): ("act", "act_address"),
    ("games.Cancel", "POST"): ("act", "act_address"),
    ("table_life.Resign", "POST"): ("act", "act_address"),
    ("table_life.Leave", "POST"): ("act", "act_address"),
    ("table_life.Abort", "POST"): ("act", "act_address"),
    ("table_life.Abort", "DELETE"): ("act", "act_address"),
    ("webhooks.Webhooks", "POST"): ("webhooks",),
    ("webhooks.Webhook", "DELETE"): ("webhooks",),
    ("chat.Messages", "POST"): ("chat",),
    ("chat.HiddenMessage", "POST"): ("chat",),
    ("stream.StreamTicket", "POST"): ("stream_tickets",),
    ("player_events.Tickets", "POST"): ("stream_tickets",),
    ("notifications.Preferences", "PUT"): ("webhooks",),
    ("notifications.Subscriptions", "POST"): ("webhooks",),
    ("notifications.Subscription", "DELETE"): ("webhooks",),
    ("notifications.PlayerWebhooks", "POST"): ("webhooks",),
    ("notifications.PlayerWebhook", "DELETE"): ("webhooks",),
    ("notifications.Unsubscribe", "POST"): ("register",),
    ("clocks.TakeBack", "POST"): ("act", "act_address"),
    ("clocks.SeatForcedMoves", "PUT"): ("act", "act_address"),
    ("clocks.Settings", "PUT"): ("register",),
    ("clocks.Vacation", "POST"): ("register",),
    ("clocks.Vacation", "DELETE"): ("register",),
}
# Of those, the routes that refuse a request without `Authorization` (401).
NEEDS_CREDENTIAL = frozenset({("players.Keys", "POST"), ("players.Me", "DELETE"),
                              ("clocks.Settings", "PUT"), ("clocks.Vacation", "POST"),
                              ("clocks.Vacation", "DELETE")})


@dataclass(frozen=True)
class RateLimits:
    """The limits in force: `enabled`, and rule -> limit (defaults for the rules not
    given). A limit is checked when it is read, so a bad one stops the process at start."""

    enabled: bool = True
    limits: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_LIMITS))

    def __post_init__(self) -> None:
        object.__setattr__(self, "limits", {**DEFAULT_LIMITS, **self.limits})
        unknown = set(self.limits) - set(RULES)
        if unknown:
            raise ValueError(f"unknown rate limit rules: {sorted(unknown)}")
        for rule, value in self.limits.items():
            try:
                parse_many(value)
            except ValueError as err:
                raise ValueError(f"rate limit {rule}={value!r}: {err}") from None

    @classmethod
    def off(cls) -> RateLimits:
        return cls(enabled=False)

    def limit(self, rule: str) -> str:
        return self.limits[rule]


def client_address() -> str:
    """The client's address as the key of its limits: an IPv6 client by its /64."""
    return _address_key(request.remote_addr or "unknown")


@functools.lru_cache(maxsize=4096)
def _address_key(raw: str) -> str:
    """(Remembered: parsing an address costs more than counting a request.)"""
    try:
        address = ipaddress.ip_address(raw)
    except ValueError:
        return f"addr:{raw}"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return f"addr:{address.ipv4_mapped}"
        return f"addr:{ipaddress.ip_network(f'{address}/64', strict=False)}"
    return f"addr:{address}"


@functools.lru_cache(maxsize=4096)
def _token_key(token: str) -> str:
    """(Remembered: a seat moves many times with one token.)"""
    return "token:" + hashlib.sha256(token.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class CounterStorage:
    """Where the counters kept in Redis live, as the `limits` library's storage URI and
    options."""

    uri: str
    options: Mapping[str, Any]

    @classmethod
    def of(cls, client: redis.Redis) -> CounterStorage:
        """In the Redis server of `client`, through its connection pool."""
        return cls("redis://", {"connection_pool": client.connection_pool})

    @classmethod
    def cluster(cls, nodes: Sequence[tuple[str, int]],
                options: Mapping[str, Any]) -> CounterStorage:
        """In a Redis Cluster, through a cluster client of the limiter's own built with
        `options` (each counter's keys share a hash tag: one slot per counter)."""
        where = ",".join(f"{host}:{port}" for host, port in nodes)
        return cls(f"redis+cluster://{where}", options)


def install(app: Flask, limits: RateLimits, storage: CounterStorage,
            service: GameService) -> RateLimiter | None:
    """Limit `app`'s routes as `ROUTES` says, counting the rules of a move in this process
    and the others in `storage`. None when the limits are off."""
    if not limits.enabled:
        return None
    limiter = RateLimiter(limits, storage, service)
    app.before_request(limiter.before)
    app.after_request(limiter.after)
    return limiter


class RateLimiter:
    """The one rate limiter: for each request, the rules of its route (`ROUTES`) and
    `auth_failures`, each counted where `Rule.in_process` says (`api.limit_counters`: this
    process's memory, or Redis), and one verdict: a 429 in the shared shape, else the
    `RateLimit-*` headers of the window nearest to refusing.

    `auth_failures` counts only refusals, but is checked before the token is: once an
    address has failed too often, its requests with a token are answered 429, good token or
    not. A token this process already found valid (a seat's, a player's key) skips that
    check. If Redis cannot count, the request goes on (the store itself answers then)."""

    # At most one line in the log per this many seconds while Redis cannot count.
    QUIET_S = 60.0

    def __init__(self, limits: RateLimits, storage: CounterStorage,
                 service: GameService) -> None:
        self.service = service
        self.memory = SlidingCounts()
        self.redis = RedisCounts(storage_from_string(storage.uri, **storage.options))
        self.routes = {route: [(rule, Window.parse(limits.limit(rule))) for rule in rules]
                       for route, rules in ROUTES.items()}
        self.messages = {rule: _message(limits, rule) for rule in RULES}
        self.auth_windows = Window.parse(limits.limit("auth_failures"))
        self._quiet_until = 0.0

    def before(self) -> None:
        token = _bearer()
        if token is not None and not self._known(token):
            self._check_auth_failures()
        route = (request.endpoint or "", request.method)
        rules = self.routes.get(route)
        if rules:
            verdict = self._check(route, rules, token)
            g.rate_limit = verdict
            if verdict is not None and verdict.refused:
                raise self._refusal(verdict)

    def after(self, response: Response) -> Response:
        verdict: Verdict | None = g.get("rate_limit")
        if verdict is not None and not verdict.refused:  # (a refusal has its headers)
            response.headers.update(_limit_headers(verdict.window.amount, verdict.remaining,
                                                   verdict.reset_s, verdict.window.seconds))
        if response.status_code == 401 and _bearer() is not None:
            self._redis(lambda: self.redis.count(self._auth_key(), self.auth_windows))
        return response

    def _check(self, route: tuple[str, str], rules: list[tuple[str, list[Window]]],
               token: str | None) -> Verdict | None:
        """The move's rules in memory first (a refusal there costs no round trip), then
        the others in Redis; the verdict that refused, else the one with least left."""
        address = client_address()
        keys = {TOKEN: address if token is None else _token_key(token), ADDRESS: address}
        here = [(f"{rule}:{keys[RULES[rule].key]}", windows)
                for rule, windows in rules if RULES[rule].in_process]
        verdicts = [self.memory.check(here)] if here else []
        if verdicts and verdicts[0].refused:
            return verdicts[0]
        # Without a token, a rule counted per token has nothing to count by, and a route
        # that needs a credential answers 401 (counted by `auth_failures`), never 429 first.
        anonymous = token is None
        there = [(f"{rule}:{keys[RULES[rule].key]}", windows) for rule, windows in rules
                 if not RULES[rule].in_process and not (
                     anonymous and (route in NEEDS_CREDENTIAL or RULES[rule].key == TOKEN))]
        if there:
            found = self._redis(lambda: self.redis.check(there))
            if found is not None:
                verdicts.append(found)
        refused = [v for v in verdicts if v.refused]
        if refused:
            return refused[0]
        return min(verdicts, key=lambda v: v.remaining, default=None)

    def _check_auth_failures(self) -> None:
        refused = self._redis(lambda: self.redis.refused(self._auth_key(), self.auth_windows))
        if refused is not None:
            raise self._refusal(refused)

    def _auth_key(self) -> str:
        return f"auth_failures:{client_address()}"

    def _refusal(self, verdict: Verdict) -> ApiError:
        rule = verdict.key.partition(":")[0]
        return ApiError(429, "too_many_requests", self.messages[rule], headers={
            "Retry-After": str(verdict.reset_s),
            **_limit_headers(verdict.window.amount, 0, verdict.reset_s,
                             verdict.window.seconds)})

    def _redis(self, count: Callable[[], Verdict | None]) -> Verdict | None:
        """`count()`, or None (and one line in the log now and then) when Redis cannot."""
        try:
            return count()
        except Exception as err:  # the counters' Redis: the request goes on
            now = time.monotonic()
            if now >= self._quiet_until:
                self._quiet_until = now + self.QUIET_S
                log.warning("rate limits not counted in Redis (%s: %s); requests go on",
                            type(err).__name__, err)
            return None

    def _known(self, token: str) -> bool:
        """A seat's token or a player key this process found valid: not a guess."""
        if is_player_key(token):
            return self.service.knows_player_key(token)
        game_id = (request.view_args or {}).get("game_id")
        return bool(game_id) and self.service.knows_seat_token(game_id, token)


def _message(limits: RateLimits, rule: str) -> str:
    return (f"too many requests: at most {limits.limit(rule).replace(';', ' and ')} "
            f"{RULES[rule].what}")


def _limit_headers(amount: int, remaining: int, reset_s: int, window_s: int) -> dict[str, str]:
    return {"RateLimit-Limit": str(amount), "RateLimit-Remaining": str(remaining),
            "RateLimit-Reset": str(reset_s), "RateLimit-Policy": f"{amount};w={window_s}"}


def _bearer() -> str | None:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None
