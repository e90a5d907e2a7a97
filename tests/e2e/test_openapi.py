"""The committed OpenAPI document matches the code, and the API honours it."""

from __future__ import annotations

import json
from pathlib import Path

from donkeypost.cli import OPENAPI_PATH, openapi_document


def test_committed_openapi_matches_the_code():
    assert Path(OPENAPI_PATH).read_text() == openapi_document(), \
        "openapi/openapi.json is out of date: run `donkeypost openapi`"


def test_actions_are_a_oneof_with_a_discriminator():
    spec = json.loads(Path(OPENAPI_PATH).read_text())
    action = spec["components"]["schemas"]["Action"]
    if "oneOf" in action:
        assert action["discriminator"]["propertyName"] == "type"
        assert action["discriminator"]["mapping"]
    else:
        for ref in action["anyOf"]:
            per_game = spec["components"]["schemas"][ref["$ref"].rsplit("/", 1)[1]]
            assert per_game["discriminator"]["propertyName"] == "type"


def test_the_app_serves_its_document_and_docs(api):
    served = api.http.get("/openapi.json").get_json()
    assert served == json.loads(Path(OPENAPI_PATH).read_text())
    page = api.http.get("/docs")
    assert page.status_code == 200 and b"swagger" in page.data.lower()
    assert api.http.get("/docs/assets/swagger-ui-bundle.js").status_code == 200
