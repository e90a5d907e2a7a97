"""Bounds on every input: what a request may ask for stays a few times what a game needs,
and the OpenAPI document says so."""

from __future__ import annotations

import time

from domain.games.canyon_donkeys.donkeys import MAX_COMPOSITION


def test_a_donkey_deck_of_millions_is_refused_at_once(api):
    started = time.monotonic()
    r = api.http.post("/games", json={"type": "canyon-donkeys", "seats": [
        {"kind": "human"}] * 3, "options": {"donkey_deck": {"normal": 4_000_000}}})
    assert r.status_code == 422 and r.get_json()["code"] == "bad_donkey_deck"
    assert time.monotonic() - started < 2.0  # refused before anything is shuffled
    at_most = api.create("canyon-donkeys", 3, {"donkey_deck": {"normal": MAX_COMPOSITION}})
    assert at_most["options"]["donkey_deck"] == {"normal": MAX_COMPOSITION}
    over = api.http.post("/games", json={"type": "canyon-donkeys", "seats": [
        {"kind": "human"}] * 3, "options": {"donkey_deck": {"normal": MAX_COMPOSITION + 1}}})
    assert over.status_code == 422


def test_every_option_of_every_game_states_its_bounds(api):
    for game in api.http.get("/games/types").get_json():
        for option in game["options"]:
            if option["type"] in ("int", "composition_or_list"):
                assert option["maximum"] is not None, (game["id"], option["name"])
            elif option["type"] == "seat_or_random":
                pass  # a seat: bounded by the number of players
            else:
                assert option["type"] == "bool" or option["choices"], (game["id"], option)


def test_strings_lists_and_maps_are_bounded(api):
    seats = [{"kind": "human"}] * 3
    for body in ({"type": "x" * 65, "seats": seats},
                 {"type": "ochs-und-esel", "seats": seats,
                  "options": {f"o{i}": 1 for i in range(17)}},
                 {"type": "ochs-und-esel", "seats": seats, "options": {"o" * 65: 1}},
                 {"type": "ochs-und-esel", "seats": [{"kind": "bot"}] * 13}):
        r = api.http.post("/games", json=body)
        assert r.status_code == 422, body
    assert api.http.get("/games?type=" + "t" * 65).status_code == 422
    game = api.create("ochs-und-esel", 3)
    for name in ("n" * 41, "evil\u202eknil", "bell\x07", "zero\u200bwidth", "   "):
        r = api.http.post(f"/games/{game['id']}/players", json={"name": name})
        assert r.status_code == 422, (name, r.get_json())
    kept = api.http.post(f"/games/{game['id']}/players", json={"name": "  Zoë   the ☃ "})
    assert kept.status_code == 201 and kept.get_json()["game"]["seats"][0]["name"] == \
        "Zoë the ☃"


def test_the_openapi_document_states_the_bounds(api):
    spec = api.http.get("/openapi.json").get_json()
    schemas = spec["components"]["schemas"]
    # A new game is one of the game types' (a oneOf): each states its type, seats, options.
    for variant in schemas["CreateGame"]["oneOf"]:
        create = schemas[variant["$ref"].rsplit("/", 1)[1]]["properties"]
        assert len(create["type"]["const"]) <= 64 and create["seats"]["maxItems"] <= 12
        options = schemas[create["options"]["$ref"].rsplit("/", 1)[1]]
        # No option but the game's own (at most 16, the server's bound for any game).
        assert options["additionalProperties"] is False and len(options["properties"]) <= 16
    assert schemas["Join"]["properties"]["name"]["maxLength"] == 40
    assert schemas["WebhookArgs"]["properties"]["url"]["maxLength"] == 2000
    params = {p["name"]: p for p in spec["paths"]["/games/{game_id}/events"]["get"][
        "parameters"] if "name" in p}
    assert params["after"]["schema"]["maximum"] == 2**53 - 1
    assert params["limit"]["schema"]["maximum"] == 1000 and params["wait"]["schema"][
        "maximum"] == 60


def test_page_numbers_are_bounded_on_every_listing(api):
    from api.paging import MAX_PAGE

    for path in ("/games", "/ratings/ochs-und-esel"):
        assert api.http.get(f"{path}?page={MAX_PAGE}").status_code == 200
        r = api.http.get(f"{path}?page={MAX_PAGE + 1}")
        assert r.status_code == 422
        body = r.get_json()
        assert body["code"] == "validation_error" and "page" in body["errors"]["query"]
    spec = api.http.get("/openapi.json").get_json()
    pages = [p for path in spec["paths"].values() for op in path.values()
             if isinstance(op, dict) for p in op.get("parameters", [])
             if p.get("name") == "page"]
    assert len(pages) == 3 and all(p["schema"]["maximum"] == MAX_PAGE for p in pages)


def test_cross_field_rules_are_stated_and_refused_with_their_codes(api):
    spec = api.http.get("/openapi.json").get_json()
    trash = spec["components"]["schemas"]["CreateTrashGame"]
    assert trash["x-rules"][0]["code"] == "not_enough_cards"
    [rule] = trash["dependentSchemas"]["options"]["allOf"]
    seats, decks = rule["anyOf"]
    assert seats["properties"]["seats"]["maxItems"] == 4
    assert decks["properties"]["options"]["properties"]["decks"]["enum"] == [None, 2, 3]
    r = api.http.post("/games", json={"type": "trash", "options": {"decks": 1},
                                      "seats": [{"kind": "human"}] * 5})
    assert r.status_code == 422 and r.get_json()["code"] == "not_enough_cards"
    join = spec["paths"]["/games/{game_id}/players"]["post"]
    assert join["x-rules"][0]["code"] == "name_or_key_required"
    assert "name_or_key_required" in join["responses"]["401"]["x-codes"]
    game = api.create("trash", 2)
    r = api.http.post(f"/games/{game['id']}/players", json={})
    assert r.status_code == 401 and r.get_json()["code"] == "name_or_key_required"
    assert r.headers["WWW-Authenticate"] == "Bearer"


def test_a_seats_rules_are_in_its_schema(api):
    import jsonschema_rs

    spec = api.http.get("/openapi.json").get_json()
    seat = spec["components"]["schemas"]["SeatSpec"]
    check = jsonschema_rs.validator_for(seat)
    assert check.is_valid({"kind": "human", "me": True})
    assert check.is_valid({"kind": "human", "invite": "Ann"})
    assert check.is_valid({"kind": "bot", "me": False})
    for refused in ({"kind": "bot", "invite": "Ann"}, {"kind": "bot", "me": True},
                    {"kind": "human", "me": True, "invite": "Ann"}):
        assert not check.is_valid(refused), refused
        r = api.http.post("/games", json={"type": "trash", "seats": [refused, {"kind": "bot"}]})
        assert r.status_code in (401, 422) and r.get_json()["code"] in (
            "bad_players", "needs_player_key"), r.get_json()
