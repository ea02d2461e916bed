"""The Obonto training example's pieces: the agent's frame, the evaluation, a few PPO steps.

The example trains for minutes; these tests run its parts on tiny budgets and check them against
the rules engine and against players whose results are known.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("optax")

import jax
import jax.numpy as jnp

import boneyard.jax
from boneyard.games.obonto.rules import ObontoGame

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_obonto.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_obonto", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


example = _load()


@pytest.fixture(scope="module")
def env() -> Any:
    return boneyard.jax.make("obonto")


LAST_LEGAL, ILLEGAL, RANDOM = 0, 1, 2
"""The known players of the evaluation tests, chosen by the policy's parameter so that one
compiled evaluation a seat serves them all (compiling the batch loop is the slow part)."""


def _known_player(params: Any, key: Any, observations: Any, masks: Any, seat: int) -> Any:
    """LAST_LEGAL: the largest legal id; ILLEGAL: action 0 (a1 to a1, never legal, so the
    batch engine ends the game against its chooser); RANDOM: a uniformly random legal id."""
    last = (masks.shape[1] - 1 - jnp.argmax(masks[:, ::-1], axis=-1)).astype(jnp.int32)
    illegal = jnp.zeros(masks.shape[0], jnp.int32)
    uniform = example.random_policy(None, key, observations, masks, seat)
    return jnp.where(params == LAST_LEGAL, last, jnp.where(params == ILLEGAL, illegal, uniform))


@pytest.fixture(scope="module")
def evaluate(env: Any) -> Callable[[int, int, int], Any]:
    """200 games of a known player on a seat against random: (player, seat, seed) -> Record.
    One compiled evaluation a seat serves every player."""
    compiled: dict[int, Any] = {}

    def play(player: int, seat: int, seed: int) -> Any:
        if seat not in compiled:
            compiled[seat] = example.Evaluation(env, _known_player, jnp.int32(0), seat, 200)
        return compiled[seat](jnp.int32(player), seed)

    return play


def _rules_engine_positions(games: int, seed: int) -> list[tuple[Any, np.ndarray, np.ndarray]]:
    """Every position of random rules-engine games: (state, seat to move's tensor, mask)."""
    game = ObontoGame()
    rng = random.Random(seed)
    positions = []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            seat = state.current_player()
            tensor = np.asarray(game.state_observation_tensor(state, seat), np.float32)
            mask = np.zeros(game.num_distinct_actions(), bool)
            mask[state.legal_actions()] = True
            positions.append((state.clone(), tensor.reshape(9, 9, 9), mask))
            state.apply_action(rng.choice(state.legal_actions()))
    return positions


def test_the_second_seat_sees_its_start_as_the_first_seat_sees_its_own() -> None:
    first = boneyard.jax.make("obonto", first=0).init(jax.random.PRNGKey(0))
    second = boneyard.jax.make("obonto", first=1).init(jax.random.PRNGKey(0))
    features0 = example.canonical(first.observation, 0)
    features1 = example.canonical(second.observation, 1)
    assert np.array_equal(np.asarray(features0), np.asarray(features1))
    from0 = example.from_mask(first.legal_action_mask, 0)
    from1 = example.from_mask(second.legal_action_mask, 1)
    assert np.flatnonzero(np.asarray(from0)).tolist() == [3, 4, 5]  # d1, e1, f1
    assert np.array_equal(np.asarray(from0), np.asarray(from1))
    for origin in (3, 4, 5):
        to0 = example.to_mask(first.legal_action_mask, jnp.int32(origin), 0)
        to1 = example.to_mask(second.legal_action_mask, jnp.int32(origin), 1)
        assert int(to0.sum()) > 0
        assert np.array_equal(np.asarray(to0), np.asarray(to1))
    # the second seat's d1 in its frame is f9 (square 77) on the board
    assert int(example.action_id(jnp.int32(5), jnp.int32(14), 1)) == 75 * 81 + 66


def test_every_legal_choice_is_one_legal_action_and_back() -> None:
    """In every position of random rules-engine games, the (from, to) choices the library's
    heads allow the seat to move, in its frame, and its legal ids correspond one to one through
    ``action_id``."""
    from_mask = jax.jit(example.from_mask, static_argnums=1)
    to_mask = jax.jit(jax.vmap(example.to_mask, (None, 0, None)), static_argnums=2)
    action_id = jax.jit(jax.vmap(example.action_id, (0, 0, None)), static_argnums=2)
    every = jnp.arange(81, dtype=jnp.int32)
    positions = _rules_engine_positions(6, seed=2)
    seats = set()
    for state, _, mask in positions:
        seat = state.current_player()
        seats.add(seat)
        legal_from = np.asarray(from_mask(mask, seat))
        legal_to = np.asarray(to_mask(mask, every, seat))  # [origin, target]
        assert not legal_to[~legal_from].any()
        origins, targets = np.nonzero(legal_to)
        ids = np.asarray(action_id(jnp.asarray(origins), jnp.asarray(targets), seat))
        assert sorted(ids.tolist()) == state.legal_actions()
    assert seats == {0, 1} and len(positions) > 100


def test_an_untrained_greedy_policy_picks_legal_moves_in_both_seats() -> None:
    params = example.init_params(jax.random.PRNGKey(4), 16)
    positions = _rules_engine_positions(3, seed=3)
    for seat in (0, 1):
        mine = [p for p in positions if p[0].current_player() == seat]
        tensors = np.stack([p[1] for p in mine])
        masks = np.stack([p[2] for p in mine])
        actions = np.asarray(example.greedy_policy(params, None, tensors, masks, seat))
        assert masks[np.arange(len(mine)), actions].all()


@pytest.mark.parametrize("seat", [0, 1])
def test_the_evaluation_counts_from_the_agents_seat(evaluate: Any, seat: int) -> None:
    """An agent that plays illegally loses every game; random against random wins about half
    (200 games: a binomial's standard deviation is 3.5 points) and never draws."""
    assert evaluate(ILLEGAL, seat, 5) == example.Record(wins=0, losses=200, draws=0)
    record = evaluate(RANDOM, seat, 11)
    assert record.games == 200 and record.draws == 0  # one Obonto game never ends level
    assert 0.38 <= record.win_rate <= 0.62, record


def _rules_engine_rate(games: int, seed: int) -> float:
    """The last-legal-action player (first seat) against a random one, on the rules engine."""
    rng = random.Random(seed)
    won = 0
    for _ in range(games):
        state = ObontoGame().new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(max(legal) if state.current_player() == 0 else rng.choice(legal))
        won += state.returns()[0] > 0
    return won / games


def test_the_evaluation_agrees_with_the_rules_engine_on_a_fixed_player(evaluate: Any) -> None:
    """Playing the last legal action (the largest id: moves toward the far side) against random
    wins about three games in four; the batch evaluation's rate and the rules engine's, 200
    games each, differ by sampling only (a standard deviation of about 4 points)."""
    batch = evaluate(LAST_LEGAL, 0, 21).win_rate
    rules = _rules_engine_rate(200, seed=21)
    assert rules > 0.65, "this player is far from random, so a seat mix-up would show"
    assert abs(batch - rules) < 0.12, (batch, rules)


def test_a_few_ppo_iterations_run_with_finite_losses_and_move_the_weights(env: Any) -> None:
    settings = example.Settings(envs=8, steps=8, hidden=16, epochs=2, minibatches=2)
    before = example.init_params(jax.random.split(jax.random.PRNGKey(0))[1], settings.hidden)
    params, history = example.train(env, settings, 0, seconds=600, iterations=3, log=lambda _: 0)
    assert len(history) == 3
    assert all(np.isfinite(s.loss) and s.entropy > 0 for s in history)
    assert all(0 <= s.wins <= s.games for s in history)
    assert all(not np.allclose(a, b) for (a, _), (b, _) in zip(before, params))
