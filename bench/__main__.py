"""`python -m bench`, from the root of a checkout (the benchmarks are not installed)."""

from bench.cli import main

raise SystemExit(main())
