"""Games: create, list, join, view, play, cancel, rematch, and read the log (plain,
long-polled, replayed). One blueprint (the document's `games` tag); each resource is a
module of its own that adds its view to it:

- `collection` — `/games`: create one, list them;
- `game` — `/games/{id}`: the game as the caller may see it;
- `seats` — take a seat (`/players`), come back to an away seat (`/back`);
- `actions` — play one action;
- `lifecycle` — cancel a game before it starts, ask for a rematch after it ends;
- `log` — the log after a seq (long-polled), the view after any event, the NDJSON export.
"""

from __future__ import annotations

from api.contract.operations import ContractBlueprint
from api.event_hub import EventHub
from api.routes.games import actions, collection, game, lifecycle, log, seats
from domain.service import GameService


def make_blueprint(service: GameService, hub: EventHub) -> ContractBlueprint:
    blp = ContractBlueprint("games", __name__, url_prefix="/games",
                            description="Create, join and play games; read their logs")
    collection.register(blp, service)
    game.register(blp, service)
    seats.register(blp, service)
    lifecycle.register(blp, service)
    actions.register(blp, service)
    log.register(blp, service, hub)
    return blp
