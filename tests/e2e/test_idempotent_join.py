"""A join with an Idempotency-Key is idempotent like an action: a retry gets the first
answer (the same seat and token) and takes no second seat."""

from __future__ import annotations


def test_a_retried_join_gets_the_first_seat_and_token(api):
    game = api.create("ochs-und-esel", 3, deadline_s=None)
    first = api.http.post(f"/games/{game['id']}/players", json={"name": "ann"},
                          headers={"Idempotency-Key": "ann-joins"})
    retry = api.http.post(f"/games/{game['id']}/players", json={"name": "ann"},
                          headers={"Idempotency-Key": "ann-joins"})
    assert first.status_code == retry.status_code == 201
    assert (retry.get_json()["seat"], retry.get_json()["token"]) == \
        (first.get_json()["seat"], first.get_json()["token"])
    joined = [e for e in api.events(game["id"])["events"] if e["type"] == "player_joined"]
    assert len(joined) == 1
    other = api.http.post(f"/games/{game['id']}/players", json={"name": "bob"},
                          headers={"Idempotency-Key": "bob-joins"})
    assert other.status_code == 201 and other.get_json()["seat"] != first.get_json()["seat"]


def test_a_retry_after_the_last_seat_was_taken_is_still_answered(api):
    game = api.create("ochs-und-esel", 3, deadline_s=None)
    api.join(game["id"], "ann")
    api.join(game["id"], "bob")
    key = {"Idempotency-Key": "cy-joins"}
    first = api.http.post(f"/games/{game['id']}/players", json={"name": "cy"}, headers=key)
    assert first.status_code == 201 and first.get_json()["game"]["status"] == "active"
    retry = api.http.post(f"/games/{game['id']}/players", json={"name": "cy"}, headers=key)
    assert retry.status_code == 201, retry.get_json()
    assert retry.get_json()["token"] == first.get_json()["token"]
    unkeyed = api.http.post(f"/games/{game['id']}/players", json={"name": "dee"})
    assert unkeyed.status_code == 409 and unkeyed.get_json()["code"] == "no_free_seat"
    bad = api.http.post(f"/games/{game['id']}/players", json={"name": "eve"},
                        headers={"Idempotency-Key": ""})
    assert bad.status_code == 400 and bad.get_json()["code"] == "bad_idempotency_key"
