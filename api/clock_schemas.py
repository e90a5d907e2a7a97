"""The marshmallow schemas of the clocks' settings: a seat's forced moves, a player's
forced moves and vacations (`domain.service.seat_clocks`)."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

MAX_VACATION_DAYS = 366  # what the schema takes; the server's own limit is in the answer


class StrictBoolean(fields.Boolean):
    """true or false, as the document says (marshmallow's also takes "yes", 1, "on"…)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class StrictInteger(fields.Integer):
    """A JSON integer, as the document says: a whole number (2.0 is one), never a string,
    a fraction or a boolean (marshmallow's takes "2" and cuts 2.5 to 2)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int | float) or \
                (isinstance(value, float) and not value.is_integer()):
            raise self.make_error("invalid", input=value)
        return int(value)


class ForcedMovesSchema(ma.Schema):
    auto = StrictBoolean(required=True, metadata={
        "description": "true: when your only legal action is forced (each game's rules say "
                       "which are), it is played at once in your name, marked `auto: "
                       "\"forced\"` in the log; false: the game waits for you"})


class ClockSettingsChangeSchema(ma.Schema):
    auto_forced = StrictBoolean(required=True, metadata={
        "description": "your forced moves play themselves, in every game you play (each "
                       "table may be told otherwise: PUT /games/{id}/forced-moves)"})


class NewVacationSchema(ma.Schema):
    days = StrictInteger(required=True, validate=validate.Range(min=1, max=MAX_VACATION_DAYS),
                          metadata={"description": "whole days from now: at least 1, at "
                                                   "most `max_days`, within `days_left`"})


class VacationSchema(ma.Schema):
    until = fields.Float(required=True, allow_none=True, metadata={
        "description": "on vacation until then (epoch seconds); null: not on vacation"})
    year = fields.Integer(required=True, metadata={"description": "the year counted (UTC)"})
    days_used = fields.Integer(required=True, metadata={
        "description": "vacation days used this year (every day begun counts)"})
    days_left = fields.Integer(required=True)
    days_given_back_if_ended_now = fields.Integer(required=True, metadata={
        "description": "the whole days not begun of the vacation running now"})
    allowance_days = fields.Integer(required=True, metadata={"description": "a year's days"})
    max_days = fields.Integer(required=True, metadata={"description": "at most at once"})


class ClockSettingsSchema(ma.Schema):
    auto_forced = fields.Boolean(required=True, metadata={
        "description": "your forced moves play themselves (in the games you sit down at "
                       "from now on, and those you play now)"})
    vacation = fields.Nested(VacationSchema, required=True)
