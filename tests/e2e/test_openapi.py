"""The committed OpenAPI document matches the code, is valid OpenAPI 3.1, and says for
every operation who may call it and every status it can answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from openapi_spec_validator import validate

from donkeypost.cli import OPENAPI_PATH, openapi_document
from tests.support.games import project_games

DOCUMENT = json.loads(Path(OPENAPI_PATH).read_text())
OPERATIONS = [(path, method, op) for path, ops in DOCUMENT["paths"].items()
              for method, op in ops.items() if method != "parameters"]


def test_committed_openapi_matches_the_code():
    assert Path(OPENAPI_PATH).read_text() == openapi_document(), \
        "openapi/openapi.json is out of date: run `donkeypost openapi`"


def test_the_document_is_valid_openapi_3_1():
    assert DOCUMENT["openapi"] == "3.1.0"
    validate(DOCUMENT)


def test_every_reference_resolves():
    text = json.dumps(DOCUMENT)
    for kind, names in DOCUMENT["components"].items():
        assert isinstance(names, dict), kind
    refs = {ref for ref in text.split('"$ref": "')[1:]}
    for ref in refs:
        _, _, kind, name = ref.split('"', 1)[0].split("/")
        assert name in DOCUMENT["components"][kind], ref


def test_actions_are_a_oneof_with_a_discriminator():
    spec = DOCUMENT
    action = spec["components"]["schemas"]["Action"]
    if "oneOf" in action:
        assert action["discriminator"]["propertyName"] == "type"
        assert action["discriminator"]["mapping"]
    else:
        for ref in action["anyOf"]:
            per_game = spec["components"]["schemas"][ref["$ref"].rsplit("/", 1)[1]]
            assert per_game["discriminator"]["propertyName"] == "type"


def test_game_content_is_typed_per_game_type():
    schemas = DOCUMENT["components"]["schemas"]
    for union in ("GameView", "CreatedGame", "CreateGame"):
        assert schemas[union]["discriminator"]["propertyName"] == "type"
        assert set(schemas[union]["discriminator"]["mapping"]) == set(project_games())
    view = schemas["TrashGameView"]["properties"]
    assert view["legal_actions"]["items"] == {"$ref": "#/components/schemas/TrashAction"}
    assert view["game"]["anyOf"][0] == {"$ref": "#/components/schemas/TrashTable"}
    events = schemas["Event"]["discriminator"]["mapping"]
    assert {"round_dealt", "set_played", "card_placed", "load_played", "round_scored",
            "game_finished"} <= set(events)


def test_every_operation_has_an_id_security_and_no_default_answer():
    ids = [op["operationId"] for _, _, op in OPERATIONS]
    assert len(ids) == len(set(ids))
    assert {"createGame", "getGame", "joinGame", "postAction", "listEvents"} <= set(ids)
    for path, method, op in OPERATIONS:
        assert "security" in op, (method, path)
        assert "default" not in op["responses"], (method, path)
        for status, answer in op["responses"].items():
            # /healthz answers 503 with its own report (which part is missing), not an error.
            if int(status) >= 400 and op["operationId"] != "getHealth":
                assert answer["x-codes"], (method, path, status)
                schema = answer["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/Error"}


def test_bodies_refuse_too_large_unsupported_and_malformed_input_documented():
    for path, method, op in OPERATIONS:
        if "requestBody" in op:
            answers = op["responses"]
            assert {"413", "415", "422"} <= set(answers), (method, path)
            assert "malformed_json" in answers["422"]["x-codes"] or \
                op["operationId"] == "postAction"


@pytest.fixture
def games():
    """The project's games: those of the committed document."""
    return project_games()


def test_the_app_serves_its_document_and_docs(api):
    served = api.http.get("/openapi.json").get_json()
    assert served == DOCUMENT
    page = api.http.get("/docs")
    assert page.status_code == 200 and b"swagger" in page.data.lower()
    assert api.http.get("/docs/assets/swagger-ui-bundle.js").status_code == 200
