"""`donkeypost admin …`: list and inspect, delete a game, revoke a key, suspend and erase a
player; `--dry-run` changes nothing; every action is in the audit stream."""

from __future__ import annotations

import json

import pytest

from donkeypost.cli import main


@pytest.fixture
def admin(redis_url, monkeypatch, capsys):
    monkeypatch.setenv("REDIS_URL", redis_url)

    def run(*argv: str) -> list[dict]:
        code = main(["admin", *argv])
        out = capsys.readouterr().out
        assert code == 0, out
        return [json.loads(line) for line in out.splitlines() if line.strip()]

    return run


def _auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def _player(api, name: str) -> dict:
    r = api.http.post("/players", json={"name": name})
    assert r.status_code == 201
    return r.get_json()


def _active_game(api, ann: dict) -> str:
    r = api.http.post("/games", headers=_auth(ann["key"]), json={
        "type": "ochs-und-esel", "deadline_s": None,
        "seats": [{"kind": "human", "me": True}, {"kind": "human"}, {"kind": "human"}]})
    game_id = r.get_json()["id"]
    for name in ("bob", "cy"):
        assert api.http.post(f"/games/{game_id}/players", json={"name": name}).status_code == 201
    return game_id


def test_list_and_inspect(api, admin) -> None:
    ann = _player(api, "Ann")
    game_id = _active_game(api, ann)
    *games, count = admin("games", "--status", "active")
    assert [g["id"] for g in games] == [game_id] and count["total"] == 1
    [game] = admin("game", "--", game_id)
    assert game["status"] == "active" and game["seats"][0]["player"] == ann["id"]
    assert [p["name"] for p in admin("players")] == ["Ann"]
    [player] = admin("player", "ann")  # by name, whatever its case
    assert player["id"] == ann["id"] and player["games"] == 1 and not player["suspended"]


def test_delete_a_game_everywhere(api, admin, redis_client) -> None:
    ann = _player(api, "Ann")
    game_id = _active_game(api, ann)
    [dry] = admin("delete-game", "--why", "spam", "--dry-run", "--", game_id)
    assert dry["dry_run"] and dry["keys"] > 3
    assert api.http.get(f"/games/{game_id}").status_code == 200
    [done] = admin("delete-game", "--why", "spam", "--by", "ops-alice", "--", game_id)
    assert done["audited"]["by"] == "ops-alice"
    assert api.http.get(f"/games/{game_id}").status_code == 404
    assert api.http.get("/games").get_json() == []
    assert api.http.get("/players/me/games", headers=_auth(ann["key"])).get_json() == []
    assert not [k for k in redis_client.scan_iter(match=f"*{game_id}*")]
    assert not any(game_id.encode() in m for key in redis_client.scan_iter(match="games:*")
                   for m in redis_client.zrange(key, 0, -1))


def test_revoke_keys(api, admin) -> None:
    ann = _player(api, "Ann")
    [dry] = admin("revoke-keys", "Ann", "--why", "leaked", "--dry-run")
    assert "new_key" not in dry
    assert api.http.get("/players/me", headers=_auth(ann["key"])).status_code == 200
    [done] = admin("revoke-keys", "--why", "leaked", "--", ann["id"])
    assert api.http.get("/players/me", headers=_auth(ann["key"])).status_code == 401
    assert api.http.get("/players/me", headers=_auth(done["new_key"])).status_code == 200


def test_suspend_refuses_create_join_act_and_chat_and_hands_seats_to_bots(api, admin) -> None:
    ann = _player(api, "Ann")
    game_id = _active_game(api, ann)
    admin("suspend", "Ann", "--why", "abuse", "--dry-run")
    assert api.http.get("/players/me", headers=_auth(ann["key"])).status_code == 200
    [done] = admin("suspend", "Ann", "--why", "abuse")
    assert done["seats_handed_to_bots"] == [[game_id, 0]]
    seat = api.http.get(f"/games/{game_id}").get_json()["seats"][0]
    assert seat["played_by"] == "basic"
    other = api.http.post("/games", json={"type": "trash", "seats": [{"kind": "human"}] * 2})
    for method, path, body in (
            ("POST", "/games", {"type": "trash", "seats": [{"kind": "human", "me": True},
                                                           {"kind": "bot"}]}),
            ("POST", f"/games/{other.get_json()['id']}/players", {}),
            ("POST", f"/games/{game_id}/actions", {"type": "play"}),
            ("POST", f"/games/{game_id}/messages", {"text": "hi"})):
        r = api.http.open(path, method=method, json=body, headers=_auth(ann["key"]))
        assert r.status_code == 403 and r.get_json()["code"] == "player_suspended", (path,
                                                                                     r.get_json())
    assert admin("player", "Ann")[0]["suspended"]
    admin("suspend", "Ann", "--why", "appeal granted", "--lift")
    assert api.http.get("/players/me", headers=_auth(ann["key"])).status_code == 200


def test_erase_and_the_audit_stream(api, admin) -> None:
    ann = _player(api, "Ann")
    [dry] = admin("erase", "Ann", "--why", "asked by e-mail", "--dry-run")
    assert dry["dry_run"] and api.http.get(f"/players/{ann['id']}").status_code == 200
    admin("erase", "Ann", "--why", "asked by e-mail")
    assert api.http.get(f"/players/{ann['id']}").status_code == 404
    audit = admin("audit")
    assert [(a["action"], a["why"]) for a in audit] == [("erase", "asked by e-mail")]
    assert audit[0]["target"] == ann["id"] and "Ann" not in json.dumps(audit)
