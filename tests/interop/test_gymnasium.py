"""The Gymnasium environments: Gymnasium's own checker, registration, opponents, illegal actions."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import boneyard
from boneyard import Game, IllegalActionError, State
from boneyard.interop import env_id
from boneyard.interop import gymnasium as boneyard_gym

from .cases import GAME_CASES, load, quick_params
from .toygames import Countdown, MiniPoker, Race


@pytest.fixture(autouse=True)
def _quiet(request: Any) -> Any:
    # check_env warns that the Box is unbounded for the toy games (they declare no bounds); the
    # registered games are checked without this, warnings as errors, below
    if "without_warnings" in request.node.name:
        yield
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize("case", GAME_CASES)
def test_gymnasium_check_env_passes(case: str | Game) -> None:
    game = load(case)
    for seat in sorted({0, game.info.num_players - 1}):
        check_env(boneyard_gym.make(game, opponent="random", seat=seat), skip_render_check=False)


@pytest.mark.parametrize("name", boneyard.list_games())
def test_gymnasium_check_env_passes_without_warnings(name: str) -> None:
    params = quick_params(name)
    game = boneyard.load_game(name, **params)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for seat in sorted({0, game.info.num_players - 1}):
            # made through the registry (with a spec), so the checker renders in every mode
            env = gymnasium.make(env_id(name), opponent="random", seat=seat, **params).unwrapped
            check_env(env, skip_render_check=False)
            low, high = env.observation_space.low, env.observation_space.high
            assert np.isfinite(low).all() and np.isfinite(high).all()


@pytest.mark.parametrize("name", boneyard.list_games())
def test_every_game_is_registered_as_a_gymnasium_id(name: str) -> None:
    load(name)
    ident = env_id(name)
    assert ident in gymnasium.registry
    env = gymnasium.make(ident, opponent="random", render_mode="ansi")
    observation, _ = env.reset(seed=0)
    assert env.observation_space.contains(observation)
    assert isinstance(env.render(), str)
    env.close()
    # Made through the registry, the checker also renders in every mode (ansi, rgb_array).
    check_env(gymnasium.make(ident, opponent="random").unwrapped, skip_render_check=False)


def test_ids_are_camel_case() -> None:
    assert env_id("obonto") == "boneyard/Obonto-v0"
    assert env_id("oyno_puzzle") == "boneyard/OynoPuzzle-v0"
    assert env_id("bondo_cones") == "boneyard/BondoCones-v0"


@pytest.mark.parametrize("case", GAME_CASES)
def test_the_agent_only_ever_acts_on_its_own_turn_and_sees_its_own_view(
    case: str | Game,
) -> None:
    game = load(case)
    seat = game.info.num_players - 1
    env = boneyard_gym.make(game, opponent="random", seat=seat)
    observation, info = env.reset(seed=4)
    rng = np.random.default_rng(4)
    total = 0.0
    for _ in range(200):
        state = env.game_state
        assert state.current_player() == seat
        expected = np.asarray(game.observation_tensor(state.observation(seat)), np.float32)
        assert np.array_equal(observation.ravel(), expected)
        assert np.flatnonzero(info["action_mask"]).tolist() == state.legal_actions()
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        total += reward
        assert not truncated
        if terminated:
            assert total == env.game_state.returns()[seat]
            assert not info["action_mask"].any()
            break


def test_an_illegal_action_ends_the_episode_with_the_worst_result() -> None:
    env = boneyard_gym.make(MiniPoker(), opponent="random")
    env.reset(seed=1)
    before = env.game_state.to_json()
    _, reward, terminated, truncated, info = env.step(1 + 1)
    assert (reward, terminated, truncated) == (-2.0, True, False)
    assert info["illegal_action"] is True
    assert env.game_state.to_json() == before


def test_illegal_action_raise_mode_raises() -> None:
    env = boneyard_gym.make(MiniPoker(), opponent="random", illegal_action="raise")
    env.reset(seed=1)
    with pytest.raises(IllegalActionError):
        env.step(2)


def test_a_one_player_game_has_no_opponent() -> None:
    env = boneyard_gym.make(Countdown(), opponent="no such bot")
    _, info = env.reset(seed=0)
    assert info["action_mask"].tolist() == [1, 1]
    _, reward, terminated, _, _ = env.step(0)
    assert (reward, terminated) == (0.0, False)


def test_opponents_come_from_a_factory_seeded_by_reset() -> None:
    made: list[tuple[int, int]] = []

    class FirstLegal:
        def step(self, state: State) -> int:
            return state.legal_actions()[0]

    def factory(game: Game, seat: int, seed: int) -> FirstLegal:
        made.append((seat, seed))
        return FirstLegal()

    env = boneyard_gym.make(Race(), opponent=factory, seat=1)
    env.reset(seed=9)
    env.reset(seed=9)
    assert len(made) == 2 and made[0] == made[1] and made[0][0] == 0
    assert env.game_state.history()[0] == 0  # the opponent's first legal action


def test_bad_arguments_are_refused_with_what_is_allowed() -> None:
    with pytest.raises(ValueError, match="seats are 0 to 1"):
        boneyard_gym.make(Race(), seat=2)
    with pytest.raises(ValueError, match="illegal_action"):
        boneyard_gym.make(Race(), illegal_action="ignore")
    with pytest.raises(ValueError, match="unknown bot or level"):
        boneyard_gym.make(Race(), opponent="grandmaster")
