"""Rate limits: one table of who may do what how often, enforced by flask-limiter in Redis.

Each rule has a key — the client's address (an IPv6 client's /64, which one host holds
whole) or the caller's bearer token — and a limit in flask-limiter's notation
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

The counters of the rarer rules live in the games' Redis (flask-limiter's sliding-window
counters, one script per check), exact across web processes; on a Redis Cluster, in the
cluster, spread over its masters by key (docs/scaling.md). The two rules of a move are
checked on every move, and there a script each cost more than the move itself: they are
counted in each web process's memory (`api.process_limits`, the same algorithm), which
costs microseconds; with N web processes a client may get up to N times their limits.
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
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import redis
from flask import Flask, Response, g, request
from flask_limiter import Limiter
from limits import parse_many

from api.errors import ApiError
from api.process_limits import SlidingCounts, Verdict, Window
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


def bearer_key() -> str:
    """The caller's token (hashed) as the key of its limits; its address without one."""
    token = _bearer()
    if token is None:
        return client_address()
    return _token_key(token)


@functools.lru_cache(maxsize=4096)
def _token_key(token: str) -> str:
    """(Remembered: a seat moves many times with one token.)"""
    return "token:" + hashlib.sha256(token.encode()).hexdigest()[:32]


_KEYS: Mapping[str, Callable[[], str]] = {ADDRESS: client_address, TOKEN: bearer_key}


@dataclass(frozen=True)
class CounterStorage:
    """Where the counters live, as flask-limiter's storage URI and options."""

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
            service: GameService) -> Limiter | None:
    """Limit `app`'s routes as `ROUTES` says, counting in `storage`; call it after every
    blueprint is registered. None when the limits are off."""
    if not limits.enabled:
        return None
    limiter = Limiter(
        client_address, app=app, strategy="sliding-window-counter", storage_uri=storage.uri,
        storage_options=dict(storage.options), key_prefix="ratelimit",
        headers_enabled=False, swallow_errors=True)
    for (endpoint, method), rules in ROUTES.items():
        view = app.view_functions[endpoint]
        for rule in rules:
            if not RULES[rule].in_process:
                # A route that needs a credential answers a request without one 401 (the
                # `auth_failures` rule counts those), never 429 first.
                # (A rule counted per token has no token to count such a request by.)
                exempt = _no_bearer if (endpoint, method) in NEEDS_CREDENTIAL or \
                    RULES[rule].key == TOKEN else None
                view = _decorator(limiter, limits, rule, methods=[method],
                                  exempt_when=exempt)(view)
        app.view_functions[endpoint] = view
    _only_decorated_routes(app, limiter)
    failures = AuthFailures(limiter, limits, service)
    in_process = InProcess(limits)
    decorated = frozenset(route for route, rules in ROUTES.items()
                          if not all(RULES[rule].in_process for rule in rules))

    def before() -> None:  # (one hook for both: Flask's cost per hook is per request)
        token = _bearer()
        failures.check(token)
        in_process.check(token)

    def after(response: Response) -> Response:
        response = _headers(limiter, decorated, response)
        return failures.count(response)

    app.before_request(before)
    app.after_request(after)
    return limiter


def _only_decorated_routes(app: Flask, limiter: Limiter) -> None:
    """flask-limiter's own hooks run on every request of the app; this API needs none of
    them, and they are dropped. Its `before_request` checks application-wide limits, which
    this API does not set (the routes' own limits are checked by their decorators): it cost
    every request, a view included, 30-100 µs of bookkeeping. Its `after_request` deducts
    conditional costs (`deduct_when`, unused here) and writes its own headers (off: `_headers`
    writes them); its `teardown_request` empties the request's bookkeeping, which lives on
    the request's context and goes with it. Each created that bookkeeping for every
    request, limited or not."""
    for hooks in (app.before_request_funcs, app.after_request_funcs,
                  app.teardown_request_funcs):
        hooks[None] = [f for f in hooks.get(None, []) if not _of(f, limiter)]


def _of(hook: Any, limiter: Limiter) -> bool:
    """Whether `hook` is one of `limiter`'s (a bound method, or a partial of its class's)."""
    if getattr(hook, "__self__", None) is limiter:
        return True
    return isinstance(hook, functools.partial) and limiter in hook.args


def _decorator(limiter: Limiter, limits: RateLimits, rule: str, **options: Any) -> Any:
    spec = RULES[rule]
    value = limits.limit(rule)
    message = _message(limits, rule)
    # Shared: one budget per rule and key, whichever of the rule's routes is called.
    return limiter.shared_limit(value, rule, key_func=_KEYS[spec.key], error_message=message,
                                **options)


class AuthFailures:
    """`auth_failures`, checked before a request with a token is served and counted after
    it was refused (401), with flask-limiter's own counters (a route decorator would cost
    every request of every route its bookkeeping)."""

    def __init__(self, limiter: Limiter, limits: RateLimits, service: GameService) -> None:
        self.limiter = limiter
        self.service = service
        self.items = parse_many(limits.limit("auth_failures"))
        self.message = (f"too many requests: at most "
                        f"{limits.limit('auth_failures').replace(';', ' and ')} "
                        f"{RULES['auth_failures'].what}")

    def check(self, token: str | None) -> None:
        """(`token`: the request's bearer token, read once for both rule kinds.)"""
        if token is None or self._known(token):
            return
        key = client_address()
        try:
            refused = [item for item in self.items
                       if not self.limiter.limiter.test(item, key, "auth_failures")]
        except Exception:  # the counters' Redis: the request goes on, as flask-limiter's do
            log.exception("auth-failure limit not checked")
            return
        if refused:
            stats = self.limiter.limiter.get_window_stats(refused[0], key, "auth_failures")
            reset_s = max(1, math.ceil(stats.reset_time - time.time()))
            raise ApiError(429, "too_many_requests", self.message, headers={
                "Retry-After": str(reset_s), "RateLimit-Limit": str(refused[0].amount),
                "RateLimit-Remaining": "0", "RateLimit-Reset": str(reset_s),
                "RateLimit-Policy": f"{refused[0].amount};w={refused[0].get_expiry()}"})

    def count(self, response: Response) -> Response:
        if response.status_code == 401 and _bearer() is not None:
            key = client_address()
            try:
                for item in self.items:
                    self.limiter.limiter.hit(item, key, "auth_failures")
            except Exception:
                log.exception("auth-failure not counted")
        return response

    def _known(self, token: str) -> bool:
        """A seat's token or a player key this process found valid: not a guess."""
        if is_player_key(token):
            return self.service.knows_player_key(token)
        game_id = (request.view_args or {}).get("game_id")
        return bool(game_id) and self.service.knows_seat_token(game_id, token)


class InProcess:
    """The rules counted in this process (`Rule.in_process`), checked before the routes
    `ROUTES` gives them; the verdict is kept for the answer's headers."""

    def __init__(self, limits: RateLimits) -> None:
        self.counts = SlidingCounts()
        self.routes = {route: [(rule, Window.parse(limits.limit(rule)), _message(limits, rule))
                               for rule in rules if RULES[rule].in_process]
                       for route, rules in ROUTES.items()}

    def check(self, token: str | None) -> None:
        rules = self.routes.get((request.endpoint or "", request.method))
        if not rules:
            return
        address = client_address()  # (`bearer_key` and `client_address`, token read once)
        keys = {TOKEN: address if token is None else _token_key(token), ADDRESS: address}
        verdict = self.counts.check([(f"{rule}:{keys[RULES[rule].key]}", windows)
                                     for rule, windows, _ in rules])
        g.rate_limit = verdict
        if verdict.refused:
            message = next(m for _rule, windows, m in rules if verdict.window in windows)
            raise ApiError(429, "too_many_requests", message,
                           headers={"Retry-After": str(verdict.reset_s),
                                    **_limit_headers(verdict.window.amount, 0,
                                                     verdict.reset_s, verdict.window.seconds)})


def _message(limits: RateLimits, rule: str) -> str:
    return (f"too many requests: at most {limits.limit(rule).replace(';', ' and ')} "
            f"{RULES[rule].what}")


def _limit_headers(amount: int, remaining: int, reset_s: int, window_s: int) -> dict[str, str]:
    return {"RateLimit-Limit": str(amount), "RateLimit-Remaining": str(remaining),
            "RateLimit-Reset": str(reset_s), "RateLimit-Policy": f"{amount};w={window_s}"}


def _no_bearer() -> bool:
    return _bearer() is None


def _bearer() -> str | None:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def _headers(limiter: Limiter, decorated: frozenset[tuple[str, str]],
             response: Response) -> Response:
    """The `RateLimit-*` headers of the limit nearest to refusing, on a limited route's
    answer: the in-process verdict, else flask-limiter's (`decorated`: the routes it
    limits; on the others it has nothing to say)."""
    verdict: Verdict | None = g.get("rate_limit")
    if verdict is not None:
        if not verdict.refused:  # (a refusal carries its headers already)
            response.headers.update(_limit_headers(
                verdict.window.amount, verdict.remaining, verdict.reset_s,
                verdict.window.seconds))
        return response
    if (request.endpoint, request.method) not in decorated:
        return response
    current = limiter.current_limit
    if current is None:
        return response
    reset_s = max(0, math.ceil(current.reset_at - time.time()))
    response.headers["RateLimit-Limit"] = str(current.limit.amount)
    response.headers["RateLimit-Remaining"] = str(current.remaining)
    response.headers["RateLimit-Reset"] = str(reset_s)
    response.headers["RateLimit-Policy"] = \
        f"{current.limit.amount};w={current.limit.get_expiry()}"
    if response.status_code == 429:
        response.headers["Retry-After"] = str(max(1, reset_s))
    return response
