"""`python -m bench.arena`, from the root of a checkout (the arena is not installed)."""

from bench.arena.cli import main

raise SystemExit(main())
