"""msgspec's JSON Schema, made into schemas OpenAPI client generators accept.

msgspec describes a tuple with `prefixItems` and `items: false`, a tag with a one-value
`enum`, and a tagged union with `anyOf` and a discriminator. openapi-python-client refuses
`items: false` (and apispec turns it into a reference to a missing `False` schema), so
tuples become plain arrays with `minItems`/`maxItems`; a one-value enum becomes `const`
(a literal in both generators) unless it is one of a union's alternatives; a discriminated
union becomes a `oneOf`.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Sequence
from typing import Any

import msgspec

from api.request_guard import MAX_SEQ

REF = "#/components/schemas/{name}"
_NAMED = ("properties", "patternProperties", "$defs")  # maps of names to schemas
_VALUES = ("enum", "const", "default", "examples", "example", "discriminator", "required")


def ref(name: str) -> dict[str, str]:
    return {"$ref": REF.format(name=name)}


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


def schemas_of(types: Sequence[Any], closed: bool = False
               ) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """The schemas of `types` and the components they refer to. `closed`: objects admit
    no other properties (the shapes of what the server sends are exact)."""
    top, components = msgspec.json.schema_components(types, ref_template=REF)
    return ([openapi(s, closed) for s in top],
            {name: openapi(s, closed) for name, s in components.items()})


def openapi(schema: Any, closed: bool = False, alternative: bool = False) -> Any:
    """`schema` (msgspec's JSON Schema) rewritten for OpenAPI 3.1 generators.
    `alternative`: the schema is one of an anyOf's."""
    if isinstance(schema, list):
        return [openapi(s, closed, alternative) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _NAMED:
            out[key] = {name: openapi(sub, closed) for name, sub in value.items()}
        elif key in _VALUES:
            out[key] = value
        elif key != "prefixItems" and not (key == "items" and value is False):
            out[key] = openapi(value, closed, key in ("anyOf", "oneOf"))
    if "prefixItems" in schema:
        items: list[Any] = []
        for item in openapi(schema["prefixItems"], closed):
            if item not in items:
                items.append(item)
        out["items"] = items[0] if len(items) == 1 else {"anyOf": items}
    if "enum" in out and len(out["enum"]) == 1 and not alternative:
        # openapi-python-client checks a const without trying the union's other types.
        out["const"] = out.pop("enum")[0]
    if "anyOf" in out and "discriminator" in out:
        out["oneOf"] = out.pop("anyOf")
    if isinstance(out.get("description"), str):
        out["description"] = inspect.cleandoc(out["description"])
    if out.get("type") == "integer":
        # Every integer this API reads or sends: at most 2^53 - 1 either way, which every
        # JSON client reads exactly (a request's longer number is refused, `malformed_json`).
        out.setdefault("minimum", -MAX_SEQ)
        out.setdefault("maximum", MAX_SEQ)
    if closed and out.get("type") == "object" and "properties" in out:
        out.setdefault("additionalProperties", False)
    return out


def without_default(prop: dict[str, Any]) -> dict[str, Any]:
    """A request property without its `default` (which TypeScript generators read as
    "always present"), the default told in its description instead."""
    prop = dict(prop)
    if "default" in prop:
        default = prop.pop("default")
        prop["description"] = (prop.get("description", "") +
                               f" Default: `{json.dumps(default)}`.").strip()
    return prop
