"""The engine contract, the registry, board geometry and errors, shared by every game."""
