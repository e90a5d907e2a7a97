"""Schemathesis against the live stack: a real HTTP server on a free port, every phase
(examples, coverage, fuzzing, stateful), every check. The document's links drive the
stateful phase (create a game, join its seats, post legal actions, register webhooks);
`tests/support/schemathesis_hooks.py` holds the tokens a client would. The run's budget
is `DONKEYPOST_SCHEMATHESIS_S` seconds (110 unless told; CI gives it 150). The run must end
without a failure, and every operation must have answered a 2xx at least once: a run
that only ever reached 404s and 422s would test almost nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from api.rate_limits import RateLimits
from domain.connection import connect
from domain.notify.links import (
    CONFIRM,
    CONFIRM_TTL_S,
    UNSUBSCRIBE,
    UNSUBSCRIBE_TTL_S,
    make_token,
)
from domain.service import NoHooks
from domain.table import may_take_back
from domain.webhooks.targets import TargetPolicy
from donkeypost.bootstrap import bootstrap, web_app
from donkeypost.cli import OPENAPI_PATH
from donkeypost.settings import Settings
from tests.support.live import serving
from tests.support.push_service import BrowserSubscription

ROOT = Path(__file__).parents[2]
CONFIG = ROOT / "tests" / "support" / "schemathesis.toml"
# The budget of the whole run (fuzzing and stateful repeat until it is spent): CI gives the
# full one (.ci/run sets DONKEYPOST_SCHEMATHESIS_S=150), a run on a laptop a shorter one.
# Below about 100 s the stateful phase has too little time left to reach every operation
# (the examples and coverage phases take 30-50 s on a busy machine) and the run fails.
MAX_TIME_S = int(os.environ.get("DONKEYPOST_SCHEMATHESIS_S", "110"))
PREPARED = 30  # away seats for comeBack, games being played for postAction


def games_being_played(app: Any, count: int, game_type: str = "trash",
                       seats: int = 2) -> list[tuple[str, list[str]]]:
    """Started games (of two seats unless told): `[game id, [token of each seat]]`."""
    client = app.test_client()
    out = []
    for _ in range(count):
        game = client.post("/games", json={"type": game_type, "deadline_s": None,
                                           "seats": [{"kind": "human"}] * seats}).get_json()
        tokens = [""] * seats
        for name in ("ann", "bob", "cid")[:seats]:
            joined = client.post(f"/games/{game['id']}/players", json={"name": name})
            tokens[joined.get_json()["seat"]] = joined.get_json()["token"]
        out.append((game["id"], tokens))
    return out


def finished_games(app: Any, count: int) -> list[tuple[str, list[str]]]:
    """Games played to their end: `[game id, [token of each seat]]`."""
    service = app.extensions["donkeypost"]
    out = []
    for game_id, tokens in games_being_played(app, count):
        table, _ = service.load(game_id)
        while table.status == "active":
            acting = service.view(table, None)["to_act"][0]
            service.act(game_id, acting, service.view(table, acting)["legal_actions"][0])
            table, _ = service.load(game_id)
        out.append((game_id, tokens))
    return out


def open_tables(app: Any, count: int) -> list[str]:
    """Games of twelve human seats, all free."""
    client = app.test_client()
    return [client.post("/games", json={"type": "ochs-und-esel", "deadline_s": None,
                                        "seats": [{"kind": "human"}] * 12}).get_json()["id"]
            for _ in range(count)]


def cancellable(app: Any, count: int) -> list[tuple[str, str]]:
    """Games waiting for players: `[game id, its creator token]` (a cancel needs both)."""
    client = app.test_client()
    out = []
    for _ in range(count):
        game = client.post("/games", json={"type": "trash", "seats": [{"kind": "human"}] * 2,
                                           "deadline_s": None}).get_json()
        out.append((game["id"], game["creator_token"]))
    return out


def table_life_games(app: Any, count: int) -> list[tuple[str, list[str]]]:
    """Started games of four people (Ochs & Esel, two rounds): `[game id, [token of each
    seat]]`; two of them may resign or leave and the game goes on."""
    client = app.test_client()
    out = []
    for _ in range(count):
        game = client.post("/games", json={"type": "ochs-und-esel", "deadline_s": None,
                                           "options": {"rounds": 2},
                                           "seats": [{"kind": "human"}] * 4}).get_json()
        tokens = [""] * 4
        for name in ("ann", "bob", "cid", "dee"):
            joined = client.post(f"/games/{game['id']}/players", json={"name": name})
            tokens[joined.get_json()["seat"]] = joined.get_json()["token"]
        out.append((game["id"], tokens))
    return out


def chats(app: Any, count: int, messages: int = 3) -> list[tuple[str, str, int]]:
    """Games whose chat holds `messages` messages: `[game id, creator token, messages]`."""
    client = app.test_client()
    out = []
    for _ in range(count):
        game = client.post("/games", json={"type": "trash", "deadline_s": None,
                                           "seats": [{"kind": "human"}] * 2}).get_json()
        token = client.post(f"/games/{game['id']}/players",
                            json={"name": "ann"}).get_json()["token"]
        for i in range(messages):
            said = client.post(f"/games/{game['id']}/messages", json={"text": f"hi {i}"},
                               headers={"Authorization": f"Bearer {token}"})
            assert said.status_code == 201, said.get_json()
        out.append((game["id"], game["creator_token"], messages))
    return out


def webhooks(app: Any, games: list[tuple[str, list[str]]]) -> list[tuple[str, str, str]]:
    """Two webhooks of each seat of `games`: `[game id, webhook id, its owner's token]`."""
    client = app.test_client()
    out = []
    for game_id, tokens in games:
        for token in tokens:
            for _ in range(2):
                hook = client.post(f"/games/{game_id}/webhooks",
                                   json={"url": "https://203.0.113.7/hook"},
                                   headers={"Authorization": f"Bearer {token}"}).get_json()
                out.append((game_id, hook["id"], token))
    return out


def away_seats(app: Any, count: int) -> list[tuple[str, str]]:
    """Games with an away seat (two deadlines missed in a row): `[game id, its token]`."""
    client = app.test_client()
    service = app.extensions["donkeypost"]
    out = []
    for _ in range(count):
        game = client.post("/games", json={"type": "trash", "seats": [{"kind": "human"}] * 2,
                                           "deadline_s": None}).get_json()
        tokens = {}
        for name in ("ann", "bob"):
            joined = client.post(f"/games/{game['id']}/players", json={"name": name})
            tokens[joined.get_json()["seat"]] = joined.get_json()["token"]
        table, _ = service.load(game["id"])
        seat = sorted(service.view(table, None)["to_act"])[0]
        while not table.is_away(seat):  # the seat misses its deadlines; the other plays
            acting = service.view(table, None)["to_act"][0]
            action = service.view(table, acting)["legal_actions"][0]
            service.act(game["id"], acting, action, by="timeout" if acting == seat else "player")
            table, _ = service.load(game["id"])
        assert table.status == "active"
        out.append((game["id"], tokens[seat]))
    return out


def taking_back(app: Any, count: int) -> list[tuple[str, list[str]]]:
    """Games being played whose last action its seat may take back (a card played to a
    trick that goes on): `[game id, [token of each seat]]`."""
    service = app.extensions["donkeypost"]
    out = []
    for game_id, tokens in games_being_played(app, count, "ochs-und-esel", 3):
        table, _ = service.load(game_id)
        while table.status == "active" and \
                (table.undo is None or not may_take_back(table, table.undo.seat)):
            acting = service.view(table, None)["to_act"][0]
            service.act(game_id, acting, service.view(table, acting)["legal_actions"][0])
            table, _ = service.load(game_id)
        assert table.status == "active", "a whole game without a move to take back"
        out.append((game_id, tokens))
    return out


def players_holding(app: Any, count: int) -> list[tuple[str, list[str], list[str]]]:
    """Players with two push subscriptions and two player webhooks each: `[player key,
    [subscription ids], [webhook ids]]`."""
    client = app.test_client()
    out = []
    for i in range(count):
        key = client.post("/players", json={"name": f"holder {i}"}).get_json()["key"]
        auth = {"Authorization": f"Bearer {key}"}
        subs = [client.post("/players/me/push-subscriptions", headers=auth, json=(
            BrowserSubscription(f"https://203.0.113.7/push/{i}-{n}").as_json()),
        ).get_json()["id"] for n in range(2)]
        hooks = [client.post("/players/me/webhooks", headers=auth, json={
            "url": "https://203.0.113.7/hook"}).get_json()["id"] for _ in range(2)]
        out.append((key, subs, hooks))
    return out


def erasable(app: Any, count: int) -> list[str]:
    """Keys of players that only the run's erasures use."""
    client = app.test_client()
    return [client.post("/players", json={"name": f"leaver {i}"}).get_json()["key"]
            for i in range(count)]


def email_links(app: Any, components: Any, count: int) -> tuple[list[str], list[str]]:
    """The confirmation and unsubscribe links' tokens of players with an address waiting
    for its confirmation, as the e-mails carry them."""
    client, secret, now = app.test_client(), components.notifications.link_secret, time.time()
    confirm, unsubscribe = [], []
    for i in range(count):
        player = client.post("/players", json={"name": f"reader {i}"}).get_json()
        address = f"reader{i}@example.org"
        set_prefs = client.put("/players/me/notifications", json={"email": address},
                               headers={"Authorization": f"Bearer {player['key']}"})
        assert set_prefs.status_code == 200, set_prefs.get_json()
        confirm.append(make_token(secret, CONFIRM, player["id"], address, now,
                                  CONFIRM_TTL_S))
        unsubscribe.append(make_token(secret, UNSUBSCRIBE, player["id"], address, now,
                                      UNSUBSCRIBE_TTL_S))
    return confirm, unsubscribe


@pytest.mark.timeout(MAX_TIME_S + 120)
def test_every_phase_passes_and_every_operation_answers_a_2xx(redis_url, tmp_path):
    connect(redis_url).flushdb()
    settings = Settings(redis_url=redis_url, sse_max_s=0.5, sse_keepalive_s=0.2,
                        webhook_targets=TargetPolicy.allowing("203.0.113.0/24"),
                        rate_limits=RateLimits.off(),  # generated bursts from one address
                        health_workers=())  # no worker runs beside it
    components = bootstrap(settings, hooks=NoHooks())
    app = web_app(components, {"TESTING": True})
    playing = games_being_played(app, PREPARED)
    (tmp_path / "fixtures.json").write_text(json.dumps({
        "away": away_seats(app, PREPARED), "playing": playing,
        "finished": finished_games(app, 3), "open": open_tables(app, 5),
        "cancellable": cancellable(app, 5),
        "webhooks": webhooks(app, playing[:5]), "table_life": table_life_games(app, 12),
        "chat": chats(app, 5), "players": players_holding(app, 5),
        "erasable": erasable(app, 5), "email_links": email_links(app, components, 5),
        "taking_back": taking_back(app, 10)}))
    reached = tmp_path / "reached.json"
    with serving(app) as base:
        env = {**os.environ, "SCHEMATHESIS_HOOKS": "tests.support.schemathesis_hooks",
               "DONKEYPOST_API": base, "DONKEYPOST_FIXTURES": str(tmp_path / "fixtures.json"),
               "DONKEYPOST_REACHED": str(reached), "PYTHONPATH": str(ROOT)}
        run = subprocess.run(
            [str(Path(sys.executable).with_name("st")), "--config-file", str(CONFIG),
             "run", f"{base}/openapi.json",
             "--phases", "examples,coverage,fuzzing,stateful", "--checks", "all",
             "--max-time", str(MAX_TIME_S), "--max-examples", "60", "--seed", "1",
             "--workers", "2", "--request-timeout", "10", "--no-color"],
            env=env, cwd=tmp_path, capture_output=True, text=True,  # its cache goes there
            timeout=MAX_TIME_S + 90)
    output = run.stdout + run.stderr
    (tmp_path / "schemathesis.txt").write_text(output)
    assert run.returncode == 0, output[-20000:]
    result = json.loads(reached.read_text())
    documented = {f"{method.upper()} {path}" for path, ops in
                  json.loads(Path(OPENAPI_PATH).read_text())["paths"].items()
                  for method in ops if method != "parameters"}
    assert set(result["tested"]) == documented, output[-3000:]
    assert set(result["reached"]) == documented, output[-3000:]
