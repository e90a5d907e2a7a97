#!/usr/bin/env bash
# A first game: create a 3-player Ochs & Esel game, take the three seats, play one move,
# read the log, and see your table as it was right after the deal. Needs a running server
# (`donkeypost serve`, or another one: API=http://host:port), curl and python3. The seats'
# tokens stay in this shell's variables: nothing is written to disk.
set -euo pipefail
API=${API:-http://127.0.0.1:8000}
get() {  # get 'EXPR': evaluate EXPR on the JSON read from stdin (as d)
  python3 -c 'import json, sys
d = json.load(sys.stdin); r = eval(sys.argv[1])
print(*r) if isinstance(r, tuple) else print(r)' "$1"
}

GAME=$(curl -sf "$API/games" -H 'Content-Type: application/json' -d '{"type": "ochs-und-esel",
  "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]}' | get 'd["id"]')
declare -A TOKEN  # seat -> its secret token (each join shows it once)
for name in ann bob cy; do
  read -r seat token < <(curl -sf "$API/games/$GAME/players" -H 'Content-Type: application/json' \
    -d "{\"name\": \"$name\"}" | get 'd["seat"], d["token"]')
  TOKEN[$seat]=$token
done
SEAT=$(curl -sf "$API/games/$GAME" | get 'd["to_act"][0]')  # whose turn is it?
AUTH="Authorization: Bearer ${TOKEN[$SEAT]}"
MOVE=$(curl -sf "$API/games/$GAME" -H "$AUTH" | get 'json.dumps(d["legal_actions"][0])')
echo "seat $SEAT plays $MOVE"
curl -sf "$API/games/$GAME/actions" -H "$AUTH" -H 'Content-Type: application/json' \
  -H 'Idempotency-Key: first-move' -d "$MOVE"; echo
curl -sf "$API/games/$GAME/log" -H "$AUTH" | tail -n 2
# The deal is an event like every play: find it, and replay the table as it was after it.
DEALT=$(curl -sf "$API/games/$GAME/events" -H "$AUTH" \
  | get 'next(e["seq"] for e in d["events"] if e["type"] == "round_dealt")')
curl -sf "$API/games/$GAME/states/$DEALT" -H "$AUTH" \
  | get '"after the deal (event %d), to act:" % d["version"], d["to_act"], "your hand:", d["game"]["hand"]'
