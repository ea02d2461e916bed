"""Bon-Bon: push-your-luck chocolates for 2 to 6 players (``load_game("bonbon")``)."""

from boneyard.games.bonbon import rules
from boneyard.games.bonbon.heuristic import bust_probability

__all__ = ["bust_probability", "rules"]
