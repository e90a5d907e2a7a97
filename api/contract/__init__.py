"""The API's contract: the parts of the OpenAPI document that are not plain marshmallow.

`jsonschema` turns the domain's declared types (msgspec Structs, TypedDicts) into schemas
that client generators accept; `games` registers every game's actions, options, views and
events; `operations` documents each operation (its id, security, headers, and every status
with the error codes it can carry).
"""

from __future__ import annotations

from typing import Any

from flask_smorest import Api

from api.contract import games, operations
from domain.game import Game


def register_contract(api: Api, registered: dict[str, Game[Any, Any]]) -> None:
    """Add the shared components and every registered game's to the document of `api`."""
    games.register(api, registered)
    operations.register_components(api, next(iter(registered.values())))
