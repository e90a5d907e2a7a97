"""The marshmallow schemas of players, their inboxes and the leaderboards."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from domain.notify.links import TOKEN_PATTERN
from domain.notify.prefs import CLOCK_PATTERN
from domain.notify.push import AUTH_PATTERN, MAX_ENDPOINT, P256DH_PATTERN
from domain.players.inbox import BUCKETS
from domain.players.names import MAX_LENGTH, MIN_LENGTH, name_pattern
from domain.webhooks.targets import URL_PATTERN


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
    bot = fields.Boolean(load_default=False, metadata={
        "description": "a bot account: a program that plays its games from its event "
                       "stream, shown as a bot at tables and on leaderboards"})


class PlayerKeySchema(ma.Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    created_at = fields.Float(required=True)
    bot = fields.Boolean(required=True, metadata={"description": "a bot account"})
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
    bot = fields.Boolean(required=True, metadata={"description": "a bot account"})
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
    bot_account = fields.Boolean(required=True, metadata={"description": "held by a bot "
                                                                         "account"})


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
    bot = fields.Boolean(required=True, metadata={
        "description": "a bot account (a program), rated among the players but marked"})


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


PLAYER_EVENT_ID = r"^[0-9]{1,15}(-[0-9]{1,15})?$"  # `<ms>` alone is `<ms>-0`, as in Redis
PLAYER_EVENT_TYPES = ("my_turn", "deadline_soon", "invited", "game_started", "game_finished",
                      "message", "seat_taken_over")


class PlayerEventDataSchema(ma.Schema):
    """What an entry says; which fields it has depends on its type."""

    seat = fields.Integer(metadata={"description": "your seat in the game"})
    version = fields.Integer(metadata={"description": "the game's version it speaks of"})
    deadline = fields.Float(allow_none=True, metadata={
        "description": "`my_turn`, `deadline_soon`: your deadline (epoch seconds)"})
    by = fields.String(allow_none=True, metadata={
        "description": "`invited`: the player who created the game"})
    rematch_of = fields.String(allow_none=True, metadata={
        "description": "`invited`: the finished game this one follows"})
    place = fields.Integer(allow_none=True, metadata={"description": "`game_finished`"})
    score = fields.Float(allow_none=True, metadata={"description": "`game_finished`"})
    rating = fields.Nested(RatingChangeSchema, allow_none=True, metadata={
        "description": "`game_finished`: what it did to your rating"})
    n = fields.Integer(metadata={"description": "`message`: its number in the game's chat "
                                                "(read its text there)"})
    name = fields.String(allow_none=True, metadata={"description": "`message`: the writer"})
    away = fields.Boolean(metadata={"description": "`seat_taken_over`: your seat is now "
                                                   "marked away"})


class PlayerEventSchema(ma.Schema):
    id = fields.String(required=True, metadata={
        "description": "its place in your stream (`<ms>-<n>`): resume after it"})
    type = fields.String(required=True, validate=validate.OneOf(PLAYER_EVENT_TYPES))
    at = fields.Float(required=True, metadata={"description": "epoch seconds"})
    game = fields.String(required=True, metadata={"description": "the game's id"})
    game_type = fields.String(required=True)
    data = fields.Nested(PlayerEventDataSchema, required=True, metadata={"description": (
        "`my_turn`: seat, version, deadline; `deadline_soon`: seat, version, deadline; "
        "`invited`: seat, by (the creator's player id), rematch_of; `game_started`: seat, "
        "version; `game_finished`: seat, place, score, rating (before, after, delta, "
        "deviation); `message`: n (read its text from the game's chat), seat, name; "
        "`seat_taken_over`: seat, version, away")})


class PlayerEventsArgsSchema(ma.Schema):
    after = fields.String(load_default="0-0", validate=validate.Regexp(PLAYER_EVENT_ID),
                          metadata={"description": "the id of the last entry you hold "
                                                   "(`0-0`: from the oldest kept)"})
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))


class PlayerEventsPageSchema(ma.Schema):
    events = fields.List(fields.Nested(PlayerEventSchema), required=True)
    last = fields.String(required=True, metadata={
        "description": "the id to ask after next (the last entry's, or `after` when none)"})


class PlayerStreamArgsSchema(ma.Schema):
    after = fields.String(load_default=None, validate=validate.Regexp(PLAYER_EVENT_ID),
                          metadata={"description": "start after this entry (default: from "
                                                   "now on; Last-Event-ID wins)"})
    ticket = fields.String(validate=validate.Length(min=1, max=120), metadata={
        "description": "a ticket from POST /players/me/events/stream/tickets, in place of "
                       "the Authorization header (what a browser's EventSource needs)"})


class PlayerStreamTicketSchema(ma.Schema):
    ticket = fields.String(required=True, metadata={
        "description": "open `GET /players/me/events/stream?ticket=<ticket>` with it within "
                       "`expires_in_s` seconds; good for one stream"})
    expires_in_s = fields.Integer(required=True)


class QuietHoursSchema(ma.Schema):
    start = fields.String(required=True, validate=validate.Regexp(CLOCK_PATTERN),
                          metadata={"description": "HH:MM, in `time_zone`"})
    end = fields.String(required=True, validate=validate.Regexp(CLOCK_PATTERN), metadata={
        "description": "HH:MM, in `time_zone`; not `start` (no quiet hours: send null)"})


class NotificationsSchema(ma.Schema):
    channels = fields.List(fields.String(validate=validate.OneOf(["email", "push"])),
                           load_default=list, validate=validate.Length(max=2), metadata={
                               "description": "how you are told (none: nothing is sent)"})
    kinds = fields.List(fields.String(validate=validate.OneOf(
        ["my_turn", "deadline_soon", "invitations", "results", "chat"])),
        load_default=lambda: ["my_turn", "deadline_soon", "invitations"],
        validate=validate.Length(max=5), metadata={"description": (
            "what is worth it: `my_turn` (also a bot played for you), `deadline_soon`, "
            "`invitations` (and a game's start), `results`, `chat`")})
    digest_hours = fields.Integer(load_default=0, validate=validate.Range(min=0, max=168),
                                  metadata={"description": "0: each e-mail at once; N: at "
                                                           "most one e-mail per N hours"})
    quiet_hours = fields.Nested(QuietHoursSchema, allow_none=True, load_default=None,
                                metadata={"description": "nothing is sent between start "
                                                         "and end (what waited goes then)"})
    time_zone = fields.String(load_default="UTC", validate=validate.Length(min=1, max=64),
                              metadata={"description": "an IANA time zone, e.g. "
                                                       "Europe/Berlin (one the server's "
                                                       "time zone database knows)",
                                        "pattern": "^[A-Za-z][A-Za-z0-9_+-]*"
                                                   "(/[A-Za-z0-9_+-]+){0,2}$"})
    email = fields.Email(allow_none=True, validate=validate.Length(max=254), metadata={
        "description": "your address: a new one is sent a confirmation link first; null "
                       "removes it"})
    email_pending = fields.String(allow_none=True, dump_only=True, metadata={
        "description": "an address waiting for its confirmation"})
    push_subscriptions = fields.Integer(dump_only=True)
    email_available = fields.Boolean(dump_only=True, metadata={
        "description": "this server sends e-mail"})
    push_available = fields.Boolean(dump_only=True, metadata={
        "description": "this server sends Web Push"})


class EmailLinkArgsSchema(ma.Schema):
    token = fields.String(required=True, validate=validate.Regexp(TOKEN_PATTERN), metadata={
        "description": "the link's token as the e-mail gave it (signed by this server)"})


class PushKeysSchema(ma.Schema):
    p256dh = fields.String(required=True, validate=validate.Regexp(P256DH_PATTERN), metadata={
        "description": "the browser's P-256 public key, uncompressed, base64url (it must "
                       "be a point of the curve)"})
    auth = fields.String(required=True, validate=validate.Regexp(AUTH_PATTERN), metadata={
        "description": "its 16-byte auth secret, base64url"})


class NewPushSubscriptionSchema(ma.Schema):
    endpoint = fields.String(required=True, validate=validate.Length(min=1, max=MAX_ENDPOINT),
                             metadata={"description": "the push service's URL for this "
                                                      "browser (a public address)",
                                       "format": "uri", "pattern": URL_PATTERN})
    keys = fields.Nested(PushKeysSchema, required=True)
    expirationTime = fields.Float(allow_none=True, load_default=None)


class PushSubscriptionSchema(ma.Schema):
    id = fields.String(required=True)
    endpoint = fields.String(required=True)
    created_at = fields.Float(required=True)


class NewPlayerWebhookSchema(ma.Schema):
    url = fields.String(required=True, validate=validate.Length(min=1, max=2000), metadata={
        "description": "an http(s) URL of a public address", "format": "uri",
        "pattern": URL_PATTERN, "example": "https://203.0.113.7/donkeypost"})
    kinds = fields.List(fields.String(validate=validate.OneOf(PLAYER_EVENT_TYPES)),
                        load_default=lambda: list(PLAYER_EVENT_TYPES),
                        validate=validate.Length(min=1, max=len(PLAYER_EVENT_TYPES)),
                        metadata={"description": "the entries of your stream to post "
                                                 "(default: all)"})


class PlayerWebhookSchema(ma.Schema):
    id = fields.String(required=True)
    url = fields.String(required=True)
    kinds = fields.List(fields.String(), required=True)
    created_at = fields.Float(required=True)


class RegisteredPlayerWebhookSchema(PlayerWebhookSchema):
    secret = fields.String(required=True, metadata={
        "description": "signs every delivery (`X-Donkeypost-Signature`, as game webhooks): "
                       "shown this once"})


class PushKeySchema(ma.Schema):
    key = fields.String(required=True, metadata={
        "description": "the VAPID public key (uncompressed P-256, base64url)"})


class ErasedSchema(ma.Schema):
    erased = fields.Boolean(required=True)
    games = fields.Integer(required=True, metadata={
        "description": "the games your name was erased from"})
    seats_handed_to_bots = fields.Integer(required=True, metadata={
        "description": "your seats in games being played, now played by the basic bot"})
