"""The API's conventions, on a tiny test game: auth, ETags, If-Match, idempotency, errors,
the log, replay and redaction."""

from __future__ import annotations

import json
import threading

from domain.rng import commitment
from domain.verify import verify_log
from tests.support.games import games_under_test


def test_create_join_start_and_see_only_your_own_hand(api):
    created = api.create("high-card", 3)
    assert created["status"] == "open" and len(created["seed_hash"]) == 64
    game_id = created["id"]
    tokens = [api.join(game_id, name)[1] for name in ("ann", "bob", "cy")]
    hands = [api.view(game_id, t)["game"]["hand"] for t in tokens]
    assert all(len(h) == 3 for h in hands)
    spectator = api.view(game_id)
    assert spectator["status"] == "active" and spectator["game"]["hand"] is None
    assert spectator["legal_actions"] == []
    first = api.view(game_id, tokens[0])
    assert first["you"] == 0 and first["to_act"] == [0]
    assert first["legal_actions"] == [{"type": "play", "card": c} for c in hands[0]]
    # Nothing of another seat's hand reaches seat 0 before the end.
    assert first["game"]["hands"] is None
    dealt = [e for e in api.events(game_id, tokens[0])["events"] if e["type"] == "dealt"]
    assert dealt[0]["private"] == {"0": {"hand": hands[0]}}


def test_no_free_seat_is_a_conflict(api):
    game_id, _ = api.new_game("high-card", 2)
    r = api.http.post(f"/games/{game_id}/players", json={"name": "late"})
    assert r.status_code == 409 and r.get_json()["code"] == "no_free_seat"


def test_etag_and_if_none_match(api):
    game_id, tokens = api.new_game("high-card", 2)
    r = api.http.get(f"/games/{game_id}", headers=api.auth(tokens[0]))
    etag = r.headers["ETag"]
    assert etag == f'"{r.get_json()["version"]}"'
    again = api.http.get(f"/games/{game_id}",
                         headers={**api.auth(tokens[0]), "If-None-Match": etag})
    assert again.status_code == 304


def test_errors_share_one_shape_with_version_and_legal_actions(api):
    game_id, tokens = api.new_game("high-card", 2)
    hand = api.view(game_id, tokens[0])["game"]["hand"]
    wrong_turn = api.act(game_id, tokens[1], {"type": "play", "card": hand[0]})
    body = wrong_turn.get_json()
    assert wrong_turn.status_code == 409 and body["code"] == "not_your_turn"
    assert body["legal_actions"] == [] and isinstance(body["version"], int)
    illegal = api.act(game_id, tokens[0], {"type": "play", "card": 1000})
    assert illegal.status_code == 422 and illegal.get_json()["code"] == "not_in_hand"
    assert len(illegal.get_json()["legal_actions"]) == 3
    malformed = api.act(game_id, tokens[0], {"type": "fly"})
    assert malformed.status_code == 422 and malformed.get_json()["code"] == "bad_action"
    # A field the action does not have (the document closes each action): refused, never
    # dropped without a word.
    extra = api.act(game_id, tokens[0], {"type": "play", "card": hand[0], "kard": 3})
    assert extra.status_code == 422 and extra.get_json()["code"] == "bad_action"
    assert "'kard'" in extra.get_json()["message"]
    not_json = api.http.post(f"/games/{game_id}/actions", data="{",
                             headers={**api.auth(tokens[0]), "Content-Type": "application/json"})
    assert not_json.status_code == 422 and not_json.get_json()["code"] == "bad_action"
    assert api.act(game_id, None, {"type": "play", "card": 1}).get_json()["code"] == \
        "missing_token"
    bad = api.act(game_id, "nope", {"type": "play", "card": 1})
    assert bad.status_code == 401 and bad.get_json()["code"] == "invalid_token"
    huge = api.http.post("/games", data="[" + "0," * 40_000 + "0]",
                         headers={"Content-Type": "application/json"})
    assert huge.status_code == 413 and huge.get_json()["code"] == "payload_too_large"
    back = api.http.post(f"/games/{game_id}/back", headers=api.auth(tokens[0]))
    assert back.status_code == 409 and back.get_json()["code"] == "not_away"
    assert api.http.post(f"/games/{game_id}/back").get_json()["code"] == "missing_token"
    assert api.http.get("/games/nope").status_code == 404
    assert api.http.get("/games/nope").get_json()["code"] == "unknown_game"
    assert api.http.get("/nowhere").get_json()["code"] == "not_found"
    r = api.http.delete("/games")
    assert r.status_code == 405 and "POST" in r.headers["Allow"]
    r = api.http.post("/games", json={"type": "high-card", "seats": []})
    assert r.status_code == 422 and r.get_json()["code"] == "validation_error"
    r = api.http.post("/games", json={"type": "high-card", "seats": [{"kind": "human"}]})
    assert r.status_code == 422 and r.get_json()["code"] == "bad_player_count"
    r = api.http.post("/games", json={"type": "high-card", "options": {"cards": 9},
                                      "seats": [{"kind": "human"}] * 2})
    assert r.status_code == 422 and r.get_json()["code"] == "bad_option"


def test_if_match_and_idempotency_key(api):
    game_id, tokens = api.new_game("high-card", 2)
    view = api.view(game_id, tokens[0])
    action = view["legal_actions"][0]
    stale = api.act(game_id, tokens[0], action, {"If-Match": f'"{view["version"] - 1}"'})
    assert stale.status_code == 412 and stale.get_json()["code"] == "version_mismatch"
    key = {"Idempotency-Key": "move-1"}
    first = api.act(game_id, tokens[0], action, {**key, "If-Match": f'"{view["version"]}"'})
    assert first.status_code == 200
    retry = api.act(game_id, tokens[0], action, {**key, "If-Match": f'"{view["version"]}"'})
    assert retry.status_code == 200 and retry.get_json() == first.get_json()
    assert api.view(game_id)["version"] == first.get_json()["version"]
    assert len(api.events(game_id)["events"]) == first.get_json()["version"]


def test_an_idempotency_key_reused_with_another_body_is_refused(api):
    game_id, tokens = api.new_game("high-card", 2)
    legal = api.view(game_id, tokens[0])["legal_actions"]
    key = {"Idempotency-Key": "move-1"}
    first = api.act(game_id, tokens[0], legal[0], key)
    assert first.status_code == 200
    other = api.act(game_id, tokens[0], legal[1], key)
    body = other.get_json()
    assert other.status_code == 422 and body["code"] == "idempotency_key_reused"
    assert body["version"] == first.get_json()["version"] and body["status"] == 422
    same = api.act(game_id, tokens[0], legal[0], key)
    assert same.status_code == 200 and same.get_json() == first.get_json()


def test_a_retry_gets_the_first_answer_after_the_game_moved_on(api):
    game_id, tokens = api.new_game("high-card", 2)
    action = api.view(game_id, tokens[0])["legal_actions"][0]
    key = {"Idempotency-Key": "once"}
    first = api.act(game_id, tokens[0], action, key)
    assert first.status_code == 200
    # Seat 1 plays; seat 0's retry (no If-Match) would now be refused, yet it is answered
    # with the first answer and changes nothing.
    other = api.act(game_id, tokens[1], api.view(game_id, tokens[1])["legal_actions"][0])
    assert other.status_code == 200
    version = other.get_json()["version"]
    retry = api.act(game_id, tokens[0], action, key)
    assert retry.status_code == 200 and retry.get_json() == first.get_json()
    assert api.view(game_id)["version"] == version
    # The key is the seat's own: seat 1 using the same key plays a move of its own.
    mine = api.act(game_id, tokens[0], api.view(game_id, tokens[0])["legal_actions"][0],
                   {"Idempotency-Key": "twice"})
    theirs = api.act(game_id, tokens[1], api.view(game_id, tokens[1])["legal_actions"][0],
                     {"Idempotency-Key": "twice"})
    assert mine.status_code == theirs.status_code == 200
    assert theirs.get_json()["version"] > mine.get_json()["version"]


def test_the_answer_to_an_action_names_who_acts_next(api):
    game_id, tokens = api.new_game("high-card", 3)
    view = api.view(game_id, tokens[0])
    acted = api.act(game_id, tokens[0], view["legal_actions"][0]).get_json()
    assert acted["to_act"] == api.view(game_id)["to_act"] == [1]
    # Through the last card the answer follows the game, down to nobody once it is over.
    while acted["to_act"]:
        seat = acted["to_act"][0]
        action = api.view(game_id, tokens[seat])["legal_actions"][0]
        acted = api.act(game_id, tokens[seat], action).get_json()
        assert acted["to_act"] == api.view(game_id)["to_act"]
    assert api.view(game_id)["status"] == "finished"


def test_two_racing_conditional_actions_exactly_one_is_accepted(app, api):
    game_id, tokens = api.new_game("high-card", 2)
    view = api.view(game_id, tokens[0])
    statuses: list[int] = []
    barrier = threading.Barrier(2)

    def play(action: dict) -> None:
        client = app.test_client()
        barrier.wait()
        r = client.post(f"/games/{game_id}/actions", json=action, headers={
            **api.auth(tokens[0]), "If-Match": f'"{view["version"]}"'})
        statuses.append(r.status_code)

    threads = [threading.Thread(target=play, args=(a,)) for a in view["legal_actions"][:2]]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses) == [200, 412]
    assert api.view(game_id)["version"] == view["version"] + 1


def test_log_replay_and_seed_reveal_after_the_end(api):
    game_id, tokens = api.new_game("high-card", 2)
    end = api.play_to_end(game_id, tokens)
    assert end["outcome"]["places"] and commitment(end["seed"]) == end["seed_hash"]
    assert end["game"]["hands"] is not None  # after the end everyone sees everything
    log = api.http.get(f"/games/{game_id}/log")
    assert log.mimetype == "application/x-ndjson"
    lines = log.data.splitlines()
    assert verify_log(lines, games_under_test()) == []
    events = [json.loads(line) for line in lines]
    dealt = next(e for e in events if e["type"] == "dealt")
    assert set(dealt["private"]) == {"0", "1"}
    replayed = api.http.get(f"/games/{game_id}/states/{dealt['seq']}").get_json()
    assert replayed["version"] == dealt["seq"] and replayed["game"]["played"] == [[], []]
    assert api.http.get(f"/games/{game_id}/states/99999").status_code == 404
    forged = lines[:]
    forged[-2] = forged[-2].replace(b'"card":', b'"card":1')
    assert verify_log(forged, games_under_test())


def test_a_seat_never_sees_another_seats_private_parts_before_the_end(api):
    game_id, tokens = api.new_game("high-card", 2)
    for seat, token in enumerate(tokens):
        for ev in api.events(game_id, token)["events"]:
            assert set(ev["private"]) <= {str(seat)}
    for ev in api.events(game_id)["events"]:
        assert ev["private"] == {}
    log = [json.loads(x) for x in api.http.get(f"/games/{game_id}/log",
                                                headers=api.auth(tokens[1])).data.splitlines()]
    assert all(set(e["private"]) <= {"1"} for e in log)


def test_long_poll_returns_when_a_move_lands(app, api):
    game_id, tokens = api.new_game("high-card", 2)
    version = api.view(game_id)["version"]
    action = api.view(game_id, tokens[0])["legal_actions"][0]
    timer = threading.Timer(0.2, lambda: app.test_client().post(
        f"/games/{game_id}/actions", json=action, headers=api.auth(tokens[0])))
    timer.start()
    r = api.http.get(f"/games/{game_id}/events?after={version}&wait=5")
    timer.join()
    assert r.status_code == 200 and r.get_json()["events"][0]["seq"] == version + 1
    empty = api.http.get(f"/games/{game_id}/events?after=999&wait=0.1").get_json()
    assert empty["events"] == []


def test_listing_is_paginated_and_filtered(api):
    ids = [api.create("high-card", 2)["id"] for _ in range(3)]
    started, _ = api.new_game("high-card", 2)
    r = api.http.get("/games?page=1&page_size=2")
    assert r.status_code == 200 and len(r.get_json()) == 2
    assert json.loads(r.headers["X-Pagination"])["total"] == 4
    open_ids = {g["id"] for g in api.http.get("/games?status=open&page_size=10").get_json()}
    assert open_ids == set(ids)
    active = api.http.get("/games?status=active&type=high-card").get_json()
    assert [g["id"] for g in active] == [started]


def test_types_and_health(api):
    types = api.http.get("/games/types").get_json()
    assert "high-card" in {t["id"] for t in types}
    one = api.http.get("/games/types/high-card").get_json()
    assert one["options"][0]["name"] == "cards" and one["actions"] == ["play"]
    assert api.http.get("/games/types/nope").status_code == 404
    health = api.http.get("/healthz")
    assert health.status_code == 200
    assert {k: health.get_json()[k] for k in ("status", "web", "redis")} == {
        "status": "ok", "web": "ok", "redis": "ok"}
