"""Events: the immutable facts a game's log is made of.

An event is `{seq, type, actor, at, data, private: {seat: data}, hash}`. `data` is public;
`private` holds the parts only one seat may see (its dealt hand, a card it peeked at).
Games produce events without `seq`, `at` and `hash`; the store fills those in when it
appends them.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec


class Event(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    type: str
    data: dict[str, Any] = {}
    private: dict[int, dict[str, Any]] = {}
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
    """The bytes an event's hash covers: everything but the hash itself, keys sorted."""
    plain = msgspec.to_builtins(msgspec.structs.replace(ev, hash=""), str_keys=True)
    return _canonical_encoder.encode(plain)


def chain_hash(prev_hash: str, ev: Event) -> str:
    """`sha256(prev_hash + canonical event)`: the link that makes a log tamper-evident."""
    return hashlib.sha256(prev_hash.encode() + canonical(ev)).hexdigest()


def stamp(events: list[Event], first_seq: int, at: float, prev_hash: str) -> list[Event]:
    """Give new events their sequence numbers, time and chained hashes."""
    out: list[Event] = []
    for i, ev in enumerate(events):
        ev = msgspec.structs.replace(ev, seq=first_seq + i, at=at, hash="")
        ev = msgspec.structs.replace(ev, hash=chain_hash(prev_hash, ev))
        prev_hash = ev.hash
        out.append(ev)
    return out


def verify_chain(events: list[Event], prev_hash: str = "") -> int | None:
    """The seq of the first event whose hash or order is wrong, or None if the chain holds."""
    expected_seq = events[0].seq if events else 1
    for ev in events:
        if ev.seq != expected_seq or ev.hash != chain_hash(prev_hash, ev):
            return ev.seq
        prev_hash = ev.hash
        expected_seq += 1
    return None
