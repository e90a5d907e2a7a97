"""RQ workers: bot turns, move deadlines, away seats (and the arena, bots without HTTP)."""
