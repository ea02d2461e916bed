"""Chance nodes in the training search (Stochastic MuZero over the batch engines' split step):
a root action's value is the expectimax of its chance outcomes, brute-forced on the rules engine
with the same network in numpy, in small positions of wild OYNO (a roll, 2 outcomes) and
Bon-Bon (a card then a peek or the tiles, 196 joint outcomes)."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("optax")
pytest.importorskip("mctx")

import jax
import jax.numpy as jnp

import boneyard.jax
from boneyard.ai.network import Network
from boneyard.core.game import State
from boneyard.core.registry import load_game
from tests.jax.equality import _force_chance

SMALL_WILD_OYNO = {"size": 3, "bones_per_player": 3, "wild": True}


def _chance_sequences(state: State) -> list[tuple[float, State]]:
    """Every way chance can go from ``state`` to the next decision (or the end), with its
    probability, enumerated node by node on the rules engine."""
    if not state.is_chance_node():
        return [(1.0, state)]
    out = []
    for outcome, probability in state.chance_outcomes():
        child = state.clone()
        child.apply_action(outcome)
        out += [(probability * p, leaf) for p, leaf in _chance_sequences(child)]
    return out


def _expectimax(state: State, action: int, network: Network) -> tuple[float, list[float]]:
    """The mover's value of ``action``, one decision deep: the expectation over the chance that
    follows of the reward (the returns where the game ends) plus the network's value of the next
    position, counted against the mover where the other seat moves next; and each outcome's
    value alone."""
    mover = state.current_player()
    after = state.clone()
    after.apply_action(action)
    values, probabilities = [], []
    for probability, leaf in _chance_sequences(after):
        if leaf.is_terminal():
            value = float(np.sign(leaf.returns()[mover]))
        else:
            _, leaf_value = network.evaluate(leaf)
            value = leaf_value if leaf.current_player() == mover else -leaf_value
        values.append(value)
        probabilities.append(probability)
    return float(np.dot(probabilities, values)), values


@cache
def _positions(name: str, frozen: tuple[tuple[str, Any], ...], count: int, seed: int) -> Any:
    """``count`` positions a few random moves into games, on the batch engine and the rules
    engine alike (the rules engine's chance forced to the batch engine's draws)."""
    params = dict(frozen)
    env = boneyard.jax.make(name, **params)
    game = load_game(name, **params)
    init, step = jax.jit(env.init), jax.jit(env.step)
    rng = random.Random(seed)
    key = jax.random.PRNGKey(seed)
    states: list[Any] = []
    twins: list[State] = []
    while len(states) < count:
        key, init_key = jax.random.split(key)
        state = init(init_key)
        twin = game.new_initial_state()
        _force_chance(twin, np.asarray(state._chance))
        for _ in range(rng.randrange(1, 6)):
            action = rng.choice(twin.legal_actions())
            key, step_key = jax.random.split(key)
            state = step(state, jnp.int32(action), step_key)
            twin.apply_action(action)
            _force_chance(twin, np.asarray(state._chance))
            if twin.is_terminal():
                break
        if not twin.is_terminal():
            states.append(state)
            twins.append(twin)
    return jax.tree.map(lambda *leaves: jnp.stack(leaves), *states), twins


def _root_actions(
    name: str, params: dict[str, Any], positions: int, out: Path, **options: Any
) -> list[tuple[float, float, list[float]]]:
    """One simulation from each of ``positions`` positions: the search expands the root action
    PUCT picks (its prior and the root's Dirichlet noise). For each: the action's Q in the
    tree, its expectimax value (the rules engine, the same network in numpy) and each of its
    outcomes' values."""
    from boneyard.ai.training.runs import save_model
    from boneyard.ai.training.selfplay import Model, TrainConfig, make_search, searches_chance

    config = TrainConfig(
        game=name, params=params, hidden=8, layers=1, simulations=1, batch=positions, **options
    )
    model = Model(config)
    assert searches_chance(model.env)
    weights = model.init(jax.random.PRNGKey(1))  # a fixed evaluator, the same in numpy
    # values spread over [-1, 1] (a fresh value head says about 0 everywhere)
    weights["wv"] = jax.random.normal(jax.random.PRNGKey(5), weights["wv"].shape)
    save_model(out / "fixed.npz", weights, model.inference_config({}))
    network = Network.load(out / "fixed.npz")
    states, twins = _positions(name, tuple(sorted(params.items())), positions, 4)
    twins = [twin.clone() for twin in twins]
    tree = jax.jit(make_search(model))(weights, jax.random.PRNGKey(2), states).search_tree
    visits = np.asarray(tree.children_visits[:, 0])
    # a root action's Q: its reward (none before chance) plus its afterstate's value
    rewards, discounts = tree.children_rewards[:, 0], tree.children_discounts[:, 0]
    q = np.asarray(rewards + discounts * tree.children_values[:, 0])
    found = []
    for game, twin in enumerate(twins):
        for action in np.flatnonzero(visits[game] == 1).tolist():
            found.append((float(q[game, action]), *_expectimax(twin, action, network)))
    assert len(found) == positions
    return found


@pytest.mark.parametrize(
    ("name", "params", "positions"),
    [("oyno", SMALL_WILD_OYNO, 8), ("bonbon", {}, 8)],
    ids=["wild-oyno", "bonbon"],
)
def test_root_values_equal_expectimax_over_the_chance_outcomes(
    name: str, params: dict[str, Any], positions: int, tmp_path: Path
) -> None:
    """An action's Q after its first visit is its afterstate's value, which must be the
    expectation over every chance outcome, not the value of one outcome drawn."""
    random_actions = 0
    for q, expected, outcome_values in _root_actions(name, params, positions, tmp_path):
        assert q == pytest.approx(expected, abs=1e-4)
        # an action whose outcomes differ: a value from one outcome drawn would be off
        random_actions += max(outcome_values) - min(outcome_values) > 0.02
    assert random_actions >= 2, "too few actions were valued over chance: nothing was tested"


def test_past_exact_outcomes_an_afterstate_is_valued_by_sampled_outcomes(tmp_path: Path) -> None:
    """With ``exact_outcomes=1`` a wild roll (2 outcomes) is valued by one outcome sampled."""
    sampled = 0
    for q, expected, outcome_values in _root_actions(
        "oyno", SMALL_WILD_OYNO, 8, tmp_path, exact_outcomes=1
    ):
        assert min(abs(np.asarray(outcome_values) - q)) < 1e-4
        sampled += abs(q - expected) > 0.02
    assert sampled >= 1


def test_a_chance_nodes_visits_follow_the_outcomes_probabilities() -> None:
    """64 simulations from two wild OYNO positions: every afterstate visited again sends its
    later visits to its outcomes in proportion to their probabilities, a child per outcome
    (stepping with a key in one recurrent function kept one outcome per edge for good)."""
    from boneyard.ai.training.selfplay import Model, TrainConfig, make_search

    config = TrainConfig(
        game="oyno", params=SMALL_WILD_OYNO, hidden=8, layers=1, simulations=64, batch=2
    )
    model = Model(config)
    env = model.env
    weights = model.init(jax.random.PRNGKey(3))
    weights["wv"] = jax.random.normal(jax.random.PRNGKey(6), weights["wv"].shape)
    states, _ = _positions("oyno", tuple(sorted(SMALL_WILD_OYNO.items())), 2, 4)
    tree = jax.jit(make_search(model))(weights, jax.random.PRNGKey(7), states).search_tree
    # the node arrays are whole (only the children arrays are cut to the decisions' actions)
    parents = np.asarray(tree.parents)
    outcome_of = np.asarray(tree.action_from_parent) - env.num_actions
    visits = np.asarray(tree.node_visits)
    decision = np.asarray(tree.embeddings.is_decision_node)
    probs = np.asarray(
        jax.jit(jax.vmap(jax.vmap(env.chance_outcome_probs)))(tree.embeddings.afterstate_embedding)
    )
    checked = 0
    for game, node in zip(*np.nonzero(~decision & (visits >= 3)), strict=True):
        children = np.flatnonzero(parents[game] == node)
        counts = np.zeros(env.num_chance_outcomes)
        counts[outcome_of[game, children]] = visits[game, children]
        later = visits[game, node] - 1  # the first visit valued the afterstate exactly
        assert counts.sum() == later
        assert np.all(np.abs(counts - probs[game, node] * later) <= 1.0), (counts, later)
        checked += int(np.count_nonzero(probs[game, node]) > 1)
    assert checked >= 1, "no afterstate with chance was visited three times: nothing was tested"


def test_training_on_a_game_with_chance_searches_chance_nodes(tmp_path: Path) -> None:
    """A training step on wild OYNO runs the Stochastic MuZero search end to end: its policy
    targets are root visit counts (a distribution over legal moves), its losses finite."""
    from boneyard.ai.training import TrainConfig, train

    config = TrainConfig(
        game="oyno",
        params=SMALL_WILD_OYNO,
        steps=1,
        batch=2,
        unroll=3,
        simulations=4,
        hidden=8,
        layers=1,
        eval_every=0,
    )
    line = train(config, tmp_path)
    assert line["step"] == 1
    assert np.isfinite(line["loss"]) and line["policy_loss"] > 0.0


def test_exact_outcomes_below_one_is_refused() -> None:
    from boneyard.ai.training.selfplay import Model, TrainConfig, make_chance_fns

    model = Model(TrainConfig(game="oyno", params=SMALL_WILD_OYNO, exact_outcomes=0))
    with pytest.raises(ValueError, match="exact_outcomes must be at least 1"):
        make_chance_fns(model)
