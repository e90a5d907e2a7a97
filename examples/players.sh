#!/usr/bin/env bash
# Two players: one key each for all their games, an invitation, the inbox of "my turn", a
# move with the key, a seat left to a bot, the table's chat, the lobby, a profile and a
# leaderboard, a new key. Needs a running server (`donkeypost serve`), curl and python3.
# (The README's "Playing as a player".)
set -euo pipefail
API=${API:-http://127.0.0.1:8000}
get() { python3 -c 'import json, sys
d = json.load(sys.stdin); r = eval(sys.argv[1])
print(*r) if isinstance(r, tuple) else print(r)' "$1"; }
# become players: each answer holds the player's key (shown once; stored hashed)
ANN=$(curl -sf "$API/players" -H 'Content-Type: application/json' -d '{"name": "Ann"}' \
  | get 'd["key"]')
BOB=$(curl -sf "$API/players" -H 'Content-Type: application/json' -d '{"name": "Bob"}' \
  | get 'd["key"]')
# Ann sits in seat 0, keeps seat 1 for Bob (only he may take it), and a bot plays seat 2
GAME=$(curl -sf "$API/games" -H "Authorization: Bearer $ANN" -H 'Content-Type: application/json' \
  -d '{"type": "ochs-und-esel", "options": {"first_player": 0}, "seats": [
       {"kind": "human", "me": true}, {"kind": "human", "invite": "Bob"},
       {"kind": "bot", "level": "basic"}]}' | get 'd["id"]')
# Bob finds the invitation in his inbox and takes the seat with his key
curl -sf "$API/players/me/games?status=open" -H "Authorization: Bearer $BOB" | get 'd[0]["id"]'
curl -sf -X POST "$API/games/$GAME/players" -H "Authorization: Bearer $BOB" | get 'd["seat"]'
# Ann's inbox: the games where it is her turn, soonest deadline first (paginated)
curl -sf "$API/players/me/games?status=active&my_turn=true" -H "Authorization: Bearer $ANN" \
  | get '[(e["id"], e["deadline"]) for e in d]'
# her key plays her seat, in this game and every other
MOVE=$(curl -sf "$API/games/$GAME" -H "Authorization: Bearer $ANN" \
  | get 'json.dumps(d["legal_actions"][0])')
curl -sf "$API/games/$GAME/actions" -H "Authorization: Bearer $ANN" \
  -H 'Content-Type: application/json' -d "$MOVE" | get 'd["to_act"]'
# Bob hands his seat to a bot, publicly (or resigns: POST .../resign, placed last, the
# basic bot plays on); until the first round is scored, the people playing may all
# agree to abort: POST .../abort (DELETE takes the vote back)
curl -sf "$API/games/$GAME/leave" -H "Authorization: Bearer $BOB" \
  -H 'Content-Type: application/json' -d '{"level": "strong"}' | get 'd["seats"][1]["played_by"]'
# the table's chat: seats write, everybody reads (also on the event stream as `message`
# events, and to webhooks that ask for `messages`); the creator (Ann) may hide a message:
# POST .../messages/1/hide erases its text for everybody
curl -sf "$API/games/$GAME/messages" -H "Authorization: Bearer $ANN" \
  -H 'Content-Type: application/json' -d '{"text": "good luck!"}' | get 'd["n"]'
curl -sf "$API/games/$GAME/messages?after=0" | get '[(m["name"], m["text"]) for m in d["messages"]]'
# the lobby: open games with a seat anyone may take
curl -sf "$API/games?status=open&type=ochs-und-esel&has_free_seat=true" | get 'len(d)'
# after the end: POST /games/$GAME/rematch (one new game however often asked, seats
# rotated); profiles and leaderboards
curl -sf "$API/players/me" -H "Authorization: Bearer $ANN" | get 'd["games"]'
curl -sf "$API/ratings/ochs-und-esel?page=1" | get 'len(d)'
# a new key: the old one stops working at once
ANN=$(curl -sf -X POST "$API/players/me/keys" -H "Authorization: Bearer $ANN" | get 'd["key"]')
