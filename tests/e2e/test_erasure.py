"""A player's right to leave (`DELETE /players/me`): nothing of them findable by name or
key in any key or stream of the store afterwards; their games' logs and results stay,
playable and verifiable, their seat shown as a deleted player."""

from __future__ import annotations

from typing import Any

import redis

from domain.table import DELETED_NAME
from domain.verify import check_log

NAME = "Zebulon Quist"
EMAIL = "zebulon.quist@example.org"


def everything(client: redis.Redis) -> bytes:
    """Every key of the store and everything in it, as one blob of bytes."""
    out: list[bytes] = []
    for key in client.scan_iter(count=1000):
        out.append(key)
        kind = client.type(key)
        if kind == b"string":
            out.append(client.get(key) or b"")
        elif kind == b"hash":
            out.extend(b for pair in client.hgetall(key).items() for b in pair)
        elif kind == b"list":
            out.extend(client.lrange(key, 0, -1))
        elif kind == b"set":
            out.extend(client.smembers(key))
        elif kind == b"zset":
            out.extend(client.zrange(key, 0, -1))
        elif kind == b"stream":
            for entry_id, fields in client.xrange(key):
                out.append(entry_id)
                out.extend(b for pair in fields.items() for b in pair)
    return b"\n".join(out)


def _where(client: redis.Redis, secret: str) -> list[str]:
    """The keys whose name or content holds `secret` (to say where, when a test fails)."""
    return [k.decode() for k in client.scan_iter(count=1000)
            if secret.encode() in k or secret.encode() in everything_of(client, k)]


def everything_of(client: redis.Redis, key: bytes) -> bytes:
    kind = client.type(key)
    if kind == b"string":
        return client.get(key) or b""
    if kind == b"hash":
        return b"".join(b for pair in client.hgetall(key).items() for b in pair)
    if kind == b"stream":
        return b"".join(v for _i, f in client.xrange(key) for v in f.values())
    if kind in (b"zset", b"list"):
        found = client.zrange(key, 0, -1) if kind == b"zset" else client.lrange(key, 0, -1)
        return b"".join(found)
    return b""


def _auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def _play_to_end(api, game_id: str, credentials: dict[int, str]) -> None:
    for _ in range(5000):
        view = api.http.get(f"/games/{game_id}").get_json()
        if view["status"] != "active":
            return
        seat = view["to_act"][0]
        mine = api.http.get(f"/games/{game_id}", headers=_auth(credentials[seat])).get_json()
        r = api.http.post(f"/games/{game_id}/actions", json=mine["legal_actions"][0],
                          headers={**_auth(credentials[seat]), "Idempotency-Key": f"k{_}"})
        assert r.status_code == 200, r.get_json()


def _player(api, name: str) -> dict[str, Any]:
    r = api.http.post("/players", json={"name": name})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def _game_with(api, creator: dict[str, Any], other: dict[str, Any]) -> tuple[str, dict]:
    r = api.http.post("/games", headers=_auth(creator["key"]), json={
        "type": "ochs-und-esel", "deadline_s": None, "options": {"rounds": 1},
        "seats": [{"kind": "human", "me": True}, {"kind": "human", "invite": other["name"]},
                  {"kind": "human"}]})
    assert r.status_code == 201, r.get_json()
    game_id = r.get_json()["id"]
    r = api.http.post(f"/games/{game_id}/players", headers={**_auth(other["key"]),
                                                             "Idempotency-Key": "join-1"})
    assert r.status_code == 201, r.get_json()
    r = api.http.post(f"/games/{game_id}/players", json={"name": "guest"})
    guest = r.get_json()
    view = api.http.get(f"/games/{game_id}").get_json()
    by_name = {s["name"]: i for i, s in enumerate(view["seats"])}
    return game_id, {by_name[creator["name"]]: creator["key"],
                     by_name[other["name"]]: other["key"], guest["seat"]: guest["token"]}


def test_erasure_leaves_nothing_findable_and_keeps_the_games(api, redis_client) -> None:
    zeb, ann = _player(api, NAME), _player(api, "Ann")
    # A finished game, an active one, an open one; chat, e-mail, idempotency records.
    finished, seats = _game_with(api, zeb, ann)
    r = api.http.post(f"/games/{finished}/messages", headers=_auth(zeb["key"]),
                      json={"text": "good game, from zebulon"})
    assert r.status_code == 201, r.get_json()
    _play_to_end(api, finished, seats)
    active, _seats = _game_with(api, ann, zeb)
    r = api.http.post("/games", headers=_auth(zeb["key"]), json={
        "type": "trash", "seats": [{"kind": "human", "me": True}, {"kind": "human"}]})
    open_game = r.get_json()["id"]
    r = api.http.put("/players/me/notifications", headers=_auth(zeb["key"]),
                     json={"channels": ["email"], "email": EMAIL})
    assert r.status_code == 200, r.get_json()
    service = api.http.application.extensions["donkeypost"]
    service.rate_game(finished)
    # This process remembers the active game as it was (a replayed moment, a retry's answer).
    early = service.load(active)[0].version
    assert NAME in [s.name for s in service.table_at(active, early).seats]
    before = everything(redis_client)
    assert NAME.encode() in before and EMAIL.encode() in before
    assert zeb["id"].encode() in redis_client.zrange("ratings:board:ochs-und-esel", 0, -1)

    r = api.http.delete("/players/me", headers=_auth(zeb["key"]))
    assert r.status_code == 200, r.get_json()
    assert r.get_json() == {"erased": True, "games": 3, "seats_handed_to_bots": 1}

    after = everything(redis_client)
    for secret in (NAME, NAME.lower(), NAME.casefold(), zeb["key"], EMAIL, "from zebulon"):
        assert secret.encode() not in after, (secret, _where(redis_client, secret))
    # The key is refused; the name is free; the profile and leaderboard know nothing.
    assert api.http.get("/players/me", headers=_auth(zeb["key"])).status_code == 401
    assert api.http.get(f"/players/{zeb['id']}").status_code == 404
    board = api.http.get("/ratings/ochs-und-esel").get_json()
    assert all((e.get("player") or {}).get("id") != zeb["id"] for e in board)
    assert _player(api, NAME)["name"] == NAME  # someone else may take the name

    # The finished game: its result stands, its log verifies, the seat is a deleted player.
    view = api.http.get(f"/games/{finished}").get_json()
    assert view["status"] == "finished"
    assert DELETED_NAME in [s["name"] for s in view["seats"]]
    log = api.http.get(f"/games/{finished}/log").data.splitlines()
    report = check_log(log, api.http.application.extensions["donkeypost"].deps.games)
    assert report.problems == [], report.problems
    assert any("erased at their request" in line for line in report.checked)
    chat = api.http.get(f"/games/{finished}/messages").get_json()["messages"]
    assert [m["name"] for m in chat] == [DELETED_NAME] and chat[0]["text"] is None
    # The active game goes on: their seat is played by the basic bot, publicly.
    view = api.http.get(f"/games/{active}").get_json()
    mine = [s for s in view["seats"] if s["name"] == DELETED_NAME]
    assert len(mine) == 1 and mine[0]["played_by"] == "basic"
    assert view["status"] == "active"
    # What this process remembered of the game before shows the deleted player too.
    names = [s.name for s in service.table_at(active, early).seats]
    assert NAME not in names and DELETED_NAME in names
    # The open game shows the deleted player too.
    seats_open = api.http.get(f"/games/{open_game}").get_json()["seats"]
    assert seats_open[0]["name"] == DELETED_NAME


def test_a_dry_run_and_a_second_erasure_change_nothing(api, redis_client) -> None:
    from donkeypost.admin import Admin

    zeb = _player(api, NAME)
    service = api.http.application.extensions["donkeypost"]

    class Components:  # what the operator's commands use of a process's wiring
        def __init__(self) -> None:
            from domain.store.redis_notify import RedisNotifyStore

            self.service = service
            self.store_redis = redis_client
            self.notifications = type("N", (), {"store": RedisNotifyStore(redis_client)})()

    admin = Admin(Components())
    before = everything(redis_client)
    report = admin.erase_now(zeb["id"], dry_run=True)
    assert report.dry_run and everything(redis_client) == before
    admin.erase_now(zeb["id"])
    assert NAME.encode() not in everything(redis_client)
