"""Nothing grows without bound: after games are created, played by people and bots to the
end with idempotent actions and webhooks delivered, one of them by a player and rated,
every Redis key either belongs to a game (kept with it, deleted with it) or to a player
(an account, kept), is one of a few fixed keys, or expires."""

from __future__ import annotations

import fnmatch
import time

from domain.webhooks.targets import TargetPolicy
from donkeypost.bootstrap import bootstrap, rq_worker, web_app
from donkeypost.settings import Settings
from tests.e2e.api_client import ApiClient
from tests.support.receiver import receiving

# Kept as long as their game (the replay archive), deleted with it; a long archived game's
# copy for reads too (a short one's expires).
PER_GAME = ["game:{*}:events", "game:{*}:snap", "game:{*}:ckpt", "game:{*}:tokens",
            "game:{*}:secret", "game:{*}:creator", "game:{*}:hooks", "game:{*}:chat",
            "game:{*}:chat:text", "game:{*}:archive", "game:{*}:read"]
# Kept as long as their player: the record, the inbox (an entry per game of theirs,
# removed with it), the standings and the record of the games rated; their own event
# stream (bounded), their last moves and presence (pruned as read), their notification
# preferences, push subscriptions and webhooks (bounded).
PER_PLAYER = ["player:{*}", "player:{*}:inbox:*", "player:{*}:ratings", "player:{*}:rated",
              "player:{*}:events", "player:{*}:moved", "player:{*}:present",
              "player:{*}:notify", "player:{*}:push", "player:{*}:hooks"]
# One key each, whatever the number of games: listings (an entry per game, removed with
# it), the timers (an entry per waiting seat), heartbeats, RQ's queues and registries,
# the players' names and the leaderboards (an entry per player).
FIXED = ["games:all", "games:status:*", "games:type:*", "games:free*", "donkeypost:timers",
         "players:names", "ratings:board:*", "ratings:awaited", "archive:due", "archive:refused",
         "notify:due", "notify:secret", "notify:vapid",
         "donkeypost:heartbeats", "rq:queues", "rq:queue:*", "rq:finished:*", "rq:failed:*",
         "rq:scheduled:*", "rq:started:*", "rq:deferred:*", "rq:canceled:*", "rq:workers",
         "rq:workers:*", "rq:wip:*", "rq:clean_registries:*"]


def test_every_key_is_a_games_a_fixed_one_or_expires(redis_url, redis_client):
    loopback = TargetPolicy.allowing("127.0.0.0/8", "1024-65535")
    settings = Settings(redis_url=redis_url, webhook_targets=loopback, health_workers=())
    components = bootstrap(settings)
    api = ApiClient(web_app(components, {"TESTING": True}).test_client())
    ann = api.http.post("/players", json={"name": "Ann"}).get_json()
    with receiving([200]) as receiver:
        for game in range(3):
            by_player = game == 2  # the last one created and played with Ann's key
            created = api.http.post("/games", json={
                "type": "ochs-und-esel", "options": {"rounds": 1}, "deadline_s": None,
                "seats": [{"kind": "human", "me": by_player}, {"kind": "bot"},
                          {"kind": "bot"}]},
                headers=api.auth(ann["key"] if by_player else None)).get_json()
            game_id = created["id"]
            token = ann["key"] if by_player else api.join(game_id, "ann")[1]
            hook = api.http.post(f"/games/{game_id}/webhooks", json={"url": receiver.url},
                                 headers=api.auth(token))
            assert hook.status_code == 201, hook.get_json()
            said = api.http.post(f"/games/{game_id}/messages", json={"text": "gl hf"},
                                 headers=api.auth(token))
            assert said.status_code == 201, said.get_json()
            moves = 0
            while True:
                rq_worker(components).work(burst=True, with_scheduler=True,
                                           logging_level="WARNING")
                view = api.view(game_id, token)
                if view["status"] == "finished":
                    break
                if view["legal_actions"]:
                    moves += 1
                    answer = api.act(game_id, token, view["legal_actions"][0],
                                     headers={"Idempotency-Key": f"m{moves}"})
                    if answer.status_code == 429:  # (the rate limits' keys are counted too)
                        time.sleep(float(answer.headers.get("Retry-After", "1")))
                        continue
                    assert answer.status_code == 200, answer.get_json()
            api.create("ochs-und-esel", 3)  # and one nobody joins
        rq_worker(components).work(burst=True, with_scheduler=True, logging_level="WARNING")
        assert receiver.requests  # deliveries were made
    forever, expiring = [], []
    for raw in redis_client.scan_iter(count=1000):
        key = raw.decode()
        if redis_client.ttl(key) != -1:  # a TTL, or expired since the scan (-2)
            expiring.append(key)
        elif not any(fnmatch.fnmatchcase(key, p) for p in PER_GAME + PER_PLAYER + FIXED):
            forever.append(key)
    assert forever == []
    assert fnmatch.filter(map(bytes.decode, redis_client.keys()), "game:{*}:chat")
    assert redis_client.hget(f"player:{{{ann['id']}}}:ratings", "ochs-und-esel")  # rated
    # What the games made besides themselves was there, and expires.
    for kind in ("game:{*}:idem:*", "game:{*}:delivery:*", "game:{*}:hook:*:deliveries",
                 "rq:job:*"):
        assert fnmatch.filter(expiring, kind), (kind, expiring)
