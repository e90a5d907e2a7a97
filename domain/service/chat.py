"""The table's chat: a seat writes, everybody reads, the creator hides.

A message is kept in the game's chat (`domain.chat`; a log of its own: the game's log stays
the rules' log) with the writer's seat, name and player, and told to the hooks (the
webhooks that asked for `messages`; the streams hear of it from the store's notice) and,
as `message` entries, to the streams of the other players at the table. Any
seat may write while it holds its seat, before the start and after the end too (not in a
cancelled game). The game's creator — the creator token of `POST /games`, or the key of the
player who created it — may hide a message: the hiding is an entry of the chat, and the
text is erased. Hiding twice is fine.
"""

from __future__ import annotations

import msgspec

from domain.chat import HIDDEN, MAX_MESSAGES, MESSAGE, ChatEntry, clean_text
from domain.errors import ChatFull, GameOver, NotAllowed, UnknownMessage
from domain.players.notes import chat_notes
from domain.service.deps import Deps
from domain.service.loading import load
from domain.service.lobby import is_creators
from domain.table import Table


def post(deps: Deps, table: Table, seat: int, text: str) -> ChatEntry:
    """Seat `seat` of `table` (as the caller read it) says `text`."""
    if table.status == "cancelled":
        raise GameOver("the game was cancelled", code="game_cancelled")
    mine = table.seats[seat]
    entry = ChatEntry(type=MESSAGE, at=deps.clock(), seat=seat, name=mine.name,
                      player=mine.player, text=clean_text(text))
    n = deps.store.post_message(table.id, entry, MAX_MESSAGES)
    if n is None:
        raise ChatFull(f"this game's chat holds {MAX_MESSAGES} messages: no more")
    posted = msgspec.structs.replace(entry, n=n)
    told = chat_notes(table, [posted])
    if told:
        deps.players.place([], told)
    deps.hooks.after_chat(table, [posted])
    return posted


def hide(deps: Deps, game_id: str, n: int, credential: str) -> ChatEntry:
    """Hide message `n` (its creator's credential only); the message, hidden."""
    table, _ = load(deps, game_id)
    if not is_creators(deps, table, credential):
        raise NotAllowed("only the game's creator may hide a message")
    hiding = ChatEntry(type=HIDDEN, at=deps.clock(), message=n)
    # (A chat never numbers past its messages and their hidings.)
    found = deps.store.hide_message(game_id, n, hiding) if 0 < n <= 2 * MAX_MESSAGES else None
    if found is None:
        raise UnknownMessage(f"no message {n} in this game's chat")
    if found:
        deps.hooks.after_chat(table, [msgspec.structs.replace(hiding, n=found)])
    return deps.store.read_chat(game_id, after=n - 1, count=1)[0]


def read(deps: Deps, game_id: str, after: int, limit: int) -> list[ChatEntry]:
    """The chat's entries after entry `after`, at most `limit`."""
    load(deps, game_id)  # an unknown game is not an empty chat
    return deps.store.read_chat(game_id, after, limit)

