"""The learned expert's targets made honest (issue 43, item 5): the self-play search sees only
the acting seat's information, any number of seats trains with one value per seat, the value
targets are what the game's returns say (held against a brute-force expectimax), the reported
score is on held-out games beside an untrained network's, and a model names what made it."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("optax")

from boneyard.ai.network import Network, NetworkEvaluator, outcome_targets
from boneyard.ai.training.selfplay import (
    HELD_OUT_SEEDS,
    SELECTION_SEEDS,
    Model,
    TrainConfig,
    make_searchers,
    search_targets,
)
from boneyard.core.game import State


def _play_to_decision(game: Any, seed: int, moves: int) -> State:
    """A position after about ``moves`` random decisions where the mover has a choice."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    made = 0
    while True:
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, chances)[0])
            continue
        made += 1
        if made > moves and len(state.legal_actions()) > 1:
            return state
        state.apply_action(rng.choice(state.legal_actions()))


# ----- 1. hidden information --------------------------------------------------------------


@pytest.mark.parametrize("name", ["bonbon", "bondo_cones"])
def test_the_targets_of_two_states_alike_to_the_mover_are_the_same(name: str) -> None:
    """The old search ran on the true state (hidden cards and cones included), so two states
    the mover cannot tell apart got different targets; the expert's search resamples the
    mover's view at every iteration and gives the same targets for the same seed."""
    model = Model(TrainConfig(game=name, hidden=8, simulations=48))
    network = model.network(model.init(__import__("jax").random.PRNGKey(0)))
    true = _play_to_decision(model.game, seed=1, moves=6)
    mover = true.current_player()
    other = _play_to_decision(model.game, seed=1, moves=6).resample(mover, random.Random(5))
    assert true.observation(mover) == other.observation(mover)
    assert true.to_json() != other.to_json()  # the hidden part differs
    seen = [
        search_targets(make_searchers(model, network, seed=11)[mover], state)
        for state in (true, other)
    ]
    assert seen[0] == seen[1]
    features = [model.game.state_observation_tensor(s, mover) for s in (true, other)]
    assert list(features[0]) == list(features[1])


# ----- 2. any number of seats -------------------------------------------------------------


def _train_command(out: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", "from boneyard.cli import main; main()", "train"]
    command += [*arguments, "--steps=1", "--batch=1", "--simulations=4", "--hidden=8"]
    command += ["--eval-games=3", "--held-out-games=3", f"--out={out}", "--quiet"]
    return subprocess.run(command, capture_output=True, text=True, timeout=300)


def test_bonbon_trains_with_three_players_one_value_per_seat(tmp_path: Path) -> None:
    """``boneyard train bonbon -p players=3`` died with a traceback (two players only)."""
    done = _train_command(tmp_path, "bonbon", "-p", "players=3", "-p", "max_rounds=2")
    assert done.returncode == 0, done.stderr
    network = Network.load(tmp_path / "model.npz")
    assert network.value_outputs == 3
    import boneyard

    state = _play_to_decision(boneyard.load_game("bonbon", players=3, max_rounds=2), 2, 3)
    policy, values = network.evaluate_seats(state)
    assert len(values) == 3 and all(-1 <= v <= 1 for v in values)
    assert sorted(policy) == state.legal_actions()


def test_the_oyno_puzzle_trains_with_its_one_seat(tmp_path: Path) -> None:
    from boneyard.ai.training import train

    config = TrainConfig(
        game="oyno_puzzle",
        params={"size": 3, "bones": 2},
        steps=1,
        batch=1,
        simulations=4,
        hidden=8,
        eval_games=2,
        held_out_games=2,
    )
    assert train(config, tmp_path)["step"] == 1
    assert Network.load(tmp_path / "model.npz").value_outputs == 1


def test_a_bad_setting_is_a_sentence_not_a_traceback(tmp_path: Path) -> None:
    done = _train_command(tmp_path, "bonbon", "-p", "players=9")
    assert done.returncode != 0
    assert "Traceback" not in done.stderr and "players" in done.stderr
    assert not (tmp_path / "model.npz").exists()


# ----- 3. value targets -------------------------------------------------------------------


def test_a_shared_win_is_a_draw_and_n_seat_targets_sum_as_the_returns() -> None:
    """Bon-Bon gives 1 to each winner: a shared win of two read +0.2 for both seats."""
    assert outcome_targets([1.0, 1.0], 0.0, 1.0) == [0.0, 0.0]
    assert outcome_targets([1.0, 0.0], 0.0, 1.0) == [1.0, -1.0]
    assert outcome_targets([-1.0, 1.0], -1.0, 1.0) == [-1.0, 1.0]  # Bones
    assert outcome_targets([3.0, -3.0], -72.0, 72.0) == pytest.approx([3 / 72, -3 / 72])
    three = outcome_targets([0.0, 1.0, 1.0], 0.0, 1.0)  # two winners of three
    assert three == pytest.approx([-1.0, 0.5, 0.5]) and sum(three) == pytest.approx(0.0)
    assert outcome_targets([1.0], 0.0, 1.0) == [1.0] and outcome_targets([0.0], 0.0, 1.0) == [-1.0]


def _expectimax(state: State, low: float, high: float, budget: list[int]) -> list[float]:
    """Every seat's value target under perfect play (each seat taking its own best) and exact
    chance, by brute force; ``budget`` counts the nodes left (an exception once spent)."""
    budget[0] -= 1
    if budget[0] < 0:
        raise OverflowError
    if state.is_terminal():
        return outcome_targets(state.returns(), low, high)
    if state.is_chance_node():
        total = [0.0] * state.game.info.num_players
        for outcome, chance in state.chance_outcomes():
            child = state.clone()
            child.apply_action(outcome)
            for seat, value in enumerate(_expectimax(child, low, high, budget)):
                total[seat] += chance * value
        return total
    mover = state.current_player()
    best: list[float] | None = None
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        values = _expectimax(child, low, high, budget)
        if best is None or values[mover] > best[mover]:
            best = values
    assert best is not None
    return best


def _small_positions(game: Any, seeds: range, nodes: int) -> list[State]:
    """From random games, the earliest decision of each whose whole tree has at most
    ``nodes`` nodes and more than one legal move."""
    found = []
    low, high = game.info.min_utility, game.info.max_utility
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state()
        line = []
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, chances = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, chances)[0])
                continue
            line.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
        for position in line:
            if len(position.legal_actions()) < 2:
                continue
            try:
                _expectimax(position.clone(), low, high, [nodes])
            except OverflowError:
                continue
            found.append(position)
            break
    return found


SMALL = [
    ("bones", {"width": 3, "height": 3, "pieces": 2}),
    ("obonto", {}),
    ("oyno", {"size": 3, "bones_per_player": 2, "max_moves": 12}),
    ("oyno_puzzle", {"size": 3, "bones": 2, "max_moves": 6}),
]


@pytest.mark.parametrize(("name", "params"), SMALL)
def test_the_searchs_values_come_to_a_brute_force_expectimax(
    name: str, params: dict[str, Any]
) -> None:
    """The self-play search backs up every seat's value on the targets' scale: with enough
    iterations in a small position its best action's value is the expectimax value of the
    position (the targets of perfect play), for the mover, whatever the untrained network
    says at the leaves."""
    import jax

    model = Model(TrainConfig(game=name, params=params, hidden=8, simulations=3000))
    network = model.network(model.init(jax.random.PRNGKey(1)))
    low, high = model.utility_range
    positions = _small_positions(model.game, range(40), nodes=400)
    assert positions, "no small position found"
    for position in positions[:3]:
        mover = position.current_player()
        exact = _expectimax(position.clone(), low, high, [10**6])
        bot = make_searchers(model, network, seed=3)[mover]
        root = bot.search(position)
        best = max(root.children.values(), key=lambda child: child.visits)
        assert 2 * best.value() - 1 == pytest.approx(exact[mover], abs=0.05), position


@pytest.mark.parametrize(
    ("name", "params"), [("bonbon", {"players": 3, "max_rounds": 1}), ("bondo_cones", {})]
)
def test_the_hidden_games_targets_are_their_returns(name: str, params: dict[str, Any]) -> None:
    """In the hidden-information games a finished self-play game's targets are what its
    returns say, one per seat in the value head's order (the mover first), summing to zero."""
    import jax

    from boneyard.ai.training.selfplay import play_game

    model = Model(TrainConfig(game=name, params=params, hidden=8, simulations=2, batch=1))
    network = model.network(model.init(jax.random.PRNGKey(0)))
    positions, ended = play_game(model, network, seed=4)
    assert ended and positions
    for position in positions:
        assert position.values is not None
        assert sum(position.values) == pytest.approx(0.0, abs=1e-9)
    first = positions[0]
    assert first.values is not None
    # the first mover's own target is its head's first value
    evaluator = NetworkEvaluator(network)
    assert evaluator.network.value_outputs == model.num_players


# ----- 4. honest evaluation, provenance ---------------------------------------------------


def test_the_held_out_games_are_not_the_selection_games(tmp_path: Path) -> None:
    from boneyard.ai.training import train

    config = TrainConfig(
        game="bones",
        params={"width": 4, "height": 4, "pieces": 3},
        steps=1,
        batch=1,
        simulations=4,
        hidden=8,
        eval_every=1,
        eval_games=8,
        held_out_games=6,
    )
    line = train(config, tmp_path)
    assert HELD_OUT_SEEDS >= SELECTION_SEEDS + 8
    report = json.loads((tmp_path / "evaluation.json").read_text())
    assert report == line["held_out"]
    assert report["games"] == 6 and report["first_seed"] == HELD_OUT_SEEDS
    for name in ("score", "untrained"):
        low, high = report[name]["interval"]
        assert 0.0 <= low <= report[name]["score"] <= high <= 1.0
    best = Network.load(tmp_path / "best.npz")
    assert best.config["trained"]["selection_seeds"] == SELECTION_SEEDS


def test_a_model_names_its_commit_versions_and_command(tmp_path: Path) -> None:
    import jax

    from boneyard.ai.training.runs import provenance, save_model

    model = Model(TrainConfig(game="bones", hidden=8))
    path = tmp_path / "m.npz"
    save_model(path, model.init(jax.random.PRNGKey(0)), model.inference_config({}))
    made_by = Network.load(path).config["made_by"]
    assert made_by == provenance()
    assert made_by["commit"] is None or len(made_by["commit"]) == 40
    assert {"python", "numpy", "jax", "optax"} <= set(made_by["versions"])
    assert isinstance(made_by["command"], str) and made_by["command"]


def test_an_old_model_file_without_provenance_or_seat_values_still_plays() -> None:
    from boneyard.ai.network import load_network

    network = load_network("bones")  # shipped before issue 43: one value, no made_by inside
    assert network.value_outputs == 1
    # what is known of how it was made comes from its sidecar
    assert "mctx" in network.config["made_by"]["pipeline"]
    assert network.config["made_by"]["command"].startswith("boneyard train bones")
    import boneyard

    state = boneyard.load_game("bones").new_initial_state()
    _, values = network.evaluate_seats(state)
    assert values[0] == pytest.approx(-values[1]) and math.isfinite(values[0])
    assert np.isfinite(network.forward(np.zeros(network.weights[0][0].shape[0]))[1]).all()


def test_an_old_model_file_without_a_sidecar_loads(tmp_path: Path) -> None:
    from boneyard.ai.network import shipped_model_path

    copy = tmp_path / "bones.npz"
    copy.write_bytes(shipped_model_path("bones").read_bytes())
    network = Network.load(copy)
    assert "made_by" not in network.config and network.value_outputs == 1


def test_the_update_fits_a_batch_of_per_seat_values() -> None:
    """The update's gradients reach the per-seat value head: the value loss of one batch of
    self-play positions falls to a fifth of its start in 150 Adam steps."""
    import jax
    import jax.numpy as jnp
    import optax

    from boneyard.ai.training.selfplay import batch_arrays, make_update, self_play

    config = TrainConfig(game="bonbon", batch=2, simulations=4, hidden=32, epochs=1)
    model = Model(config)
    params = model.init(jax.random.PRNGKey(0))
    positions, ended = self_play(model, params, seed=1)
    assert ended == 2
    batch = {k: jnp.asarray(v) for k, v in batch_arrays(positions, model.num_players).items()}
    optimizer = optax.adam(3e-3)
    state = optimizer.init(params)
    update = make_update(model, optimizer)
    params, state, (_, _, first) = update(params, state, batch)
    for _ in range(150):
        params, state, (_, _, last) = update(params, state, batch)
    assert float(last) < float(first) / 5


def test_a_checkpoint_of_the_earlier_training_is_refused_with_a_sentence(tmp_path: Path) -> None:
    """The earlier training's checkpoints have one value output: resuming one is refused,
    saying what to do, and nothing in the folder changes."""
    import jax
    import optax

    from boneyard.ai.training.runs import CheckpointMismatch, save_checkpoint, train

    config = TrainConfig(game="bones", hidden=8, steps=2, batch=1, simulations=2)
    model = Model(config)
    params = model.init(jax.random.PRNGKey(0))
    params["wv"], params["bv"] = params["wv"][:, :1], params["bv"][:1]  # the mover's value only
    save_checkpoint(tmp_path, params, optax.adam(1e-3).init(params), config, {"step": 1})
    before = (tmp_path / "checkpoint.npz").read_bytes()
    with pytest.raises(CheckpointMismatch, match="--fresh"):
        train(config, tmp_path)
    assert (tmp_path / "checkpoint.npz").read_bytes() == before
    assert not (tmp_path / "model.npz").exists()
