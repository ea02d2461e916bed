"""The optimal OYNO puzzle solver agrees with a plain breadth-first search."""

from __future__ import annotations

import itertools
import random

import pytest
from tests.solvers.oyno_reference import reference_distances

import boneyard
from boneyard.games.oyno.board import board
from boneyard.games.oyno.generator import random_setup
from boneyard.games.oyno.puzzle import format_puzzle_position
from boneyard.games.oyno.search import apply_move, bfs_masks, moves_from, solve_masks
from boneyard.solvers import oyno_puzzle


def all_positions(size: int, bones: int) -> list[tuple[int, int]]:
    geometry = board(size)
    found = []
    for cells in itertools.combinations(geometry.resting, bones):
        occupied = sum(1 << c for c in cells)
        for sides in range(1 << bones):
            up = sum(1 << cells[j] for j in range(bones) if (sides >> j) & 1)
            found.append((occupied, up))
    return found


def test_the_move_graph_is_undirected() -> None:
    rng = random.Random(5)
    for _ in range(200):
        occupied, up = random_setup(5, 8, rng)
        for start, end in moves_from(5, occupied, up):
            after = apply_move(5, occupied, up, start, end)
            assert (end, start) in moves_from(5, *after)
            assert apply_move(5, *after, end, start) == (occupied, up)


@pytest.mark.parametrize("bones", range(1, 8))
def test_solver_agrees_with_bfs_on_every_3x3_setup(bones: int) -> None:
    reference = reference_distances(3, bones)
    for occupied, up in all_positions(3, bones):
        moves = solve_masks(3, occupied, up)
        expected = reference.get((occupied, up))
        if expected is None:
            assert moves is None, format_puzzle_position(3, occupied, up)
            continue
        assert moves is not None and len(moves) == expected, format_puzzle_position(3, occupied, up)
        after = (occupied, up)
        for move in moves:
            assert move in moves_from(3, *after)
            after = apply_move(3, *after, *move)
        assert after[0] == after[1]


def test_solver_agrees_with_bfs_on_random_5x5_setups() -> None:
    rng = random.Random(11)
    for bones in (3, 4, 5):
        for _ in range(6):
            occupied, up = random_setup(5, bones, rng)
            fast = solve_masks(5, occupied, up)
            plain = bfs_masks(5, occupied, up)
            assert fast is not None and plain is not None
            assert len(fast) == len(plain)


def test_unsolvable_setup_gives_none() -> None:
    # one of the 848 unsolvable 7-bone set-ups of the 3x3 board
    state = boneyard.load_game("oyno_puzzle", start="DD./DoD/UDD").new_initial_state()
    assert oyno_puzzle.solve(state) is None
    assert oyno_puzzle.best_action(state) is None
    assert oyno_puzzle.solve_position("DD./DoD/UDD") is None


def test_solve_returns_playable_optimal_actions() -> None:
    game = boneyard.load_game("oyno_puzzle", start="U...D/.D.../..o../...U./D...U")
    state = game.new_initial_state()
    actions = oyno_puzzle.solve(state)
    assert actions is not None and len(actions) == 3
    assert oyno_puzzle.best_action(state) == actions[0]
    for action in actions:
        state.apply_action(action)
    assert state.returns() == [1.0]


def test_solved_state_needs_no_moves() -> None:
    state = boneyard.load_game("oyno_puzzle", start="U.U/.o./...").new_initial_state()
    assert oyno_puzzle.solve(state) == []
    assert oyno_puzzle.best_action(state) is None


def test_solver_refuses_the_deal_and_other_games() -> None:
    state = boneyard.load_game("oyno_puzzle").new_initial_state()
    with pytest.raises(ValueError, match="still being dealt"):
        oyno_puzzle.solve(state)
    assert oyno_puzzle.best_action(state) is None
    with pytest.raises(ValueError, match="not oyno"):
        oyno_puzzle.solve(boneyard.load_game("oyno").new_initial_state())


def test_max_length_bounds_the_search() -> None:
    occupied, up = 0, 0
    geometry = board(5)
    for name, side in (
        ("a5", "U"),
        ("e5", "D"),
        ("b4", "D"),
        ("d2", "U"),
        ("a1", "D"),
        ("e1", "U"),
    ):
        bit = 1 << geometry.grid.parse(name)
        occupied |= bit
        up |= bit if side == "U" else 0
    assert solve_masks(5, occupied, up, max_length=2) is None
    assert len(solve_masks(5, occupied, up, max_length=3) or []) == 3
