"""The native OYNO duel solver (``solve(..., engine="native")``, native/engine/src/solvers/
oyno_duel.rs) against the Python one: the same value and plies for every position of the small
duels, both players to move, both place rules, and for random positions of the 5x5 duel with two
bones a side (the largest 5x5 duel Python solves); the same best actions from states."""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest

import boneyard
from boneyard.games.oyno.duel import DEFAULT_PLACE_RULE, DuelState
from boneyard.solvers import oyno_duel
from boneyard.solvers.oyno_duel import DuelSolution, NativeDuelSolution

SMALL_DUELS = [(3, 1), (3, 2), (3, 3), (5, 1)]


@cache
def python_solution(size: int, bones: int, place_rule: str) -> DuelSolution:
    solution = oyno_duel.solve(size, bones, place_rule=place_rule)
    assert isinstance(solution, DuelSolution)
    return solution


@cache
def native_solution(size: int, bones: int, place_rule: str) -> NativeDuelSolution:
    solution = oyno_duel.solve(size, bones, place_rule=place_rule, engine="native")
    assert isinstance(solution, NativeDuelSolution)
    return solution


@pytest.mark.parametrize("place_rule", ["all_up", "supply"])
@pytest.mark.parametrize(("size", "bones"), SMALL_DUELS)
def test_every_position_of_a_small_duel_has_the_python_value(
    size: int, bones: int, place_rule: str
) -> None:
    python = python_solution(size, bones, place_rule)
    native = native_solution(size, bones, place_rule)
    positions = 0
    for layer in python.layers.values():
        for player in (0, 1):
            value, plies = native.values(layer.red_mask, layer.white_mask, layer.up, player)
            np.testing.assert_array_equal(value, layer.value[player])
            np.testing.assert_array_equal(plies, layer.plies[player])
            positions += value.size
    assert positions == 2 * oyno_duel.position_count(size, bones)
    assert native.counts() == python.counts()


@pytest.mark.parametrize("place_rule", ["all_up", "supply"])
def test_a_solve_that_keeps_no_edges_has_the_python_values(place_rule: str) -> None:
    python = python_solution(3, 3, place_rule)
    native = NativeDuelSolution(3, 3, place_rule, edge_budget=0)
    for layer in python.layers.values():
        for player in (0, 1):
            value, plies = native.values(layer.red_mask, layer.white_mask, layer.up, player)
            np.testing.assert_array_equal(value, layer.value[player])
            np.testing.assert_array_equal(plies, layer.plies[player])


@pytest.mark.slow
def test_random_positions_of_the_5x5_duel_with_two_bones_have_the_python_value() -> None:
    # the default place rule only: the Python solve takes some 20 s of CPU
    python = python_solution(5, 2, DEFAULT_PLACE_RULE)
    native = native_solution(5, 2, DEFAULT_PLACE_RULE)
    rng = np.random.default_rng(7)
    for layer in python.layers.values():
        rows = rng.choice(layer.codes.size, size=min(layer.codes.size, 500), replace=False)
        for player in (0, 1):
            value, plies = native.values(
                layer.red_mask[rows], layer.white_mask[rows], layer.up[rows], player
            )
            np.testing.assert_array_equal(value, layer.value[player][rows])
            np.testing.assert_array_equal(plies, layer.plies[player][rows])
    assert native.counts() == python.counts()


@pytest.mark.parametrize("place_rule", ["all_up", "supply"])
def test_the_best_actions_of_played_states_are_the_python_ones(place_rule: str) -> None:
    python = python_solution(3, 3, place_rule)
    native = native_solution(3, 3, place_rule)
    rng = random.Random(3)
    game = boneyard.load_game("oyno", size=3, bones_per_player=3, place_rule=place_rule)
    for _ in range(20):
        state = game.new_initial_state()
        assert isinstance(state, DuelState)
        while not state.is_terminal() and state.move_number() < 30:
            assert native.best_actions(state) == python.best_actions(state)
            assert native.action_values(state) == python.action_values(state)
            state.apply_action(rng.choice(state.legal_actions()))


def test_bad_requests_say_what_is_allowed() -> None:
    with pytest.raises(ValueError, match="engine is one of python, native, not 'rust'"):
        oyno_duel.solve(3, 1, engine="rust")
    with pytest.raises(ValueError, match="restrict needs engine='python'"):
        oyno_duel.solve(3, 1, restrict=0, engine="native")
    with pytest.raises(ValueError, match="place_rule is one of"):
        oyno_duel.solve(3, 1, place_rule="sometimes", engine="native")
    with pytest.raises(ValueError, match="does not fit a 3x3 board"):
        oyno_duel.solve(3, 4, engine="native")
    with pytest.raises(ValueError, match="at most 25 cells"):
        oyno_duel.solve(7, 1, engine="native")
    with pytest.raises(ValueError, match="1648761699429793 positions, over the"):
        oyno_duel.solve(5, 8, engine="native")
    solution = native_solution(3, 1, "all_up")
    with pytest.raises(ValueError, match="not a position of the 3x3 duel"):
        solution.value(1 << 4, 0, 0, 0)  # the center holds no bone
    with pytest.raises(ValueError, match="not a position"):
        solution.value(1, 1, 0, 0)  # red and white on one cell
    with pytest.raises(ValueError, match="0 \\(red\\) or 1 \\(white\\)"):
        solution.value(0, 0, 0, 2)
    with pytest.raises(ValueError, match="only with a restricted"):
        solution.win_chance(0, 0, 0, 0)


def test_play_reads_the_native_solution_with_the_python_moves() -> None:
    # best_action, the levels' solver entry, solves natively where the engine is built
    assert isinstance(oyno_duel._solution_for_play(3, 2, "supply"), NativeDuelSolution)
    python = python_solution(3, 2, "supply")
    rng = random.Random(5)
    game = boneyard.load_game("oyno", size=3, bones_per_player=2, place_rule="supply")
    for _ in range(10):
        state = game.new_initial_state()
        assert isinstance(state, DuelState)
        while not state.is_terminal() and state.move_number() < 20:
            action = oyno_duel.best_action(state)
            assert action in python.best_actions(state)
            state.apply_action(rng.choice(state.legal_actions()))
