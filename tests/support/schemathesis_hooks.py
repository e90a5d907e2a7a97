"""Schemathesis hooks for donkeypost: tokens like a client holds them, and two checks.

Load with `SCHEMATHESIS_HOOKS=tests.support.schemathesis_hooks` (`st run`, see the README).

- Tokens: the seat tokens, creator tokens and player keys that `joinGame`, `createGame`
  and `registerPlayer` hand out are remembered, and each request carries one of them the
  way a client would: a player's own operations their key, a cancel the creator's token,
  an action the token of the seat whose legal action it is (found by asking the server,
  `DONKEYPOST_API`), a webhook's operations its owner's token, a read a seat's token or
  none (a spectator). OpenAPI links create the games, join the seats and post
  the legal actions; they cannot carry a token from one request to the next.
- Half of the new games seat humans only (the run has no workers: a bot to act would stop
  the game). Other players take the seats of a new game: all of them (the game starts and
  has legal actions to post) or all but one (for the run's join to take).
- A webhook's URL must resolve to an allowed address, and this machine has no DNS: half
  of the generated http(s) URLs name an address the server under test allows.
- Prepared games (`DONKEYPOST_FIXTURES`, a JSON file, optional): `away` lists `[game id,
  token]` of away seats, which only missed deadlines make and links cannot wait for;
  `comeBack` is sent to them too. `playing` lists `[game id, [token of each seat]]` of
  games being played, `finished` the same of finished games (for `rematchGame`), `open`
  ids of tables with many free seats (for `joinGame`), `webhooks` `[game id, webhook id,
  its owner's token]`, `cancellable` `[game id, its creator token]` of games waiting for
  players (for `cancelGame`, whose link from `createGame` a short run may not follow),
  `table_life` `[game id, [token of each seat]]` of games of four people being played
  (for resigning, leaving, voting to abort and chatting: what they end does not end the
  games `postAction` plays), `chat` `[game id, creator token, messages in its chat]`
  (for `hideMessage`); `players` lists `[player key, [push subscription ids], [webhook
  ids]]` of players holding some (for deleting them), `erasable` the keys of players the
  run may erase (no other operation uses them), `email_links` `[[confirm tokens],
  [unsubscribe tokens]]` as the e-mails carry them (for the links' operations),
  `taking_back` `[game id, [token of each seat]]` of games whose last action its seat may
  take back (for `takeBack`, which a run's random moves seldom allow);
  `postAction` is sent to the games being played too, and half of its schema-valid
  cases on a game whose tokens the run holds post a legal action read from the view, as
  a player does (the fuzzing phase would otherwise never post one).
- A player's own operations (only a player key opens them) carry a key the run was
  handed; a new push subscription, half the time, a browser's real keys and an endpoint
  the server allows.
- Checks: every error's `code` is one the document lists for its status (`x-codes`), and
  every operation tested answered a 2xx at least once.
"""

from __future__ import annotations

import json
import os
import random
import threading
from pathlib import Path
from typing import Any

import httpx
import schemathesis
from hypothesis import strategies

from tests.support.push_service import BrowserSubscription

API = os.environ.get("DONKEYPOST_API", "http://127.0.0.1:8000")
ALLOWED_ADDRESS = "203.0.113.7"  # the server under test allows 203.0.113.0/24
_lock = threading.Lock()
_seats: dict[str, dict[int, str]] = {}  # game -> seat -> token
_creators: dict[str, str] = {}  # game -> creator token
_owners: dict[tuple[str, str], str] = {}  # (game, webhook) -> the registering token
_keys: list[str] = []  # the player keys handed out (and not rotated away)
_fixtures: dict[str, Any] = json.loads(Path(os.environ["DONKEYPOST_FIXTURES"]).read_text()) \
    if os.environ.get("DONKEYPOST_FIXTURES") else {"away": [], "playing": []}
_away: list[tuple[str, str]] = [(game, token) for game, token in _fixtures["away"]]
_away_tokens = dict(_away)
_playing = [game for game, _tokens in _fixtures["playing"]]
_table_life = [game for game, _tokens in _fixtures.get("table_life", [])]
_chats = [{"game_id": game, "n": n} for game, _creator, count in _fixtures.get("chat", [])
          for n in range(1, count + 1)]
_creators.update({game: creator for game, creator, _count in _fixtures.get("chat", [])})
_finished = [game for game, _tokens in _fixtures.get("finished", [])]
_open = list(_fixtures.get("open", []))
_cancellable = [game for game, _token in _fixtures.get("cancellable", [])]
_creators.update(dict(_fixtures.get("cancellable", [])))
_hooks = [(game, hook) for game, hook, _token in _fixtures.get("webhooks", [])]
_owners.update({(game, hook): token for game, hook, token in _fixtures.get("webhooks", [])})
_taking_back = [game for game, _tokens in _fixtures.get("taking_back", [])]
_seats.update({game: dict(enumerate(tokens))
               for game, tokens in _fixtures["playing"] + _fixtures.get("finished", []) +
               _fixtures.get("table_life", []) + _fixtures.get("taking_back", [])})
_held: dict[str, str] = {}  # a player's push subscription or webhook id -> their key
for _key, _subs, _player_hooks in _fixtures.get("players", []):
    _keys.append(_key)
    _held.update({held: _key for held in [*_subs, *_player_hooks]})
_erasable = list(_fixtures.get("erasable", []))
_confirm_links, _unsubscribe_links = _fixtures.get("email_links", [[], []])
_random = random.Random(0)
TABLE_LIFE = ("resignGame", "leaveGame", "voteAbort", "withdrawAbort")
BROWSER_KEYS = BrowserSubscription("").as_json()["keys"]  # as a browser's subscribe() gives
BY_A_SEAT = ("comeBack", "postAction", "postMessage", "takeBack", "setForcedMoves",
             *TABLE_LIFE)  # never a spectator


def _operation(case_or_operation: Any) -> str:
    operation = getattr(case_or_operation, "operation", case_or_operation)
    return operation.definition.raw.get("operationId", "")


def _json(response: Any) -> Any:
    try:
        return response.json()
    except ValueError:
        return None


@schemathesis.hook
def after_call(context: Any, case: Any, response: Any) -> None:
    """Remember the tokens handed out."""
    if response.status_code != 201:
        return
    body, game = _json(response), (case.path_parameters or {}).get("game_id")
    with _lock:
        match _operation(case):
            case "createGame":
                _creators[body["id"]] = body["creator_token"]
                _fill(body["id"], leave=_random.choice((0, 1)))
            case "joinGame":
                _seats.setdefault(game, {})[body["seat"]] = body["token"]
                _fill(game)
            case "registerWebhook":
                token = (case.headers or {}).get("Authorization", "").partition(" ")[2]
                _owners[(game, body["id"])] = token
            case "registerPlayer":
                _keys.append(body["key"])
            case "addMyPushSubscription" | "registerMyWebhook":
                token = (case.headers or {}).get("Authorization", "").partition(" ")[2]
                _held[body["id"]] = token
            case "rotatePlayerKey":
                old = (case.headers or {}).get("Authorization", "").partition(" ")[2]
                _keys[:] = [k for k in _keys if k != old] + [body["key"]]
                _held.update({h: body["key"] for h, key in _held.items() if key == old})


def _fill(game: str, leave: int = 0) -> None:
    """Other players take the table's free seats but `leave`, so that the game starts
    when the run takes the last one."""
    view = _view(game, None)
    free = sum(not seat["taken"] for seat in view["seats"]) if view else 0
    for _ in range(free - leave):
        answer = httpx.post(f"{API}/games/{game}/players", json={"name": "other"}, timeout=10)
        if answer.status_code != 201:
            return
        _seats.setdefault(game, {})[answer.json()["seat"]] = answer.json()["token"]


@schemathesis.hook
def before_generate_path_parameters(context: Any, strategy: Any) -> Any:
    """`comeBack` is also sent to the prepared away seats, `postAction` to the prepared
    games being played, `rematchGame` to the prepared finished games, `joinGame` to the
    prepared open tables, `cancelGame` to the prepared games waiting for players,
    `takeBack` to the prepared games whose last action may be taken back, a webhook's
    operations to the prepared webhooks, a player's deletions to what prepared players
    hold."""
    operation = _operation(context.operation) if context.operation is not None else ""
    if operation in ("deleteMyPushSubscription", "deleteMyWebhook") and _held:
        name = "subscription_id" if operation == "deleteMyPushSubscription" else "hook_id"
        prefix = "push_" if operation == "deleteMyPushSubscription" else "phk_"
        with _lock:
            held = sorted(h for h in _held if h.startswith(prefix))
        if held:
            return strategies.one_of(strategy, strategies.sampled_from(
                [{name: h} for h in held]))
    if operation in ("getWebhook", "deleteWebhook", "listDeliveries") and _hooks:
        return strategies.one_of(strategy, strategies.sampled_from(
            [{"game_id": game, "hook_id": hook} for game, hook in _hooks]))
    if operation == "hideMessage" and _chats:
        return strategies.one_of(strategy, strategies.sampled_from(_chats))
    games = {"comeBack": [game for game, _token in _away], "postAction": _playing,
             "rematchGame": _finished, "joinGame": _open,
             "cancelGame": _cancellable, "takeBack": _taking_back,
             **{op: _table_life for op in TABLE_LIFE},
             "postMessage": _table_life, "listMessages": _table_life}.get(operation, [])
    if not games:
        return strategy
    return strategies.one_of(strategy, strategies.sampled_from(
        [{"game_id": game} for game in games]))


@schemathesis.hook
def before_generate_query(context: Any, strategy: Any) -> Any:
    """The e-mail links' operations are also sent the tokens the e-mails carry."""
    operation = _operation(context.operation) if context.operation is not None else ""
    tokens = {"confirmEmail": _confirm_links, "unsubscribeEmailPage": _unsubscribe_links,
              "unsubscribeEmail": _unsubscribe_links}.get(operation, [])
    if not tokens:
        return strategy
    valid = strategies.sampled_from([{"token": token} for token in tokens])
    return strategies.one_of(strategy, valid, valid)  # mostly a real link


@schemathesis.hook
def map_case(context: Any, case: Any) -> Any:
    """Half of the new games (schema-valid ones) seat humans only, since the bots of this
    run never move (no workers): a bot to act would stop the game. Half of the webhook
    URLs (http(s) ones) name an address the test server allows, as this machine has no
    DNS. A long poll waits a second at most (a valid `wait` stays valid), so that the
    run's time goes to other requests."""
    operation = _operation(case)
    body = case.body if isinstance(case.body, dict) else {}
    positive = case.meta is not None and case.meta.generation.mode.value == "positive"
    if operation == "createGame" and positive and isinstance(body.get("seats"), list) and \
            _random.random() < 0.5:
        case.body = {**body, "seats": [{"kind": "human"} for _seat in body["seats"]]}
    game = (case.path_parameters or {}).get("game_id")
    if operation == "postAction" and positive and game in _seats and _random.random() < 0.5:
        # As a player does: read the view, post one of its legal actions at its version.
        token = _to_act(game, _seats[game])
        view = _view(game, token) if token else None
        if view and view["legal_actions"]:
            case.body = _random.choice(view["legal_actions"])
            if "If-Match" in (case.headers or {}):
                case.headers = {**case.headers, "If-Match": f'"{view["version"]}"'}
    url = body.get("url")
    if operation in ("registerWebhook", "registerMyWebhook") and isinstance(url, str) and \
            url.startswith(("http://", "https://")) and _random.random() < 0.5:
        case.body = {**body, "url": f"https://{ALLOWED_ADDRESS}/hook"}
    if operation == "addMyPushSubscription" and positive and _random.random() < 0.5:
        # As a browser's PushManager.subscribe() gives it: keys of the curve.
        case.body = {**body, "endpoint": f"https://{ALLOWED_ADDRESS}/push/"
                                         f"{_random.getrandbits(64):x}", "keys": BROWSER_KEYS}
    wait = (case.query or {}).get("wait") if operation == "listEvents" else None
    if isinstance(wait, int | float) and not isinstance(wait, bool) and 1 < wait <= 60:
        case.query = {**case.query, "wait": 1}
    return case


def _view(game: str, token: str | None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = httpx.get(f"{API}/games/{game}", headers=headers, timeout=10)
    return answer.json() if answer.status_code == 200 else None


def _holder_of(game: str, action: Any, seats: dict[int, str]) -> str | None:
    """The token of the seat that may post `action` now, if any does."""
    for token in seats.values():
        view = _view(game, token)
        if view is not None and action in view["legal_actions"]:
            return token
    return None


def _to_act(game: str, seats: dict[int, str]) -> str | None:
    """The token of a seat to act now, if this run holds one."""
    view = _view(game, None)
    acting = [seats[s] for s in (view or {}).get("to_act", []) if s in seats]
    return _random.choice(acting) if acting else None


@schemathesis.auth(refresh_interval=None, retry_on=[])
class Tokens:
    """The token a client would send with this request, or none."""

    def get(self, case: Any, ctx: Any) -> str | None:
        params = case.path_parameters or {}
        game = params.get("game_id")
        operation = _operation(case)
        if operation == "erasePlayer":
            with _lock:
                return _erasable.pop() if _erasable else None
        held = params.get("subscription_id", params.get("hook_id")) \
            if operation in ("deleteMyPushSubscription", "deleteMyWebhook") else None
        if held is not None:
            with _lock:
                if held in _held:
                    return _held[held]
        if _player_only(case) or operation == "streamMyEvents":
            with _lock:
                return _random.choice(_keys) if _keys else None
        if not isinstance(game, str):
            return None
        with _lock:
            seats = dict(_seats.get(game, {}))
            creator = _creators.get(game)
            owner = _owners.get((game, params.get("hook_id", "")))
        if owner is not None:
            return owner
        if operation in ("cancelGame", "hideMessage"):
            return creator
        if operation == "comeBack" and game in _away_tokens:
            return _away_tokens[game]
        if operation == "takeBack" and seats:
            # The seat whose view offers it (the one that just acted), as a client would.
            for token in seats.values():
                offered = (_view(game, token) or {}).get("table_actions", [])
                if any(a.get("name") == "take_back" for a in offered):
                    return token
        if operation == "postAction" and seats:
            return _holder_of(game, case.body, seats) or _random.choice(list(seats.values()))
        if operation == "getGame" and seats and _random.random() < 0.9:
            # Mostly as the seat to act, as a player would: its view lists legal actions.
            return _to_act(game, seats) or _random.choice(list(seats.values()))
        choices = list(seats.values())
        if operation in ("registerWebhook", "listWebhooks") and creator is not None:
            choices.append(creator)
        elif operation not in BY_A_SEAT:
            choices.append(None)  # a spectator
        return _random.choice(choices) if choices else None

    def set(self, case: Any, data: str, ctx: Any) -> None:
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}


def _player_only(case: Any) -> bool:
    """Does only a player key open this operation (a player's own, `/players/me…`)?"""
    return case.operation.definition.raw.get("security") == [{"playerKey": []}]


@schemathesis.check
def documented_error_code(ctx: Any, response: Any, case: Any) -> bool | None:
    """An error's `code` is one the document lists for the operation and status."""
    if response.status_code < 400:
        return None
    answer = case.operation.definition.raw.get("responses", {}).get(str(response.status_code))
    body = _json(response)
    if answer is None or not isinstance(body, dict):
        return None  # an undocumented status is status_code_conformance's to report
    if _operation(case) == "postAction" and response.status_code == 422:
        return None  # a rule of the game refused it: each game has its own codes
    codes = answer.get("x-codes", [])
    if body.get("code") not in codes:
        raise AssertionError(f"error code {body.get('code')!r} is not among the documented "
                             f"{codes} of {response.status_code}")
    return None


@schemathesis.check
class EveryOperationSucceeds:
    """Every operation tested answered a 2xx at least once (else the run tested little)."""

    def __init__(self) -> None:
        self.tested: set[str] = set()
        self.reached: set[str] = set()
        self.successes: dict[str, set[str]] = {}  # by operation: the cases that got a 2xx

    def after_response(self, ctx: Any, response: Any, case: Any) -> None:
        self.tested.add(case.operation.label)
        if 200 <= response.status_code < 300:
            self.reached.add(case.operation.label)
            self.successes.setdefault(case.operation.label, set()).add(case.id)

    def after_run(self, ctx: Any) -> None:
        if os.environ.get("DONKEYPOST_REACHED"):
            with open(os.environ["DONKEYPOST_REACHED"], "w") as out:
                json.dump({"tested": sorted(self.tested), "reached": sorted(self.reached),
                           "successes": {label: len(cases) for label, cases in
                                         sorted(self.successes.items())}}, out, indent=1)
        missing = self.tested - self.reached
        if missing:
            raise AssertionError("never answered a 2xx: " + ", ".join(sorted(missing)))
