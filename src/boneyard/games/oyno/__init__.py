"""OYNO: the one-player puzzle (``oyno_puzzle``) and the two-player game (``oyno``).

Both share the board and its notation (``board``), the words for people (``prompt``) and one
module per concern, whose classes gather each game's functions; each game's rules live in its
own module, and each game has its own spec below.
"""

from boneyard.core.registry import register
from boneyard.core.spec import HARD_SECONDS, GameSpec, Level, Scale, Solver
from boneyard.games.oyno import duel, prompt, puzzle
from boneyard.games.oyno.draw import DuelDrawing, PuzzleDrawing
from boneyard.games.oyno.heuristic import DuelHeuristic, PuzzleHeuristic
from boneyard.games.oyno.ladder import LADDER
from boneyard.games.oyno.tensor import DuelTensor, PuzzleTensor

PUZZLE_SPEC = register(
    GameSpec(
        game=puzzle.OynoPuzzle,
        state=puzzle.PuzzleState,
        drawing=PuzzleDrawing(),
        words=prompt,
        heuristic=PuzzleHeuristic(),
        tensor=PuzzleTensor(),
        state_tensor=PuzzleTensor(),
        # The solver answers every solvable deal; greedy covers anything it cannot.
        # Two levels: greedy alone, and the exact solver where it answers (greedy beyond it).
        levels=Scale(
            (Level("greedy", use_solver=False), Level("greedy")),
            {"easy": 1, "medium": 2, "hard": 2},
        ),
        # Dealing a set-up of difficulty K solves up to 20,000 set-ups exactly: K stays small.
        web_limits={"size": 15, "bones": 60, "max_moves": 1000, "difficulty": 8},
        solver=Solver(
            "boneyard.solvers.oyno_puzzle",
            solves_from_start=True,
            analysis="boneyard.solvers.oyno_analysis",
        ),
        batch_engine="boneyard.jax.oyno:OynoPuzzleEnv",
        ladder=LADDER,
    )
)

DUEL_SPEC = register(
    GameSpec(
        game=duel.Oyno,
        state=duel.DuelState,
        drawing=DuelDrawing(),
        words=prompt,
        heuristic=DuelHeuristic(),
        tensor=DuelTensor(),
        state_tensor=DuelTensor(),
        # Exact solutions of the small duels (solvers/oyno_duel.py) show perfect play cannot beat
        # greedy there at all, so hard stays alpha-beta (it beats random; docs/ai.md).
        # Three levels: in the arena alpha-beta to depth 3, or for 0.5 s, drew most games with
        # depth 2 and won none more (10 games each at a quarter budget; docs/ai.md).
        levels=Scale(
            (
                Level("greedy", use_solver=False),
                Level("alphabeta", {"max_depth": 2, "time_limit": 0.3}),
                Level("alphabeta", {"time_limit": HARD_SECONDS}),
            ),
            {"easy": 1, "medium": 2, "hard": 3},
        ),
        # One game holds its board's move tables: ~4 MB at 15x15 against ~30 MB at 25x25.
        web_limits={"size": 15, "bones_per_player": 60, "max_moves": 1000},
        solver=Solver("boneyard.solvers.oyno_duel"),  # small duels only (3x3; 5x5 with one bone)
        batch_engine="boneyard.jax.oyno:OynoEnv",
    )
)

__all__ = ["DUEL_SPEC", "PUZZLE_SPEC", "duel", "puzzle"]
