"""Notifications: what reaches a player who is not at the table, by e-mail or Web Push.

- `prefs` — a player's choices (channels, kinds, digest window, quiet hours in their time
  zone) and what they say about a moment;
- `digest` — what one round of the notifier sends a player, from their stream's new
  entries (pure: which entries, by which channel, and when to look again);
- `mail` — the e-mail a digest becomes (plain text and HTML, one-click unsubscribe);
- `links` — the signed links of those e-mails (confirm an address, unsubscribe);
- `push` — Web Push subscriptions and the payload of a push.

The notifier worker (`workers.notify`) reads the players' streams and sends.
"""
