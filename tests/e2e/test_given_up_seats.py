"""A seat given up to a bot (resigned or left) is refused what only its player could do,
with a code the document lists for that operation and status."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from donkeypost.cli import OPENAPI_PATH

DOCUMENT = json.loads(Path(OPENAPI_PATH).read_text())


def _documented(path: str, method: str, status: int) -> list[str]:
    return DOCUMENT["paths"][path][method]["responses"][str(status)]["x-codes"]


@pytest.mark.parametrize(("how", "body", "code"), [("resign", None, "seat_resigned"),
                                                  ("leave", {"level": "random"}, "seat_left")])
def test_coming_back_to_a_seat_given_up_is_a_documented_409(api, how, body, code):
    game_id, tokens = api.new_game("ochs-und-esel", 3, {"rounds": 1})
    given_up = api.http.post(f"/games/{game_id}/{how}", json=body, headers=api.auth(tokens[1]))
    assert given_up.status_code == 200, given_up.get_json()
    back = api.http.post(f"/games/{game_id}/back", headers=api.auth(tokens[1]))
    assert back.status_code == 409 and back.get_json()["code"] == code
    assert code in _documented("/games/{game_id}/back", "post", 409)
    act = api.act(game_id, tokens[1], {"type": "pass"})
    assert act.status_code == 409 and act.get_json()["code"] == code
    assert code in _documented("/games/{game_id}/actions", "post", 409)
