"""One status for a body the server cannot read, on every route that takes one: malformed
JSON is 422 (`malformed_json`; an action's route says `bad_action`), a body that is not
JSON is 415, and both are documented with their codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from donkeypost.cli import OPENAPI_PATH

DOCUMENT = json.loads(Path(OPENAPI_PATH).read_text())


def body_routes(game_id: str, hook: str = "h") -> list[tuple[str, str]]:
    return [("createGame", "/games"), ("joinGame", f"/games/{game_id}/players"),
            ("postAction", f"/games/{game_id}/actions"),
            ("registerWebhook", f"/games/{game_id}/webhooks")]


def documented_codes(operation_id: str, status: int) -> list[str]:
    for ops in DOCUMENT["paths"].values():
        for op in ops.values():
            if isinstance(op, dict) and op.get("operationId") == operation_id:
                return op["responses"][str(status)]["x-codes"]
    raise AssertionError(operation_id)


@pytest.mark.parametrize("body", ["{", "[1, 2", "{\"type\": }"])
def test_malformed_json_is_422_on_every_route(api, body):
    game_id, tokens = api.new_game("ochs-und-esel", 3)
    for operation, path in body_routes(game_id):
        r = api.http.post(path, data=body, headers={"Content-Type": "application/json",
                                                    **api.auth(tokens[0])})
        assert r.status_code == 422, (path, r.get_json())
        assert r.get_json()["code"] in documented_codes(operation, 422), (path, r.get_json())
        assert r.get_json()["code"] == ("bad_action" if operation == "postAction"
                                        else "malformed_json")


def test_a_body_that_is_not_json_is_415(api):
    game_id, tokens = api.new_game("ochs-und-esel", 3)
    for operation, path in body_routes(game_id):
        r = api.http.post(path, data="name=ann", headers={
            "Content-Type": "application/x-www-form-urlencoded", **api.auth(tokens[0])})
        assert r.status_code == 415 and r.get_json()["code"] == "unsupported_media_type"
        assert "unsupported_media_type" in documented_codes(operation, 415)
