"""What a person reads about a game, over HTTP (`words=true`): the legal actions' labels
and the layout in views, each event's sentence in the log and the stream — for every
installed game, from what the caller may see, and nothing when not asked."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tests.support.games import installed_games
from tests.support.live import SseMessage, open_stream, serving


def layout_ids(layout: dict[str, Any]) -> set[str]:
    found: set[str] = set()
    zones = list(layout["zones"])
    while zones:
        zone = zones.pop()
        found.add(zone["id"])
        found.update(card["id"] for card in zone["cards"] if card["id"] is not None)
        zones += zone["zones"]
    return found


def filled(said: dict[str, Any]) -> str:
    """A text made again from its message id (or plural) and params, as a catalog would."""
    plural = said["plural"] is not None and said["params"].get("n") != 1
    return (said["plural"] if plural else said["msgid"]).format(**said["params"])


def check_view(api, game_id: str, token: str | None) -> dict[str, Any]:
    plain = api.view(game_id, token)
    assert plain["action_labels"] is None and plain["layout"] is None  # not asked
    r = api.http.get(f"/games/{game_id}?words=true", headers=api.auth(token))
    assert r.status_code == 200
    view = r.get_json()
    assert {k: v for k, v in view.items() if k not in ("action_labels", "layout")} == \
        {k: v for k, v in plain.items() if k not in ("action_labels", "layout")}
    labels = view["action_labels"]
    assert len(labels) == len(view["legal_actions"])
    known = layout_ids(view["layout"])
    for label in labels:
        assert label["text"] and label["text"] == filled(label)
        assert set(label["uses"]) <= known
    return view


@pytest.mark.parametrize("game_type", sorted(installed_games()))
def test_every_game_labels_lays_out_and_tells_its_log_to_every_viewer(api, game_type):
    game = installed_games()[game_type]
    players = game.min_players
    game_id, tokens = api.new_game(game_type, players)
    rng = random.Random(5)
    for _ in range(12):
        view = api.view(game_id)
        if view["status"] != "active":
            break
        seat = view["to_act"][0]
        mine = check_view(api, game_id, tokens[seat])
        r = api.http.post(f"/games/{game_id}/actions?words=true",
                          json=rng.choice(mine["legal_actions"]), headers=api.auth(tokens[seat]))
        assert r.status_code == 200
        answer = r.get_json()
        assert all(filled(e["sentence"]) == e["sentence"]["text"] for e in answer["events"])
        assert answer["view"]["layout"] is not None
    check_view(api, game_id, None)
    for token in (None, *tokens):
        plain = api.events(game_id, token)["events"]
        assert all("sentence" not in e for e in plain)
        r = api.http.get(f"/games/{game_id}/events?words=true", headers=api.auth(token))
        worded = r.get_json()["events"]
        assert [{k: v for k, v in e.items() if k != "sentence"} for e in worded] == plain
        for event in worded:
            said = event["sentence"]
            assert said["text"] == filled(said)
        assert worded[1]["sentence"]["text"] == "player0 sat down."


def test_a_seat_reads_its_own_hidden_cards_and_nobody_else_does(api):
    # The Grand Canyon: a load is played face down (no difficult donkey in the deck: it has
    # the loads played face up); its values are its loader's part.
    deck = {"normal": 4, "giant": 2, "puny": 2, "precision": 2, "holed": 2, "attacked": 2,
            "hurried": 1, "lost": 1, "double": 1, "stubborn": 1, "picky": 1}
    game_id, tokens = api.new_game("canyon-donkeys", 3,
                                   {"first_player": 0, "donkey_deck": deck})
    while True:
        view = api.view(game_id, tokens[0])
        labels = api.http.get(f"/games/{game_id}?words=true",
                              headers=api.auth(tokens[0])).get_json()["action_labels"]
        if any(a["type"] == "load" for a in view["legal_actions"]) or not labels:
            break
        api.act(game_id, tokens[0], view["legal_actions"][0])
    load = next(a for a in view["legal_actions"] if a["type"] == "load")
    assert api.act(game_id, tokens[0], load).status_code == 200
    cards = " + ".join(str(c) for c in load["cards"])
    said = {}
    for who, token in (("loader", tokens[0]), ("other", tokens[1]), ("spectator", None)):
        events = api.http.get(f"/games/{game_id}/events?words=true",
                              headers=api.auth(token)).get_json()["events"]
        said[who] = [e["sentence"]["text"] for e in events if e["type"] == "load_played"][-1]
    assert said["loader"] == f"player0 loaded {cards}."
    count = len(load["cards"])  # two on the double donkey
    face_down = f"player0 loaded {count} card{'s' if count > 1 else ''} face down."
    assert said["other"] == said["spectator"] == face_down


@pytest.fixture
def base(app):
    with serving(app) as url:
        yield url


def test_the_stream_tells_its_events_and_lays_out_its_views_when_asked(api, base):
    game_id, tokens = api.new_game("trash", 2)
    view = api.view(game_id, tokens[0])
    seat = view["to_act"][0]
    api.act(game_id, tokens[seat], api.view(game_id, tokens[seat])["legal_actions"][0])
    version = api.view(game_id)["version"]
    with open_stream(base, game_id, tokens[0], views=True, words=True) as (_r, messages):
        got = []
        for message in messages:
            if isinstance(message, SseMessage):
                got.append(message)
                if message.event == "view":
                    break
    events = [json.loads(m.data) for m in got if m.event != "view"]
    assert [e["seq"] for e in events] == list(range(1, version + 1))
    assert all(e["sentence"]["text"] for e in events)
    shown = json.loads(got[-1].data)
    assert shown["layout"]["zones"] and shown["action_labels"] is not None


def test_the_words_come_in_the_requests_language(api):
    game_id, tokens = api.new_game("trash", 2)
    seat = api.view(game_id)["to_act"][0]
    english = api.http.get(f"/games/{game_id}?words=true", headers=api.auth(tokens[seat]))
    french = api.http.get(f"/games/{game_id}?words=true",
                          headers={**api.auth(tokens[seat]), "Accept-Language": "fr"})
    assert "Accept-Language" in french.headers["Vary"]
    said, dit = english.get_json(), french.get_json()
    assert [a["msgid"] for a in said["action_labels"]] == \
        [a["msgid"] for a in dit["action_labels"]]  # one message id, two languages
    assert said["action_labels"][0]["text"] == "Draw from the stock"
    assert dit["action_labels"][0]["text"] == "Piocher"
    events = api.http.get(f"/games/{game_id}/events?words=true&lang=de",
                          headers=api.auth(tokens[seat])).get_json()["events"]
    assert events[3]["sentence"]["text"] == "Die Partie hat begonnen."


def test_words_is_a_boolean_as_the_document_says(api):
    """`words` takes a boolean's spellings; anything else is the schema's 422, on the view
    and on a move, before the move is tried."""
    game_id, tokens = api.new_game("trash", 2)
    view = api.view(game_id, tokens[0])
    seat = view["to_act"][0]
    move = api.view(game_id, tokens[seat])["legal_actions"][0]
    for spelling, asked in (("true", True), ("1", True), ("false", False), ("0", False)):
        answer = api.http.get(f"/games/{game_id}?words={spelling}",
                              headers=api.auth(tokens[seat])).get_json()
        assert (answer["action_labels"] is not None) is asked
    for path, send in ((f"/games/{game_id}", api.http.get),
                       (f"/games/{game_id}/actions", api.http.post)):
        refused = send(f"{path}?words=maybe", json=move, headers=api.auth(tokens[seat]))
        assert refused.status_code == 422
        body = refused.get_json()
        assert body["code"] == "validation_error"
        assert list(body["errors"]["query"]) == ["words"]
    assert api.view(game_id, tokens[seat])["version"] == view["version"]  # nothing played
