"""The API answers in the request's language (Accept-Language, or ?lang= where a browser
cannot send headers): the game types' titles and options, and the message of an error
(its code unchanged); English when nothing is asked or the language is not one of ours."""

from __future__ import annotations


def test_the_game_types_in_french_and_german(api):
    english = {t["id"]: t for t in api.http.get("/games/types").get_json()}
    french = api.http.get("/games/types", headers={"Accept-Language": "fr-CH, fr;q=0.9, en;q=0.5"})
    assert french.headers["Content-Language"] == "fr"
    assert "Accept-Language" in french.headers["Vary"]
    by_id = {t["id"]: t for t in french.get_json()}
    assert by_id["canyon-donkeys"]["title"] == "Les Ânes du Grand Canyon"
    assert by_id["ochs-und-esel"]["options"][0]["description"] == "nombre de manches (donnes)"
    assert by_id["ochs-und-esel"]["options"][0]["name"] == "rounds"
    german = api.http.get("/games/types/crazy-donkey?lang=de").get_json()
    assert german["title"] == "Einer ist immer der Esel"
    assert english["crazy-donkey"]["title"] == "Crazy Donkey"
    other = api.http.get("/games/types/trash", headers={"Accept-Language": "ja"}).get_json()
    assert other == english["trash"]


def test_an_error_reads_in_the_request_language_with_its_code(api):
    game_id, tokens = api.new_game("trash", 2)
    view = api.view(game_id)
    waiting = next(t for s, t in enumerate(tokens) if s not in view["to_act"])
    action = {"type": "draw", "source": "stock"}
    english = api.act(game_id, waiting, action)
    german = api.act(game_id, waiting, action, headers={"Accept-Language": "de"})
    french = api.http.post(f"/games/{game_id}/actions?lang=fr", json=action,
                           headers=api.auth(waiting))
    assert english.status_code == german.status_code == french.status_code == 409
    assert english.get_json()["code"] == german.get_json()["code"] == "not_your_turn"
    assert german.get_json()["message"] == "Du bist nicht am Zug."
    assert french.get_json()["message"] == "Ce n'est pas à vous de jouer."
    assert english.get_json()["message"] != german.get_json()["message"]
    unknown = api.http.get("/games/nope", headers={"Accept-Language": "fr"})
    assert unknown.status_code == 404
    assert unknown.get_json()["message"] == "Cette partie n'existe pas."
