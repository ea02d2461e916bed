"""The batch-engine protocol: registry, sampler, illegal actions, finished games, chance odds."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("jax")

import jax
import jax.numpy as jnp

import boneyard.jax
from boneyard.core.errors import InvalidParameterError, UnknownGameError
from boneyard.jax.core import random_legal_action


def test_boneyard_imports_without_jax() -> None:
    code = (
        "import sys, boneyard, boneyard.ai, boneyard.interop\n"
        "from boneyard.core.registry import list_games\n"
        "list_games()\n"
        "assert 'jax' not in sys.modules, sorted(m for m in sys.modules if 'jax' in m)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_make_names_the_games_it_has_and_checks_parameters() -> None:
    assert set(boneyard.jax.available_games()) >= {"obonto", "oyno", "oyno_puzzle", "bones"}
    with pytest.raises(UnknownGameError, match=r"batch engines exist for: .*bones"):
        boneyard.jax.make("chess")
    with pytest.raises(InvalidParameterError, match="bones_per_player"):
        boneyard.jax.make("oyno", size=3, bones_per_player=4)
    with pytest.raises(InvalidParameterError, match="difficulty"):
        boneyard.jax.make("oyno_puzzle", size=3, bones=5, difficulty=2)


@pytest.mark.parametrize(
    ("size", "legal"),
    [
        (6561, [0, 80, 81, 3000, 6560]),  # 6560: past the sampler's grid of words
        (161, [3, 4, 150, 160]),
        (9, [0, 4, 8]),
        (43923, [1, 2, 20000, 43847, 43922]),
    ],
)
def test_random_legal_action_is_uniform_over_the_legal_ids(size: int, legal: list[int]) -> None:
    mask = np.zeros(size, dtype=bool)
    mask[legal] = True
    draw = jax.jit(jax.vmap(random_legal_action, in_axes=(0, None)))
    picks = np.asarray(draw(jax.random.split(jax.random.PRNGKey(0), 5000), jnp.asarray(mask)))
    ids, counts = np.unique(picks, return_counts=True)
    assert ids.tolist() == legal
    expected = 5000 / len(legal)
    assert counts.min() > 0.85 * expected and counts.max() < 1.15 * expected


def test_an_illegal_action_ends_the_game_with_a_penalty_for_its_chooser() -> None:
    env = boneyard.jax.make("obonto")
    state = env.init(jax.random.PRNGKey(0))
    illegal = int(np.flatnonzero(~np.asarray(state.legal_action_mask))[0])
    after = env.step(state, illegal)
    assert bool(after.terminated)
    assert np.asarray(after.rewards).tolist() == [-1.0, 1.0]
    assert np.asarray(after.legal_action_mask).all()
    again = env.step(after, 0)
    assert np.asarray(again.rewards).tolist() == [0.0, 0.0]
    assert bool(again.terminated)


def test_the_puzzle_deal_and_the_wild_roll_have_the_rules_engine_odds() -> None:
    # 3 bones on 3x3: the allowed side patterns are the six with one or two up bones, all
    # equally likely, so one up bone half the time; each bone on each of 8 cells alike
    puzzle = boneyard.jax.make("oyno_puzzle", size=3, bones=3)
    deals = jax.jit(jax.vmap(puzzle.init))(jax.random.split(jax.random.PRNGKey(1), 4000))
    up = np.asarray(puzzle.bits.unpack(deals._up))
    ups = up.sum(axis=1)
    assert set(ups.tolist()) == {1, 2}
    assert 0.46 < (ups == 1).mean() < 0.54
    per_cell = np.asarray(puzzle.bits.unpack(deals._occupied)).mean(axis=0)
    assert per_cell[4] == 0.0  # the center
    assert np.all(np.abs(np.delete(per_cell, 4) - 3 / 8) < 0.04)
    # a wild place: the bone rolls up or down, one half each
    duel = boneyard.jax.make("oyno", wild=True)
    start = duel.init(jax.random.PRNGKey(0))
    n = duel.cells
    rolls = jax.jit(jax.vmap(duel.step, in_axes=(None, None, 0)))(
        start, n + 0, jax.random.split(jax.random.PRNGKey(2), 4000)
    )
    assert 0.46 < np.asarray(duel.bits.unpack(rolls._up)[:, 0]).mean() < 0.54
    assert set(np.asarray(rolls._chance[:, 0]).tolist()) == {0, 1}


@pytest.mark.parametrize(
    ("name", "params"), [("bonbon", {}), ("bondo_cones", {}), ("oyno", {"wild": True})]
)
def test_a_step_that_draws_chance_refuses_to_run_without_a_key(name: str, params: dict) -> None:
    env = boneyard.jax.make(name, **params)
    state = env.init(jax.random.PRNGKey(0))
    action = int(np.flatnonzero(np.asarray(state.legal_action_mask))[0])
    with pytest.raises(ValueError, match="needs a key"):
        env.step(state, action)
    # with a key it steps
    assert int(env.step(state, action, jax.random.PRNGKey(1))._step_count) == 1


def test_a_game_without_chance_in_its_steps_steps_without_a_key() -> None:
    for name, params in [("obonto", {}), ("bones", {}), ("oyno", {}), ("oyno_puzzle", {})]:
        env = boneyard.jax.make(name, **params)
        assert not env.step_draws_chance
        state = env.init(jax.random.PRNGKey(0))
        action = int(np.flatnonzero(np.asarray(state.legal_action_mask))[0])
        assert int(env.step(state, action)._step_count) == 1
