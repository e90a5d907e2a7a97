"""The one retry loop of the commands: try again while other writers get there first."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from domain.errors import Contention

T = TypeVar("T")


def with_retries(attempts: int, attempt: Callable[[int], T | None], what: str) -> T:
    """`attempt(n)` for n = 0, 1, ... until it answers; None means "the game moved under
    me, look again". After `attempts` tries, Contention: nothing was written, and the
    caller may send the same request again."""
    for n in range(attempts):
        answer = attempt(n)
        if answer is not None:
            return answer
    raise Contention(f"{what}: the game kept changing during {attempts} attempts; "
                     "nothing was done, try again", attempts)
