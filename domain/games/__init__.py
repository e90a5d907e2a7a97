"""One module (or small package) per rule family; each game is declared as an entry point
in the project's `pyproject.toml` (`domain.registry` finds them)."""
