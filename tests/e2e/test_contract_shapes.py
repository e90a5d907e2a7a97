"""The published shapes are the real ones: views and events of random games of every
installed game, and the API's answers while playing, validate against the OpenAPI
document the server serves with those games (its schemas are exact: an undeclared key
fails as a missing one does). The committed document is the project's games' part of it
(`tests/e2e/test_openapi.py` holds them equal)."""

from __future__ import annotations

import json
import random
from typing import Any

import jsonschema_rs
import pytest

from domain.game import resolve_options
from domain.redaction import redact
from donkeypost.cli import openapi_document
from tests.gamekit import random_playout
from tests.support.games import installed_games

DOCUMENT = json.loads(openapi_document(all_games=True))
# (players, options) per game: the base game and its variants. A game not named here plays
# at its fewest and most players with its default options.
SHORTER = {
    "ochs-und-esel": [(3, {"rounds": 2}), (5, {"rounds": 1, "ox_variant": True})],
    "crazy-donkey": [(4, {"deals": 2})],
    "trash": [(2, {}), (4, {"wild": "JQK", "max_rounds": 2})],
}
PLAYOUTS = {game_id: SHORTER.get(game_id, [(game.min_players, {}), (game.max_players, {})])
            for game_id, game in installed_games().items()}


def validator(name: str) -> Any:
    """A validator of the document's component `name`."""
    root = {"$ref": f"#/components/schemas/{name}", "components": DOCUMENT["components"]}
    return jsonschema_rs.Draft202012Validator(root)


def assert_valid(check: Any, instance: Any, what: str) -> None:
    errors = [f"{e.instance_path}: {e.message}" for e in check.iter_errors(instance)]
    assert not errors, f"{what} does not match the document: {errors[:5]}\n{instance}"


@pytest.mark.parametrize("game_id", sorted(PLAYOUTS))
def test_random_playouts_match_the_published_view_and_events(game_id):
    game = installed_games()[game_id]
    table = validator(game.shapes.view.__name__)
    options = validator(f"{''.join(p.title() for p in game_id.split('-'))}Options")
    event = validator("Event")
    seen = {"views": 0, "events": 0}
    for players, opts in PLAYOUTS[game_id]:
        for seed in range(2):
            def check(state: Any, log: list[Any], players: int = players) -> None:
                viewer = random.Random(len(log)).choice([None, *range(players)])
                assert_valid(table, json.loads(json.dumps(game.view(state, viewer))), "a view")
                seen["views"] += 1

            resolved = resolve_options(game.options, opts, players)
            for viewer in (None, 0):  # before the deal: a replay stopped at game_started
                before = game.view(game.new_state(resolved, players), viewer)
                assert_valid(table, json.loads(json.dumps(before)), "a view before the deal")
            state, log = random_playout(game, players, opts, seed=seed, check_every=10**9,
                                        on_step=check)
            assert_valid(table, json.loads(json.dumps(game.view(state, 0, True))),
                         "a view after the end")
            assert_valid(options, resolved, "options")
            if seed == 0:  # a replay may stop between any two events, even within a turn
                replayed = game.new_state(resolved, players)
                for ev in log:
                    replayed = game.evolve(replayed, ev)
                    view = game.view(replayed, random.Random(ev.seq).choice([None, 0]))
                    assert_valid(table, json.loads(json.dumps(view)), f"a view after {ev.type}")
                    seen["views"] += 1
            for i, ev in enumerate(log):
                stored = ev.__class__(**{**{f: getattr(ev, f) for f in ev.__struct_fields__},
                                         "seq": i + 1, "hash": "0" * 64})
                for viewer, reveal in ((None, False), (i % players, False), (None, True)):
                    shown = json.loads(json.dumps(redact(stored, viewer, reveal)))
                    assert_valid(event, shown, f"event {ev.type}")
                    seen["events"] += 1
    assert seen["views"] >= 200 and seen["events"] >= 200, seen


@pytest.mark.parametrize("game_id", sorted(PLAYOUTS))
def test_answers_while_playing_over_http_match_the_document(api, game_id):
    players, opts = PLAYOUTS[game_id][-1]
    created = api.create(game_id, players, opts, deadline_s=None)
    assert_valid(validator("CreatedGame"), created, "the created game")
    tokens = [""] * players
    for i in range(players):
        joined = api.http.post(f"/games/{created['id']}/players", json={"name": f"p{i}"})
        assert_valid(validator("Joined"), joined.get_json(), "a join")
        tokens[joined.get_json()["seat"]] = joined.get_json()["token"]
    view, acted, page = validator("GameView"), validator("Acted"), validator("EventsPage")
    rng = random.Random(7)

    def on_move(seen: dict[str, Any], answer: dict[str, Any]) -> None:
        assert_valid(view, seen, "a view")
        assert_valid(acted, answer, "an action's answer")

    end = api.play_to_end(created["id"], tokens, pick=lambda v: rng.choice(v["legal_actions"]),
                          on_move=on_move)
    assert_valid(view, end, "the finished game")
    assert_valid(page, api.events(created["id"], tokens[0]), "the log")
    listed = api.http.get("/games").get_json()
    assert_valid(validator("GameView"), listed[0], "a listed game")


def test_every_example_in_the_document_matches_its_schema():
    examples = {name: schema["examples"] for name, schema in
                DOCUMENT["components"]["schemas"].items() if "examples" in schema}
    read = {"Action", "GameView", "Event", "Acted", "EventsPage", "Joined", "CreatedGame",
            "Error", "Join", "SeatSpec", "NewPlayer", "WebhookArgs"}
    assert read <= set(examples) | _unions_whose_members_have_examples(examples), \
        "a schema a person reads has no example"
    for name, values in examples.items():
        for value in values:
            assert_valid(validator(name), value, f"the example of {name}")


def _unions_whose_members_have_examples(examples: dict[str, Any]) -> set[str]:
    """The oneOf components (`GameView`, `Action`, `Event`…) all of whose members have
    an example: a reader finds one under the member for each case."""
    out = set()
    for name, schema in DOCUMENT["components"]["schemas"].items():
        members = [m["$ref"].rsplit("/", 1)[1] for m in schema.get("oneOf", [])
                   if "$ref" in m]
        if members and all(m in examples for m in members):
            out.add(name)
    return out
