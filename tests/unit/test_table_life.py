"""The table's rulings on seats given up and on abort by agreement, on the service with
the memory store (the real stack: tests/e2e/test_table_life.py)."""

from __future__ import annotations

import msgspec
import pytest

from domain.errors import AbortClosed, GameOver, SeatGivenUp
from domain.game import Outcome
from domain.service import GameService
from domain.store import MemoryEventStore
from domain.table import SeatInfo, Table, ruled_outcome
from tests.support import high_card
from tests.support.games import games_under_test


def _table(*seats: SeatInfo) -> Table:
    return Table(id="g", type="high-card", options={}, seats=seats, deadline_s=None,
                 on_timeout="autoplay", bot_delay_s=0.0, seed_hash="", created_at=0.0,
                 status="active")


PERSON = SeatInfo(kind="human", taken=True)
RESIGNED = SeatInfo(kind="human", taken=True, resigned=True, played_by="basic")
LEFT = SeatInfo(kind="human", taken=True, left=True, played_by="strong")
BOT = SeatInfo(kind="bot", level="basic", taken=True)


def test_seats_given_up_share_the_last_place_behind_every_seat_in_play():
    outcome = Outcome(places=[1, 2, 2, 4], scores=[9, 7, 7, 1], score_name="points",
                      lower_is_better=False)
    ruled = ruled_outcome(_table(RESIGNED, PERSON, LEFT, BOT), outcome)
    assert ruled["places"] == [3, 1, 3, 2] and ruled["conceded"] == [0, 2]
    assert ruled["scores"] == [9, 7, 7, 1]  # as played: the places carry the ruling
    untouched = ruled_outcome(_table(PERSON, PERSON, PERSON, BOT), outcome)
    assert untouched == {"places": [1, 2, 2, 4], "scores": [9, 7, 7, 1],
                         "score_name": "points", "lower_is_better": False}


@pytest.mark.parametrize("seats, over", [
    ((PERSON, PERSON, RESIGNED), False),
    ((PERSON, BOT, RESIGNED), False),  # a person against a bot: still a game for her
    ((PERSON, RESIGNED, LEFT), True),  # one seat left in play
    ((BOT, BOT, RESIGNED), True),  # nobody left to play for
    ((LEFT, RESIGNED), True),
])
def test_nothing_to_play_for(seats, over):
    assert _table(*seats).nothing_to_play_for() is over


def test_the_people_in_play_agree_to_abort_bots_and_given_up_seats_have_no_say():
    table = _table(PERSON, RESIGNED, BOT, PERSON)
    assert table.people_in_play() == [0, 3]
    assert not table.abort_agreed()
    assert not Table(**{**_fields(table), "abort_votes": (0,)}).abort_agreed()
    assert Table(**{**_fields(table), "abort_votes": (0, 3)}).abort_agreed()


def _fields(table: Table) -> dict:
    return {f: getattr(table, f) for f in Table.__struct_fields__}


def test_a_given_up_seat_is_refused_what_its_player_no_longer_does():
    service = GameService(MemoryEventStore(), games_under_test())
    game = service.create("high-card", {}, [{"kind": "human"}] * 3, deadline_s=None)
    seats = [service.join(game.id, name)[0] for name in ("a", "b", "c")]
    assert seats == [0, 1, 2]
    service.resign(game.id, 1)
    with pytest.raises(SeatGivenUp) as refused:
        service.leave(game.id, 1, "strong")
    assert refused.value.code == "seat_resigned"
    with pytest.raises(SeatGivenUp):
        service.vote_abort(game.id, 1)
    with pytest.raises(SeatGivenUp):
        service.come_back(game.id, 1)
    # The whole of high-card is one round: abort stays open until its end.
    assert service.vote_abort(game.id, 0).abort_votes == (0,)
    after = service.withdraw_abort(game.id, 0)
    assert after.abort_votes == () and after.status == "active"
    events = [e.type for e in service.store.read(game.id)]
    assert events[-3:] == ["seat_resigned", "abort_voted", "abort_vote_withdrawn"]
    state = after
    while state.status == "active":
        seat = min(high_card.GAME.to_act(state.game))
        card = state.game.hands[seat][0]
        state = service.act(game.id, seat, {"type": "play", "card": card},
                            by="bot" if seat == 1 else "player").table
    assert state.outcome is not None and state.outcome["conceded"] == [1]
    with pytest.raises(GameOver):
        service.vote_abort(game.id, 0)


def test_abort_closes_when_the_first_round_is_scored():
    service = GameService(MemoryEventStore(), games_under_test())
    game = service.create("ochs-und-esel", {"rounds": 2}, [{"kind": "human"}] * 3,
                          deadline_s=None)
    for name in "abc":
        service.join(game.id, name)
    ochs = games_under_test().game("ochs-und-esel")
    state, _ = service.load(game.id)
    while not ochs.round_scored(state.game):
        seat = min(ochs.to_act(state.game))
        action = ochs.legal_actions(state.game, seat)[-1]
        state = service.act(game.id, seat, msgspec.to_builtins(action)).table
    with pytest.raises(AbortClosed):
        service.vote_abort(game.id, 0)
