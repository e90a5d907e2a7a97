"""The notifier: turns players' streams into e-mail digests and Web Push, once, by their
preferences, never while they are at the table.

A write to a player's stream also makes the player due (`notify:due`, see
`domain.store.redis_players`). The notifier thread of every worker serving the
`notifications` queue (`GameWorker`, `donkeypost worker --queues notifications`, the
Procfile's `notifier`) takes due players in small batches with a lease
(`NotifyStore.claim`) and does one round for each (`Notifier.round`):

1. a waiting address's confirmation e-mail, once;
2. the stream's entries after the channels' places, planned by `domain.notify.digest`
   with the player's preferences, quiet hours and presence (an event stream open on the
   game or their own stream, a move there in the last minutes);
3. each planned push to every subscription of the player (`PushSender`), then the
   e-mail (`MailServer`), each channel's place saved as soon as its part is sent;
4. the player back in the schedule for the next look (the end of the quiet hours or of
   the digest window, a retry), unless a new entry made them due meanwhile.

Exactly once: an e-mail's place in the stream is saved while the message is with the
mail server but for its final line (`MailServer.send`: a server given no end discards
the message), and the final line is written right after; a push's place once it is sent.
A worker that dies mid-round leaves its lease to expire (`NOTIFY_LEASE_S`, 120 s by
default), after which another worker takes the player again from the saved places: a
message cut short before its place was saved is sent again, one whose place was saved
is not. (Only a death between that write's sending and the final line — the write's
round trip to Redis, a fraction of a millisecond — would lose an e-mail; a push whose
service took it just before a death goes twice.) An
e-mail that fails is tried again with backoff (`MAIL_RETRY_FIRST_S` × 4^n, at most
`MAIL_RETRY_MAX_S`), `MAIL_ATTEMPTS` times, then passed over.

Mail servers and push services get the webhook targets' checks (`TargetPolicy`: public
addresses only, unless the operator allows other networks): a push subscription's
endpoint when it is registered and before each push (sent to the checked address), the
mail server before each connection.
"""

from __future__ import annotations

import functools
import ipaddress
import logging
import re
import smtplib
import socket
import ssl
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import getaddresses, parseaddr
from typing import Any
from urllib.parse import unquote, urlsplit

import httpx
import msgspec

from domain.notify import mail
from domain.notify.digest import (
    RECENT_MOVE_S,
    NotifyState,
    Round,
    earliest,
    plan_round,
)
from domain.notify.links import CONFIRM, CONFIRM_TTL_S, UNSUBSCRIBE, UNSUBSCRIBE_TTL_S, make_token
from domain.notify.records import PlayerHook
from domain.players import inbox
from domain.players.notes import entry_order as order
from domain.service import GameService
from domain.service.loading import stored_envelope
from domain.store.port import NotifyStore
from domain.webhooks.signing import delivery_headers
from domain.webhooks.targets import TargetPolicy, TargetRefused
from workers import webhook_sender
from workers.push import PushSender

log = logging.getLogger(__name__)

THREADS = 8  # players of a batch looked at at once (their rounds wait on the network)
LEASE_S = 120.0  # a round takes a few seconds at most (a mail server's timeouts)
BATCH = 32
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

    def send(self, message: EmailMessage,
             before_the_end: Callable[[], None] | None = None) -> None:
        """Send `message`. `before_the_end` is called once the whole message but its
        final line (the lone dot that ends SMTP's DATA) is with the server: what the
        sender records then is true unless it dies between that record's write and the
        line (the write's answer from Redis, a fraction of a millisecond; a server given
        no end discards the message). Recording
        after the server's answer instead would leave a round trip in which a death
        sends the message twice."""
        parts = urlsplit(self.url)
        host, port = parts.hostname or "", parts.port or SMTP_PORTS[parts.scheme]
        self._check(host, port)
        client: smtplib.SMTP
        if parts.scheme == "smtps":
            client = smtplib.SMTP_SSL(host, port, timeout=self.timeout_s,
                                      context=_tls_context())
        else:
            client = smtplib.SMTP(host, port, timeout=self.timeout_s)
        with client:
            if parts.scheme == "smtp+starttls":
                client.starttls(context=_tls_context())
            if parts.username:
                client.login(unquote(parts.username), unquote(parts.password or ""))
            client.ehlo_or_helo_if_needed()
            _data(client, message, before_the_end)

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


def _data(client: smtplib.SMTP, message: EmailMessage,
          before_the_end: Callable[[], None] | None) -> None:
    """MAIL, RCPT and DATA (RFC 5321) by hand, so that `before_the_end` runs before the
    final dot. The messages are 7-bit (`domain.notify.mail`): no 8BITMIME needed."""
    sender = parseaddr(str(message["From"]))[1]
    recipients = [address for _name, address in getaddresses([str(message["To"])])]
    code, answer = client.mail(sender)
    if code != 250:
        raise smtplib.SMTPSenderRefused(code, answer, sender)
    for recipient in recipients:
        code, answer = client.rcpt(recipient)
        if code not in (250, 251):
            raise smtplib.SMTPRecipientsRefused({recipient: (code, answer)})
    client.putcmd("data")
    code, answer = client.getreply()
    if code != 354:
        raise smtplib.SMTPDataError(code, answer)
    del message["Bcc"]
    raw = message.as_bytes(policy=message.policy.clone(linesep="\r\n"))
    raw = re.sub(rb"(?m)^\.", b"..", raw)  # dot-stuffing
    if not raw.endswith(b"\r\n"):
        raw += b"\r\n"
    client.send(raw)
    if before_the_end is not None:
        before_the_end()
    client.send(b".\r\n")
    code, answer = client.getreply()
    if code != 250:
        raise smtplib.SMTPDataError(code, answer)


@functools.cache
def _tls_context() -> ssl.SSLContext:
    # Loading the CA bundle takes tens of milliseconds: once per process.
    return ssl.create_default_context()


@dataclass
class Notifier:
    """One process's notifier (see the module). `mail` None: e-mail is off (no
    `SMTP_URL`); `push` None: Web Push is off."""

    service: GameService
    store: NotifyStore
    links: mail.Links
    link_secret: Callable[[], bytes]  # (read when first needed: it may be kept in Redis)
    mail: MailServer | None = None
    push: PushSender | None = None
    clock: Callable[[], float] = time.time
    lease_s: float = LEASE_S
    threads: int = THREADS
    hook_targets: TargetPolicy = field(default_factory=TargetPolicy)
    hook_timeout_s: float = 5.0
    _hook_client: httpx.Client = field(default_factory=webhook_sender.new_client)
    _pool: ThreadPoolExecutor | None = None
    _pool_lock: threading.Lock = field(default_factory=threading.Lock)
    # Told of each message by channel (`email`, `confirm`, `push`, `webhook`) and whether
    # it went (the metrics' counters, when they are on).
    on_sent: Callable[[str, bool, int], None] | None = None

    def run_once(self, limit: int = BATCH) -> int:
        """One batch of due players, `threads` at a time; how many were looked at."""
        players, lease = self.store.claim(self.clock(), self.lease_s, limit)
        if len(players) > 1 and self.threads > 1:
            with self._pool_lock:
                if self._pool is None:
                    self._pool = ThreadPoolExecutor(self.threads,
                                                    thread_name_prefix="notifier")
            list(self._pool.map(lambda p: self._one(p, lease), players))
        else:
            for player_id in players:
                self._one(player_id, lease)
        return len(players)

    def _count(self, channel: str, sent: bool, n: int = 1) -> None:
        if self.on_sent is not None and n:
            self.on_sent(channel, sent, n)

    def _one(self, player_id: str, lease: float) -> None:
        next_look: float | None = None
        try:
            next_look = self.round(player_id)
        except Exception:
            log.exception("notifying player %s failed; trying again later", player_id)
            next_look = self.clock() + self.lease_s
        self.store.release(player_id, lease, next_look)

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
        confirm_again: float | None = None
        if record.pending and not record.confirm_sent and self.mail is not None and \
                not self._confirm(player_id, record.pending, now):
            confirm_again = now + MAIL_RETRY_FIRST_S  # (the mail server failed: again soon)
        entries = [e.shown() for e in self.service.players.player_events(
            player_id, earliest(record.state), ENTRIES_PER_ROUND)]
        if not entries:
            return confirm_again
        presence = self.store.presence(player_id, now)

        def skip(entry: dict[str, Any]) -> bool:
            moved = presence.moved.get(entry["game"])
            return "*" in presence.present or entry["game"] in presence.present or (
                moved is not None and now - moved < RECENT_MOVE_S)

        planned = plan_round(record.prefs, record.state, entries, now, skip,
                             email_ready=record.email is not None and self.mail is not None,
                             push_ready=presence.subscriptions > 0 and self.push is not None)
        state = record.state
        if presence.hooks or state.hooks:
            state, retry = self._hooks(player_id, presence.hooks, entries, state, now,
                                       earliest(record.state))
            self.store.save_state(player_id, state)
            planned = msgspec.structs.replace(planned, state=msgspec.structs.replace(
                planned.state, hooks=state.hooks, hook_failures=state.hook_failures))
            if retry is not None:
                planned = msgspec.structs.replace(planned, next_look=min(
                    retry, planned.next_look or retry))
        if planned.push:
            assert self.push is not None
            for entry in planned.push:  # each push's place saved once it is sent
                took, failed = self.push.send_to_player(player_id, entry)
                self._count("push", True, took)
                self._count("push", False, failed)
                if entry is not planned.push[-1]:
                    state = msgspec.structs.replace(state, push_after=entry["id"])
                    self.store.save_state(player_id, state)
        if state.push_after != planned.state.push_after:
            state = msgspec.structs.replace(state, push_after=planned.state.push_after)
            self.store.save_state(player_id, state)
        next_look = planned.next_look
        if planned.email:
            assert record.email is not None
            done = msgspec.structs.replace(planned.state, email_failures=0)
            sent, retry = self._email(player_id, record.email, planned, now,
                                      lambda: self.store.save_state(player_id, done))
            if sent or retry is None:
                state = done
            else:  # (the place saved before the end, if it was, is taken back)
                state = msgspec.structs.replace(state, email_failures=state.email_failures + 1)
                next_look = retry
            self.store.save_state(player_id, state)
        elif state != planned.state:
            self.store.save_state(player_id, msgspec.structs.replace(
                planned.state, email_failures=state.email_failures))
        if len(entries) >= ENTRIES_PER_ROUND:
            return now  # more to read
        return next_look

    def _hooks(self, player_id: str, hooks: list[PlayerHook], entries: list[dict[str, Any]],
               state: NotifyState, now: float, start: str
               ) -> tuple[NotifyState, float | None]:
        """Each player-level webhook gets the entries after its place, one delivery each,
        in order, signed as game webhooks are; a failure stops that hook there until a
        retry (backoff as e-mail's; after `MAIL_ATTEMPTS` the entry is passed over).
        `start`: where this round's `entries` began (a new hook's place until it has one)."""
        places: dict[str, str] = {}
        failures: dict[str, int] = {}
        retry: float | None = None
        for hook in hooks:
            place = state.hooks.get(hook.id)
            failed = state.hook_failures.get(hook.id, 0)
            for entry in entries:
                if place is not None and order(entry["id"]) <= order(place):
                    continue
                if place is None and entry["at"] < hook.created_at:
                    place = entry["id"]  # (a new hook starts with what followed it)
                    continue
                if entry["type"] in hook.kinds and not self._deliver(player_id, hook, entry,
                                                                     now):
                    failed += 1
                    if failed < MAIL_ATTEMPTS:
                        wait = min(MAIL_RETRY_FIRST_S * 4 ** (failed - 1), MAIL_RETRY_MAX_S)
                        retry = min(retry or now + wait, now + wait)
                        break
                    log.warning("player webhook %s gave up on entry %s after %s attempts",
                                hook.id, entry["id"], failed)
                failed = 0
                place = entry["id"]
            places[hook.id] = place if place is not None else start  # (where `entries` began)
            if failed:
                failures[hook.id] = failed
        return msgspec.structs.replace(state, hooks=places, hook_failures=failures), retry

    def _deliver(self, player_id: str, hook: PlayerHook, entry: dict[str, Any],
                 now: float) -> bool:
        delivery_id = f"pdl_{hook.id[-8:]}_{entry['id']}"  # the same for every attempt
        body = msgspec.json.encode({"id": delivery_id, "type": entry["type"],
                                    "player": player_id, "hook": hook.id, "entry": entry})
        try:
            target = self.hook_targets.check(hook.url)
        except TargetRefused as err:
            log.info("player webhook %s refused: %s", hook.id, err.message)
            self._count("webhook", False)
            return False
        answer = webhook_sender.post(target, body, delivery_headers(
            hook.secret, delivery_id, entry["type"], body, now), self.hook_timeout_s,
            client=self._hook_client)
        ok = answer.status_code is not None and 200 <= answer.status_code < 300
        self._count("webhook", ok)
        return ok

    def _email(self, player_id: str, address: str, planned: Round, now: float,
               commit: Callable[[], None]) -> tuple[bool, float | None]:
        """Send the round's e-mail, `commit` run before its end (`MailServer.send`): (sent,
        when to try again; None: give up)."""
        assert self.mail is not None and planned.email is not None
        player = self.service.players.player(player_id)
        name = player.name if player is not None else "player"
        token = make_token(self.link_secret(), UNSUBSCRIBE, player_id, address, now,
                           UNSUBSCRIBE_TTL_S)
        message = mail.digest(self.mail.sender, address, name, self._turns(player_id),
                              planned.email, self.links, token,
                              f"digest-{player_id}-{planned.email[0]['id']}", now)
        try:
            self.mail.send(message, commit)
        except (OSError, smtplib.SMTPException, TargetRefused) as err:
            self._count("email", False)
            failures = self.store.record(player_id).state.email_failures + 1
            if failures >= MAIL_ATTEMPTS:
                log.warning("e-mail to player %s given up after %s attempts: %s",
                            player_id, failures, err)
                return False, None
            wait = min(MAIL_RETRY_FIRST_S * 4 ** (failures - 1), MAIL_RETRY_MAX_S)
            log.info("e-mail to player %s failed (%s): again in %.0f s", player_id, err, wait)
            return False, now + wait
        self._count("email", True)
        return True, None

    def _confirm(self, player_id: str, address: str, now: float) -> bool:
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
            self._count("confirm", False)
            return False
        self.store.confirmation_sent(player_id)
        self._count("confirm", True)
        return True

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
