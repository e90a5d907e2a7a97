"""The attack on hidden information that a viewer can run on what the API gives it.

A viewer (a seat, or a spectator) receives every event redacted: the public data, its own
private parts, the commitments to every part, and the chained hashes. For a part withheld
from it, it tries every candidate value and keeps those that reproduce something it
received, with every function it could guess:
- the chain as first built, a plain `sha256(prev hash + event)` over the private parts in
  clear (with or without the commitments beside them);
- the commitment as a plain hash of the part (`sha256(part)`, `sha256("seq:seat:" + part)`);
- the commitment as an HMAC of those, keyed with anything the viewer holds (the game id,
  `seed_hash`, the hashes it received, its own token and the token's hash).
A candidate is *found* when every withheld part it proposes reproduces a received value.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import combinations
from typing import Any

import msgspec

from domain.commitments import canonical_part
from domain.events import Event, chain_hash

_sorted_json = msgspec.json.Encoder(order="sorted")
Assignment = dict[int, Any]  # seat -> candidate private part


def _event(received: Mapping[str, Any], private: Mapping[int, Any],
           with_commitments: bool) -> Event:
    committed = {int(s): c for s, c in received.get("commitments", {}).items()}
    return Event(type=received["type"], data=received["data"], private=dict(private),
                 commitments=committed if with_commitments else {},
                 actor=received["actor"], seq=received["seq"], at=received["at"])


def _clear_chain_hash(prev_hash: str, received: Mapping[str, Any],
                      private: Mapping[int, Any]) -> str:
    """sha256(prev + event) with the private parts and the commitments both in clear."""
    ev = _event(received, private, with_commitments=True)
    plain = msgspec.to_builtins(msgspec.structs.replace(ev, hash=""), str_keys=True)
    return hashlib.sha256(prev_hash.encode() + _sorted_json.encode(plain)).hexdigest()


def _messages(seq: int, seat: int, part: Any) -> tuple[bytes, ...]:
    body = canonical_part(part)
    return body, f"{seq}:{seat}:".encode() + body


def _matches_commitment(commitment: str, seq: int, seat: int, part: Any,
                        keys: Sequence[bytes]) -> bool:
    for message in _messages(seq, seat, part):
        if hashlib.sha256(message).hexdigest() == commitment:
            return True
        for key in keys:
            if hmac.new(key, message, hashlib.sha256).hexdigest() == commitment:
                return True
    return False


def viewer_keys(received: Sequence[Mapping[str, Any]], token: str | None) -> list[bytes]:
    """Every secret-looking string the viewer holds, as a possible HMAC key."""
    found: list[str] = []
    created = received[0]["data"]
    found += [created.get("id", ""), created.get("seed_hash", "")]
    found += [ev["hash"] for ev in received]
    if token:
        found += [token, hashlib.sha256(token.encode()).hexdigest()]
    return [k.encode() for k in dict.fromkeys(found) if k]


def attack(received: Mapping[str, Any], prev_hash: str, candidates: Iterable[Assignment],
           keys: Sequence[bytes]) -> list[Assignment]:
    """The candidate assignments of the withheld parts of one received event that something
    the viewer received gives away."""
    own = {int(s): part for s, part in received["private"].items()}
    committed = {int(s): c for s, c in received.get("commitments", {}).items()}
    found = []
    for assignment in candidates:
        private = {**own, **assignment}
        legacy = chain_hash(prev_hash, _event(received, private, with_commitments=False))
        if received["hash"] in (legacy, _clear_chain_hash(prev_hash, received, private)):
            found.append(assignment)
            continue
        if committed and all(
                seat in committed and _matches_commitment(committed[seat], received["seq"],
                                                          seat, part, keys)
                for seat, part in assignment.items()):
            found.append(assignment)
    return found


def splits(pool: Sequence[Any], sizes: Mapping[int, int]) -> Iterator[dict[int, list[Any]]]:
    """Every way to deal the cards of `pool` into the seats' `sizes` (as sorted lists)."""
    seats = list(sizes)
    if not seats:
        if not pool:
            yield {}
        return
    first, rest = seats[0], {s: sizes[s] for s in seats[1:]}
    for chosen in combinations(range(len(pool)), sizes[first]):
        taken = [pool[i] for i in chosen]
        left = [card for i, card in enumerate(pool) if i not in chosen]
        for others in splits(left, rest):
            yield {first: taken, **others}
