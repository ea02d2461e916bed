"""Bond O Cones: dice, hidden cone values, BondO rings and battles."""

from boneyard.games.bondo_cones.rules import BondoConesGame, BondoConesState

__all__ = ["BondoConesGame", "BondoConesState"]
