"""Values from returns: the array form (batch training's targets) equals the per-state one."""

from __future__ import annotations

import numpy as np
import pytest

import boneyard
from boneyard.ai.values import values_from_return_arrays, values_from_returns


@pytest.mark.parametrize(
    ("name", "params"),
    [("bones", {}), ("obonto", {}), ("bonbon", {}), ("bonbon", {"players": 3})],
)
def test_the_array_values_equal_values_from_returns(name: str, params: dict[str, int]) -> None:
    game = boneyard.load_game(name, **params)
    low, high = game.info.min_utility, game.info.max_utility
    players = game.info.num_players
    rng = np.random.default_rng(0)
    # returns on the range's ends, inside it and tied, as the games give them
    returns = rng.choice([low, high, 0.0, (low + high) / 2, low + 1], size=(200, players))
    arrays = values_from_return_arrays(returns, low, high)
    for row, values in zip(returns, arrays):
        assert values == pytest.approx(values_from_returns(game, list(row)))


def test_a_bonbon_loss_is_the_bottom_of_the_scale_and_a_win_the_top() -> None:
    game = boneyard.load_game("bonbon")
    low, high = game.info.min_utility, game.info.max_utility
    values = values_from_return_arrays(np.array([[1.0, 0.0], [0.0, 1.0]]), low, high)
    assert values.tolist() == [[1.0, 0.0], [0.0, 1.0]]
