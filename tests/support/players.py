"""Players over real HTTP, for the tests that break a running server: each plays its own
game as fast as it can and records what every request got."""

from __future__ import annotations

import threading
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx


def new_game(base: str, players: int = 3, **extra: Any) -> tuple[str, list[str]]:
    """A started Ochs & Esel game with every seat human; its id and the seats' tokens."""
    with httpx.Client(base_url=base, timeout=30) as http:
        r = http.post("/games", json={"type": "ochs-und-esel", "seats": [{"kind": "human"}]
                                      * players, "deadline_s": None, **extra})
        assert r.status_code == 201, r.text
        game_id = r.json()["id"]
        tokens = [""] * players
        for i in range(players):
            r = http.post(f"/games/{game_id}/players", json={"name": f"p{i}"})
            assert r.status_code == 201, r.text
            tokens[r.json()["seat"]] = r.json()["token"]
    return game_id, tokens


@dataclass
class Player:
    """Plays one game: the first legal action of the seat to act, again and again."""

    base: str
    game_id: str
    tokens: list[str]
    statuses: Counter[str] = field(default_factory=Counter)  # "200", "503", "ConnectError"
    acked: list[dict[str, Any]] = field(default_factory=list)  # the events of each 2xx move
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        with httpx.Client(base_url=self.base, timeout=15) as http:
            while not self.stop.is_set():
                if not self._move(http):
                    self.stop.wait(0.05)

    def _move(self, http: httpx.Client) -> bool:
        view = self._get(http, f"/games/{self.game_id}")
        if view is None or view["status"] != "active":
            return False
        token = self.tokens[view["to_act"][0]]
        mine = self._get(http, f"/games/{self.game_id}", token)
        if mine is None or not mine["legal_actions"]:
            return False
        r = self._send(http, "POST", f"/games/{self.game_id}/actions", token,
                       json=mine["legal_actions"][0],
                       headers={"Idempotency-Key": uuid.uuid4().hex,
                                "If-Match": f'"{mine["version"]}"'})
        if r is not None and r.status_code == 200:
            self.acked.append(r.json())
            return True
        return False

    def _get(self, http: httpx.Client, path: str, token: str | None = None) -> Any:
        r = self._send(http, "GET", path, token)
        return r.json() if r is not None and r.status_code == 200 else None

    def _send(self, http: httpx.Client, method: str, path: str, token: str | None,
              **kwargs: Any) -> httpx.Response | None:
        headers = {**kwargs.pop("headers", {}),
                   **({"Authorization": f"Bearer {token}"} if token else {})}
        try:
            r = http.request(method, path, headers=headers, **kwargs)
        except httpx.HTTPError as err:
            self.statuses[type(err).__name__] += 1
            return None
        self.statuses[str(r.status_code)] += 1
        return r


class Players:
    """Several players, each on its own thread."""

    def __init__(self, players: list[Player]) -> None:
        self.players = players
        self.threads = [threading.Thread(target=p.run, daemon=True) for p in players]

    def __enter__(self) -> Players:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        for player in self.players:
            player.stop.set()
        for thread in self.threads:
            thread.join(timeout=30)

    def statuses(self) -> Counter[str]:
        return sum((p.statuses for p in self.players), Counter())

    def moves(self) -> int:
        return sum(len(p.acked) for p in self.players)
