"""The fast observation tensor (``tensor.state_tensor``) against the dict road, across the cases
its memo meets: reading after every move, after many moves, on clones, for every seat."""

from __future__ import annotations

import random

import pytest

from boneyard.games.bones.rules import BonesGame, BonesState

SEATS = (None, 0, 1)


def dict_road(state: BonesState, seat: int | None) -> list[float]:
    return [float(x) for x in state.game.observation_tensor(state.observation(seat))]


def fast_road(state: BonesState, seat: int | None) -> list[float]:
    return [float(x) for x in state.game.state_observation_tensor(state, seat)]


@pytest.mark.parametrize("gap", [1, 2, 5, 9, 30])
def test_fast_tensor_after_gaps_of_moves(gap: int) -> None:
    game = BonesGame(width=6, height=5, pieces=20)
    rng = random.Random(gap)
    for _ in range(6):
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal():
            if moves % gap == 0:
                for seat in SEATS:
                    assert fast_road(state, seat) == dict_road(state, seat)
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
        for seat in SEATS:
            assert fast_road(state, seat) == dict_road(state, seat)


def test_fast_tensor_of_a_clone_is_its_own() -> None:
    game = BonesGame()
    rng = random.Random(3)
    state = game.new_initial_state()
    for _ in range(6):
        state.apply_action(rng.choice(state.legal_actions()))
    fast_road(state, 0)  # the original keeps a memo
    copy = state.clone()
    copy.apply_action(rng.choice(copy.legal_actions()))
    copy.apply_action(rng.choice(copy.legal_actions()))
    assert fast_road(copy, 1) == dict_road(copy, 1)
    assert fast_road(state, 0) == dict_road(state, 0)
    assert fast_road(copy, 1) != fast_road(state, 1)


def test_fast_tensor_refuses_a_bad_seat() -> None:
    state = BonesGame().new_initial_state()
    with pytest.raises(ValueError, match="bad seat"):
        state.game.state_observation_tensor(state, 2)
