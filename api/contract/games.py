"""Every registered game's part of the OpenAPI document, derived from the game itself.

From each game: its actions (tagged msgspec Structs), its options (`OptionSpec`s), the
shapes of its view and events (`game.shapes`, TypedDicts declared next to the game's
code). From them:

- `<Game>Action`: the game's action union, a `oneOf` discriminated by `type`; `Action`, the
  body of `POST /games/{id}/actions`, the union of every game's actions.
- `<Game>Options` (every option, as a view shows them) and `<Game>OptionChoices` (what a
  creator may set; the rest take their defaults).
- `<Game>GameView`: the common view (`GameViewSchema`) with this game's `type`, `options`,
  `game` (its own view), `legal_actions` typed; `GameView`, their `oneOf` discriminated by
  `type`; the same for `CreatedGame` and `CreateGame` (`POST /games`).
- `<EventType>Event` for every event type of the table and the games, with its `data` and
  its `private` part typed; `Event`, their `oneOf` discriminated by `type`. An event type
  that several games emit with different data (`round_dealt`, `game_ended`) has a `data`
  that is one of their shapes (exact shapes, so exactly one matches).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import marshmallow as ma
from flask_smorest import Api
from marshmallow import validate

from api import schemas
from api.contract import examples, words
from api.contract.jsonschema import nullable, ref, schemas_of, without_default
from domain.game import EventShape, Game, OptionSpec, Outcome, SeatRule
from domain.shapes import TABLE_EVENTS, OptionValue

Games = Mapping[str, Game[Any, Any]]
PRIVATE_KEYS = "^-?[0-9]+$"  # a seat's number (-1: a part no seat receives)


def pascal(name: str) -> str:
    """`ochs-und-esel` -> `OchsUndEsel`, `round_dealt` -> `RoundDealt`."""
    return "".join(part.title() for part in name.replace("_", "-").split("-"))


def register(api: Api, games: Games) -> None:
    """Add every game's components to the document of `api`."""
    components: dict[str, dict[str, Any]] = {}
    _add(components, schemas_of([g.action_type for g in games.values()], closed=True)[1])
    domain_types = [Outcome, *(g.shapes.view for g in games.values()),
                    *(t for g in games.values() for t in g.shapes.option_types.values()),
                    *(t for shape in _event_shapes(games).values() for s in shape
                      for t in (s.data, s.private) if t is not None)]
    _add(components, schemas_of(domain_types, closed=True)[1])
    for game in games.values():
        prefix = pascal(game.id)
        components[f"{prefix}Action"] = _union(_members(game.action_type), "type")
        options = {spec.name: _option(spec, game) for spec in game.options}
        components[f"{prefix}Options"] = {
            "type": "object", "additionalProperties": False, "properties": options,
            "required": list(options),
            "description": f"The options a {game.title} game is played with."}
        components[f"{prefix}OptionChoices"] = {
            "type": "object", "additionalProperties": False, "properties": options,
            "description": f"The options of a new {game.title} game; those left out "
                           "take their defaults (GET /games/types/{type})."}
    components["Action"] = _all_actions(games)
    (option_value,), _ = schemas_of([OptionValue])
    components["OptionValue"] = {**option_value, "description": "an option's value"}
    components.update(words.components())
    components.update(_views(api, games))
    components.update(_creation(api, games))
    components.update(_events(games))
    components.update(_deliveries())
    _add_examples(components, games)
    for name, schema in components.items():
        api.spec.components.schema(name, schema)
    # Marshmallow schemas whose loosely typed fields get their types here.
    for name, schema, typed in (
            ("Option", schemas.OptionSchema, {
                "default": {**nullable(ref("OptionValue")), "description": "its default"},
                "choices": {**nullable({"type": "array", "items": ref("OptionValue")}),
                            "description": "the values it may take, if listed"}}),
            ("Delivery", schemas.DeliverySchema, {
                "body": {**ref("WebhookPayload"), "description": "the JSON body sent"}})):
        api.spec.components.schema(name, schema=schema)
        api.spec.components.schemas[name]["properties"].update(typed)


def _add(components: dict[str, dict[str, Any]], new: Mapping[str, dict[str, Any]]) -> None:
    for name, schema in new.items():
        if components.setdefault(name, schema) != schema:
            raise ValueError(f"two different types are named {name}")


def _members(union: Any) -> tuple[type, ...]:
    return getattr(union, "__args__", (union,))


def _union(members: Iterable[type], tag_field: str) -> dict[str, Any]:
    mapping = {cls.__struct_config__.tag: ref(cls.__name__)["$ref"] for cls in members}
    return {"oneOf": [{"$ref": r} for r in dict.fromkeys(mapping.values())],
            "discriminator": {"propertyName": tag_field, "mapping": mapping}}


def _all_actions(games: Games) -> dict[str, Any]:
    """The action body: one union of every game's actions while their tags are distinct
    (a client then needs no game to build one); else a choice of the games' unions."""
    members: dict[str, type] = {}
    for game in games.values():
        for cls in _members(game.action_type):
            if members.setdefault(cls.__struct_config__.tag, cls) is not cls:
                return {"anyOf": [ref(f"{pascal(g.id)}Action") for g in games.values()],
                        "description": "An action of the game's type (each game's actions "
                                       "are a oneOf discriminated by `type`)."}
    union = _union(members.values(), "type")
    union["description"] = ("An action of the game's type; GET /games/{id} lists the legal "
                            "ones as complete bodies.")
    return union


def _option(spec: OptionSpec, game: Game[Any, Any]) -> dict[str, Any]:
    if spec.name in game.shapes.option_types:
        (schema,), _ = schemas_of([game.shapes.option_types[spec.name]], closed=True)
    elif spec.type == "int":
        schema = {"type": "integer", **({"minimum": spec.minimum}
                                        if spec.minimum is not None else {}),
                  **({"maximum": spec.maximum} if spec.maximum is not None else {})}
    elif spec.type == "bool":
        schema = {"type": "boolean"}
    elif spec.type == "str":
        schema = {"type": "string", **({"enum": spec.choices} if spec.choices else {})}
    elif spec.type == "seat_or_random":
        schema = {"anyOf": [{"type": "integer", "minimum": 0,
                             "maximum": game.max_players - 1}, {"enum": ["random"]}]}
    else:
        raise ValueError(f"{game.id}: option {spec.name!r} of type {spec.type!r} needs "
                         "its type in the game's shapes.option_types")
    if spec.nullable or spec.default is None:
        schema = nullable(schema)
    default = "" if spec.default is None and not spec.nullable else \
        f" Default: `{json.dumps(spec.default)}`."
    return {**schema, "description": spec.description + default}


def _marshmallow(api: Api, schema: type[ma.Schema], **overrides: Any) -> dict[str, Any]:
    """A marshmallow schema's JSON Schema, with some properties replaced (the fields
    replaced are not converted: a nested schema would be registered on the way)."""
    convert = api.ma_plugin.converter.field2property
    fields = schema._declared_fields
    return {"type": "object",
            "properties": {name: overrides[name] if name in overrides else convert(field)
                           for name, field in fields.items()},
            "required": [name for name, field in fields.items() if field.required]}


def _views(api: Api, games: Games) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    views: dict[str, str] = {}
    created: dict[str, str] = {}
    for game in games.values():
        prefix = pascal(game.id)
        view = _marshmallow(
            api, schemas.GameViewSchema,
            type={"const": game.id, "description": "the game type"},
            options=ref(f"{prefix}Options"),
            game={**nullable(ref(game.shapes.view.__name__)),
                  "description": "the game's own view (null until it starts)"},
            legal_actions={"type": "array", "items": ref(f"{prefix}Action"),
                           "description": "complete action bodies the caller may post now"},
            outcome={**nullable(ref("Outcome")), "description": "the result, once finished"},
            action_labels=words.ACTION_LABELS, layout=words.LAYOUT)
        view["required"] = list(view["properties"])
        out[f"{prefix}GameView"] = view
        out[f"{prefix}CreatedGame"] = {"allOf": [ref(f"{prefix}GameView"), ref("CreatorToken")]}
        views[game.id] = ref(f"{prefix}GameView")["$ref"]
        created[game.id] = ref(f"{prefix}CreatedGame")["$ref"]
    out["GameView"] = {"oneOf": [{"$ref": r} for r in views.values()],
                       "discriminator": {"propertyName": "type", "mapping": views},
                       "description": "A game as the caller may see it."}
    out["CreatorToken"] = {
        "type": "object", "required": ["creator_token"],
        "properties": {"creator_token": {"type": "string", "description": (
            "the creator's token (e.g. for a game-wide webhook); shown once")}}}
    out["CreatedGame"] = {"oneOf": [{"$ref": r} for r in created.values()],
                          "discriminator": {"propertyName": "type", "mapping": created},
                          "description": "The new game as a spectator sees it, and the "
                                         "creator's token."}
    out["Joined"] = _marshmallow(api, schemas.JoinedSchema, game=ref("GameView"))
    out["EventsPage"] = _marshmallow(api, schemas.EventsPageSchema,
                                     events={"type": "array", "items": ref("Event")})
    out["Acted"] = _marshmallow(api, schemas.ActedSchema, events={
        "type": "array", "items": ref("Event"),
        "description": "the events the action caused, as the caller may see them"},
        view={**ref("GameView"), "description": "the caller's view of the game now, as GET "
              "/games/{id} gives it (with its legal_actions when it is still to act)"})
    return out


def _request_bound(field: str, keyword: str, default: int) -> int:
    """A bound `CreateGameSchema` puts on one of its fields (what the server enforces for
    every game), e.g. at most 16 options or 12 seats."""
    for check in schemas.CreateGameSchema._declared_fields[field].validators:
        if isinstance(check, validate.Length) and check.max is not None:
            return int(check.max)
    return default


def _creation(api: Api, games: Games) -> dict[str, dict[str, Any]]:
    fields = schemas.CreateGameSchema._declared_fields
    convert = api.ma_plugin.converter.field2property
    common = {name: without_default(convert(fields[name]))
              for name in ("deadline_s", "time_control", "on_timeout", "bot_delay_s")}
    seat_fields = schemas.SeatSpecSchema._declared_fields
    out: dict[str, dict[str, Any]] = {"SeatSpec": {
        "type": "object", "additionalProperties": False, "required": ["kind"],
        "properties": {name: without_default(convert(f)) for name, f in seat_fields.items()},
        "description": "A seat: a human (taken later with POST /games/{id}/players) or a "
                       "bot of a level. Only a human seat may be `me` or `invite` a player, "
                       "and not both.",
        **_SEAT_RULES}}
    mapping: dict[str, str] = {}
    for game in games.values():
        prefix = pascal(game.id)
        out[f"Create{prefix}Game"] = {
            "type": "object", "additionalProperties": False, "required": ["type", "seats"],
            "properties": {
                "type": {"const": game.id, "description": "the game type"},
                "options": ref(f"{prefix}OptionChoices"),
                "seats": {"type": "array", "items": ref("SeatSpec"),
                          "minItems": game.min_players,
                          "maxItems": min(game.max_players,
                                          _request_bound("seats", "maxItems", 10**6)),
                          "description": "one entry per player, in seat order"},
                **common},
            "description": f"A new {game.title} game."}
        rules = getattr(game, "seat_rules", ())
        seat_options = [o.name for o in game.options if o.type == "seat_or_random"]
        if rules or seat_options:
            out[f"Create{prefix}Game"].update(_seat_rules(
                rules, game.options, seat_options, range(game.min_players,
                                                         game.max_players + 1)))
        mapping[game.id] = ref(f"Create{prefix}Game")["$ref"]
    out["CreateGame"] = {"oneOf": [{"$ref": r} for r in mapping.values()],
                         "discriminator": {"propertyName": "type", "mapping": mapping},
                         "description": "A new game: its type, options and seats."}
    return out


# What `domain.service.lobby.seats_for` refuses (422 `bad_players`), as the schema says it:
# `dependentSchemas` (what a seat with an `invite`, or with `me`, must also be), which
# validators and test generators read and client generators leave alone (a union would
# rename the seat's type in every generated client).
_SEAT_RULES: dict[str, Any] = {
    "dependentSchemas": {
        "invite": {"properties": {"kind": {"enum": ["human"]}, "me": {"enum": [False]}}},
        "me": {"anyOf": [{"properties": {"me": {"enum": [False]}}},
                         {"properties": {"kind": {"enum": ["human"]}}}]}},
    "x-rules": [
        {"code": "bad_players", "status": 422,
         "rule": "a bot seat is neither `me` nor an `invite`"},
        {"code": "bad_players", "status": 422,
         "rule": "a seat is `me` or an `invite`, not both"}]}


def _seat_rules(rules: Iterable[SeatRule], options: Sequence[OptionSpec],
                seat_options: Sequence[str], players: Iterable[int]) -> dict[str, Any]:
    """A game's rules between options and seats: each of its own as an `anyOf` (at most so
    many seats, or an option's other values); an option naming a seat (`seat_or_random`)
    as an `anyOf` over the numbers of players (with n seats, at most n - 1); and in words
    with their codes (`x-rules`)."""
    by_name = {o.name: o for o in options}
    checks: list[dict[str, Any]] = [{"anyOf": [
        {"properties": {"seats": {"maxItems": r.max_players}}},
        {"properties": {"options": {"properties": {
            r.option: {"enum": _other_values(by_name[r.option], r.values)}}}}}]}
        for r in rules]
    if seat_options:
        checks.append({"anyOf": [
            {"properties": {"seats": {"minItems": n, "maxItems": n},
                            "options": {"properties": {
                                name: {"maximum": n - 1} for name in seat_options}}}}
            for n in players]})
    return {
        # (Under `dependentSchemas`, as the seats' rules, for the same reason.)
        "dependentSchemas": {"options": {"allOf": checks}},
        "x-rules": [{"code": r.code, "status": 422, "rule": r.rule} for r in rules] + [
            {"code": "bad_option", "status": 422,
             "rule": f"`{name}` names a seat: at most the number of seats minus one"}
            for name in seat_options]}


def _other_values(option: OptionSpec, values: Sequence[Any]) -> list[Any]:
    """The values an int option may take besides `values` (null too, if nullable)."""
    assert option.type == "int" and option.minimum is not None and option.maximum is not None
    others: list[Any] = [None] if option.nullable else []
    return others + [v for v in range(option.minimum, option.maximum + 1) if v not in values]


def _event_shapes(games: Games) -> dict[str, list[EventShape]]:
    """Every event type with its distinct shapes, the table's first."""
    out: dict[str, list[EventShape]] = {}
    for events in (TABLE_EVENTS, *(g.shapes.events for g in games.values())):
        for kind, shape in events.items():
            if shape not in out.setdefault(kind, []):
                out[kind].append(shape)
    return out


def _one_of(types: Iterable[Any]) -> dict[str, Any]:
    """One shape, or the choice of several exact ones (so exactly one matches), the most
    specific first, for generated clients that try each in turn."""
    names = list(dict.fromkeys(t.__name__ for t in sorted(
        types, key=lambda t: -len(getattr(t, "__required_keys__", ())))))
    if len(names) == 1:
        return ref(names[0])
    return {"oneOf": [ref(n) for n in names]}


def _events(games: Games) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    mapping: dict[str, str] = {}
    for kind, shapes in _event_shapes(games).items():
        privates = [s.private for s in shapes if s.private is not None]
        private: dict[str, Any] = {
            "type": "object", "propertyNames": {"pattern": PRIVATE_KEYS},
            "additionalProperties": _one_of(privates) if privates else False,
            "description": "seat -> its private part: yours, or every seat's after the end"}
        name = f"{pascal(kind)}Event"
        out[name] = {
            "type": "object", "additionalProperties": False,
            "required": ["seq", "type", "actor", "at", "data", "private", "commitments",
                         "hash"],
            "properties": {
                "seq": {"type": "integer", "minimum": 1},
                "type": {"const": kind},
                "actor": {**nullable({"type": "integer", "minimum": 0}),
                          "description": "the seat whose action caused it"},
                "at": {"type": "number", "description": "epoch seconds"},
                "data": _one_of(s.data for s in shapes),
                "private": private,
                "commitments": {
                    "type": "object", "propertyNames": {"pattern": PRIVATE_KEYS},
                    "additionalProperties": {"type": "string"},
                    "description": "seat -> a hiding commitment to its private part (hex)"},
                "hash": {"type": "string", "description": "sha256 chained over the log"},
                "sentence": words.SENTENCE,
            }}
        mapping[kind] = ref(name)["$ref"]
    out["Event"] = {"oneOf": [{"$ref": r} for r in mapping.values()],
                    "discriminator": {"propertyName": "type", "mapping": mapping},
                    "description": "One fact of a game's log, as the caller may see it."}
    return out


def _deliveries() -> dict[str, dict[str, Any]]:
    """The body of a webhook delivery (`domain.webhooks.triggers`), one per kind."""
    seat_due = {"type": "object", "additionalProperties": False,
                "required": ["seat", "deadline"],
                "properties": {"seat": {"type": "integer", "minimum": 0},
                               "deadline": {**nullable({"type": "number"}),
                                            "description": "epoch seconds"}}}
    data = {
        "your_turn": {"required": ["seats"], "properties": {
            "seats": {"type": "array", "items": seat_due,
                      "description": "the seats that became ones to act"}}},
        "game_finished": {"required": ["outcome", "seed"], "properties": {
            "outcome": ref("Outcome"), "seed": {"type": "string"}}},
        "events": {"required": ["events"], "properties": {
            "events": {"type": "array", "items": ref("Event")}}},
        "messages": {"required": ["messages"], "properties": {
            "messages": {"type": "array", "items": ref("ChatEntry"),
                         "description": "new entries of the table's chat, as GET "
                                        "/games/{id}/messages shows them (a message "
                                        "hidden before the delivery was sent: no text)"}}},
    }
    out: dict[str, dict[str, Any]] = {}
    mapping: dict[str, str] = {}
    for kind, body in data.items():
        name = f"{pascal(kind)}Delivery"
        out[name] = {
            "type": "object", "additionalProperties": False,
            "required": ["id", "type", "game", "hook", "seat", "version", "status", "data"],
            "properties": {
                "id": {"type": "string", "description": "the delivery's id"},
                "type": {"const": kind},
                "game": {"type": "string"}, "hook": {"type": "string"},
                "seat": {**nullable({"type": "integer", "minimum": 0}),
                         "description": "the registration's seat; null: the creator's"},
                "version": {"type": "integer"},
                "status": {"enum": list(schemas.STATUSES)},
                "data": {"type": "object", "additionalProperties": False, **body}}}
        mapping[kind] = ref(name)["$ref"]
    out["WebhookPayload"] = {
        "oneOf": [{"$ref": r} for r in mapping.values()],
        "discriminator": {"propertyName": "type", "mapping": mapping},
        "description": "The JSON body POSTed to a webhook's URL."}
    return out


def _add_examples(components: dict[str, dict[str, Any]], games: Games) -> None:
    """Real examples (`api.contract.examples`) on the schemas a person reads."""
    def put(name: str, value: Any) -> None:
        if name in components and "examples" not in components[name]:
            components[name]["examples"] = [value]

    for game in games.values():
        played = examples.sample(game)
        prefix = pascal(game.id)
        put(game.shapes.view.__name__, played.view)
        put(f"{prefix}GameView", examples.game_view(game))
        put(f"{prefix}CreatedGame", examples.created_game(game))
        put(f"Create{prefix}Game", {"type": game.id,
                                    "seats": [{"kind": "human"}] * (played.players - 1) +
                                    [{"kind": "bot", "level": "basic"}]})
        for cls in _members(game.action_type):
            if cls.__struct_config__.tag in played.actions:
                put(cls.__name__, played.actions[cls.__struct_config__.tag])
        for kind, event in played.events.items():
            put(f"{pascal(kind)}Event", event)
    # The answers around a move, from the first game's sample.
    first = next(iter(games.values()))
    put("Joined", examples.joined(first))
    put("Acted", examples.acted(first))
    put("EventsPage", examples.events_page(first))
    put("SeatSpec", {"kind": "bot", "level": "basic"})
    # The unions: a few real members (each member has its own example where a game
    # showed one).
    components["Action"]["examples"] = [examples.sample(g).legal[0] for g in games.values()]
    components["Event"]["examples"] = examples.events_page(first)["events"]
