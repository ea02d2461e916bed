"""The shared array helpers: action masks, tensors as float32 arrays, the fast road's numbers."""

from __future__ import annotations

import random

import numpy as np
import pytest

import boneyard
from boneyard.interop import (
    action_mask,
    action_mask_hook,
    observation_array,
    state_action_mask,
    state_observation_array,
    tensor_array,
)


def test_action_mask_marks_exactly_the_legal_ids() -> None:
    mask = action_mask([0, 3, 9], 10)
    assert mask.dtype == np.int8
    assert mask.tolist() == [1, 0, 0, 1, 0, 0, 0, 0, 0, 1]
    assert action_mask([], 4).tolist() == [0, 0, 0, 0]


def test_tensor_array_takes_lists_and_arrays_and_checks_the_size() -> None:
    game = boneyard.load_game("bones", width=2, height=2, pieces=1)
    from_list = tensor_array(game, [0.5, 1.0, 0.0, 2.0], (2, 2))
    from_array = tensor_array(game, np.array([0.5, 1.0, 0.0, 2.0]), (2, 2))
    assert from_list.dtype == from_array.dtype == np.float32
    assert from_list.tolist() == from_array.tolist() == [[0.5, 1.0], [0.0, 2.0]]
    from_list[0, 0] = 7.0  # a new, writable array each time
    assert tensor_array(game, [0.5, 1.0, 0.0, 2.0], (2, 2))[0, 0] == 0.5
    with pytest.raises(ValueError, match="observation_tensor_shape"):
        tensor_array(game, [1.0, 2.0, 3.0], (2, 2))


@pytest.mark.parametrize(
    "name", ["bones", "bonbon", "bondo_cones", "obonto", "oyno", "oyno_puzzle"]
)
def test_fast_road_arrays_equal_the_dict_road_arrays(name: str) -> None:
    game = boneyard.load_game(name)
    shape = tuple(game.observation_tensor_shape())
    rng = random.Random(5)
    state = game.new_initial_state()
    seats = [None, *range(game.info.num_players)]
    for _ in range(40):
        if state.is_terminal():
            break
        for seat in seats:
            fast = state_observation_array(game, state, seat, shape)
            slow = observation_array(game, state.observation(seat), shape)
            assert fast.dtype == np.float32 and fast.shape == shape
            assert np.array_equal(fast, slow)
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(
    "name", ["bones", "bonbon", "bondo_cones", "obonto", "oyno", "oyno_puzzle"]
)
def test_a_games_own_mask_road_marks_exactly_the_legal_actions(name: str) -> None:
    from boneyard.core.registry import game_class

    for params in [{}, *game_class(name).conformance_variants]:
        game = boneyard.load_game(name, **dict(params))
        hook = action_mask_hook(game)
        rng = random.Random(11)
        for _ in range(3):
            state = game.new_initial_state()
            for _ in range(60):
                if state.is_terminal():
                    break
                if state.current_player() >= 0:
                    mask = state_action_mask(game, state, hook)
                    assert mask.dtype == np.int8
                    assert mask.shape == (game.info.num_distinct_actions,)
                    assert np.flatnonzero(mask).tolist() == state.legal_actions()
                state.apply_action(rng.choice(state.legal_actions()))


def test_bones_has_its_own_mask_road() -> None:
    # The one game whose state keeps a byte per placement: if the hook were lost, the masks
    # would still be right (the test above), only slower.
    assert action_mask_hook(boneyard.load_game("bones")) is not None


@pytest.mark.parametrize(
    "name", ["bones", "bonbon", "bondo_cones", "obonto", "oyno", "oyno_puzzle"]
)
def test_every_array_handed_out_is_new(name: str) -> None:
    # An agent may keep what it was given (a replay buffer) or write into it: a later call must
    # neither change what was handed out before nor be changed by what the agent wrote.
    game = boneyard.load_game(name)
    shape = tuple(game.observation_tensor_shape())
    hook = action_mask_hook(game)
    rng = random.Random(2)
    state = game.new_initial_state()
    kept: list[tuple[np.ndarray, np.ndarray]] = []
    for _ in range(30):
        if state.is_terminal():
            break
        if state.current_player() >= 0:
            seat = state.current_player()
            first = state_observation_array(game, state, seat, shape)
            kept.append((first.copy(), first))
            second = state_observation_array(game, state, seat, shape)
            assert not np.shares_memory(first, second)
            second.fill(7.0)
            state_action_mask(game, state, hook).fill(1)
            again = state_observation_array(game, state, seat, shape)
            assert np.array_equal(again, observation_array(game, state.observation(seat), shape))
            mask = state_action_mask(game, state, hook)
            assert np.flatnonzero(mask).tolist() == state.legal_actions()
        state.apply_action(rng.choice(state.legal_actions()))
    assert kept
    for snapshot, array in kept:
        assert np.array_equal(snapshot, array)
