"""The OpenAPI document is enough for a frontend: the two generators frontend authors use
accept it unpatched, and the generated Python client plays a whole game of every type
against a live server with its own models only (no dict is built here). The document is
the one the server serves with every installed game (the test suite's own game
distributions included: a game installed is in the document and the clients); the
committed one is the project's games' part of it (`tests/e2e/test_openapi.py`).

The TypeScript part needs Node: it installs `openapi-typescript` and `typescript` with npm
into a cache folder outside the repository, generates the types and compiles them, with a
file that uses them, under `tsc --strict`. Without Node it is skipped, unless
`DONKEYPOST_REQUIRE_NODE` is set (CI sets it), which makes a missing Node a failure.
"""

from __future__ import annotations

import importlib
import os
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from api.contract.games import pascal
from api.rate_limits import RateLimits
from domain.connection import connect
from domain.service import NoHooks
from donkeypost.bootstrap import bootstrap, web_app
from donkeypost.cli import openapi_document
from donkeypost.settings import Settings
from tests.support.games import installed_games
from tests.support.live import serving

GENERATOR_CONFIG = "package_name_override: donkeypost_client\npost_hooks: []\n"
NODE_TOOLS = {"openapi-typescript": "7.13.0", "typescript": "5.9.3"}
NODE_CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / \
    "donkeypost" / ("node-tools-" + "-".join(NODE_TOOLS.values()))


@pytest.fixture(scope="module")
def document(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The document the server serves with every installed game, as a file."""
    path = tmp_path_factory.mktemp("openapi") / "openapi.json"
    path.write_text(openapi_document(all_games=True))
    return path


@pytest.fixture(scope="module")
def client_package(tmp_path_factory: pytest.TempPathFactory, document: Path) -> Iterator[Any]:
    """The Python client generated from the document, imported."""
    out = tmp_path_factory.mktemp("python-client")
    config = out / "config.yaml"
    config.write_text(GENERATOR_CONFIG)
    generator = Path(sys.executable).with_name("openapi-python-client")
    run = subprocess.run([str(generator), "generate", "--path", str(document),
                          "--output-path", str(out / "client"), "--config", str(config)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    # The generator reports what it had to leave out as warnings. The only one allowed:
    # it does not parse NDJSON, so the log export (a file to save) comes back as bytes.
    warnings = [w for w in re.split(r"\n(?=WARNING)", run.stdout + run.stderr)
                if w.startswith("WARNING")]
    assert all("GET /games/{game_id}/log" in w and "application/x-ndjson" in w
               for w in warnings), run.stdout + run.stderr
    assert len(warnings) <= 1, run.stdout + run.stderr
    sys.path.insert(0, str(out / "client"))
    try:
        yield importlib.import_module("donkeypost_client")
    finally:
        sys.path.remove(str(out / "client"))
        for name in [m for m in sys.modules if m.split(".")[0] == "donkeypost_client"]:
            del sys.modules[name]


@pytest.fixture(scope="module")
def base_url(redis_url: str) -> Iterator[str]:
    connect(redis_url).flushdb()
    # The games are played as fast as the client can: a seat's 10 moves a second would be
    # the rate limit's business (429 with Retry-After), not this test's.
    settings = Settings(redis_url=redis_url, rate_limits=RateLimits.off())
    app = web_app(bootstrap(settings, hooks=NoHooks()), {"TESTING": True})
    with serving(app) as url:
        yield url


class Operations:
    """The generated modules of one tag's operations, imported as they are used."""

    def __init__(self, package: str) -> None:
        self.package = package

    def __getattr__(self, name: str) -> Any:
        return importlib.import_module(f"{self.package}.{name}")


# The options that keep a game short (the others play with their defaults).
SHORTER = {"ochs-und-esel": {"rounds": 1}, "crazy-donkey": {"deals": 1},
           "trash": {"max_rounds": 2}}


@pytest.mark.parametrize("game_type", sorted(installed_games()))
def test_the_generated_python_client_plays_a_whole_game(client_package, base_url,
                                                         game_type):
    client = client_package
    models = importlib.import_module("donkeypost_client.models")
    games = Operations("donkeypost_client.api.games")
    game = installed_games()[game_type]
    prefix, players = pascal(game_type), max(game.min_players, 3)
    anyone = client.Client(base_url=base_url, raise_on_unexpected_status=True)

    create = getattr(models, f"Create{prefix}Game")(
        type_=game_type, seats=[models.SeatSpec(kind=models.SeatSpecKind.HUMAN)] * players,
        options=getattr(models, f"{prefix}OptionChoices")(**SHORTER.get(game_type, {})),
        deadline_s=None)
    created = games.create_game.sync(client=anyone, body=create)
    assert isinstance(created, getattr(models, f"{prefix}CreatedGame")), created
    seats: dict[int, Any] = {}
    for i in range(players):
        joined = games.join_game.sync(created.id, client=anyone,
                                      body=models.Join(name=f"player {i}"))
        assert isinstance(joined, models.Joined), joined
        seats[joined.seat] = client.AuthenticatedClient(base_url=base_url, token=joined.token,
                                                        raise_on_unexpected_status=True)
    view_type = getattr(models, f"{prefix}GameView")
    rng = random.Random(game_type)
    for move in range(3000):
        spectator = games.get_game.sync(created.id, client=anyone)
        assert isinstance(spectator, view_type), spectator
        if spectator.status.value == "finished":
            break
        seat = rng.choice(spectator.to_act)
        mine = games.get_game.sync(created.id, client=seats[seat])
        assert isinstance(mine, view_type) and mine.you == seat
        action = rng.choice(mine.legal_actions)  # a generated model, posted unchanged
        acted = games.post_action.sync(created.id, client=seats[seat], body=action,
                                       if_match=f'"{mine.version}"',
                                       idempotency_key=f"move-{move}")
        assert isinstance(acted, models.Acted), acted
        assert acted.version > mine.version
    else:
        raise AssertionError("the game did not end")
    assert spectator.outcome is not None and min(spectator.outcome.places) == 1
    page = games.list_events.sync(created.id, client=seats[0])
    assert isinstance(page, models.EventsPage) and len(page.events) == spectator.version
    kinds = {type(e).__name__ for e in page.events}
    assert {"GameCreatedEvent", "GameFinishedEvent"} <= kinds
    assert kinds & {f"{pascal(kind)}Event" for kind in game.shapes.events}, kinds


# --- TypeScript --------------------------------------------------------------------------
def uses() -> str:
    """TypeScript that uses the generated types: a switch over every installed game's view
    (exhaustive, or `tsc --strict` fails), each case narrowed to that game's table and
    actions; a few things that must not compile."""
    cases = "".join(f"""
    case "{game_id}": {{
      const table: Schemas["{game.shapes.view.__name__}"] | null = view.game;
      const action: Schemas["{pascal(game_id)}Action"] | undefined = view.legal_actions[0];
      return action?.type ?? (table === null ? view.status : "{game_id}");
    }}""" for game_id, game in sorted(installed_games().items()))
    return USES.replace("/* CASES */", cases)


USES = """import type { components } from "./api";
type Schemas = components["schemas"];

// A view is narrowed by its game type to that game's table and actions.
export function describe(view: Schemas["GameView"]): string {
  switch (view.type) {/* CASES */
  }
}

// Some fields of the project's games, read through their types.
export function more(view: Schemas["GameView"]): string {
  if (view.type === "trash") {
    const action: Schemas["TrashAction"] | undefined = view.legal_actions[0];
    return action?.type === "draw" ? action.source : view.game?.pending?.choice ?? "";
  }
  if (view.type === "ochs-und-esel") return String(view.game?.hand?.length);
  if (view.type === "canyon-donkeys") return view.game?.donkey?.effect ?? "";
  if (view.type === "crazy-donkey") return view.options.deals.toFixed(0);
  return view.layout?.zones[0]?.kind ?? "";
}

// An event's data is typed by its type.
export function dealt(event: Schemas["Event"]): number[] {
  return event.type === "round_dealt" && "hand_sizes" in event.data ? event.data.hand_sizes : [];
}

// What must not compile.
declare const oxen: Schemas["OchsUndEselGameView"];
// @ts-expect-error -- an Ochs & Esel view offers no Trash action
export const wrong: Schemas["TrashAction"] = oxen.legal_actions[0];
// @ts-expect-error -- a new game's type is one of the registered games
export const unknown_type: Schemas["CreateGame"] = { type: "chess", seats: [] };
"""


def _node_tools(tmp: Path) -> Path | None:
    """The folder holding openapi-typescript and tsc (installed once), or None."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        if os.environ.get("DONKEYPOST_REQUIRE_NODE"):
            pytest.fail("Node and npm are required here (DONKEYPOST_REQUIRE_NODE is set)")
        pytest.skip("Node is not installed")
    bin_dir = NODE_CACHE / "node_modules" / ".bin"
    if not (bin_dir / "tsc").exists() or not (bin_dir / "openapi-typescript").exists():
        NODE_CACHE.mkdir(parents=True, exist_ok=True)
        (NODE_CACHE / "package.json").write_text('{"private": true}\n')
        run = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--silent",
                              *(f"{name}@{version}" for name, version in NODE_TOOLS.items())],
                             cwd=NODE_CACHE, capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stdout + run.stderr
    return bin_dir


def unknown_positions(typescript: str) -> int:
    """`unknown` types in generated TypeScript, outside comments and the index signature
    openapi-typescript gives every response's headers."""
    code = re.sub(r"/\*\*.*?\*/", "", typescript, flags=re.S)
    code = "\n".join(line for line in code.splitlines()
                     if line.strip() != "[name: string]: unknown;")
    return len(re.findall(r"\bunknown\b", code))


def test_the_typescript_types_compile_strictly_with_nothing_untyped(tmp_path, document):
    tools = _node_tools(tmp_path)
    assert tools is not None
    run = subprocess.run([str(tools / "openapi-typescript"), str(document), "-o",
                          str(tmp_path / "api.ts")], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert unknown_positions((tmp_path / "api.ts").read_text()) == 0
    (tmp_path / "uses.ts").write_text(uses())
    run = subprocess.run([str(tools / "tsc"), "--strict", "--noEmit", "--target", "es2022",
                          "--module", "esnext", "--moduleResolution", "bundler",
                          str(tmp_path / "api.ts"), str(tmp_path / "uses.ts")],
                         capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stdout + run.stderr
