"""Bon-Bon: push-your-luck chocolates for 2 to 6 players (``load_game("bonbon")``)."""

from boneyard.core.registry import register
from boneyard.core.spec import HARD_SECONDS, GameSpec, Level, Scale
from boneyard.games.bonbon import draw, heuristic, prompt, round_words, rules, tensor
from boneyard.games.bonbon.heuristic import bust_probability

SPEC = register(
    GameSpec(
        game=rules.BonBonGame,
        state=rules.BonBonState,
        drawing=draw,
        words=prompt,
        round_words=round_words,
        heuristic=heuristic,
        tensor=tensor,
        state_tensor=tensor,
        # Rounds are long: rollouts of 30 moves scored hard's wins against random better than 10
        # (19/20 against 18/20; docs/ai.md).
        # The scale: greedy, then ISMCTS with more iterations a level (ai/ratings.json). ISMCTS
        # with 100 iterations (25 at the calibration's quarter budget) lost to greedy 4-6: four
        # levels of search. Above hard, the same ISMCTS in Rust at hard's 1 s (``native_ismcts``,
        # bound by its time, not its iterations), which beat hard 81-0-21 over 102 games with two
        # players, 0.794 [0.706, 0.861]; above it the ``expert``: ISMCTS-like search with the
        # shipped network's priors and values, which beat hard 19-0-1 and the native ISMCTS
        # 9-0-1 at 1 s a move (docs/ai.md).
        levels=Scale(
            (
                Level("greedy", use_solver=False),
                Level("ismcts", {"iterations": 200, "time_limit": 0.3}),
                Level("ismcts", {"iterations": 1000, "rollout_depth": 30, "time_limit": 0.6}),
                Level(
                    "ismcts",
                    {"iterations": 5000, "rollout_depth": 30, "time_limit": HARD_SECONDS},
                ),
                Level(
                    "native_ismcts",
                    {"iterations": 100_000_000, "rollout_depth": 30, "time_limit": HARD_SECONDS},
                ),
                Level("native_expert", {"time_limit": HARD_SECONDS}, use_solver=False),
            ),
            {"easy": 1, "medium": 2, "hard": 4},
        ),
        web_limits={"max_rounds": 100},
        batch_engine="boneyard.jax.bonbon:BonBonEnv",
    )
)

__all__ = ["SPEC", "bust_probability", "rules"]
