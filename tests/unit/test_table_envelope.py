"""A table read without its game state and brought up to date with `evolve_envelope` says
what the full fold says of the table itself (all but who waits since when)."""

from __future__ import annotations

import random

import msgspec

from domain.service import GameService
from domain.store import MemoryEventStore
from domain.table import Table, decode_envelope, encode_table, evolve_envelope, evolve_table
from tests.support.games import games_under_test

COMPARED = ("status", "version", "last_hash", "updated_at", "seats", "timeouts_in_row",
            "seed", "outcome", "ended_at", "rematch", "rematch_of", "created_by")


def _fields(table: Table) -> dict[str, object]:
    return {name: msgspec.to_builtins(getattr(table, name)) for name in COMPARED}


def test_the_envelope_fold_agrees_with_the_full_fold_at_every_step():
    service = GameService(MemoryEventStore(), games_under_test())
    ann, _ = service.register_player("Ann")
    table = service.create("ochs-und-esel", {"rounds": 1}, [
        {"kind": "human", "me": True}, {"kind": "human"}, {"kind": "bot"}], by=ann)
    service.join(table.id, "anon")
    rng = random.Random(7)
    game = games_under_test().game(table.type)
    while (table := service.load(table.id)[0]).status == "active":
        seat = sorted(game.to_act(table.game))[0]
        legal = game.legal_actions(table.game, seat)
        service.act(table.id, seat, msgspec.to_builtins(rng.choice(legal)), by="bot")
    service.rematch(table.id, 0)
    log = service.store.read(table.id)
    full = None
    for n, ev in enumerate(log):
        full = evolve_table(full, ev, game)
        # A snapshot at every earlier point, brought forward to here without the game.
        for start in {0, n // 2, max(n - 3, 0)}:
            snapshot = None
            for early in log[:start + 1]:
                snapshot = evolve_table(snapshot, early, game)
            assert snapshot is not None
            envelope = decode_envelope(encode_table(snapshot))
            for later in log[start + 1:n + 1]:
                envelope = evolve_envelope(envelope, later)
            assert _fields(envelope) == _fields(full), (n, start)
    assert full is not None and full.rematch is not None and full.status == "finished"
