"""The game view is written without marshmallow; it must read exactly as the documented
schema's dump would: same fields, same values, floats where the schema has floats."""

from __future__ import annotations

import json
import random

import pytest

from api.encoding import encode_game_view, encode_inbox
from api.player_schemas import InboxEntrySchema
from api.schemas import GameViewSchema
from tests.support.games import installed_games


def _as_schema_dumps(view):
    return json.dumps(GameViewSchema().dump(view), sort_keys=True)


def _as_encoded(view):
    return json.dumps(json.loads(encode_game_view(view)), sort_keys=True)


def test_ints_where_the_schema_has_floats_come_out_as_floats():
    view = {"id": "g", "type": "t", "status": "active", "version": 3, "options": {},
            "seats": [{"seat": 0, "kind": "human", "level": None, "name": "a", "taken": True,
                       "away": False, "timeouts_in_row": 0, "deadline": 100}],
            "you": 0, "to_act": [0], "deadline_s": 259200, "on_timeout": "autoplay",
            "seed_hash": "h", "seed": None, "created_at": 5, "updated_at": 6,
            "game": {"hands": {0: [1, 2]}}, "legal_actions": [{"type": "pass"}],
            "outcome": None, "server_time": 7.0}
    assert _as_encoded(view) == _as_schema_dumps(view)
    decoded = json.loads(encode_game_view(view))
    assert decoded["deadline_s"] == 259200.0 and isinstance(decoded["deadline_s"], float)
    assert "server_time" not in decoded  # not a field of the schema


@pytest.mark.parametrize("game_type", sorted(installed_games()))
def test_every_view_of_a_played_game_reads_as_the_schema_dumps_it(app, api, game_type):
    service = app.extensions["donkeypost"]
    game = installed_games()[game_type]
    players = game.min_players
    game_id, tokens = api.new_game(game_type, players)
    rng = random.Random(3)
    for _ in range(40):
        table, _ = service.load(game_id)
        for viewer in [None, *range(players)]:
            view = service.view(table, viewer)
            assert _as_encoded(view) == _as_schema_dumps(view)
        served = api.http.get(f"/games/{game_id}", headers=api.auth(tokens[0]))
        assert served.get_json() == json.loads(encode_game_view(service.view(table, 0)))
        if table.status != "active":
            break
        seat = sorted(api.view(game_id)["to_act"])[0]
        action = rng.choice(api.view(game_id, tokens[seat])["legal_actions"])
        assert api.act(game_id, tokens[seat], action).status_code == 200


def test_an_inbox_page_reads_as_the_schema_dumps_it(api):
    ann = api.http.post("/players", json={"name": "Ann"}).get_json()
    game = api.http.post("/games", json={"type": "ochs-und-esel", "deadline_s": 3600, "seats": [
        {"kind": "human", "me": True}, {"kind": "bot"}, {"kind": "bot"}]},
        headers=api.auth(ann["key"])).get_json()
    page = api.http.get("/players/me/games", headers=api.auth(ann["key"])).get_json()
    assert [e["id"] for e in page] == [game["id"]]
    rated = [{**page[0], "deadline": 100, "created_at": 5, "place": 1,
              "rating": {"before": 1500, "after": 1562.5, "delta": 62.5, "deviation": 290}}]
    for entries in (page, rated):
        assert json.loads(encode_inbox(entries)) == InboxEntrySchema(many=True).dump(entries)
