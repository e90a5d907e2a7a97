"""The notifier: turns players' streams into e-mail digests and Web Push, once, by their
preferences, never while they are at the table.

A write to a player's stream also makes the player due (`notify:due`, see
`domain.store.redis_players`). The notifier thread of every worker serving the
`notifications` queue (`GameWorker`, `donkeypost worker --queues notifications`, the
Procfile's `notifier`) takes due players in small batches with a lease
(`RedisNotifyStore.claim`) and does one round for each (`Notifier.round`):

1. a waiting address's confirmation e-mail, once;
2. the stream's entries after the channels' places, planned by `domain.notify.digest`
   with the player's preferences, quiet hours and presence (an event stream open on the
   game or their own stream, a move there in the last minutes);
3. each planned push to every subscription of the player (`PushSender`), then the
   e-mail (`MailServer`), each channel's place saved as soon as its part is sent;
4. the player back in the schedule for the next look (the end of the quiet hours or of
   the digest window, a retry), unless a new entry made them due meanwhile.

Exactly once: a channel's place moves only once its messages are sent, and a worker that
dies mid-round leaves its lease to expire (`NOTIFY_LEASE_S`, 120 s by default), after
which another worker takes the player again from the saved places. A worker killed after
the mail server accepted a message and before the place is saved (one Redis write later)
would send it again, with the same Message-ID. An e-mail that fails is tried again with backoff
(`MAIL_RETRY_FIRST_S` × 4^n, at most `MAIL_RETRY_MAX_S`), `MAIL_ATTEMPTS` times, then
passed over.

Mail servers and push services get the webhook targets' checks (`TargetPolicy`: public
addresses only, unless the operator allows other networks): a push subscription's
endpoint when it is registered and before each push (sent to the checked address), the
mail server before each connection.
"""

from __future__ import annotations

import ipaddress
import logging
import smtplib
import socket
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Any
from urllib.parse import unquote, urlsplit

import msgspec

from domain.notify import mail
from domain.notify.digest import RECENT_MOVE_S, Round, earliest, plan_round
from domain.notify.links import CONFIRM, CONFIRM_TTL_S, UNSUBSCRIBE, UNSUBSCRIBE_TTL_S, make_token
from domain.players import inbox
from domain.service import GameService
from domain.service.loading import stored_envelope
from domain.store.redis_notify import RedisNotifyStore
from domain.webhooks.targets import TargetPolicy, TargetRefused
from workers.push import PushSender

log = logging.getLogger(__name__)

LEASE_S = 120.0  # a round takes a few seconds at most (a mail server's timeouts)
BATCH = 10
LOOK_EVERY_S = 0.25
ENTRIES_PER_ROUND = 500
TURNS_LISTED = 20
MAIL_ATTEMPTS = 8
MAIL_RETRY_FIRST_S = 10.0
MAIL_RETRY_MAX_S = 3600.0
SMTP_PORTS = {"smtp": 25, "smtp+starttls": 587, "smtps": 465}


@dataclass(frozen=True)
class MailServer:
    """`SMTP_URL`: `smtp://` (plain), `smtp+starttls://` (STARTTLS required) or `smtps://`
    (TLS from the start), with `user:password@` if it asks for them; `SMTP_FROM` the
    sender."""

    url: str
    sender: str
    targets: TargetPolicy = field(default_factory=TargetPolicy)
    timeout_s: float = 10.0

    def __post_init__(self) -> None:
        parts = urlsplit(self.url)
        if parts.scheme not in SMTP_PORTS or not parts.hostname:
            raise ValueError("use smtp://, smtp+starttls:// or smtps://host[:port]")

    def send(self, message: EmailMessage) -> None:
        parts = urlsplit(self.url)
        host, port = parts.hostname or "", parts.port or SMTP_PORTS[parts.scheme]
        self._check(host, port)
        context = ssl.create_default_context()
        client: smtplib.SMTP
        if parts.scheme == "smtps":
            client = smtplib.SMTP_SSL(host, port, timeout=self.timeout_s, context=context)
        else:
            client = smtplib.SMTP(host, port, timeout=self.timeout_s)
        with client:
            if parts.scheme == "smtp+starttls":
                client.starttls(context=context)
            if parts.username:
                client.login(unquote(parts.username), unquote(parts.password or ""))
            client.send_message(message)

    def _check(self, host: str, port: int) -> None:
        """Every address of the mail server must be one the policy lets us call."""
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except OSError as err:
            raise TargetRefused(f"the mail server {host} has no address: {err}") from None
        for info in infos:
            refusal = self.targets.refusal(ipaddress.ip_address(info[4][0]))
            if refusal is not None:
                raise TargetRefused(f"the mail server may not be called: {refusal}")


@dataclass
class Notifier:
    """One process's notifier (see the module). `mail` None: e-mail is off (no
    `SMTP_URL`); `push` None: Web Push is off."""

    service: GameService
    store: RedisNotifyStore
    links: mail.Links
    link_secret: Callable[[], bytes]  # (read when first needed: it may be kept in Redis)
    mail: MailServer | None = None
    push: PushSender | None = None
    clock: Callable[[], float] = time.time
    lease_s: float = LEASE_S
    sent: dict[str, int] = field(default_factory=lambda: {"email": 0, "push": 0,
                                                          "confirm": 0})

    def run_once(self, limit: int = BATCH) -> int:
        """One batch of due players; how many were looked at."""
        players, lease = self.store.claim(self.clock(), self.lease_s, limit)
        for player_id in players:
            next_look: float | None = None
            try:
                next_look = self.round(player_id)
            except Exception:
                log.exception("notifying player %s failed; trying again in a minute",
                              player_id)
                next_look = self.clock() + self.lease_s
            self.store.release(player_id, lease, next_look)
        return len(players)

    def run(self, stop: threading.Event) -> None:
        """Batches until `stop` is set, resting `LOOK_EVERY_S` when nobody was due."""
        while not stop.is_set():
            try:
                if self.run_once():
                    continue
            except Exception as err:  # Redis away: the worker says so; try again
                log.warning("the notifier could not look at the due players (%s)",
                            type(err).__name__)
            stop.wait(LOOK_EVERY_S)

    def round(self, player_id: str) -> float | None:
        """One round for one player (see the module); when to look again."""
        now = self.clock()
        record = self.store.record(player_id)
        if record.pending and not record.confirm_sent and self.mail is not None:
            self._confirm(player_id, record.pending, now)
        entries = [e.shown() for e in self.service.players.player_events(
            player_id, earliest(record.state), ENTRIES_PER_ROUND)]
        if not entries:
            return None
        presence = self.store.presence(player_id, now)

        def skip(entry: dict[str, Any]) -> bool:
            moved = presence.moved.get(entry["game"])
            return "*" in presence.present or entry["game"] in presence.present or (
                moved is not None and now - moved < RECENT_MOVE_S)

        planned = plan_round(record.prefs, record.state, entries, now, skip,
                             email_ready=record.email is not None and self.mail is not None,
                             push_ready=presence.subscriptions > 0 and self.push is not None)
        state = record.state
        if planned.push:
            assert self.push is not None
            for entry in planned.push:
                self.sent["push"] += self.push.send_to_player(player_id, entry)
        if state.push_after != planned.state.push_after:
            state = msgspec.structs.replace(state, push_after=planned.state.push_after)
            self.store.save_state(player_id, state)
        next_look = planned.next_look
        if planned.email:
            assert record.email is not None
            sent, retry = self._email(player_id, record.email, planned, now)
            if sent or retry is None:
                state = msgspec.structs.replace(planned.state, email_failures=0)
            else:
                state = msgspec.structs.replace(state, email_failures=state.email_failures + 1)
                next_look = retry
            self.store.save_state(player_id, state)
        elif state != planned.state:
            self.store.save_state(player_id, msgspec.structs.replace(
                planned.state, email_failures=state.email_failures))
        if len(entries) >= ENTRIES_PER_ROUND:
            return now  # more to read
        return next_look

    def _email(self, player_id: str, address: str, planned: Round,
               now: float) -> tuple[bool, float | None]:
        """Send the round's e-mail: (sent, when to try again; None: give up)."""
        assert self.mail is not None and planned.email is not None
        player = self.service.players.player(player_id)
        name = player.name if player is not None else "player"
        token = make_token(self.link_secret(), UNSUBSCRIBE, player_id, address, now,
                           UNSUBSCRIBE_TTL_S)
        message = mail.digest(self.mail.sender, address, name, self._turns(player_id),
                              planned.email, self.links, token,
                              f"digest-{player_id}-{planned.email[0]['id']}", now)
        try:
            self.mail.send(message)
        except (OSError, smtplib.SMTPException, TargetRefused) as err:
            failures = self.store.record(player_id).state.email_failures + 1
            if failures >= MAIL_ATTEMPTS:
                log.warning("e-mail to player %s given up after %s attempts: %s",
                            player_id, failures, err)
                return False, None
            wait = min(MAIL_RETRY_FIRST_S * 4 ** (failures - 1), MAIL_RETRY_MAX_S)
            log.info("e-mail to player %s failed (%s): again in %.0f s", player_id, err, wait)
            return False, now + wait
        self.sent["email"] += 1
        return True, None

    def _confirm(self, player_id: str, address: str, now: float) -> None:
        assert self.mail is not None
        player = self.service.players.player(player_id)
        token = make_token(self.link_secret(), CONFIRM, player_id, address, now, CONFIRM_TTL_S)
        message = mail.confirmation(self.mail.sender, address,
                                    player.name if player else "player",
                                    self.links.confirm(token), f"confirm-{token[-16:]}", now)
        try:
            self.mail.send(message)
        except (OSError, smtplib.SMTPException, TargetRefused) as err:
            log.info("the confirmation e-mail to player %s failed (%s)", player_id, err)
            return
        self.store.confirmation_sent(player_id)
        self.sent["confirm"] += 1

    def _turns(self, player_id: str) -> list[mail.TurnLine]:
        """The games where it is the player's turn, soonest deadline first."""
        low, high = inbox.turn_range(True)
        found = self.service.players.inbox_ids(player_id, "active", 0, TURNS_LISTED, low, high)
        lines: list[mail.TurnLine] = []
        for game_id, stored, score in zip(found.ids, self.service.store.snapshots(found.ids),
                                          found.scores, strict=True):
            if stored is None:
                continue
            table = stored_envelope(self.service.store, game_id, stored)
            _mine, deadline = inbox.turn(inbox.Position("active", score))
            lines.append(mail.TurnLine(game_id, table.type, deadline, tuple(
                s.name or "a bot" for s in table.seats if s.player != player_id)))
        return lines
