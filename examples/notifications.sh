#!/usr/bin/env bash
# Being told: a player's own event stream across all their games (a page, and pushed),
# notification preferences (e-mail digests, Web Push, quiet hours), a bot account.
# Needs a running server (`donkeypost serve`), curl and python3.
# (The README's "Being told: your events, e-mail and Web Push".)
set -euo pipefail
API=${API:-http://127.0.0.1:8000}
get() { python3 -c 'import json, sys
d = json.load(sys.stdin); r = eval(sys.argv[1])
print(*r) if isinstance(r, tuple) else print(r)' "$1"; }
ANN=$(curl -sf "$API/players" -H 'Content-Type: application/json' -d '{"name": "Ann"}' \
  | get 'd["key"]')
BOB=$(curl -sf "$API/players" -H 'Content-Type: application/json' -d '{"name": "Bob"}' \
  | get 'd["key"]')
# Ann invites Bob: his stream says so (every game of his, in one place)
GAME=$(curl -sf "$API/games" -H "Authorization: Bearer $ANN" -H 'Content-Type: application/json' \
  -d '{"type": "ochs-und-esel", "seats": [{"kind": "human", "me": true},
       {"kind": "human", "invite": "Bob"}, {"kind": "bot", "level": "basic"}]}' | get 'd["id"]')
curl -sf "$API/players/me/events?after=0-0" -H "Authorization: Bearer $BOB" \
  | get '[(e["type"], e["game"]) for e in d["events"]]'
# the same, pushed as Server-Sent Events (resume with Last-Event-ID: the last id you hold);
# a browser's EventSource opens it with ?ticket= from POST /players/me/events/stream/tickets
curl -sN --max-time 1 "$API/players/me/events/stream?after=0-0" \
  -H "Authorization: Bearer $BOB" | grep '^event:' || true
# how Ann wants to be told when she is away: e-mail at most every 12 hours (listing every
# game where it is her turn), Web Push at once, nothing at night in her time zone; a new
# address is sent a confirmation link first, and nothing else before it is opened
curl -sf -X PUT "$API/players/me/notifications" -H "Authorization: Bearer $ANN" \
  -H 'Content-Type: application/json' -d '{"channels": ["email", "push"], "digest_hours": 12,
    "kinds": ["my_turn", "deadline_soon", "invitations", "results"],
    "quiet_hours": {"start": "22:00", "end": "08:00"}, "time_zone": "Europe/Berlin",
    "email": "ann@example.org"}' | get 'd["email_pending"], d["digest_hours"]'
# Web Push: the server's VAPID key for PushManager.subscribe; the browser's subscription
# (its toJSON()) goes to POST /players/me/push-subscriptions
curl -sf "$API/push/key" | get 'len(d["key"])'
# a bot account: a program that plays its games from its stream (examples/bot_client.py)
curl -sf "$API/players" -H 'Content-Type: application/json' \
  -d '{"name": "Random Rita", "bot": true}' | get 'd["bot"]'
