#!/usr/bin/env bash
# Create a 3-player Ochs & Esel game, take the three seats, play one move, read the log
# and a replayed state. Needs a running server (`donkeypost serve`), curl and python3.
set -euo pipefail
API=${API:-http://127.0.0.1:8000}
get() {  # get 'EXPR': evaluate EXPR on the JSON read from stdin (as d)
  python3 -c 'import json, sys
d = json.load(sys.stdin); r = eval(sys.argv[1])
print(*r) if isinstance(r, tuple) else print(r)' "$1"
}

GAME=$(curl -sf "$API/games" -H 'Content-Type: application/json' -d '{"type": "ochs-und-esel",
  "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]}' | get 'd["id"]')
for name in ann bob cy; do   # each join answers the seat and its secret token (shown once)
  curl -sf "$API/games/$GAME/players" -H 'Content-Type: application/json' \
    -d "{\"name\": \"$name\"}" | get 'd["seat"], d["token"]'
done > tokens.txt
SEAT=$(curl -sf "$API/games/$GAME" | get 'd["to_act"][0]')
TOKEN=$(awk -v s="$SEAT" '$1 == s {print $2}' tokens.txt)
MOVE=$(curl -sf "$API/games/$GAME" -H "Authorization: Bearer $TOKEN" \
  | get 'json.dumps(d["legal_actions"][0])')
echo "seat $SEAT plays $MOVE"
curl -sf "$API/games/$GAME/actions" -H "Authorization: Bearer $TOKEN" \
  -H 'Content-Type: application/json' -H 'Idempotency-Key: first-move' -d "$MOVE"; echo
curl -sf "$API/games/$GAME/log" -H "Authorization: Bearer $TOKEN" | tail -n 2
curl -sf "$API/games/$GAME/states/5" | get '"after event 5:", d["status"], "to act:", d["to_act"]'
