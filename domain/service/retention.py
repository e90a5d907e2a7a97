"""Retention: games nobody started are deleted after a while; finished games are kept.

A game still open (`open`: a seat waits for a person) `unstarted_ttl_s` after its creation
(7 days by default) is deleted with everything it holds — its log, snapshot, checkpoints,
tokens, seed, creator and webhook registrations — and its listing entries, the lobby's and
those in its players' inboxes (the players seated or invited). The delete is
atomic against a late join: it only happens if the log is still at the version the sweep
read, else the game is looked at again next time. One sweep handles at most `batch`
games (the oldest first), so its cost is bounded however many games wait; the workers run
one per sweep period (`workers.runner`), `donkeypost gc` runs them by hand.

Games that are over are kept for ever, as archive records once they have been over a while
(`domain.archive`: the log, snapshot, checkpoints, tokens and seed become one record of
the game's inputs, which expands into them byte for byte). Everything else a game produced
expires on its own: idempotency records (a day), webhook deliveries (two weeks), job
results (minutes to a week, see `workers`).
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.players.inbox import InboxMove
from domain.service.loading import stored_envelope
from domain.store.port import EventStore, PlayerStore, WebhookStore

DEFAULT_UNSTARTED_TTL_S = 7 * 24 * 3600.0
DEFAULT_BATCH = 500


@dataclass(frozen=True)
class RetentionPolicy:
    unstarted_ttl_s: float = DEFAULT_UNSTARTED_TTL_S
    batch: int = DEFAULT_BATCH  # games looked at per sweep


@dataclass
class Swept:
    looked_at: int = 0
    deleted: int = 0  # never started, now gone
    relisted: int = 0  # listed as open although started: the listing was corrected
    raced: int = 0  # changed while the sweep looked: looked at again next time


def sweep_unstarted(store: EventStore, webhooks: WebhookStore, policy: RetentionPolicy,
                    now: float, players: PlayerStore | None = None) -> Swept:
    """Delete up to `policy.batch` games that were never started within their time (and
    take them out of their players' inboxes, given `players`)."""
    swept = Swept()
    ids = store.listed_before("open", now - policy.unstarted_ttl_s, policy.batch)
    stored = store.snapshots(ids)
    for game_id, found in zip(ids, stored, strict=True):
        swept.looked_at += 1
        if found is None:  # gone already (a sweep stopped between the game and its listing)
            store.unlist(game_id, None)
            swept.deleted += 1
            continue
        table = stored_envelope(store, game_id, found)  # its seats and status suffice
        if table.status != "open":
            # Started (or over) but still listed as open: an append whose listing update
            # was lost. Correct the listing rather than delete a game in play.
            store.index(game_id, table.type, table.status, table.created_at,
                        free_seat=table.has_free_seat())
            swept.relisted += 1
            continue
        if not store.delete(game_id, table.version):
            swept.raced += 1  # joined meanwhile: not for deleting now
            continue
        store.unlist(game_id, table.type)  # (a crash before this: the next sweep unlists)
        for reg in webhooks.registrations(game_id):  # (their deliveries expire on their own)
            webhooks.remove(game_id, reg.id)
        if players is not None:
            players.place([InboxMove(p, game_id, None) for p in sorted(table.player_ids())])
        swept.deleted += 1
    return swept
