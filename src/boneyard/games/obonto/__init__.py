"""Obonto: lion, zebra and camel on a board that darkens behind them (see docs/rules/obonto.md)."""

from boneyard.core.registry import register
from boneyard.core.spec import HARD_SECONDS, GameSpec, Level, Scale, SeriesRules, Solver
from boneyard.games.obonto import draw, heuristic, prompt, tensor
from boneyard.games.obonto.rules import ObontoGame, ObontoState

SPEC = register(
    GameSpec(
        game=ObontoGame,
        state=ObontoState,
        drawing=draw,
        words=prompt,
        heuristic=heuristic,
        tensor=tensor,
        state_tensor=tensor,
        # Short random rollouts judged by the mobility heuristic beat alpha-beta over the same
        # heuristic, which lost to greedy at depth 2 (arena, docs/ai.md). medium is hard's bot
        # with a third of its time: capped at 300 iterations it lost to greedy (easy).
        # The scale: greedy, then hard's search with more iterations a level (arena ratings in
        # ai/ratings.json; benchmarks/levels.py). The top level is the strongest search; a
        # trained ``expert`` takes its place when the game ships a network.
        levels=Scale(
            (
                Level("greedy", use_solver=False),
                Level("mcts", {"iterations": 1000, "rollout_depth": 6, "time_limit": 0.3}),
                Level("mcts", {"iterations": 2000, "rollout_depth": 6, "time_limit": 0.3}),
                Level("mcts", {"iterations": 5000, "rollout_depth": 6, "time_limit": 0.6}),
                Level(
                    "mcts", {"iterations": 20000, "rollout_depth": 6, "time_limit": HARD_SECONDS}
                ),
                # Above hard, the native alpha-beta at hard's time: 108-0-0 against it
                # (docs/ai.md, "Native searches").
                Level("native_alphabeta", {"time_limit": HARD_SECONDS}),
            ),
            {"easy": 1, "medium": 3, "hard": 5},
        ),
        web_limits={"games": 20, "target": 1000},
        solver=Solver("boneyard.solvers.obonto_solo"),
        batch_engine="boneyard.jax.obonto:ObontoEnv",
        # obonto.txt: the winner always makes the last move; the loser of a game moves first in
        # the next; a match goes on with the animals where they stand.
        series=SeriesRules(loser_starts=True, can_be_drawn=False, next_game=ObontoState.next_match),
    )
)

__all__ = ["SPEC", "ObontoGame", "ObontoState"]
