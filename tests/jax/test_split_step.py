"""The split step (a decision, then a chance step with its outcome probabilities) against the
one-call step and the rules engine: the same states, the rules engine's chance distribution, and
an expectimax over the split step equal to one over the rules engine."""

from __future__ import annotations

import random
from collections import defaultdict
from functools import cache
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("jax")

import jax
import jax.numpy as jnp
import numpy as np

import boneyard.jax
from boneyard.core.game import Game
from boneyard.core.game import State as RulesState
from boneyard.core.registry import load_game
from tests.jax.equality import _force_chance

SMALL_WILD_OYNO = {"size": 3, "bones_per_player": 3, "wild": True}
CASES = [
    ("oyno", SMALL_WILD_OYNO),
    ("bondo_cones", {"target": 10, "setup": "random"}),
    ("bondo_cones", {"target": 10}),
    ("bonbon", {}),
    ("bonbon", {"players": 3, "max_rounds": 2}),
    ("bonbon", {"players": 2, "tiles": "0,0,9,9"}),
]


class Split:
    """One engine's step, split step and rules game, compiled once per case."""

    def __init__(self, name: str, params: dict[str, Any]) -> None:
        self.env = env = boneyard.jax.make(name, **params)
        self.game: Game = load_game(name, **params)
        self.init = jax.jit(env.init)
        self.step = jax.jit(env.step)
        self.probs = jax.jit(lambda s, a: env.chance_outcome_probs(env.decision_step(s, a)))
        outcomes = jnp.arange(env.num_chance_outcomes)
        self.children = jax.jit(
            lambda s, a: jax.vmap(env.chance_step, in_axes=(None, 0))(
                env.decision_step(s, a), outcomes
            )
        )
        self.drawn = jax.jit(env.drawn_outcome)
        self.observe = jax.jit(env.observe, static_argnums=1)


@cache
def _split(name: str, frozen: tuple[tuple[str, Any], ...]) -> Split:
    return Split(name, dict(frozen))


def _rules_chance(twin: RulesState) -> dict[tuple[int, ...], float]:
    """The rules engine's chance after a decision: each sequence of chance outcomes up to the
    next decision (or the end) and its probability."""
    if not twin.is_chance_node():
        return {(): 1.0}
    out: dict[tuple[int, ...], float] = defaultdict(float)
    for outcome, probability in twin.chance_outcomes():
        child = twin.clone()
        child.apply_action(outcome)
        for rest, weight in _rules_chance(child).items():
            out[(outcome, *rest)] += probability * weight
    return dict(out)


def _leaf(state: Any, index: int) -> Any:
    return jax.tree.map(lambda leaf: leaf[index], state)


def _assert_same(a: Any, b: Any) -> None:
    for x, y in zip(jax.tree.leaves(a), jax.tree.leaves(b), strict=True):
        assert np.array_equal(np.asarray(x), np.asarray(y))


@pytest.mark.parametrize(("name", "params"), CASES, ids=[f"{n}-{p}" for n, p in CASES])
def test_split_step_equals_step_and_the_rules_chance(name: str, params: dict[str, Any]) -> None:
    split = _split(name, tuple(sorted(params.items())))
    env = split.env
    rng = random.Random(3)
    key = jax.random.PRNGKey(3)
    key, init_key = jax.random.split(key)
    state = split.init(init_key)
    twin = split.game.new_initial_state()
    _force_chance(twin, np.asarray(state._chance))
    chance_steps = 0
    for _ in range(60):
        if twin.is_terminal():
            break
        action = rng.choice(twin.legal_actions())
        key, step_key = jax.random.split(key)
        stepped = split.step(state, jnp.int32(action), step_key)
        probs = np.asarray(split.probs(state, jnp.int32(action)), dtype=np.float64)
        children = split.children(state, jnp.int32(action))
        assert probs.shape == (env.num_chance_outcomes,)
        assert abs(probs.sum() - 1.0) < 1e-6
        drawn = int(split.drawn(stepped))
        assert probs[drawn] > 0.0
        # the one-call step is the decision then the chance step with the outcome it drew
        _assert_same(_leaf(children, drawn), stepped)
        # the outcome probabilities are the rules engine's, read as sequences of chance ids
        after = twin.clone()
        after.apply_action(action)
        ours: dict[tuple[int, ...], float] = defaultdict(float)
        for outcome in np.flatnonzero(probs > 0.0).tolist():
            drawn_ids = np.asarray(children._chance[outcome])
            ours[tuple(int(c) for c in drawn_ids if c >= 0)] += probs[outcome]
        expected = _rules_chance(after)
        assert ours.keys() == expected.keys()
        for sequence, probability in expected.items():
            assert ours[sequence] == pytest.approx(probability, abs=1e-6), sequence
        chance_steps += len(expected) > 1
        twin.apply_action(action)
        _force_chance(twin, np.asarray(stepped._chance))
        state = stepped
    assert chance_steps > 0, "no step met chance: the test compared nothing random"


def _weights(split: Split) -> np.ndarray:
    size = int(np.prod(split.game.observation_tensor_shape()))
    return np.random.default_rng(7).normal(size=size)


def _split_expectimax(split: Split, state: Any, depth: int, weights: np.ndarray) -> float:
    """Seat 0's value: max where seat 0 acts, min where seat 1 does, the expectation over
    ``chance_outcome_probs`` after each decision; a leaf is a fixed linear function of seat
    0's observation tensor."""
    if bool(state.terminated):
        return 0.0
    if depth == 0:
        return float(np.asarray(split.observe(state, 0), np.float64).reshape(-1) @ weights)
    values = []
    for action in np.flatnonzero(np.asarray(state.legal_action_mask)).tolist():
        probs = np.asarray(split.probs(state, jnp.int32(action)), np.float64)
        children = split.children(state, jnp.int32(action))
        value = 0.0
        for outcome in np.flatnonzero(probs > 0.0).tolist():
            child = _leaf(children, outcome)
            reward = float(child.rewards[0])
            value += probs[outcome] * (reward + _split_expectimax(split, child, depth - 1, weights))
        values.append(value)
    return max(values) if int(state.current_player) == 0 else min(values)


def _rules_expectimax(game: Game, twin: RulesState, depth: int, weights: np.ndarray) -> float:
    """The same search over the rules engine, chance enumerated node by node (the returns
    counted where the game ends, as the batch engine's rewards are)."""
    if twin.is_terminal():
        return float(twin.returns()[0])
    if twin.is_chance_node():
        return sum(
            probability * _rules_expectimax(game, _after(twin, outcome), depth, weights)
            for outcome, probability in twin.chance_outcomes()
        )
    if depth == 0:
        tensor = np.asarray(game.observation_tensor(twin.observation(0)), np.float64)
        return float(tensor.reshape(-1) @ weights)
    values = []
    for action in twin.legal_actions():
        values.append(_rules_expectimax(game, _after(twin, action), depth - 1, weights))
    return max(values) if twin.current_player() == 0 else min(values)


def _after(twin: RulesState, action: int) -> RulesState:
    child = twin.clone()
    child.apply_action(action)
    return child


def test_expectimax_over_the_split_step_equals_the_rules_engines() -> None:
    split = _split("oyno", tuple(sorted(SMALL_WILD_OYNO.items())))
    weights = _weights(split)
    rng = random.Random(5)
    key = jax.random.PRNGKey(5)
    state = split.init(key)
    twin = split.game.new_initial_state()
    compared = 0
    for _ in range(4):  # positions a few random moves in: wild bones on the board
        ours = _split_expectimax(split, state, 2, weights)
        theirs = _rules_expectimax(split.game, twin, 2, weights)
        assert ours == pytest.approx(theirs, abs=1e-5)
        compared += 1
        action = rng.choice(twin.legal_actions())
        key, step_key = jax.random.split(key)
        state = split.step(state, jnp.int32(action), step_key)
        twin.apply_action(action)
        _force_chance(twin, np.asarray(state._chance))
        if twin.is_terminal():
            break
    assert compared >= 2


def test_a_game_whose_steps_draw_nothing_has_one_sure_outcome() -> None:
    env = boneyard.jax.make("bones", width=4, height=4)
    state = env.init(jax.random.PRNGKey(0))
    action = jnp.int32(np.flatnonzero(np.asarray(state.legal_action_mask))[0])
    after = env.decision_step(state, action)
    assert after.is_stochastic and int(after.current_player) == int(state.current_player)
    assert env.num_chance_outcomes == 1
    assert np.asarray(env.chance_outcome_probs(after)).tolist() == [1.0]
    _assert_same(env.chance_step(after, 0), env.step(state, action))


def test_bonbon_split_step_draws_as_the_one_call_step() -> None:
    """Bon-Bon's step sampled many times from one position equals the split step in
    distribution: the frequencies of the outcomes it drew match ``chance_outcome_probs``."""
    split = _split("bonbon", ())
    env = split.env
    state = split.init(jax.random.PRNGKey(11))
    draw = jnp.int32(1)  # nt.DRAW: a card from a full deck
    assert bool(state.legal_action_mask[draw])
    probs = np.asarray(split.probs(state, draw), np.float64)
    samples = 20_000
    keys = jax.random.split(jax.random.PRNGKey(12), samples)
    stepped = jax.jit(jax.vmap(env.step, in_axes=(None, None, 0)))(state, draw, keys)
    drawn = np.asarray(jax.vmap(env.drawn_outcome)(stepped))
    frequencies = np.bincount(drawn, minlength=env.num_chance_outcomes) / samples
    assert np.flatnonzero(frequencies).tolist() == np.flatnonzero(probs).tolist()
    # four standard deviations of a binomial frequency at the largest probability (12/77)
    assert np.max(np.abs(frequencies - probs)) < 4 * np.sqrt(0.16 * 0.84 / samples)


def test_bonbon_with_chained_draws_has_no_split_step_and_says_so(tmp_path: Path) -> None:
    from tests.games.bonbon.bonbon_helpers import write_deck
    from tests.jax.test_bonbon import CHAINS

    # four face-up second helpings: a step can draw five cards, 8**5 x 8 joint outcomes
    env = boneyard.jax.make("bonbon", deck=write_deck(tmp_path / "deck.toml", *CHAINS))
    state = env.init(jax.random.PRNGKey(0))
    with pytest.raises(NotImplementedError, match="split step is not built"):
        env.decision_step(state, jnp.int32(0))
    assert boneyard.jax.make("bonbon").num_chance_outcomes == 14 * 14
