"""Webhooks: a seat (or a game's creator) asks to be told about a game at a URL.

- `registration` — who registered what, and the secret that signs their deliveries;
- `triggers` — which notifications an append causes for a registration (pure);
- `signing` — the HMAC-SHA256 signature every delivery carries;
- `targets` — which URLs the server agrees to call;
- `deliveries` — delivery records, their attempts and the retry schedule;
- storage: the `WebhookStore` port of `domain.store` (Redis, or memory for tests).

The RQ jobs that send deliveries live in `workers/webhooks.py`.
"""
