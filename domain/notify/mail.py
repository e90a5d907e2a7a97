"""The e-mails: a digest (what happened, and every game where it is your turn) and the
message that confirms an address. Plain text and HTML parts; every digest carries
`List-Unsubscribe` (a URL) and `List-Unsubscribe-Post: List-Unsubscribe=One-Click`
(RFC 8058: a POST to that URL unsubscribes at once; a GET only shows a page, so a mail
scanner following links unsubscribes nobody). Each link to a game opens its table.
"""

from __future__ import annotations

import datetime as dt
import html
from collections.abc import Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import format_datetime
from typing import Any


@dataclass(frozen=True)
class TurnLine:
    """A game where it is the player's turn, as the digest lists it."""

    game: str
    game_type: str
    deadline: float | None
    opponents: tuple[str, ...]


@dataclass(frozen=True)
class Links:
    base: str  # the server's public URL

    def table(self, game_id: str) -> str:
        return f"{self.base}/play/#/game/{game_id}"

    def unsubscribe(self, token: str) -> str:
        return f"{self.base}/players/email/unsubscribe?token={token}"

    def confirm(self, token: str) -> str:
        return f"{self.base}/players/email/confirm?token={token}"


_NEWS = {
    "invited": "You are invited to a game of {type}",
    "game_started": "A game of {type} has started",
    "game_finished": "Your game of {type} is over: place {place}{rating}",
    "message": "{name} wrote at your table of {type}",
    "seat_taken_over": "Your time ran out at a game of {type}: a bot played for you",
    "deadline_soon": "Your time at a game of {type} runs out {deadline}",
    "my_turn": "It is your turn at a game of {type}",
}


def news_line(entry: dict[str, Any]) -> str:
    data = entry.get("data") or {}
    rating = data.get("rating")
    return _NEWS.get(entry["type"], entry["type"]).format(
        type=entry["game_type"], place=data.get("place"), name=data.get("name") or "someone",
        deadline=_when(data.get("deadline")),
        rating=f", rating {rating['after']:.0f} ({rating['delta']:+.0f})" if rating else "")


def digest(sender: str, to: str, name: str, turns: Sequence[TurnLine],
           news: Sequence[dict[str, Any]], links: Links, unsubscribe_token: str,
           message_key: str, now: float) -> EmailMessage:
    """The digest e-mail; `message_key` makes its Message-ID (a resend is the same mail)."""
    subject = (f"Your turn in {len(turns)} game{'s' if len(turns) != 1 else ''}"
               if turns else news_line(news[0]) if news else "donkeypost")
    unsubscribe = links.unsubscribe(unsubscribe_token)
    text = [f"Hello {name},", ""]
    parts = [f"<p>Hello {html.escape(name)},</p>"]
    if turns:
        text.append("It is your turn in:")
        parts.append("<p>It is your turn in:</p><ul>")
        for t in turns:
            against = f" against {', '.join(t.opponents)}" if t.opponents else ""
            due = f" (before {_when(t.deadline)})" if t.deadline else ""
            text.append(f"- {t.game_type}{against}{due}: {links.table(t.game)}")
            parts.append(f'<li><a href="{html.escape(links.table(t.game))}">'
                         f"{html.escape(t.game_type)}{html.escape(against)}</a>"
                         f"{html.escape(due)}</li>")
        parts.append("</ul>")
        text.append("")
    others = [e for e in news if e["type"] != "my_turn"]
    if others:
        text.append("Since the last message:")
        parts.append("<p>Since the last message:</p><ul>")
        for e in others:
            line = news_line(e)
            text.append(f"- {line}: {links.table(e['game'])}")
            parts.append(f'<li><a href="{html.escape(links.table(e["game"]))}">'
                         f"{html.escape(line)}</a></li>")
        parts.append("</ul>")
        text.append("")
    text += ["--", f"No more e-mails: {unsubscribe}"]
    parts.append(f'<p style="font-size:small"><a href="{html.escape(unsubscribe)}">'
                 "No more e-mails</a></p>")
    msg = _message(sender, to, subject, "\n".join(text), "\n".join(parts), message_key, now)
    msg["List-Unsubscribe"] = f"<{unsubscribe}>"
    msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    return msg


def confirmation(sender: str, to: str, name: str, link: str, message_key: str,
                 now: float) -> EmailMessage:
    text = (f"Hello {name},\n\nOpen this link to receive donkeypost's e-mails at this "
            f"address:\n{link}\n\nIf you did not ask for this, ignore this message: "
            "nothing will be sent to you.\n")
    body = (f"<p>Hello {html.escape(name)},</p><p><a href=\"{html.escape(link)}\">Confirm "
            "this address</a> to receive donkeypost's e-mails here.</p><p>If you did not "
            "ask for this, ignore this message: nothing will be sent to you.</p>")
    return _message(sender, to, "Confirm your address for donkeypost", text, body,
                    message_key, now)


def _message(sender: str, to: str, subject: str, text: str, body: str, message_key: str,
             now: float) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = format_datetime(dt.datetime.fromtimestamp(now, dt.UTC))
    domain = sender.rpartition("@")[2].strip(">") or "donkeypost.invalid"
    msg["Message-ID"] = f"<{message_key}@{domain}>"
    msg["Auto-Submitted"] = "auto-generated"
    msg.set_content(text, cte="quoted-printable")
    msg.add_alternative(f"<!doctype html><html><body>{body}</body></html>", subtype="html",
                        cte="quoted-printable")
    return msg


def _when(at: float | None) -> str:
    if at is None:
        return "soon"
    return dt.datetime.fromtimestamp(at, dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
