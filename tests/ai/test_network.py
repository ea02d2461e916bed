"""The shipped networks: each loads without JAX, fits its game, and its expert plays legally."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import boneyard
from boneyard.ai import make_bot
from boneyard.ai.network import available_models, fits, load_network

SHIPPED = available_models()


def test_networks_are_shipped_for_the_first_games() -> None:
    assert {"obonto", "bones"} <= set(SHIPPED)


@pytest.mark.parametrize("name", SHIPPED)
def test_a_shipped_model_loads_and_its_shapes_fit(name: str) -> None:
    game = boneyard.load_game(name)
    network = load_network(name)
    assert fits(network, game)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    size = network.weights[0][0].shape[0]
    logits, value = network.forward(np.zeros((3, size), np.float32))
    # one value (the mover's: the files trained before issue 43), or one a seat
    assert network.value_outputs in (1, game.num_players())
    assert logits.shape == (3, sum(network.head_sizes))
    assert value.shape == (3, network.value_outputs)
    policy, value1 = network.evaluate(state)
    assert sorted(policy) == state.legal_actions() and -1 <= value1 <= 1
    _, seats = network.evaluate_seats(state)
    assert len(seats) == game.num_players() and all(-1 <= v <= 1 for v in seats)


@pytest.mark.parametrize("name", SHIPPED)
def test_a_shipped_experts_move_is_legal(name: str) -> None:
    game = boneyard.load_game(name)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    bot = make_bot("expert", game, state.current_player(), seed=1, iterations=30, time_limit=None)
    assert bot.network is not None  # type: ignore[attr-defined]
    assert bot.step(state) in state.legal_actions()


def test_expert_without_a_fitting_network_searches_with_the_heuristic() -> None:
    game = boneyard.load_game("oyno_puzzle")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    bot = make_bot("expert", game, state.current_player(), seed=1, iterations=20, time_limit=None)
    assert bot.network is None  # type: ignore[attr-defined]
    assert bot.step(state) in state.legal_actions()


def test_playing_with_a_network_does_not_import_jax() -> None:
    code = (
        "import sys, boneyard\n"
        "from boneyard.ai import make_bot\n"
        "from boneyard.ai.network import available_models\n"
        "for name in available_models():\n"
        "    game = boneyard.load_game(name)\n"
        "    state = game.new_initial_state()\n"
        "    while state.is_chance_node():\n"
        "        state.apply_action(state.legal_actions()[0])\n"
        "    make_bot('expert', game, state.current_player(), iterations=5).step(state)\n"
        "bad = [m for m in ('jax', 'jaxlib', 'optax', 'mctx') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_the_network_evaluator_gives_the_search_its_policy_over_legal_moves() -> None:
    from boneyard.ai.evaluators import HeuristicEvaluator
    from boneyard.ai.network import NetworkEvaluator

    state = boneyard.load_game("bones").new_initial_state()
    evaluator = NetworkEvaluator(load_network("bones"))
    assert evaluator.priors() == {}, "nothing evaluated yet"
    evaluator.evaluate(state.clone(), 0)
    priors = evaluator.priors()
    assert set(priors) == set(state.legal_actions())
    assert sum(priors.values()) == pytest.approx(1.0)
    heuristic = HeuristicEvaluator()
    heuristic.evaluate(state.clone(), 0)
    assert heuristic.priors() == {}, "no policy: the search takes moves as equally likely"
