"""The archive of finished games: each kept as its inputs, expanded on demand into the
identical log (`docs/archive.md`).

- `record` — the record (steps, seed, clock readings, tokens) and its bytes;
- `codec`, `vocabulary` — varints, the mixed-radix choices, compact values;
- `replay` — expanding a record through the service's decide-and-fold path;
- `explain` — finding the steps of a log, and the check that refuses a record that does
  not expand into the stored log byte for byte.
"""
