"""``NativeBatch``: many native games stepped in Rust threads, with the JAX engines' arrays."""

from __future__ import annotations

import numpy as np
import pytest

from boneyard.core.errors import IllegalActionError
from boneyard.games.race.rules import RaceGame
from boneyard.native.batch import NativeBatch
from boneyard.native.game import NativeGame


def _batch(num_envs: int = 64, seed: int = 3, threads: int = 2) -> NativeBatch:
    return NativeBatch(NativeGame(RaceGame()), num_envs, seed=seed, threads=threads)


def _random_actions(batch: NativeBatch, rng: np.random.Generator) -> np.ndarray:
    return (rng.random(batch.legal_action_mask.shape) * batch.legal_action_mask).argmax(axis=1)


def test_the_arrays_are_each_games_own_rows() -> None:
    batch, rng = _batch(), np.random.default_rng(1)
    python_game = RaceGame()
    for _ in range(30):
        for index in range(batch.num_envs):
            state = batch.state(index)
            # Every row is a real game: the Python rules replay its history to the same place.
            again = python_game.state_from_json(state.to_json())
            assert batch.current_player[index] == again.current_player()
            assert list(np.flatnonzero(batch.legal_action_mask[index])) == again.legal_actions()
            assert batch.terminated[index] == again.is_terminal()
            if again.is_terminal():
                assert list(batch.rewards[index]) == again.returns()
            else:
                assert not batch.rewards[index].any()
            assert again.current_player() != -1  # chance is drawn inside: no row waits on it
        batch.step(_random_actions(batch, rng))


def test_an_ended_game_starts_again_on_the_next_step() -> None:
    batch, rng = _batch(num_envs=8), np.random.default_rng(2)
    while not batch.terminated.any():
        batch.step(_random_actions(batch, rng))
    ended = np.flatnonzero(batch.terminated)
    batch.step(_random_actions(batch, rng))
    for index in ended:
        assert len(batch.state(int(index)).history()) <= 2  # a new game: no move or one coin


def test_the_same_seed_gives_the_same_games_whatever_the_threads() -> None:
    runs = []
    for threads in (1, 2, 3):
        batch, rng = _batch(num_envs=50, seed=9, threads=threads), np.random.default_rng(4)
        for _ in range(20):
            batch.step(_random_actions(batch, rng))
        runs.append([batch.state(i).history() for i in range(batch.num_envs)])
    assert runs[0] == runs[1] == runs[2]


def test_an_illegal_action_moves_no_game_and_names_the_first() -> None:
    batch = _batch(num_envs=4)
    before = [batch.state(i).to_json() for i in range(4)]
    with pytest.raises(IllegalActionError, match="game 2 of the batch: action 7 is not legal"):
        batch.step(np.array([0, 1, 7, 0]))
    with pytest.raises(IllegalActionError, match="3 actions for 4 games"):
        batch.step(np.array([0, 1, 0]))
    assert [batch.state(i).to_json() for i in range(4)] == before


def test_observations_need_a_native_tensor() -> None:
    with pytest.raises(NotImplementedError, match="no native observation tensor"):
        NativeBatch(NativeGame(RaceGame()), 4, observe=True)


def test_random_actions_are_legal_and_seeded() -> None:
    batch = _batch(num_envs=32, seed=5)
    other = _batch(num_envs=32, seed=5)
    for _ in range(40):
        actions = batch.random_actions()
        assert np.array_equal(actions, other.random_actions())
        live = ~batch.terminated
        assert batch.legal_action_mask[np.flatnonzero(live), actions[live]].all()
        batch.step(actions)
        other.step(actions)
