"""Player ratings: Glicko-2 per player and game type, updated once per finished game."""
