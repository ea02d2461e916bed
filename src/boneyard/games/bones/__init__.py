"""Bones: overlapping dominoes, five in a row (rules in ``rules.py`` and docs/rules/bones.md)."""

from boneyard.games.bones.rules import BonesGame, BonesState

__all__ = ["BonesGame", "BonesState"]
