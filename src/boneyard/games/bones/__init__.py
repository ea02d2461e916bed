"""Bones: overlapping dominoes, five in a row (rules in ``rules.py`` and docs/rules/bones.md)."""

from boneyard.core.registry import register
from boneyard.core.spec import HARD_SECONDS, GameSpec, Level, Scale, SeriesRules
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
        # The scale: greedy, then alpha-beta deeper a level. Two-core timing: depth 2 ends within
        # 0.3 s and depth 3 rarely within 1 s, so the budgets above depth 2 differ by how much of
        # depth 3 they search: four levels (ai/ratings.json). The top level is the strongest
        # search; a trained ``expert`` takes its place when the game ships a network.
        levels=Scale(
            (
                Level("greedy", use_solver=False),
                Level("alphabeta", {"max_depth": 2, "time_limit": 0.3}),
                Level("alphabeta", {"time_limit": 0.5}),
                Level("alphabeta", {"time_limit": HARD_SECONDS}),
                # Above hard, the same search in Rust at hard's time, a move that brings back a
                # position the game has seen played only when clearly best (the plain search
                # walks into cycles that end in draws): 82-33-5 against hard over 120 games,
                # 0.821 [0.743, 0.879], where the plain search scored 0.760 [0.668, 0.833]
                # (docs/ai.md, "Native searches"). A game stored at level 5 plays this one.
                Level("native_alphabeta", {"time_limit": HARD_SECONDS, "avoid_repeats": True}),
            ),
            {"easy": 1, "medium": 2, "hard": 4},
        ),
        web_limits={"width": 16, "height": 16, "pieces": 100},
        batch_engine="boneyard.jax.bones:BonesEnv",
        # bones.txt: colours are drawn for the first game, the loser starts the next
        series=SeriesRules(loser_starts=True, random_first_seats=True),
    )
)

__all__ = ["SPEC", "BonesGame", "BonesState"]
