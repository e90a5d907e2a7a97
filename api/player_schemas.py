"""The marshmallow schemas of players, their inboxes and the leaderboards."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from domain.players.inbox import BUCKETS
from domain.players.names import MAX_LENGTH, MIN_LENGTH, name_pattern


class NewPlayerSchema(ma.Schema):
    name = fields.String(required=True, validate=validate.Length(min=MIN_LENGTH,
                                                                 max=MAX_LENGTH),
                         metadata={"description": f"{MIN_LENGTH} to {MAX_LENGTH} letters, "
                                                  "digits, spaces or -_.' of one script; "
                                                  "unique whatever its case. The pattern "
                                                  "is a name as it is kept; the service "
                                                  "also takes other Unicode forms of one "
                                                  "(NFKC) and combining marks after a "
                                                  "letter",
                                   "pattern": name_pattern()})


class PlayerKeySchema(ma.Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    created_at = fields.Float(required=True)
    key = fields.String(required=True, metadata={
        "description": "the player key, shown once: send it as `Authorization: Bearer …`"})


class StandingSchema(ma.Schema):
    type = fields.String(required=True, metadata={"description": "a game type id"})
    played = fields.Integer(required=True)
    won = fields.Integer(required=True, metadata={"description": "first places (shared too)"})
    rating = fields.Float(required=True, metadata={"description": "Glicko-2, 1500 to start"})
    deviation = fields.Float(required=True, metadata={"description": "how unsure it is"})
    provisional = fields.Boolean(required=True, metadata={
        "description": "the deviation is still high (few games)"})


class ProfileSchema(ma.Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    created_at = fields.Float(required=True)
    games = fields.List(fields.Nested(StandingSchema), required=True,
                        metadata={"description": "per game type played"})


class InboxArgsSchema(ma.Schema):
    status = fields.String(load_default="active", validate=validate.OneOf(BUCKETS))
    my_turn = fields.Boolean(metadata={
        "description": "true: the games where it is your turn (soonest deadline first); "
                       "false: those where it is not"})


class InboxSeatSchema(ma.Schema):
    seat = fields.Integer(required=True)
    kind = fields.String(required=True)
    level = fields.String(allow_none=True)
    name = fields.String(allow_none=True)
    player = fields.String(allow_none=True)
    taken = fields.Boolean(required=True)


class RatingChangeSchema(ma.Schema):
    before = fields.Float(required=True)
    after = fields.Float(required=True)
    delta = fields.Float(required=True)
    deviation = fields.Float(required=True, metadata={"description": "after the game"})


class InboxEntrySchema(ma.Schema):
    id = fields.String(required=True)
    type = fields.String(required=True)
    status = fields.String(required=True)
    version = fields.Integer(required=True)
    seat = fields.Integer(required=True, metadata={"description": "your seat"})
    invited = fields.Boolean(required=True, metadata={
        "description": "the seat is kept for you and not taken yet"})
    my_turn = fields.Boolean(required=True)
    deadline = fields.Float(allow_none=True, metadata={"description": "your deadline "
                                                                      "(epoch seconds)"})
    seats = fields.List(fields.Nested(InboxSeatSchema), required=True)
    created_at = fields.Float(required=True)
    updated_at = fields.Float(required=True)
    rematch_of = fields.String(allow_none=True)
    rematch = fields.String(allow_none=True)
    place = fields.Integer(allow_none=True, metadata={"description": "your place, once over"})
    rating = fields.Nested(RatingChangeSchema, allow_none=True, metadata={
        "description": "what the game did to your rating (once rated)"})


class LeaderboardPlayerSchema(ma.Schema):
    id = fields.String(required=True)
    name = fields.String(allow_none=True)


class LeaderboardEntrySchema(ma.Schema):
    rank = fields.Integer(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["player", "bot"]))
    player = fields.Nested(LeaderboardPlayerSchema, allow_none=True)
    level = fields.String(allow_none=True, metadata={"description": "a bot's level"})
    rating = fields.Float(required=True)
    deviation = fields.Float(allow_none=True)
    played = fields.Integer(allow_none=True)
    won = fields.Integer(allow_none=True)
    provisional = fields.Boolean(required=True)
