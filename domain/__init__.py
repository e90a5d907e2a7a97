"""Pure game logic and the event store of donkeypost.

Nothing here imports Flask or RQ: the API (`api/`) and the workers (`workers/`) depend on
this package, never the other way round.
"""
