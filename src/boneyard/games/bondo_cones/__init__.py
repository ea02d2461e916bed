"""Bond O Cones: dice, hidden cone values, BondO rings and battles."""

from boneyard.core.registry import register
from boneyard.core.spec import HARD_SECONDS, GameSpec, Level, Scale
from boneyard.games.bondo_cones import draw, heuristic, prompt, search, tensor
from boneyard.games.bondo_cones.rules import BondoConesGame, BondoConesState

SPEC = register(
    GameSpec(
        game=BondoConesGame,
        state=BondoConesState,
        drawing=draw,
        words=prompt,
        set_up_words=prompt,
        heuristic=heuristic,
        tensor=tensor,
        state_tensor=tensor,
        search=search,
        # ISMCTS and alpha-beta over the rules scored about even with greedy (the rules cost
        # ~1 ms a node). hard plays the game's own three-ply lookahead on a compact model of its
        # observation (search.py, the ``lookahead`` bot; docs/ai.md).
        # The scale: greedy on one and on four resampled worlds, then the lookahead with more
        # time (ai/ratings.json). The dice decide much: four levels, not eight. The top level is
        # the strongest search; a trained ``expert`` takes its place when the game ships one.
        levels=Scale(
            (
                Level("greedy", {"samples": 1}, use_solver=False),
                Level("greedy", {"samples": 4}),
                Level("lookahead", {"time_limit": 0.3}),
                Level("lookahead", {"time_limit": HARD_SECONDS}),
            ),
            {"easy": 1, "medium": 2, "hard": 4},
        ),
        web_limits={"max_turns": 2000},
        batch_engine="boneyard.jax.bondo_cones:BondoConesEnv",
    )
)

__all__ = ["SPEC", "BondoConesGame", "BondoConesState"]
