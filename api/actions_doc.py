"""The OpenAPI description of actions, generated from the games' own action types.

Each game declares its actions as tagged msgspec Structs; their JSON Schemas become
components, and the action request body is one `oneOf` with a discriminator on `type`.
"""

from __future__ import annotations

from typing import Any

import msgspec
from apispec import APISpec

from domain.game import Game

REF = "#/components/schemas/{name}"


def action_body_schema(spec: APISpec, games: dict[str, Game[Any, Any]]) -> dict[str, Any]:
    """Register every game's action schemas; return the schema of an action body."""
    unions = [g.action_type for g in games.values()]
    per_game, components = msgspec.json.schema_components(unions, ref_template=REF)
    for name, schema in sorted(components.items()):
        spec.components.schema(name, schema)
    mapping: dict[str, str] = {}
    clash = False
    for union in per_game:
        for tag, ref in union.get("discriminator", {}).get("mapping", {}).items():
            clash |= mapping.get(tag, ref) != ref
            mapping[tag] = ref
    if not clash:
        refs = sorted(set(mapping.values()))
        return {"oneOf": [{"$ref": r} for r in refs],
                "discriminator": {"propertyName": "type", "mapping": dict(sorted(mapping.items()))},
                "description": "An action of the game's type; GET /games/{id} lists the legal "
                               "ones as complete bodies."}
    # Two games use one tag for different actions: one oneOf per game, chosen by the game.
    for game, union in zip(games.values(), per_game, strict=True):
        name = "".join(part.title() for part in game.id.split("-")) + "Action"
        union = {("oneOf" if k == "anyOf" else k): v for k, v in union.items()}
        spec.components.schema(name, union)
    return {"anyOf": [{"$ref": REF.format(name="".join(p.title() for p in g.id.split("-"))
                                          + "Action")} for g in games.values()],
            "description": "An action of the game's type (each game's actions are a oneOf "
                           "with a discriminator on `type`)."}
