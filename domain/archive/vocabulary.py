"""The words an archive writes as a small number instead of their letters: the names of the
table's events and their fields, seat kinds, bot levels, game types and options.

Part of format version 1: a word's number is its place here, so words are only ever added
at the end (an archive written with a shorter list reads the same with a longer one).
A string that is not a word here is written out in full: a new game or event costs a few
bytes more, never a failure.
"""

from __future__ import annotations

VOCABULARY: tuple[str, ...] = (
    # the table's events
    "game_created", "player_joined", "game_started", "turn_timed_out", "seat_returned",
    "game_finished", "game_cancelled", "rematch_created", "seat_resigned", "seat_left",
    "abort_voted", "abort_vote_withdrawn", "game_aborted",
    # their fields
    "id", "type", "options", "seats", "deadline_s", "on_timeout", "bot_delay_s",
    "seed_hash", "created_by", "rematch_of", "kind", "level", "name", "invited",
    "rematch_seat", "seat", "player", "game", "seed", "outcome", "auto",
    # their values
    "human", "bot", "random", "basic", "strong", "autoplay", "timeout", "away",
    # the games and their options
    "ochs-und-esel", "crazy-donkey", "canyon-donkeys", "trash",
    "rounds", "ox_variant", "first_player", "deals", "decks", "wild", "target_slots",
    "max_rounds", "donkey_deck",
    # time controls and the clocks' events
    "time_control", "correspondence", "per_move", "bank_s", "increment_s", "vacation",
    "vacation_started", "vacation_ended", "move_taken_back", "forced_moves_set", "until",
    "first", "last", "forced", "undoable",
    # a summary's table (`summary.py`): its fields, statuses and outcomes
    "status", "version", "updated_at", "ended_at", "waiting_since", "timeouts_in_row",
    "abort_votes", "clock", "clocks", "vacation_until", "auto_forced", "created_at",
    "taken", "resigned", "left", "played_by", "bot_account", "bank", "since",
    "open", "active", "finished", "cancelled", "aborted",
    "places", "scores", "score_name", "lower_is_better", "conceded", "penalty", "points",
    "slots", "player_erased",
    # a summary's outcome in short (`summary.py`)
    "outcome_ranked",
)
