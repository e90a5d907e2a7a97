"""RQ workers: bot turns, move deadlines, away seats."""
