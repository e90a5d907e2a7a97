"""The errors of the domain: one small hierarchy, each with a stable machine code.

The API maps every one of them to the same JSON body (`code`, `message`, ...); the class
decides the HTTP status, the `code` tells a client exactly what was wrong.
"""

from __future__ import annotations


class DomainError(Exception):
    """Base of every error the domain raises on purpose."""

    code: str = "domain_error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class GameRuleError(DomainError):
    """An action the rules forbid."""

    code = "illegal_action"


class IllegalAction(GameRuleError):
    """The action breaks a rule (`must_follow_count`, `too_low`, `donkey_locked`, ...)."""

    code = "illegal_action"


class BadAction(IllegalAction):
    """The action is malformed for this game (unknown type, wrong fields)."""

    code = "bad_action"


class NotYourTurn(GameRuleError):
    code = "not_your_turn"


class GameOver(GameRuleError):
    code = "game_over"


class GameNotStarted(GameRuleError):
    code = "game_not_started"


class BadOptions(DomainError):
    """Options or seats that the game does not accept."""

    code = "bad_options"


class VersionConflict(DomainError):
    """The store's version is not the one the writer expected."""

    code = "version_conflict"

    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(f"expected version {expected}, the game is at version {actual}")
        self.expected = expected
        self.actual = actual


class PreconditionFailed(DomainError):
    """The client's If-Match version is not the game's version (HTTP 412)."""

    code = "version_mismatch"

    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(f"the game is at version {actual}, not {expected}")
        self.expected = expected
        self.version = actual


class Contention(DomainError):
    """Other writers kept changing the game while a command tried to append: nothing was
    written, and the same request may simply be sent again a moment later."""

    code = "contention"
    retry_after_s = 1  # what the API suggests in `Retry-After`

    def __init__(self, message: str, attempts: int) -> None:
        super().__init__(message)
        self.attempts = attempts


class NotReplicated(DomainError):
    """The batch was written, but fewer of the store's replicas than required confirmed it
    in time, so a failover might still lose it: not acknowledged. Unavailable rather than
    refused: the same request may be sent again (with its Idempotency-Key it is applied
    once, and answered as the first time if the write survived)."""

    code = "store_unavailable"
    retry_after_s = 2

    def __init__(self, game_id: str, version: int) -> None:
        super().__init__("the game store did not confirm the move on its replicas in time; "
                         "try again shortly")
        self.game_id = game_id
        self.version = version


class IdempotencyKeyReused(DomainError):
    """An idempotency key sent again with another request: the first answer belongs to
    the first request, and this one was not performed."""

    code = "idempotency_key_reused"


class UnknownGame(DomainError):
    code = "unknown_game"


class SeatTaken(DomainError):
    code = "no_free_seat"


class SeatNotAway(GameRuleError):
    """Coming back is for a seat marked away after missed deadlines."""

    code = "not_away"


class OutOfTime(GameRuleError):
    """The seat's correspondence clock ran out: the table's timeout ruling plays for it."""

    code = "out_of_time"


class GameNotFinished(GameRuleError):
    """What follows a game (a rematch) waits for its end."""

    code = "game_not_finished"


class NotAllowed(DomainError):
    """The caller is known but may not do this (not the creator, no seat here)."""

    code = "not_allowed"


class BadCredentials(DomainError):
    """A credential that names nobody (an unknown or rotated player key)."""

    code = "invalid_player_key"


class UnknownPlayer(DomainError):
    code = "unknown_player"


class BadName(DomainError):
    """A player name that is empty, too long, or made of characters it may not hold."""

    code = "bad_name"


class NameTaken(DomainError):
    """Another player holds a name that reads the same (case and Unicode forms aside)."""

    code = "name_taken"


class BadMessage(DomainError):
    """A chat message that is empty, too long, or holds characters it may not."""

    code = "bad_message"


class UnknownMessage(DomainError):
    code = "unknown_message"


class ChatFull(DomainError):
    """The game's chat holds as many messages as a game keeps."""

    code = "chat_full"


class AlreadySeated(DomainError):
    code = "already_seated"


class SeatGivenUp(GameRuleError):
    """The seat's player resigned (`seat_resigned`) or left it to a bot (`seat_left`): a
    bot plays it now, and what is left to do there is the bot's."""

    code = "seat_given_up"


class AbortClosed(GameRuleError):
    """Abort by agreement is over: the first round was scored, or the game is not played."""

    code = "abort_closed"


class GameStarted(GameRuleError):
    """What only a game that has not started allows (cancelling it)."""

    code = "game_started"
