"""Players: one identity across games.

- `names` — what a name may hold, and the key under which two names are the same;
- `credentials` — the player key (`pk.<id>.<secret>`), kept only as its sha256;
- `records` — the player as stored and shown;
- `inbox` — where a game stands in each of its players' inboxes, and the inbox entry.
"""
