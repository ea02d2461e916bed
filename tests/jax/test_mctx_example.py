"""``examples/mctx_turns.py``: the values its recurrent function backs up equal a brute-force
search of the rules engine on small Obonto positions where a player moves twice in a row; the
``discount = -1`` of pgx's AlphaZero example gets them wrong there."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("mctx")

import jax
import jax.numpy as jnp

import boneyard
import boneyard.jax

EXAMPLE = Path(__file__).parents[2] / "examples" / "mctx_turns.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mctx_turns", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _negamax(state: Any) -> float:
    """The rules engine's value of ``state`` for its player to move (exhaustive)."""
    mover = state.current_player()
    best = -float("inf")
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        if child.is_terminal():
            value = child.returns()[mover]
        else:
            value = _negamax(child) * (1 if child.current_player() == mover else -1)
        best = max(best, value)
    return best


def _repeats(state: Any) -> bool:
    """Whether the tree below ``state`` has a player moving twice in a row."""
    if state.is_terminal():
        return False
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        if not child.is_terminal() and child.current_player() == state.current_player():
            return True
        if _repeats(child):
            return True
    return False


def _small_positions(count: int) -> list[list[int]]:
    """Histories of Obonto positions a few moves from the end whose tree has a repeated mover
    and at most a few dozen nodes."""
    game = boneyard.load_game("obonto")
    found: list[list[int]] = []
    for seed in range(50):
        rng = random.Random(seed)
        state, history = game.new_initial_state(), []
        while not state.is_terminal():
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            history.append(action)
        for back in (2, 3, 4):
            position = game.new_initial_state()
            for action in history[:-back]:
                position.apply_action(action)
            if _repeats(position):
                found.append(history[:-back])
                break
        if len(found) == count:
            return found
    raise AssertionError("no small Obonto position with a repeated mover")


def _search(recurrent_fn: Any, state: Any, num_actions: int) -> float:
    """The value mctx's backup gives ``state`` (its mover's view) when every node is expanded:
    the best ``reward + discount * value`` over the legal actions."""
    legal = np.flatnonzero(np.asarray(state.legal_action_mask[0]))
    best = -float("inf")
    for action in legal:
        output, child = recurrent_fn(None, jax.random.PRNGKey(0), jnp.array([action]), state)
        value = 0.0 if bool(child.terminated[0]) else _search(recurrent_fn, child, num_actions)
        best = max(best, float(output.reward[0]) + float(output.discount[0]) * value)
    return best


def test_the_recurrent_function_backs_up_the_brute_force_values() -> None:
    example = _example()
    env = boneyard.jax.make("obonto")
    game = boneyard.load_game("obonto")
    recurrent_fn = jax.jit(example.make_recurrent_fn(env, example.uniform_evaluate(env)))

    def naive(params: Any, key: Any, action: Any, state: Any) -> Any:
        output, child = recurrent_fn(params, key, action, state)
        alternating = jnp.where(child.terminated, 0.0, -1.0)  # pgx's AlphaZero example
        return output.replace(discount=alternating), child

    step = jax.jit(env.step)
    naive_wrong = 0
    for history in _small_positions(2):
        rules = game.new_initial_state()
        state = env.init(jax.random.PRNGKey(0))
        for action in history:
            rules.apply_action(action)
            state = step(state, action)
        batch = jax.tree_util.tree_map(lambda leaf: leaf[None], state)
        expected = _negamax(rules)
        assert _search(recurrent_fn, batch, env.num_actions) == pytest.approx(expected)
        naive_wrong += _search(naive, batch, env.num_actions) != pytest.approx(expected)
    assert naive_wrong > 0  # the alternating discount is silently wrong on these positions


def test_turn_discount_follows_the_player_to_move() -> None:
    example = _example()

    class Turn:
        def __init__(self, player: list[int], over: list[bool]) -> None:
            self.current_player = jnp.array(player)
            self.terminated = jnp.array(over)

    before = Turn([0, 0, 1], [False, False, False])
    after = Turn([0, 1, 1], [False, False, True])
    assert example.turn_discount(before, after).tolist() == [1.0, -1.0, 0.0]


def test_a_gumbel_muzero_search_runs_on_the_engine() -> None:
    example = _example()
    env = boneyard.jax.make("obonto")
    states = jax.vmap(env.init)(jax.random.split(jax.random.PRNGKey(0), 2))
    output = example.search(env, states, jax.random.PRNGKey(1), simulations=4)
    actions = np.asarray(output.action)
    assert np.asarray(states.legal_action_mask)[np.arange(2), actions].all()
