"""The PettingZoo AEC environments: PettingZoo's own API and seed tests, and what a seat sees."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import boneyard
from boneyard import TERMINAL, Game, IllegalActionError
from boneyard.interop import pettingzoo

from .cases import GAME_CASES, load

CYCLES = 40


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    # PettingZoo warns that dict observations with an action mask are unusual; they are the norm
    # for turn-based games (its own classic environments do the same).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize("case", GAME_CASES)
def test_pettingzoo_api_test_passes(case: str | Game) -> None:
    api_test(pettingzoo.env(load(case)), num_cycles=CYCLES)


@pytest.mark.parametrize("case", GAME_CASES)
def test_pettingzoo_seed_test_passes(case: str | Game) -> None:
    game = load(case)
    seed_test(lambda: pettingzoo.env(game), num_cycles=CYCLES)


def _random_steps(env: pettingzoo.BoneyardAECEnv, steps: int, rng: random.Random) -> None:
    for _ in range(steps):
        if env.game_state.is_terminal():
            return
        env.step(rng.choice(env.game_state.legal_actions()))


@pytest.mark.parametrize("case", GAME_CASES)
def test_each_agent_sees_its_own_seats_observation_and_mask(case: str | Game) -> None:
    game = load(case)
    env = pettingzoo.env(game)
    env.reset(seed=3)
    rng = random.Random(3)
    for _ in range(4):
        state = env.game_state
        for seat, agent in enumerate(env.possible_agents):
            seen = env.observe(agent)
            expected = np.asarray(game.observation_tensor(state.observation(seat)), np.float32)
            assert np.array_equal(seen["observation"].ravel(), expected)
            legal = state.legal_actions() if state.current_player() == seat else []
            assert np.flatnonzero(seen["action_mask"]).tolist() == legal
        if state.current_player() >= 0:
            assert env.agent_selection == f"player_{state.current_player()}"
        _random_steps(env, 3, rng)


@pytest.mark.parametrize("case", GAME_CASES)
def test_an_episode_ends_with_the_game_returns_as_rewards(case: str | Game) -> None:
    env = pettingzoo.env(load(case))
    env.reset(seed=5)
    rng = random.Random(5)
    collected = {agent: 0.0 for agent in env.possible_agents}
    returns: list[float] | None = None
    for agent in env.agent_iter(max_iter=5000):
        _, reward, termination, truncation, _ = env.last()
        collected[agent] += reward
        if termination or truncation:
            returns = env.game_state.returns()
            env.step(None)
            continue
        env.step(rng.choice(env.game_state.legal_actions()))
    assert returns is not None, "the episode did not end"
    assert env.game_state.current_player() == TERMINAL
    assert env.agents == []
    assert [collected[agent] for agent in env.possible_agents] == returns


def test_chance_comes_from_the_reset_seed() -> None:
    from .toygames import Race

    def counters(seed: int) -> list[int]:
        env = pettingzoo.env(Race(goal=20))
        env.reset(seed=seed)
        seen = []
        while not env.game_state.is_terminal():
            env.step(0)
            seen.append(env.game_state.total)  # type: ignore[attr-defined]
        return seen

    assert counters(1) == counters(1)
    assert len({tuple(counters(seed)) for seed in range(6)}) > 1


@pytest.mark.parametrize("case", GAME_CASES)
def test_an_illegal_action_raises_and_changes_nothing(case: str | Game) -> None:
    env = pettingzoo.env(load(case))
    env.reset(seed=0)
    legal = env.game_state.legal_actions()
    illegal = next(a for a in range(env.game.info.num_distinct_actions + 1) if a not in legal)
    before = env.game_state.to_json()
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    assert env.game_state.to_json() == before


@pytest.mark.parametrize("case", GAME_CASES)
def test_render_modes_draw_the_spectators_view(case: str | Game) -> None:
    game = load(case)
    env = pettingzoo.env(game, render_mode="ansi")
    env.reset(seed=2)
    assert env.render() == game.render_text(env.game_state.observation(None))
    env = pettingzoo.env(game, render_mode="rgb_array")
    env.reset(seed=2)
    picture = env.render()
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
    assert picture.min() < picture.max(), "a blank picture"


def test_bad_render_mode_and_parameters_are_refused() -> None:
    from .toygames import Race

    with pytest.raises(ValueError, match="render_mode"):
        pettingzoo.env(Race(), render_mode="window")
    with pytest.raises(ValueError, match="already loaded"):
        pettingzoo.env(Race(), goal=3)


def _most_players_variants() -> list[Any]:
    """For games with a player-count parameter, the conformance variant with the most seats."""
    cases = []
    for name in boneyard.list_games():
        cls = type(boneyard.load_game(name))
        if cls.max_players > cls.min_players:
            variant = max(
                cls.conformance_variants,
                key=lambda v: boneyard.load_game(name, **v).info.num_players,
            )
            cases.append(pytest.param(name, dict(variant), id=f"{name}-{variant}"))
    return cases


@pytest.mark.parametrize(("name", "variant"), _most_players_variants())
def test_pettingzoo_api_test_passes_with_the_most_players(
    name: str, variant: dict[str, Any]
) -> None:
    env = pettingzoo.env(name, **variant)
    assert env.possible_agents == [f"player_{seat}" for seat in range(env.game.info.num_players)]
    api_test(env, num_cycles=CYCLES)
    seed_test(lambda: pettingzoo.env(name, **variant), num_cycles=CYCLES)
