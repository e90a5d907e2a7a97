"""Events: the immutable facts a game's log is made of.

An event is `{seq, type, actor, at, data, private: {seat: data}, commitments: {seat: hex},
hash}`. `data` is public; `private` holds the parts only one seat may see (its dealt hand,
a card it peeked at); `commitments` holds a hiding commitment to each private part
(`domain.commitments`), public. Games produce events without `seq`, `at`, `commitments`
and `hash`; `stamp` fills those in before the store appends them.

The chain: `hash = sha256(previous hash + canonical event)`, where the canonical event is
the event without its hash and without its private parts, which it covers only through
their commitments. So every viewer can check the chain over what it receives (redaction
keeps every commitment), and nobody can compute a hidden part from a hash.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

from domain.commitments import commitments


class Event(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    type: str
    data: dict[str, Any] = {}
    private: dict[int, dict[str, Any]] = {}
    commitments: dict[int, str] = {}
    actor: int | None = None
    seq: int = 0
    at: float = 0.0
    hash: str = ""


def event(kind: str, /, actor: int | None = None,
          private: dict[int, dict[str, Any]] | None = None, **data: Any) -> Event:
    """A new (not yet stored) event of type `kind`; keyword arguments are its public data."""
    return Event(type=kind, data=data, private=private or {}, actor=actor)


_encoder = msgspec.json.Encoder()
_canonical_encoder = msgspec.json.Encoder(order="sorted")
_decoder = msgspec.json.Decoder(Event)


def encode(ev: Event) -> bytes:
    return _encoder.encode(ev)


def decode(raw: bytes | str) -> Event:
    return _decoder.decode(raw)


def canonical(ev: Event) -> bytes:
    """The bytes an event's hash covers: JSON with keys sorted and no whitespace of the
    event without its hash and without its private parts (their commitments stand for
    them); fields at their default (empty `data` or `commitments`, no `actor`) left out.

    An event with private parts and no commitments was written before commitments
    existed: its parts are covered in clear, as they were then."""
    private = {} if ev.commitments else ev.private
    plain = msgspec.to_builtins(msgspec.structs.replace(ev, hash="", private=private),
                                str_keys=True)
    return _canonical_encoder.encode(plain)


def chain_hash(prev_hash: str, ev: Event) -> str:
    """`sha256(prev_hash + canonical event)`: the link that makes a log tamper-evident."""
    return hashlib.sha256(prev_hash.encode() + canonical(ev)).hexdigest()


def stamp(events: list[Event], first_seq: int, at: float, prev_hash: str,
          key: bytes | None = None) -> list[Event]:
    """Give new events their sequence numbers, time, commitments to their private parts
    (with the game's commitment key `key`, needed when there are any) and chained hashes."""
    out: list[Event] = []
    for i, ev in enumerate(events):
        seq = first_seq + i
        committed: dict[int, str] = {}
        if ev.private:
            if key is None:
                raise ValueError(f"event {ev.type!r} has private parts: stamping it needs "
                                 "the game's commitment key")
            committed = commitments(key, seq, ev.private)
        ev = msgspec.structs.replace(ev, seq=seq, at=at, commitments=committed, hash="")
        ev = msgspec.structs.replace(ev, hash=chain_hash(prev_hash, ev))
        prev_hash = ev.hash
        out.append(ev)
    return out


def name_erased(ev: Event) -> bool:
    """A player's name erased at their request (`domain.service.erasure`): the event keeps
    the hash it had, which no longer covers its changed data."""
    return ev.data.get("name_erased") is True


def verify_chain(events: list[Event], prev_hash: str = "") -> int | None:
    """The seq of the first event whose hash or order is wrong, or None if the chain holds.
    Private parts need not be there (a viewer's redacted log): their commitments are. An
    event whose player's name was erased is taken with its recorded hash (`name_erased`)."""
    expected_seq = events[0].seq if events else 1
    for ev in events:
        if ev.seq != expected_seq or (ev.hash != chain_hash(prev_hash, ev)
                                      and not name_erased(ev)):
            return ev.seq
        prev_hash = ev.hash
        expected_seq += 1
    return None
