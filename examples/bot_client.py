#!/usr/bin/env python3
"""A bot from outside: a bot account that plays every game it sits in from its own event
stream alone (Python's standard library only).

    python3 examples/bot_client.py --api http://127.0.0.1:8000 --name "Random Rita"
    python3 examples/bot_client.py --key pk.…          # an account made before

It registers a bot account (`POST /players` with `"bot": true`; the key is printed once)
unless given a key, then:
1. reads where its event stream is (`GET /players/me/events`: `last`);
2. accepts the invitations and plays the turns that were waiting before it started
   (`GET /players/me/games?status=open` and `?status=active&my_turn=true`);
3. follows `GET /players/me/events/stream?after=<last>`: on `invited` it takes the seat,
   on `my_turn` (and `game_started`) it plays; after a dropped connection it resumes with
   `Last-Event-ID`.

To play, it reads its view of the game and posts one of the view's `legal_actions`,
chosen at random (the server's answer carries the new view: while the bot is still to act,
it plays again without another read). A move that meets a newer version (412, 409) is
read again.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any


class Bot:
    def __init__(self, api: str, key: str, rng: random.Random | None = None,
                 log: bool = True) -> None:
        self.api = api.rstrip("/")
        self.key = key
        self.rng = rng or random.Random()
        self.log = log
        self.moves = 0

    # --- HTTP --------------------------------------------------------------------------
    def call(self, method: str, path: str, body: Any = None,
             headers: dict[str, str] | None = None) -> tuple[int, Any]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.api + path, data=data, method=method, headers={
            "Authorization": f"Bearer {self.key}", "Accept": "application/json",
            **({"Content-Type": "application/json"} if data is not None else {}),
            **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                raw = answer.read()
                return answer.status, json.loads(raw) if raw else None
        except urllib.error.HTTPError as err:
            raw = err.read()
            return err.code, json.loads(raw) if raw else None

    def say(self, text: str) -> None:
        if self.log:
            print(text, flush=True)

    # --- playing -----------------------------------------------------------------------
    def play(self, game_id: str) -> None:
        """Play while the game waits for this bot (one read, then the answers' views)."""
        status, view = self.call("GET", f"/games/{game_id}")
        while status == 200 and view and view.get("legal_actions"):
            action = self.rng.choice(view["legal_actions"])
            status, answer = self.call("POST", f"/games/{game_id}/actions", action,
                                       {"If-Match": f'"{view["version"]}"'})
            if status == 200:
                self.moves += 1
                view = answer.get("view")
                continue
            if status in (409, 412):  # someone moved first: read again
                status, view = self.call("GET", f"/games/{game_id}")
                continue
            self.say(f"game {game_id}: {status} {answer}")
            return

    def accept(self, game_id: str) -> None:
        status, answer = self.call("POST", f"/games/{game_id}/players")
        if status == 201:
            self.say(f"took seat {answer['seat']} of game {game_id}")
            self.play(game_id)

    def catch_up(self) -> None:
        """What waited before the stream was opened: invitations, then turns."""
        for status, action in (("open", self.accept), ("active", self.play)):
            page = 1
            while True:
                query = f"?status={status}&page={page}&page_size=100" + \
                    ("&my_turn=true" if status == "active" else "")
                code, entries = self.call("GET", f"/players/me/games{query}")
                if code != 200 or not entries:
                    break
                for entry in entries:
                    if status == "active" or entry["invited"]:
                        action(entry["id"])
                page += 1

    def on(self, event: dict[str, Any]) -> None:
        kind, game_id = event["type"], event["game"]
        if kind == "invited":
            self.accept(game_id)
        elif kind in ("my_turn", "game_started", "seat_taken_over"):
            self.play(game_id)
        elif kind == "game_finished":
            data = event["data"]
            self.say(f"game {game_id} finished: place {data.get('place')}")

    # --- the stream --------------------------------------------------------------------
    def events(self, after: str, stop: threading.Event) -> Iterator[dict[str, Any]]:
        """The stream's events after `after`, reconnecting (with Last-Event-ID) until
        `stop` is set."""
        while not stop.is_set():
            request = urllib.request.Request(
                f"{self.api}/players/me/events/stream", headers={
                    "Authorization": f"Bearer {self.key}", "Accept": "text/event-stream",
                    "Last-Event-ID": after})
            try:
                with urllib.request.urlopen(request, timeout=60) as stream:
                    data = ""
                    for raw in stream:
                        if stop.is_set():
                            return
                        line = raw.decode().rstrip("\r\n")
                        if line.startswith("id:"):
                            after = line[3:].strip()
                        elif line.startswith("data:"):
                            data += line[5:].strip()
                        elif line == "" and data:
                            yield json.loads(data)
                            data = ""
            except (OSError, urllib.error.URLError) as err:
                self.say(f"stream lost ({err}); resuming after {after}")
                stop.wait(1.0)

    def run(self, stop: threading.Event) -> None:
        status, page = self.call("GET", "/players/me/events")
        if status != 200:
            raise SystemExit(f"cannot read the event stream: {status} {page}")
        self.catch_up()
        for event in self.events(page["last"], stop):
            self.on(event)


def register(api: str, name: str) -> str:
    request = urllib.request.Request(f"{api.rstrip('/')}/players", method="POST",
                                     data=json.dumps({"name": name, "bot": True}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        key: str = json.loads(answer.read())["key"]
        return key


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--api", default="http://127.0.0.1:8000")
    parser.add_argument("--key", help="a bot account's key (else one is registered)")
    parser.add_argument("--name", default=f"Random Bot {int(time.time()) % 10000}")
    args = parser.parse_args(argv)
    key = args.key or register(args.api, args.name)
    if not args.key:
        print(f"bot account {args.name!r}: its key (shown once) is {key}", flush=True)
    try:
        Bot(args.api, key).run(threading.Event())
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
