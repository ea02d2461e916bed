"""``boneyard train`` end to end in a few seconds: self-play, update, checkpoint, resume, load
in numpy, play a legal move; the numpy forward pass equals the JAX one; targets and the
evaluation read the game's returns; a run stopped by SIGINT resumes where it stopped."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("optax")

import boneyard
from boneyard.ai import make_bot
from boneyard.ai.network import Network

TINY = {
    "game": "bones",
    "batch": 2,
    "simulations": 4,
    "hidden": 16,
    "eval_every": 2,
    "eval_games": 4,
    "held_out_games": 4,
}


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from boneyard.ai.training import TrainConfig, train

    out = tmp_path_factory.mktemp("train")
    # a measurement against hard at step 2 (2 games, fast moves), in the worker
    watched = {"hard_every": 2, "hard_games": 2, "hard_time": 0.02}
    line = train(TrainConfig(steps=2, **TINY, **watched), out)  # type: ignore[arg-type]
    assert line["step"] == 2 and "score_vs_random" in line
    return out


def test_the_run_measures_its_snapshots_against_hard_and_plots_both_scores(
    trained: Path,
) -> None:
    log = [json.loads(line) for line in (trained / "log.jsonl").read_text().splitlines()]
    (strength,) = [
        json.loads(line) for line in (trained / "strength.jsonl").read_text().splitlines()
    ]
    assert strength["step"] == 2 and strength["opponent"] == "hard"
    assert strength["games"] == log[-1]["games"] and strength["seconds"] == log[-1]["seconds"]
    assert strength["wins"] + strength["draws"] + strength["losses"] == 2
    low, high = strength["interval"]
    assert 0.0 <= low <= strength["score_vs_hard"] <= high <= 1.0
    assert Network.load(trained / "snapshots" / "step-000002.npz").config["trained"]["step"] == 2
    pytest.importorskip("matplotlib")
    from boneyard.ai.training_plot import plot_run

    png = plot_run(trained, trained / "progress.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_training_writes_a_checkpoint_a_model_and_a_log(trained: Path) -> None:
    for name in ("checkpoint.npz", "config.json", "model.npz", "log.jsonl"):
        assert (trained / name).exists(), name
    lines = [json.loads(line) for line in (trained / "log.jsonl").read_text().splitlines()]
    assert [line["step"] for line in lines] == [1, 2]
    # the second update learns from both steps' positions (the window)
    assert lines[0]["learned_positions"] == lines[0]["positions"]
    assert lines[1]["learned_positions"] == lines[1]["positions"]
    assert all(np.isfinite(line["loss"]) for line in lines)
    assert json.loads((trained / "config.json").read_text())["step"] == 2


def test_training_resumes_from_its_checkpoint(trained: Path, tmp_path: Path) -> None:
    from boneyard.ai.training import TrainConfig, train

    out = tmp_path / "resumed"
    out.mkdir()
    for name in ("checkpoint.npz", "config.json"):
        (out / name).write_bytes((trained / name).read_bytes())
    before = Network.load(trained / "model.npz")
    line = train(TrainConfig(steps=3, **{**TINY, "hidden": 99}), out)  # type: ignore[arg-type]
    assert line["step"] == 3  # one more step, not three
    after = Network.load(out / "model.npz")
    assert after.config["hidden"] == 16  # the saved config wins over the new one
    assert after.config["trained"]["step"] == 3
    assert not np.array_equal(before.weights[0][0], after.weights[0][0])


def test_the_model_loads_in_numpy_and_plays_a_legal_move(trained: Path) -> None:
    game = boneyard.load_game("bones")
    state = game.new_initial_state()
    bot = make_bot(
        "expert",
        game,
        state.current_player(),
        seed=1,
        model=str(trained / "model.npz"),
        iterations=20,
        time_limit=None,
    )
    assert bot.network is not None  # type: ignore[attr-defined]
    assert bot.step(state) in state.legal_actions()
    policy, value = Network.load(trained / "model.npz").evaluate(state)
    assert sorted(policy) == state.legal_actions()
    assert abs(sum(policy.values()) - 1) < 1e-5 and -1 <= value <= 1


def test_numpy_forward_equals_jax_forward(trained: Path) -> None:
    import jax.numpy as jnp

    from boneyard.ai.training.selfplay import forward

    network = Network.load(trained / "model.npz")
    with np.load(trained / "model.npz") as data:
        params = {name: jnp.asarray(data[name]) for name in data.files if name != "config"}
    features = np.random.default_rng(0).random((5, network.weights[0][0].shape[0]), np.float32)
    logits, value = network.forward(features)
    jax_logits, jax_value = forward(params, jnp.asarray(features), network.layers)
    np.testing.assert_allclose(logits, np.asarray(jax_logits), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(value, np.asarray(jax_value), rtol=1e-4, atol=1e-5)


def test_the_flat_map_of_the_heads_is_the_batch_engines(trained: Path) -> None:
    import boneyard.jax

    for name in ("bones", "obonto", "oyno", "bondo_cones"):
        heads = boneyard.jax.make(name).action_heads
        from boneyard.ai.network import segment_maps

        segments = [[s.name, s.offset, s.rows, s.columns] for s in heads.segments]
        kind, row, column = segment_maps(segments, heads.num_actions)
        ids = np.arange(heads.num_actions)
        expected = [np.asarray(part) for part in heads.to_heads(ids)]
        for mine, theirs in zip((kind, row, column), expected):
            np.testing.assert_array_equal(mine, theirs)


def test_the_train_command_lists_its_options() -> None:
    from click.testing import CliRunner

    from boneyard.cli import main

    result = CliRunner().invoke(main, ["train", "--help"])
    assert result.exit_code == 0
    for option in ("--seed", "--steps", "--minutes", "--batch", "--simulations", "--out"):
        assert option in result.output


# ----- runs that survive ------------------------------------------------------------------------


def _steps(out: Path) -> list[int]:
    return [json.loads(line)["step"] for line in (out / "log.jsonl").read_text().splitlines()]


def test_a_run_stopped_by_sigint_checkpoints_and_resumes_its_step_numbers(tmp_path: Path) -> None:
    from boneyard.ai.training import TrainConfig, train
    from boneyard.ai.training.runs import load_checkpoint, saved_progress
    from boneyard.ai.training.selfplay import Model

    out = tmp_path / "run"
    options = [f"--{k.replace('_', '-')}={v}" for k, v in TINY.items() if k != "game"]
    command = [sys.executable, "-c", "from boneyard.cli import main; main()", "train", "bones"]
    command += [*options, "--steps=1000", "--checkpoint-every=1000", f"--out={out}", "--quiet"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    run = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        # wait on the run's own record, not a clock: three steps logged (the limit is a guard)
        for _ in range(2400):
            if (out / "log.jsonl").exists() and len(_steps(out)) >= 3:
                break
            if run.poll() is not None:
                pytest.fail(f"the run ended early: {run.stdout.read()!r}")  # type: ignore[union-attr]
            with contextlib.suppress(subprocess.TimeoutExpired):
                run.wait(timeout=0.25)
        run.send_signal(signal.SIGINT)
        output, _ = run.communicate(timeout=600)
    finally:
        if run.poll() is None:
            run.kill()
    assert run.returncode == 130, output
    assert b"stopped by SIGINT" in output
    stopped_at = _steps(out)[-1]
    assert _steps(out) == list(range(1, stopped_at + 1))
    # the checkpoint is the last step's, and whole: every weight and all of Adam's state
    progress = saved_progress(out)
    assert progress is not None and progress["step"] == stopped_at
    assert json.loads((out / "config.json").read_text())["step"] == stopped_at
    config = TrainConfig(**progress["config"])
    model = Model(config)
    import jax
    import optax

    params = model.init(jax.random.PRNGKey(0))
    opt_state = optax.adam(config.learning_rate).init(params)
    loaded, _, _ = load_checkpoint(out, params, opt_state)
    assert {name: value.shape for name, value in loaded.items()} == {
        name: value.shape for name, value in params.items()
    }
    assert Network.load(out / "model.npz").config["trained"]["step"] == stopped_at
    assert not list(out.glob("*.tmp*"))  # nothing left aside
    # a run killed hard after its checkpoint leaves log lines past it (and maybe a torn one)
    with (out / "log.jsonl").open("a") as log:
        log.write(json.dumps({"step": stopped_at + 1}) + "\n")
        log.write('{"step": ' + str(stopped_at + 2))
    line = train(TrainConfig(steps=stopped_at + 2, **TINY), out)  # type: ignore[arg-type]
    assert line["step"] == stopped_at + 2
    lines = [json.loads(text) for text in (out / "log.jsonl").read_text().splitlines()]
    assert [record["step"] for record in lines] == list(range(1, stopped_at + 3))
    assert [record["sitting"] for record in lines] == [1] * stopped_at + [2, 2]
    seconds = [record["seconds"] for record in lines]
    assert seconds == sorted(seconds)


def test_a_sitting_measures_the_snapshots_a_stopped_one_left_unmeasured(tmp_path: Path) -> None:
    from boneyard.ai.training.runs import _unmeasured

    (tmp_path / "snapshots").mkdir()
    for step in (1, 2, 4):
        (tmp_path / "snapshots" / f"step-{step:06d}.npz").write_bytes(b"")
    log = [{"step": s, "seconds": 10.0 * s, "games": 7 * s} for s in (1, 2, 3)]
    (tmp_path / "log.jsonl").write_text("".join(json.dumps(line) + "\n" for line in log))
    (tmp_path / "strength.jsonl").write_text(json.dumps({"step": 1, "score_vs_hard": 0.5}) + "\n")
    # step 1 is measured; step 4 lies past the checkpoint (step 3) and is taken again
    assert _unmeasured(tmp_path, 3) == [
        ({"step": 2, "seconds": 20.0, "games": 14}, tmp_path / "snapshots" / "step-000002.npz")
    ]
