"""Benchmarks: `python -m bench` measures the speed targets and prints a table.

Sections, each in its own module:
- `http`: moves over HTTP (gunicorn + the app + Redis, and a separate load generator) and
  the ceiling of the stack (a trivial flask-smorest GET);
- `logs`: loading a game's state and serving it at growing log lengths, and replay;
- `engine`: complete random-bot games per second, in process;
- `bots`: each level's move time in each game;
- `timers`: the workers' hooks after a move (superseding and arming the deadline timers),
  against the move; a timer's memory; a starting worker's rebuild.

Figures vary from run to run on a shared machine: compare ratios within one run.
"""
