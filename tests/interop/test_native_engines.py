"""The research interfaces on the native engines (``engine="native"``): the same official checks
as on the Python rules (PettingZoo's api and seed tests, Gymnasium's check_env, OpenSpiel's
random simulation test), and the same episodes as the Python engine gives from the same seeds."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import boneyard
from boneyard.interop import ENGINES, openspiel, pettingzoo, resolve_game
from boneyard.interop import gymnasium as boneyard_gym
from boneyard.native import native_games

from .cases import quick_params

NATIVE = [pytest.param(name, id=name) for name in boneyard.list_games() if name in native_games()]


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    # As in test_pettingzoo: dict observations with a mask are the norm for turn-based games.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize("name", NATIVE)
def test_pettingzoo_api_and_seed_tests_pass_natively(name: str) -> None:
    params = quick_params(name)
    api_test(pettingzoo.env(name, engine="native", **params), num_cycles=40)
    seed_test(lambda: pettingzoo.env(name, engine="native", **params), num_cycles=40)


@pytest.mark.parametrize("name", NATIVE)
def test_gymnasium_check_env_passes_natively(name: str) -> None:
    env = boneyard_gym.make(name, opponent="random", engine="native", **quick_params(name))
    check_env(env, skip_render_check=False)


@pytest.mark.parametrize("name", NATIVE)
def test_openspiel_random_sim_test_passes_natively(name: str) -> None:
    game = openspiel.load_game(name, engine="native", **quick_params(name))
    assert game.boneyard_game.engine == "native"
    assert pyspiel.load_game(str(game)).boneyard_game.engine == "native"  # the game string
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("name", NATIVE)
def test_an_episode_is_the_same_on_either_engine(name: str) -> None:
    """The same seed and the same actions give the same observations and rewards."""
    params = quick_params(name)
    envs = {engine: pettingzoo.env(name, engine=engine, **params) for engine in ENGINES}
    rng = np.random.default_rng(7)
    for env in envs.values():
        env.reset(seed=11)
    for _ in range(200):
        python_env, native_env = envs["python"], envs["native"]
        if not python_env.agents:
            assert not native_env.agents
            break
        agent = python_env.agent_selection
        assert native_env.agent_selection == agent
        seen = [env.last() for env in (python_env, native_env)]
        (obs, reward, term, trunc, _), (obs2, reward2, term2, trunc2, _) = seen
        assert (reward, term, trunc) == (reward2, term2, trunc2)
        assert np.array_equal(obs["observation"], obs2["observation"])
        assert np.array_equal(obs["action_mask"], obs2["action_mask"])
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        for env in envs.values():
            env.step(action)


def test_an_unknown_engine_is_refused_with_the_engines_there_are() -> None:
    with pytest.raises(ValueError, match="unknown engine 'rust'; engines: python, native"):
        resolve_game("obonto", {}, "rust")
