"""The network and the ``expert``'s search in Rust (issue 43, item 5), held to the Python ones:
the forward pass equals numpy's on the shipped networks and on untrained per-seat ones; in the
perfect-information games the native search's root visits equal the Python ``ExpertBot``'s for
the same network and iterations; in the hidden-information games two states alike to the mover
get the same native targets; batching searches together changes nothing."""

from __future__ import annotations

import functools
import random
from typing import Any

import numpy as np
import pytest

from boneyard import native
from boneyard.ai.expert import ExpertBot
from boneyard.ai.network import Network, NetworkEvaluator, available_models, load_network
from boneyard.native.network import expert_search

pytest.importorskip("jax")
pytest.importorskip("optax")


def _positions(game: Any, count: int, seed: int, longest: int = 60) -> list[Any]:
    """Decisions with a choice from random games of ``game``, a few moves apart."""
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        state = game.new_initial_state()
        stop = rng.randrange(longest)
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, chances = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, chances)[0])
                continue
            if moves >= stop and len(state.legal_actions()) > 1:
                found.append(state.clone())
                break
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
    return found


def _untrained(name: str, params: dict[str, Any]) -> tuple[Any, Network]:
    """A game's native engine and an untrained network with a value per seat, its heads
    scaled up so the priors are far from uniform (made once a setting: a model's heads come
    from the JAX batch engine, slow to make)."""
    return _made_untrained(name, tuple(sorted(params.items())))


@functools.cache
def _made_untrained(name: str, settings: tuple[tuple[str, Any], ...]) -> tuple[Any, Network]:
    import jax

    from boneyard.ai.training.selfplay import Model, TrainConfig

    model = Model(TrainConfig(game=name, params=dict(settings), hidden=32))
    weights = {k: np.asarray(v) for k, v in model.init(jax.random.PRNGKey(0)).items()}
    weights["wp"] = weights["wp"] * 100.0
    weights["wv"] = weights["wv"] * 30.0
    return model.game, Network(weights, model.inference_config({}))


UNTRAINED = [
    ("bonbon", {"players": 3}),
    ("bondo_cones", {}),
    ("oyno_puzzle", {"size": 3, "bones": 2}),
    ("bones", {}),
]


def _check_forward(game: Any, network: Network) -> None:
    positions = _positions(game, 40, seed=3)
    features = np.stack([network.features(s, s.current_player()) for s in positions])
    logits, values = network.forward(features)
    native_logits, native_values = network.native().forward(features)
    assert np.abs(native_logits - logits).max() < 1e-5
    assert np.abs(native_values - values).max() < 1e-5
    for state in positions:
        policy, seats = network.evaluate_seats(state)
        native_policy, native_seats = network.native().evaluate_seats(state)
        assert sorted(native_policy) == sorted(policy) == state.legal_actions()
        assert max(abs(native_policy[a] - policy[a]) for a in policy) < 1e-5
        assert np.allclose(native_seats, seats, atol=1e-5, rtol=0)


@pytest.mark.parametrize("name", available_models())
def test_the_native_forward_pass_equals_numpys_on_the_shipped_networks(name: str) -> None:
    _check_forward(native.load_game(name), load_network(name))


@pytest.mark.parametrize(("name", "params"), UNTRAINED)
def test_the_native_forward_pass_equals_numpys_on_untrained_seat_networks(
    name: str, params: dict[str, Any]
) -> None:
    _check_forward(*_untrained(name, params))


def _python_visits(network: Network, state: Any, iterations: int, exact_chance: int) -> list[int]:
    """The Python expert's root visits per legal action, its leaves valued by the network
    computed in Rust (the same numbers for both searches: only the searches are compared)."""
    evaluator = NetworkEvaluator(network.native())  # type: ignore[arg-type]
    bot = ExpertBot(
        state.game,
        state.current_player(),
        seed=0,
        use_solver=False,
        iterations=iterations,
        time_limit=None,
        exact_chance=exact_chance,
        evaluator=evaluator,
    )
    root = bot.search(state)
    return [root.children[a].visits if a in root.children else 0 for a in state.legal_actions()]


PERFECT = [
    ("bones", {}, "shipped"),
    ("obonto", {}, "shipped"),
    ("oyno", {}, "shipped"),
    ("bones", {"width": 4, "height": 4, "pieces": 3}, "untrained"),
    ("oyno", {"size": 3, "bones_per_player": 2}, "untrained"),
    ("oyno_puzzle", {"size": 3, "bones": 2}, "untrained"),
]


@pytest.mark.parametrize(("name", "params", "which"), PERFECT)
def test_the_native_search_visits_equal_the_python_experts(
    name: str, params: dict[str, Any], which: str
) -> None:
    """Same network, same iterations: the same root visits, action by action, in positions of
    every perfect-information game (OYNO's dice through the exact expectation and the
    visit-share rule, both ``exact_chance`` settings)."""
    if which == "shipped":
        game, network = native.load_game(name), load_network(name)
    else:
        game, network = _untrained(name, params)
    positions = _positions(game, 6, seed=11)
    for exact_chance in (12, 0) if game.chance else (12,):
        for state in positions:
            want = _python_visits(network, state, 48, exact_chance)
            [got] = expert_search(
                [state], network.native(), iterations=48, seeds=[5], exact_chance=exact_chance
            )
            assert got.actions == state.legal_actions()
            assert got.visits == want, (state.history(), exact_chance)


def test_searches_side_by_side_give_what_each_gives_alone() -> None:
    game, network = _untrained("bonbon", {"players": 3})
    positions = _positions(game, 5, seed=2)
    seeds = [7, 8, 9, 10, 11]
    together = expert_search(positions, network.native(), iterations=40, seeds=seeds)
    alone = [
        expert_search([s], network.native(), iterations=40, seeds=[seed])[0]
        for s, seed in zip(positions, seeds)
    ]
    assert together == alone
    assert all(sum(r.visits) == 39 for r in together)  # the first iteration values the root
    threaded = expert_search(positions, network.native(), iterations=40, seeds=seeds, threads=2)
    assert threaded == together


@pytest.mark.parametrize(("name", "params"), [("bonbon", {}), ("bondo_cones", {})])
def test_two_states_alike_to_the_mover_get_the_same_native_targets(
    name: str, params: dict[str, Any]
) -> None:
    """The native search reads the mover's view only: a resample of the true state (the same
    observation, other hidden cards or cones) gives the same visits for the same seed."""
    game, network = _untrained(name, params)
    for true in _positions(game, 4, seed=1, longest=12):
        mover = true.current_player()
        other = true.resample(mover, random.Random(5))
        assert true.observation(mover) == other.observation(mover)
        assert true.to_json() != other.to_json()  # the hidden part differs
        first, second = (
            expert_search([s], network.native(), iterations=48, seeds=[3])[0] for s in (true, other)
        )
        assert first == second
        assert sum(first.visits) == 47


def test_a_bad_search_request_is_a_sentence() -> None:
    game, network = _untrained("bones", {"width": 4, "height": 4, "pieces": 3})
    state = game.new_initial_state()
    with pytest.raises(ValueError, match="iterations must be from 1"):
        expert_search([state], network.native(), iterations=0, seeds=[1])
    with pytest.raises(ValueError, match="threads must be from 1 to 256"):
        expert_search([state], network.native(), iterations=4, seeds=[1], threads=0)
    with pytest.raises(ValueError, match="1 seeds for 2 states"):
        expert_search([state, state], network.native(), iterations=4, seeds=[1])
    other = native.load_game("bones").new_initial_state()
    with pytest.raises(ValueError, match="one game"):
        expert_search([state, other], network.native(), iterations=4, seeds=[1, 2])


@pytest.mark.parametrize(
    ("name", "params"), [("bonbon", {"players": 3}), ("oyno", {"size": 3, "bones_per_player": 2})]
)
def test_native_self_play_gives_the_targets_format(name: str, params: dict[str, Any]) -> None:
    """``self_play`` on the native search: the step's games side by side, each position the
    mover's features, its legal actions and visit shares over them, and per-seat value targets
    (the mover first) summing to zero; the same seed gives the same games."""
    import jax

    from boneyard.ai.training.selfplay import Model, TrainConfig, native_search, self_play

    model = Model(TrainConfig(game=name, params=params, hidden=8, batch=3, simulations=8))
    assert native_search(model)
    weights = model.init(jax.random.PRNGKey(0))
    positions, ended = self_play(model, weights, seed=4)
    assert ended == 3 and positions
    network = model.network(weights)
    for position in positions:
        assert position.features.shape == (network.weights[0][0].shape[0],)
        assert position.actions == sorted(position.actions)
        assert len(position.policy) == len(position.actions)
        assert sum(position.policy) == pytest.approx(1.0)
        assert position.values is not None and len(position.values) == model.num_players
        assert sum(position.values) == pytest.approx(0.0, abs=1e-9)
    again, _ = self_play(model, weights, seed=4)
    assert [(p.actions, p.policy, p.values) for p in again] == [
        (p.actions, p.policy, p.values) for p in positions
    ]
    model.config.threads = 2  # the step's games split over two threads: the same games
    threaded, _ = self_play(model, weights, seed=4)
    assert [(p.actions, p.policy, p.values) for p in threaded] == [
        (p.actions, p.policy, p.values) for p in positions
    ]


def test_the_search_setting_is_checked() -> None:
    from boneyard.ai.training.selfplay import Model, TrainConfig, native_search

    with pytest.raises(ValueError, match="search must be one of native, python"):
        TrainConfig(game="bones", search="rust").check()
    with pytest.raises(ValueError, match="threads must be at least 1"):
        TrainConfig(game="bones", threads=0).check()
    assert not native_search(Model(TrainConfig(game="bones", hidden=8, search="python")))
    assert not native_search(Model(TrainConfig(game="bones", hidden=8, engine="python")))
