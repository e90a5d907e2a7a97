"""The marshmallow schemas of the API's resources: they load the requests and dump the
answers; `api.contract` documents what they cannot say (the games' own content)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from api.clock_schemas import StrictBoolean
from api.request_guard import MAX_SEQ
from domain.chat import HIDDEN, MAX_TEXT, MESSAGE
from domain.clocks import KINDS as TIME_CONTROL_KINDS
from domain.i18n import LANGUAGES
from domain.players.names import MAX_LENGTH as MAX_NAME_LENGTH
from domain.players.names import MIN_LENGTH as MIN_NAME_LENGTH
from domain.players.names import TABLE_NAME_LENGTH, name_pattern, table_name_pattern
from domain.service import BOT_LEVELS, DEFAULT_DEADLINE_S, TIMEOUT_POLICIES
from domain.store.port import CHAT_PAGE
from domain.table import STATUSES
from domain.table_actions import TABLE_ACTIONS
from domain.webhooks.deliveries import DELIVERED, FAILED, PENDING
from domain.webhooks.registration import DEFAULT_NOTIFY, NOTIFY_KINDS
from domain.webhooks.targets import MAX_URL_LENGTH, URL_PATTERN


class SeatSpecSchema(ma.Schema):
    kind = fields.String(required=True, validate=validate.OneOf(["human", "bot"]))
    level = fields.String(validate=validate.OneOf(BOT_LEVELS), load_default="basic",
                          metadata={"description": "bot level (bots only)"})
    me = fields.Boolean(load_default=False, metadata={
        "description": "a human seat for the creating player (needs their player key)"})
    invite = fields.String(validate=validate.Length(min=MIN_NAME_LENGTH, max=MAX_NAME_LENGTH),
                           metadata={"description": "a player's name: the seat is kept for "
                                                    "them (only they may take it)",
                                     "pattern": name_pattern()})


MAX_CLOCK_S = 90 * 24 * 3600


class TimeControlSchema(ma.Schema):
    kind = fields.String(required=True, validate=validate.OneOf(TIME_CONTROL_KINDS), metadata={
        "description": "`per_move`: `deadline_s` for every move; `correspondence`: a bank "
                       "of `bank_s` per seat that runs only while the game waits for that "
                       "seat, plus `increment_s` each time its turn passes (never above "
                       "`bank_s`); `none`: no clock"})
    deadline_s = fields.Float(validate=validate.Range(min=1, max=MAX_CLOCK_S), metadata={
        "description": "per_move: seconds per move (else the request's `deadline_s`)"})
    bank_s = fields.Float(validate=validate.Range(min=1, max=MAX_CLOCK_S), metadata={
        "description": "correspondence: each seat's bank, and its cap (e.g. 259200, three "
                       "days)"})
    increment_s = fields.Float(load_default=0.0, validate=validate.Range(min=0, max=MAX_CLOCK_S),
                               metadata={"description": "correspondence: added to a seat's "
                                                        "bank each time its turn passes "
                                                        "(e.g. 86400, a day)"})
    vacation = StrictBoolean(load_default=True, metadata={
        "description": "correspondence: the players' vacations stop their clocks here "
                       "(POST /players/me/vacation)"})


class CreateGameSchema(ma.Schema):
    type = fields.String(required=True, validate=validate.Length(min=1, max=64),
                         metadata={"description": "a game type id"})
    options = fields.Dict(keys=fields.String(validate=validate.Length(min=1, max=64)),
                          load_default=dict, validate=validate.Length(max=16),
                          metadata={"description": "see GET /games/types/{type}: each "
                                                   "option's default and its `minimum` and "
                                                   "`maximum` (for a collection, of its "
                                                   "items); at most 16 options",
                                    "maxProperties": 16})
    seats = fields.List(fields.Nested(SeatSpecSchema), required=True,
                        validate=validate.Length(min=1, max=12),
                        metadata={"description": "one entry per player, in seat order"})
    deadline_s = fields.Float(allow_none=True, load_default=DEFAULT_DEADLINE_S,
                              validate=validate.Range(min=1, max=90 * 24 * 3600),
                              metadata={"description": "seconds per move; null = no deadline "
                                                       "(used when `time_control` is not "
                                                       "given)"})
    time_control = fields.Nested(TimeControlSchema, load_default=None, allow_none=True,
                                 metadata={"description": "the game's clock; absent: a "
                                                          "deadline per move of `deadline_s`"})
    on_timeout = fields.String(load_default="autoplay", validate=validate.OneOf(TIMEOUT_POLICIES),
                               metadata={"description": "when a seat's time runs out: "
                                                        "`autoplay` (the basic bot plays "
                                                        "the move; two in a row and the "
                                                        "seat is away) or `away` (the seat "
                                                        "is away at once: the bot plays it "
                                                        "until its owner acts)"})
    bot_delay_s = fields.Float(load_default=0.0, validate=validate.Range(min=0, max=3600),
                               metadata={"description": "wait before a bot moves"})


class JoinSchema(ma.Schema):
    name = fields.String(validate=validate.Length(min=1, max=TABLE_NAME_LENGTH), metadata={
        "description": "your name at this table (needed without a player key; with one, "
                       "your player's name is used): printable text, no control or format "
                       "characters, single spaces inside",
        "pattern": table_name_pattern()})


class LeaveSchema(ma.Schema):
    level = fields.String(validate=validate.OneOf(BOT_LEVELS), load_default="basic",
                          metadata={"description": "the bot that plays your seat from now on"})


class NewMessageSchema(ma.Schema):
    text = fields.String(required=True, validate=validate.Length(min=1, max=MAX_TEXT),
                         metadata={"description": f"1 to {MAX_TEXT} characters; lines and "
                                                  "tabs, no other control characters"})


class MessagesArgsSchema(ma.Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_SEQ),
                           metadata={"description": "the entries numbered after this one"})
    limit = fields.Integer(load_default=CHAT_PAGE, validate=validate.Range(min=1, max=CHAT_PAGE))


class ChatEntrySchema(ma.Schema):
    n = fields.Integer(required=True, metadata={"description": "its number in the chat"})
    type = fields.String(required=True, validate=validate.OneOf([MESSAGE, HIDDEN]), metadata={
        "description": "`message`, or `message_hidden`: the creator hid message `message`"})
    at = fields.Float(required=True, metadata={"description": "epoch seconds"})
    seat = fields.Integer(metadata={"description": "who wrote it (a message)"})
    name = fields.String(allow_none=True, metadata={"description": "the seat's name"})
    player = fields.String(allow_none=True, metadata={"description": "the writer's player id"})
    text = fields.String(allow_none=True, metadata={"description": "null once hidden"})
    hidden = fields.Boolean(metadata={"description": "hidden by the game's creator"})
    message = fields.Integer(metadata={"description": "the message hidden (a hiding)"})


class MessagesPageSchema(ma.Schema):
    messages = fields.List(fields.Nested(ChatEntrySchema), required=True)


class ListArgsSchema(ma.Schema):
    status = fields.String(validate=validate.OneOf(STATUSES))
    type = fields.String(validate=validate.Length(min=1, max=64))
    has_free_seat = fields.Boolean(validate=validate.Equal(True), metadata={
        "description": "true: only open games with a seat anyone may take (the lobby)"})


WORDS = ("add what a person reads: the legal actions' labels (`action_labels`) and the "
         "layout of the game (`layout`) in views, each event's `sentence` in logs")


class WordsArgsSchema(ma.Schema):
    words = fields.Boolean(load_default=False, metadata={"description": WORDS})


class EventsArgsSchema(WordsArgsSchema):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_SEQ),
                           metadata={"description": "start after this seq"})
    wait = fields.Float(load_default=0.0, validate=validate.Range(min=0, max=60),
                        metadata={"description": "seconds to wait for a new event"})
    limit = fields.Integer(load_default=1000, validate=validate.Range(min=1, max=1000))


class SeatViewSchema(ma.Schema):
    seat = fields.Integer(required=True)
    kind = fields.String(required=True)
    level = fields.String(allow_none=True)
    name = fields.String(allow_none=True)
    taken = fields.Boolean(required=True)
    away = fields.Boolean(required=True)
    timeouts_in_row = fields.Integer(required=True)
    deadline = fields.Float(allow_none=True, metadata={"description": "epoch seconds"})
    player = fields.String(allow_none=True, metadata={"description": "the player holding it"})
    invited = fields.String(allow_none=True, metadata={
        "description": "the player it is kept for (only they may take it)"})
    rematch_seat = fields.Integer(allow_none=True, metadata={
        "description": "kept for whoever held this seat of the game before (a rematch)"})
    resigned = fields.Boolean(metadata={"description": "its player resigned (conceded)"})
    left = fields.Boolean(metadata={"description": "its player handed it to a bot"})
    played_by = fields.String(allow_none=True, metadata={
        "description": "the level of the bot that plays it since its player resigned or "
                       "left (null: its player plays it)"})
    auto_forced = fields.Boolean(metadata={
        "description": "the seat's forced moves play themselves (PUT .../forced-moves)"})
    bot_account = fields.Boolean(metadata={
        "description": "held by a bot account: a program playing through its own key"})
    time_left = fields.Float(allow_none=True, metadata={
        "description": "correspondence: seconds left on the seat's bank at `server_time` "
                       "(it runs while `deadline` is set); null: no bank"})
    vacation_until = fields.Float(allow_none=True, metadata={
        "description": "the seat's player is on vacation until then (epoch seconds): its "
                       "clock is stopped"})


class TableActionSchema(ma.Schema):
    name = fields.String(required=True, validate=validate.OneOf(
        list(dict.fromkeys(a.name for a in TABLE_ACTIONS))), metadata={
        "description": "which: e.g. `rematch`, `cancel`, `resign`"})
    method = fields.String(required=True, validate=validate.OneOf(
        sorted({a.method for a in TABLE_ACTIONS})))
    href = fields.String(required=True, metadata={"description": "the request to send, "
                                                                 "with your credential"})
    body = fields.Dict(keys=fields.String(), values=fields.String(), metadata={
        "description": "the JSON body to send with it, complete (absent: none); one entry "
                       "per choice (`leave`: one per bot level)"})


class GameViewSchema(ma.Schema):
    id = fields.String(required=True)
    type = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    version = fields.Integer(required=True)
    options = fields.Dict(required=True)
    seats = fields.List(fields.Nested(SeatViewSchema), required=True)
    you = fields.Integer(allow_none=True, metadata={"description": "your seat, null = spectator"})
    to_act = fields.List(fields.Integer(), required=True)
    deadline_s = fields.Float(allow_none=True)
    time_control = fields.Nested(TimeControlSchema, metadata={"description": "the clock"})
    on_timeout = fields.String(validate=validate.OneOf(TIMEOUT_POLICIES))
    seed_hash = fields.String(required=True, metadata={"description": "sha256 of the seed"})
    seed = fields.String(allow_none=True, metadata={"description": "revealed at the end"})
    created_at = fields.Float()
    updated_at = fields.Float()
    game = fields.Dict(allow_none=True, metadata={"description": "the game's own view"})
    legal_actions = fields.List(fields.Dict(), required=True, metadata={
        "description": "complete action bodies the caller may post now"})
    action_labels = fields.List(fields.Dict(), allow_none=True, metadata={
        "description": "the label of each legal action, in the order of legal_actions "
                       "(null unless asked with `words=true`)"})
    layout = fields.Dict(allow_none=True, metadata={
        "description": "how the game's view is laid out (null unless asked with "
                       "`words=true`, and until it is dealt)"})
    outcome = fields.Dict(allow_none=True)
    table_actions = fields.List(fields.Nested(TableActionSchema), metadata={
        "description": "what the caller may do to the table itself (rematch, cancel, "
                       "resign, leave, abort, withdraw_abort, take_back)"})
    abort_votes = fields.List(fields.Integer(), metadata={
        "description": "the seats that agree to abort the game (it is aborted when every "
                       "person still playing does)"})
    created_by = fields.String(allow_none=True, metadata={
        "description": "the player who created it, if a player did"})
    rematch_of = fields.String(allow_none=True, metadata={
        "description": "the finished game this one is the rematch of"})
    rematch = fields.String(allow_none=True, metadata={"description": "this game's rematch"})
    ended_at = fields.Float(allow_none=True, metadata={
        "description": "when it finished or was cancelled (epoch seconds)"})


class CreatedGameSchema(GameViewSchema):
    creator_token = fields.String(required=True, metadata={
        "description": "the creator's token (e.g. for a game-wide webhook); shown once"})


class JoinedSchema(ma.Schema):
    seat = fields.Integer(required=True)
    token = fields.String(required=True, allow_none=True, metadata={
        "description": "the seat's token, shown once: keep it (null for a player, whose "
                       "key is their credential)"})
    game = fields.Nested(GameViewSchema, required=True)


class RematchSchema(JoinedSchema):
    token = fields.String(required=True, allow_none=True, metadata={
        "description": "a new seat token for an anonymous seat, shown once (null for a "
                       "player, and when it was given before)"})


class EventSchema(ma.Schema):
    seq = fields.Integer(required=True)
    type = fields.String(required=True)
    actor = fields.Integer(allow_none=True)
    at = fields.Float(required=True)
    data = fields.Dict(required=True)
    private = fields.Dict(required=True, metadata={
        "description": "seat -> its private part (-1: no seat's), those the caller may see"})
    commitments = fields.Dict(required=True, metadata={
        "description": "seat -> HMAC-SHA256 commitment to its private part, for every part "
                       "(see the README's fair-play section)"})
    hash = fields.String(required=True, metadata={
        "description": "sha256(previous hash + the canonical event): private parts are "
                       "covered through their commitments"})
    sentence = fields.Dict(metadata={
        "description": "the event in the game's words, for the caller: text, msgid, params "
                       "(when asked with `words=true`)"})


class EventsPageSchema(ma.Schema):
    version = fields.Integer(required=True)
    status = fields.String(required=True)
    events = fields.List(fields.Nested(EventSchema), required=True)


class ActedSchema(ma.Schema):
    version = fields.Integer(required=True)
    to_act = fields.List(fields.Integer(), required=True,
                         metadata={"description": "the seats that may act now"})
    events = fields.List(fields.Nested(EventSchema), required=True)
    view = fields.Nested(GameViewSchema, required=True, metadata={
        "description": "the caller's view of the game now, as GET /games/{id} gives it "
                       "(with its legal_actions when it is still to act)"})


class OptionSchema(ma.Schema):
    name = fields.String(required=True)
    type = fields.String(required=True)
    default = fields.Raw(allow_none=True)
    minimum = fields.Integer(allow_none=True)
    maximum = fields.Integer(allow_none=True)
    choices = fields.List(fields.Raw(), allow_none=True)
    nullable = fields.Boolean()
    description = fields.String()


class GameTypeSchema(ma.Schema):
    id = fields.String(required=True)
    title = fields.String(required=True)
    min_players = fields.Integer(required=True)
    max_players = fields.Integer(required=True)
    options = fields.List(fields.Nested(OptionSchema), required=True)
    rules = fields.List(fields.String(), required=True,
                        metadata={"description": "the project's rulings"})
    actions = fields.List(fields.String(), required=True,
                          metadata={"description": "the action types of this game"})
    events = fields.List(fields.String(), required=True, metadata={
        "description": "the event types of this game's log: the table's own, then the game's"})


class WorkerHealthSchema(ma.Schema):
    status = fields.String(required=True, metadata={
        "description": "ok, stale (its last heartbeat is too old), missing, or unknown (the "
                       "queues' Redis does not answer)"})
    heartbeat_age_s = fields.Float(required=True, allow_none=True)
    required = fields.Boolean(required=True, metadata={
        "description": "whether /healthz answers 503 without it"})


class QueueHealthSchema(ma.Schema):
    status = fields.String(required=True, metadata={
        "description": "ok, or late (its oldest job has waited longer than the limit)"})
    waiting = fields.Integer(required=True, metadata={"description": "jobs in the queue"})
    stalls_play = fields.Boolean(required=True, metadata={
        "description": "whether games wait on its jobs (deadlines, bots' turns): late, the "
                       "service answers 503; else background work, late as a warning"})
    oldest_wait_s = fields.Float(required=True, allow_none=True, metadata={
        "description": "how long the oldest job has waited (null: the queue is empty)"})


class MemoryHealthSchema(ma.Schema):
    status = fields.String(required=True, metadata={
        "description": "ok; warning from 80 % of the budget; over once past it (then "
                       "/healthz answers 503); unknown without a budget (none set and no "
                       "maxmemory) or when Redis does not answer"})
    used_bytes = fields.Integer(required=True, allow_none=True, metadata={
        "description": "the games' Redis memory in use (`used_memory`; a cluster's masters "
                       "summed)"})
    budget_bytes = fields.Integer(required=True, allow_none=True, metadata={
        "description": "DONKEYPOST_MEMORY_BUDGET_MB, else Redis's maxmemory"})
    used_fraction = fields.Float(required=True, allow_none=True)


class HealthSchema(ma.Schema):
    status = fields.String(required=True, metadata={"description": "ok or unavailable"})
    web = fields.String(required=True)
    redis = fields.String(required=True, metadata={"description": "ok or unavailable"})
    workers = fields.Dict(keys=fields.String(), values=fields.Nested(WorkerHealthSchema),
                          required=True, metadata={"description": "by kind of worker"})
    queues = fields.Dict(keys=fields.String(), values=fields.Nested(QueueHealthSchema),
                         required=True, metadata={
                             "description": "by queue (empty when the queues' Redis does "
                                            "not answer)"})
    memory = fields.Nested(MemoryHealthSchema, required=True, metadata={
        "description": "the games' store's memory against its budget"})


class LiveSchema(ma.Schema):
    status = fields.String(required=True)
    web = fields.String(required=True)


class StreamArgsSchema(ma.Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_SEQ), metadata={
        "description": "start after this seq (Last-Event-ID wins when both are given)"})
    messages_after = fields.Integer(
        load_default=0, validate=validate.Range(min=0, max=MAX_SEQ), metadata={
            "description": "start the chat after this entry (0: from its first; "
                           "Last-Event-ID wins)"})
    views = fields.Boolean(load_default=False, metadata={
        "description": "also send the caller's view of the game (a `view` message, as GET "
                       "/games/{id} gives it) at once and after each change"})
    words = fields.Boolean(load_default=False, metadata={"description": WORDS})
    lang = fields.String(validate=validate.OneOf(LANGUAGES), metadata={
        "description": "the language of what the server says (en, fr, de), for a browser's "
                       "EventSource, which cannot send `Accept-Language`"})
    ticket = fields.String(validate=validate.Length(min=1, max=100), metadata={
        "description": "a stream ticket (POST /games/{id}/events/stream/tickets): follow "
                       "a seat's events without an Authorization header, as a browser's "
                       "EventSource must; good for one stream"})


class StreamTicketSchema(ma.Schema):
    ticket = fields.String(required=True, metadata={
        "description": "open `GET /games/{id}/events/stream?ticket=<ticket>` with it within "
                       "`expires_in_s` seconds; it opens one stream, then never again"})
    expires_in_s = fields.Integer(required=True, metadata={
        "description": "how long the ticket is good for, unused"})
    seat = fields.Integer(required=True, metadata={"description": "the seat it streams for"})


class WebhookArgsSchema(ma.Schema):
    url = fields.String(required=True, validate=validate.Length(min=1, max=MAX_URL_LENGTH),
                        metadata={"description": "an http(s) URL of a public address",
                                  "format": "uri", "pattern": URL_PATTERN,
                                  "example": "https://203.0.113.7/donkeypost"})
    notify = fields.List(fields.String(validate=validate.OneOf(NOTIFY_KINDS)),
                         load_default=lambda: list(DEFAULT_NOTIFY),
                         validate=validate.Length(min=1, max=len(NOTIFY_KINDS)),
                         metadata={"description": "what to be told of: `your_turn`, "
                                                  "`game_finished`, `events` (every event), "
                                                  "`messages` (the table's chat)"})


class WebhookSchema(ma.Schema):
    id = fields.String(required=True)
    scope = fields.String(required=True, validate=validate.OneOf(["seat", "game"]),
                          metadata={"description": "a seat's own, or the creator's game-wide"})
    seat = fields.Integer(allow_none=True, metadata={"description": "null = game-wide"})
    url = fields.String(required=True)
    notify = fields.List(fields.String(validate=validate.OneOf(NOTIFY_KINDS)), required=True)
    created_at = fields.Float(required=True)


class RegisteredWebhookSchema(WebhookSchema):
    secret = fields.String(required=True, metadata={
        "description": "signs every delivery (see the operation's description); shown once"})


class AttemptSchema(ma.Schema):
    number = fields.Integer(required=True)
    at = fields.Float(required=True, metadata={"description": "epoch seconds"})
    duration_ms = fields.Float(required=True)
    status_code = fields.Integer(allow_none=True, metadata={"description": "the answer's"})
    error = fields.String(allow_none=True, metadata={"description": "when there was none"})


class DeliverySchema(ma.Schema):
    id = fields.String(required=True)
    hook_id = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(NOTIFY_KINDS))
    version = fields.Integer(required=True, metadata={"description": "the game's version"})
    created_at = fields.Float(required=True)
    status = fields.String(required=True, validate=validate.OneOf([PENDING, DELIVERED, FAILED]))
    attempts = fields.List(fields.Nested(AttemptSchema), required=True)
    next_attempt_at = fields.Float(allow_none=True)
    body = fields.Dict(required=True, metadata={"description": "the JSON body sent"})


ACTION = {"$ref": "#/components/schemas/Action"}  # any game's action (api.contract)


class AnalysisBudgetSchema(ma.Schema):
    per_decision = fields.Integer(required=True, metadata={
        "description": "rollouts per decision at most"})
    per_game = fields.Integer(required=True, metadata={
        "description": "rollouts per game, shared among its decisions"})
    min_per_decision = fields.Integer(required=True)
    cpu_seconds = fields.Float(required=True, metadata={
        "description": "CPU seconds per game, after which no more decisions are weighed"})


class AnalysisSeatSchema(ma.Schema):
    seat = fields.Integer(required=True)
    decisions = fields.Integer(required=True, metadata={"description": "actions it took"})
    choices = fields.Integer(required=True, metadata={
        "description": "those with more than one legal action"})
    weighed = fields.Integer(required=True, metadata={"description": "choices weighed"})
    costly = fields.Integer(required=True, metadata={
        "description": "choices where another action was clearly better"})
    cost = fields.Float(required=True, metadata={
        "description": "what those choices cost in all, in `unit` (expected)"})


class AnalysisMomentSchema(ma.Schema):
    seq = fields.Integer(required=True, metadata={
        "description": "the event after which the seat decided: its view then is "
                       "GET /games/{id}/states/{seq}"})
    seat = fields.Integer(required=True)
    played = fields.Raw(required=True, metadata={
        "description": "the action it took", "allOf": [ACTION]})
    better = fields.Raw(required=True, metadata={
        "description": "the action that would have done best (a complete action body)",
        "allOf": [ACTION]})
    cost = fields.Float(required=True, metadata={
        "description": "expected points lost against `better`, in `unit`"})
    error = fields.Float(required=True, metadata={"description": "the cost's standard error"})
    samples = fields.Integer(required=True, metadata={
        "description": "deals sampled from what the seat could see then"})
    alternatives = fields.Integer(required=True)
    auto = fields.String(allow_none=True, required=True, metadata={
        "description": "`timeout` or `away` when the server played for an absent player"})


class AnalysisSchema(ma.Schema):
    game = fields.String(required=True)
    type = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "the log's last seq"})
    unit = fields.String(required=True, metadata={
        "description": "the points costs are counted in (e.g. `penalty points`)"})
    decisions = fields.Integer(required=True)
    choices = fields.Integer(required=True)
    weighed = fields.Integer(required=True)
    complete = fields.Boolean(required=True, metadata={
        "description": "false when the CPU budget ran out before every choice was weighed"})
    rollouts_per_decision = fields.Integer(required=True)
    cpu_seconds = fields.Float(required=True)
    budget = fields.Nested(AnalysisBudgetSchema, required=True)
    seats = fields.List(fields.Nested(AnalysisSeatSchema), required=True)
    moments = fields.List(fields.Nested(AnalysisMomentSchema), required=True, metadata={
        "description": "the costliest decisions (a few per seat), costliest first"})


class AnalysisProgressSchema(ma.Schema):
    weighed = fields.Integer(required=True)
    of = fields.Integer(required=True)


class AnalysisPendingSchema(ma.Schema):
    status = fields.String(required=True, metadata={"description": "queued or running"})
    progress = fields.Nested(AnalysisProgressSchema, metadata={
        "description": "decisions weighed so far, once the analysis has started"})
