"""A small HTTP client for the tests: readable helpers over Flask's test client."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient


class ApiClient:
    def __init__(self, client: FlaskClient) -> None:
        self.http = client

    @staticmethod
    def auth(token: str | None) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"} if token else {}

    def create(self, game_type: str, seats: int | list[dict[str, Any]],
               options: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
        if isinstance(seats, int):
            seats = [{"kind": "human"}] * seats
        r = self.http.post("/games", json={"type": game_type, "seats": seats,
                                           "options": options or {}, **extra})
        assert r.status_code == 201, r.get_json()
        return r.get_json()

    def join(self, game_id: str, name: str) -> tuple[int, str]:
        r = self.http.post(f"/games/{game_id}/players", json={"name": name})
        assert r.status_code == 201, r.get_json()
        body = r.get_json()
        return body["seat"], body["token"]

    def new_game(self, game_type: str, players: int,
                 options: dict[str, Any] | None = None) -> tuple[str, list[str]]:
        """A started game with every seat human; returns its id and the seats' tokens."""
        game = self.create(game_type, players, options, deadline_s=None)
        tokens = [""] * players
        for i in range(players):
            seat, token = self.join(game["id"], f"player{i}")
            tokens[seat] = token
        return game["id"], tokens

    def view(self, game_id: str, token: str | None = None) -> dict[str, Any]:
        r = self.http.get(f"/games/{game_id}", headers=self.auth(token))
        assert r.status_code == 200, r.get_json()
        return r.get_json()

    def act(self, game_id: str, token: str | None, action: Any,
            headers: dict[str, str] | None = None) -> Any:
        return self.http.post(f"/games/{game_id}/actions", json=action,
                              headers={**self.auth(token), **(headers or {})})

    def events(self, game_id: str, token: str | None = None, after: int = 0) -> dict[str, Any]:
        r = self.http.get(f"/games/{game_id}/events?after={after}", headers=self.auth(token))
        assert r.status_code == 200, r.get_json()
        return r.get_json()

    def play_to_end(self, game_id: str, tokens: list[str], pick: Any = None,
                    max_moves: int = 5000, on_move: Any = None) -> dict[str, Any]:
        """Play legal actions (the first, or `pick(view)`) until the game is finished."""
        for _ in range(max_moves):
            spectator = self.view(game_id)
            if spectator["status"] == "finished":
                return spectator
            seat = spectator["to_act"][0]
            view = self.view(game_id, tokens[seat])
            action = pick(view) if pick else view["legal_actions"][0]
            r = self.act(game_id, tokens[seat], action)
            assert r.status_code == 200, r.get_json()
            if on_move is not None:
                on_move(view, r.get_json())
        raise AssertionError("the game did not end")
