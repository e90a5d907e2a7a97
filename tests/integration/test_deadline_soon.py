"""`deadline_soon` (real Redis, real workers): a player's seat with a deadline arms a
warning at 80 % of the time to move, in the same step as the deadline's own timer; when
it comes due the notifications queue's job tells the player's stream, once, and a move
before it drops it."""

from __future__ import annotations

import msgspec

from domain.table import to_act
from tests.support.games import games_under_test
from tests.support.workers import burst
from workers.hooks import NOTIFICATIONS, TIMERS


def _players_game(service, deadline_s: float = 100.0):
    ann, _key = service.register_player("Ann")
    bob, _ = service.register_player("Bob")
    table = service.create("ochs-und-esel", {"rounds": 1, "first_player": 0},
                           [{"kind": "human", "me": True}, {"kind": "human", "invite": "Bob"},
                            {"kind": "bot", "level": "basic"}], deadline_s=deadline_s, by=ann)
    _seat, _token, table = service.join(table.id, None, bob)
    return table, {ann.id: 0, bob.id: 1}


def _warnings(client) -> dict[str, float]:
    return {m.decode(): s for m, s in client.zrange(TIMERS, 0, -1, withscores=True)
            if m.startswith(b"soon-")}


def _told(service, player_id: str) -> list[dict]:
    return [e.shown() for e in service.players.player_events(player_id)
            if b"deadline_soon" in e.body]


def test_a_player_is_warned_once_at_80_percent_of_their_time(service, components, clock,
                                                             redis_client):
    table, seats = _players_game(service)
    game = games_under_test().game(table.type)
    seat = min(to_act(table, game))
    player = next(p for p, s in seats.items() if s == seat)
    warned = _warnings(redis_client)
    assert warned == {f"soon-{table.id}-v{table.version}-s{seat}":
                      table.waiting_since[seat] + 80.0}
    clock.advance(81)
    components.rq_hooks.release_due()
    burst(components, [NOTIFICATIONS])
    told = _told(service, player)
    assert len(told) == 1
    assert told[0]["game"] == table.id and told[0]["data"]["deadline"] == \
        table.waiting_since[seat] + 100.0
    # Once warned, a later look (a worker's rebuild) does not warn again.
    components.rq_hooks.rebuild(service.active_games())
    burst(components, [NOTIFICATIONS])
    assert len(_told(service, player)) == 1


def test_a_move_before_the_warning_drops_it(service, components, clock, redis_client):
    table, _seats = _players_game(service)
    game = games_under_test().game(table.type)
    seat = min(to_act(table, game))
    action = msgspec.to_builtins(game.legal_actions(table.game, seat)[0])
    before = _warnings(redis_client)
    after = service.act(table.id, seat, action).table
    assert not set(before) & set(_warnings(redis_client))
    assert all(f"-v{after.version}-" in w for w in _warnings(redis_client))
