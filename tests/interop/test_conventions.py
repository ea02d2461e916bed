"""The conventions researchers' tools expect, checked by the tools themselves: sb3-contrib's
masking (``is_masking_supported``, ``MaskablePPO``) on the Gymnasium environment, PettingZoo's
``render_test`` and its classic environments' terminate-with-penalty for illegal moves, and
observations that stay inside their bounded spaces."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest

import boneyard
from boneyard.interop import gymnasium as boneyard_gym
from boneyard.interop import observation_bounds, pettingzoo

from .cases import quick_params

GAMES = boneyard.list_games()


def _game(name: str) -> Any:
    return boneyard.load_game(name, **quick_params(name))


@pytest.mark.parametrize("name", GAMES)
def test_maskable_ppo_takes_the_gymnasium_env_unchanged(name: str) -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    torch.set_num_threads(1)
    env = boneyard_gym.make(_game(name), opponent="random")
    assert is_masking_supported(env)
    observation, info = env.reset(seed=0)
    masks = get_action_masks(env)
    assert masks.dtype == bool
    assert np.array_equal(masks, info["action_mask"].astype(bool))
    model = MaskablePPO("MlpPolicy", env, n_steps=8, batch_size=8, n_epochs=1, seed=0)
    for _ in range(4):
        action, _ = model.predict(observation, action_masks=get_action_masks(env))
        assert masks[int(action)]  # only legal actions are chosen
        observation, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            observation, _ = env.reset()
        masks = get_action_masks(env)


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_render_test_passes(name: str, capsys: Any) -> None:
    from pettingzoo.test import render_test

    game = _game(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # dict observations with masks: the norm
        render_test(lambda render_mode=None: pettingzoo.env(game, render_mode=render_mode))
    # human mode printed a text board at each of the test's five renders
    assert len(capsys.readouterr().out.strip().splitlines()) >= 5


def test_human_render_mode_prints_the_text_board(capsys: Any) -> None:
    game = _game("bones")
    env = boneyard_gym.make(game, render_mode="human")
    env.reset(seed=1)
    assert env.render() is None
    assert (
        capsys.readouterr().out.strip()
        == env.unwrapped.game.render_text(env.unwrapped.game_state.observation(None)).strip()
    )


@pytest.mark.parametrize("name", GAMES)
def test_an_illegal_move_ends_the_game_with_a_penalty_as_in_pettingzoo_classic(name: str) -> None:
    game = _game(name)
    env = pettingzoo.env(game, illegal_action="penalty")
    env.reset(seed=3)
    agent = env.agent_selection
    observation, *_ = env.last()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    before = str(env.game_state)
    env.step(illegal)
    assert str(env.game_state) == before  # the game is left as it was
    assert all(env.terminations.values())
    assert env.rewards[agent] == game.info.min_utility
    assert all(reward == 0 for other, reward in env.rewards.items() if other != agent)
    assert env.infos[agent]["illegal_move"]
    for _agent in env.agent_iter():  # every agent steps out, as PettingZoo expects
        assert env.last()[2]
        env.step(None)
    assert env.agents == []


def test_illegal_action_modes_are_checked() -> None:
    with pytest.raises(ValueError, match="'raise', 'penalty'"):
        pettingzoo.env("bones", illegal_action="ignore")


@pytest.mark.parametrize("name", GAMES)
def test_observations_stay_within_the_declared_bounds(name: str) -> None:
    game = _game(name)
    low, high = observation_bounds(game)
    assert np.isfinite(low) and np.isfinite(high)
    env = pettingzoo.env(game)
    space = env.observation_space(env.possible_agents[0])["observation"]
    rng = random.Random(0)
    for seed in range(2):
        env.reset(seed=seed)
        for agent in env.agent_iter(300):
            observation, _, terminated, truncated, _ = env.last()
            assert space.contains(observation["observation"]), (agent, observation)
            legal = np.flatnonzero(observation["action_mask"])
            env.step(None if terminated or truncated else int(rng.choice(legal)))


@pytest.mark.parametrize("name", GAMES)
def test_the_turn_based_parallel_wrapper_passes_the_parallel_api_test(name: str) -> None:
    """No game declares a parallel API (turns do not always alternate, so
    ``is_parallelizable`` is false); PettingZoo's turn-based wrapper gives one, and its own
    ``parallel_api_test`` takes it."""
    from pettingzoo.test import parallel_api_test
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    env = pettingzoo.env(_game(name))
    assert env.metadata["is_parallelizable"] is False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # dict observations with masks: the norm
        parallel_api_test(turn_based_aec_to_parallel(env), num_cycles=100)
