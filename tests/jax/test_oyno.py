"""OYNO's batch engine on what random games seldom reach: a draw by threefold repetition."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("jax")

import jax
import numpy as np

import boneyard.jax
from boneyard.core.registry import load_game

# games that end in a draw by the third occurrence of a position, found by a search with the
# rules engine that steers towards positions already seen
REPETITIONS = [
    (
        {"size": 3, "bones_per_player": 2, "max_moves": 60},
        [
            3,
            2,
            6,
            1,
            53,
            43,
            93,
            187,
            80,
            87,
            47,
            72,
            95,
            35,
            70,
            95,
            39,
            64,
            87,
            25,
            80,
            87,
            47,
            72,
            95,
            35,
            70,
            95,
            39,
            64,
            87,
            25,
        ],
    ),
    (
        {"max_moves": 60},
        [
            18,
            9,
            21,
            7,
            8,
            1307,
            0,
            16,
            253,
            226,
            22,
            24,
            63,
            85,
            6,
            1,
            383,
            319,
            255,
            660,
            214,
            286,
            590,
            542,
            600,
            23,
            524,
            21,
            663,
            583,
            4,
            481,
            422,
            257,
            145,
            349,
            169,
            214,
            442,
            315,
            561,
            654,
            59,
            627,
            275,
            123,
            59,
            627,
            275,
            123,
        ],
    ),
]


@pytest.mark.parametrize(("params", "actions"), REPETITIONS)
def test_the_third_occurrence_of_a_position_is_a_draw(
    params: dict[str, Any], actions: list[int]
) -> None:
    twin = load_game("oyno", **params).new_initial_state()
    env = boneyard.jax.make("oyno", **params)
    step = jax.jit(env.step)
    state = env.init(jax.random.PRNGKey(0))
    for turn, action in enumerate(actions):
        assert not bool(state.terminated), f"over before action {turn}"
        assert bool(state.legal_action_mask[action]), f"action {turn} ({action}) not legal"
        twin.apply_action(action)
        state = step(state, action, jax.random.PRNGKey(turn))
    # the rules engine: a draw before max_moves, its position seen three times
    assert twin.is_terminal() and twin.returns() == [0.0, 0.0]
    assert twin.moves < params["max_moves"] and twin.seen[twin._key()] == 3
    assert bool(state.terminated)
    assert np.asarray(state.rewards).tolist() == [0.0, 0.0]
