"""Bots from outside: bot accounts, each run by `examples/bot_client.py`, accept their
invitations and play whole games of every type from their event streams alone (no
polling), choosing among the views' legal actions; they are shown as bots at the table,
in the inbox, on their profiles and on the leaderboards."""

from __future__ import annotations

import importlib.util
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from api.rate_limits import RateLimits
from domain.service import NoHooks
from donkeypost.bootstrap import bootstrap, web_app
from donkeypost.settings import Settings
from tests.e2e.api_client import ApiClient
from tests.support.live import serving

ROOT = Path(__file__).resolve().parents[2]
GAMES = [("ochs-und-esel", {"rounds": 1}), ("crazy-donkey", {"deals": 1}),
         ("trash", {"max_rounds": 2, "wild": "JQK"}), ("canyon-donkeys", {})]


def _bot_client() -> Any:
    spec = importlib.util.spec_from_file_location("bot_client",
                                                  ROOT / "examples" / "bot_client.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def app(redis_url, redis_client):
    settings = Settings(redis_url=redis_url, rate_limits=RateLimits.off(), health_workers=(),
                        sse_keepalive_s=0.5)
    return web_app(bootstrap(settings, hooks=NoHooks()), {"TESTING": True})


def test_bot_accounts_play_whole_games_of_every_type_from_their_streams(app):
    client = _bot_client()
    api = ApiClient(app.test_client())
    host = api.http.post("/players", json={"name": "Host"}).get_json()
    with serving(app) as base:
        keys = [client.register(base, f"Bot {name}") for name in ("Ada", "Bo", "Cy")]
        bots = [client.Bot(base, key, log=False) for key in keys]
        stop = threading.Event()
        threads = [threading.Thread(target=bot.run, args=(stop,), daemon=True)
                   for bot in bots]
        for thread in threads:
            thread.start()
        try:
            time.sleep(0.5)  # (they read their streams' ends first)
            games = []
            for game_type, options in GAMES:
                r = api.http.post("/games", headers=api.auth(host["key"]), json={
                    "type": game_type, "options": options, "deadline_s": None,
                    "seats": [{"kind": "human", "invite": f"Bot {n}"}
                              for n in ("Ada", "Bo", "Cy")]})
                assert r.status_code == 201, r.get_json()
                games.append(r.get_json()["id"])
            deadline = time.monotonic() + 240
            while time.monotonic() < deadline:
                views = [api.view(g) for g in games]
                if all(v["status"] == "finished" for v in views):
                    break
                time.sleep(0.2)
        finally:
            stop.set()
            for thread in threads:
                thread.join(timeout=10)
    assert [v["status"] for v in views] == ["finished"] * len(GAMES), \
        [(v["type"], v["status"], v["to_act"]) for v in views]
    assert all(bot.moves > 0 for bot in bots)
    for view in views:
        assert all(s["bot_account"] for s in view["seats"])
    # Shown as bots on the profile and on the leaderboard, once rated.
    service = app.extensions["donkeypost"]
    profile = api.http.get("/players/me", headers=api.auth(keys[0])).get_json()
    assert profile["bot"] is True
    assert api.http.get(f"/players/{host['id']}").get_json()["bot"] is False
    assert service.rate_game(games[0]) == "rated"
    board = api.http.get("/ratings/ochs-und-esel").get_json()
    assert board and all(e["player"]["bot"] for e in board if e["kind"] == "player")
    inbox = api.http.get("/players/me/games?status=finished",
                         headers=api.auth(keys[0])).get_json()
    assert {e["id"] for e in inbox} == set(games)
    assert all(s["bot_account"] for e in inbox for s in e["seats"])
