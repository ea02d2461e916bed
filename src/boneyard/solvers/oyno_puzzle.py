"""Optimal solver of the OYNO puzzle: the fewest moves that make every bone up.

>>> import boneyard
>>> from boneyard.solvers import oyno_puzzle
>>> game = boneyard.load_game("oyno_puzzle", start="U.D/.o./...")
>>> state = game.new_initial_state()
>>> len(oyno_puzzle.solve(state))
1

The solver reads a state only through the engine contract: ``observation`` (the board size and
the position string) and ``string_to_action``. The search itself is
:func:`boneyard.games.oyno.search.solve_masks`: a breadth-first search forward from the position
over numpy arrays of bit masks, with a one-move finish test instead of the last expansion (see that
module). A ``None`` answer is a proof: the search exhausted every position reachable from this one.
Boards larger than 5x5 (whose two masks no longer fit one 64-bit key) use a plain breadth-first
search in Python instead: exact, but slow for many bones.
"""

from __future__ import annotations

from boneyard.core.errors import BoneyardError
from boneyard.core.game import State
from boneyard.games.oyno.board import board
from boneyard.games.oyno.puzzle import parse_puzzle_position
from boneyard.games.oyno.search import SearchLimitError, apply_move, bfs_masks, solve_masks

Move = tuple[int, int]


def _masks(state: State) -> tuple[int, int, int]:
    if state.game.name != "oyno_puzzle":
        raise BoneyardError(
            f"the OYNO puzzle solver solves oyno_puzzle states, not {state.game.name}"
        )
    if state.is_chance_node():
        raise BoneyardError("the set-up is still being dealt: deal it before solving")
    observation = state.observation(None)
    return parse_puzzle_position(observation["position"])


def solve_position(position: str) -> list[str] | None:
    """Fewest moves (``['b2-d4', ...]``) that solve a position in notation, or None."""
    size, occupied, up = parse_puzzle_position(position)
    moves = solve_masks(size, occupied, up)
    if moves is None:
        return None
    name = board(size).name
    return [f"{name(a)}-{name(b)}" for a, b in moves]


def solve(state: State) -> list[int] | None:
    """The fewest-move action list from ``state``, or None if it cannot be solved.

    A solved (terminal) state gives ``[]``. The moves are optimal; the game's ``max_moves`` cap
    is not considered (optimal lengths are far below it).
    """
    size, occupied, up = _masks(state)
    moves = solve_masks(size, occupied, up)
    if moves is None:
        return None
    name = board(size).name
    actions = []
    probe = state.clone()
    for a, b in moves:
        action = probe.string_to_action(f"{name(a)}-{name(b)}")
        actions.append(action)
        if not probe.is_terminal():
            probe.apply_action(action)
    return actions


BOT_POSITION_LIMIT = 2_000_000
"""Positions one search level may hold when a bot asks (beyond it the bot gets no answer)."""


def best_action(state: State) -> int | None:
    """The first move of an optimal solution, or None.

    None: solved, unsolvable, not a player turn, or a search too large for a bot's move (a board
    larger than 5x5 with a distant solution, or very many bones); bots then fall back to their
    own search.
    """
    if state.is_terminal() or state.is_chance_node():
        return None
    size, occupied, up = _masks(state)
    try:
        if size > 5:
            moves = bfs_masks(size, occupied, up, max_positions=BOT_POSITION_LIMIT)
        else:
            moves = solve_masks(size, occupied, up, max_positions=BOT_POSITION_LIMIT)
    except SearchLimitError:
        return None
    if not moves:
        return None
    name = board(size).name
    a, b = moves[0]
    return state.string_to_action(f"{name(a)}-{name(b)}")


def replay(size: int, occupied: int, up: int, moves: list[Move]) -> tuple[int, int]:
    """The masks after playing ``moves`` (for checking solutions)."""
    for a, b in moves:
        occupied, up = apply_move(size, occupied, up, a, b)
    return occupied, up
