"""Bones: overlapping dominoes, five in a row (rules in ``rules.py`` and docs/rules/bones.md)."""

from boneyard.core.registry import register
from boneyard.core.spec import SEARCH_LEVELS, GameSpec, SeriesRules
from boneyard.games.bones import draw, heuristic, prompt, tensor
from boneyard.games.bones.rules import BonesGame, BonesState

SPEC = register(
    GameSpec(
        game=BonesGame,
        state=BonesState,
        drawing=draw,
        words=prompt,
        heuristic=heuristic,
        tensor=tensor,
        state_tensor=tensor,
        action_mask=tensor,
        levels=SEARCH_LEVELS,
        web_limits={"width": 16, "height": 16, "pieces": 100},
        batch_engine="boneyard.jax.bones:BonesEnv",
        # bones.txt: colours are drawn for the first game, the loser starts the next
        series=SeriesRules(loser_starts=True, random_first_seats=True),
    )
)

__all__ = ["SPEC", "BonesGame", "BonesState"]
