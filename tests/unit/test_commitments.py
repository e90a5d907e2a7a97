"""The chain covers private parts only through hiding commitments (`domain.commitments`)."""

from __future__ import annotations

import msgspec
import pytest

from domain.commitments import commit, commitment_key, mismatches
from domain.events import Event, chain_hash, event, stamp, verify_chain
from domain.redaction import redact

KEY = commitment_key("a" * 64)


def _dealt() -> list[Event]:
    return stamp([event("noted", n=1),
                  event("dealt", private={0: {"hand": [1, 2]}, 1: {"hand": [1, 2]}, -1: {
                      "stock": [3]}}),
                  event("noted", n=2)], 1, 1000.0, "", KEY)


def test_every_private_part_gets_a_commitment_keyed_by_the_seed():
    dealt = _dealt()[1]
    assert set(dealt.commitments) == {0, 1, -1}
    assert dealt.commitments[0] == commit(KEY, 2, 0, {"hand": [1, 2]})
    # Equal parts of two seats: unrelated commitments (seq and seat are in the message).
    assert dealt.commitments[0] != dealt.commitments[1]
    # Another seed, another key: the commitment changes.
    assert commit(commitment_key("b" * 64), 2, 0, {"hand": [1, 2]}) != dealt.commitments[0]
    assert mismatches(KEY, 2, dealt.private, dealt.commitments) == []
    assert mismatches(KEY, 2, {**dealt.private, 1: {"hand": [1, 3]}}, dealt.commitments) == [1]
    assert mismatches(KEY, 2, {0: dealt.private[0]}, dealt.commitments) == [-1, 1]


def test_stamping_a_private_part_without_the_key_is_refused():
    with pytest.raises(ValueError, match="commitment key"):
        stamp([event("dealt", private={0: {"hand": [1]}})], 1, 1.0, "")


def test_the_hash_covers_the_commitments_not_the_parts():
    events = _dealt()
    dealt = events[1]
    other_part = msgspec.structs.replace(dealt, private={0: {"hand": [9]}})
    assert chain_hash(events[0].hash, other_part) == dealt.hash
    other_commitment = msgspec.structs.replace(dealt, commitments={**dealt.commitments,
                                                                   0: "0" * 64})
    assert chain_hash(events[0].hash, other_commitment) != dealt.hash


def test_every_viewer_checks_the_chain_over_what_it_receives():
    events = _dealt()
    for viewer in (0, 1, None):
        seen = [redact(e, viewer) for e in events]
        assert seen[1]["commitments"] == {str(s): c for s, c in events[1].commitments.items()}
        back = [Event(type=e["type"], data=e["data"], actor=e["actor"], seq=e["seq"],
                      at=e["at"], hash=e["hash"],
                      private={int(s): p for s, p in e["private"].items()},
                      commitments={int(s): c for s, c in e["commitments"].items()})
                for e in seen]
        assert verify_chain(back) is None
        forged = [back[0], msgspec.structs.replace(back[1], data={"x": 1}), back[2]]
        assert verify_chain(forged) == 2


def test_an_event_written_before_commitments_is_covered_in_clear():
    legacy = Event(type="dealt", private={0: {"hand": [1]}}, seq=1, at=1.0)
    legacy = msgspec.structs.replace(legacy, hash=chain_hash("", legacy))
    assert verify_chain([legacy]) is None
    assert verify_chain([msgspec.structs.replace(legacy, private={0: {"hand": [2]}})]) == 1
