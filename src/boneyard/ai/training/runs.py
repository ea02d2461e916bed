"""A training run that survives: checkpoints, signals, sittings, and its strength over time.

``train(config, out)`` runs ``selfplay``'s steps and keeps ``out`` whole at every moment:

- **Checkpoints** every ``checkpoint_every`` steps, at the end, and on SIGINT or SIGTERM (the
  step in flight finishes, the checkpoint is written, the run stops; a second signal stops at
  once). ``checkpoint.npz`` holds everything a resume needs (weights, Adam's state, the config
  and the progress), written aside and renamed, so a kill at any moment leaves the old one or
  the new one, never half of one; ``config.json`` is a readable copy.
- **Resuming** continues from the checkpoint's step: the log's lines after it (steps a killed
  run took after its last checkpoint, now taken again) are dropped first, so the log's step
  numbers run on without a gap or a repeat. ``steps`` counts the whole run and ``minutes`` one
  sitting, so a run can be spread over many sittings, each resuming the last; the games in
  flight are not saved (a sitting starts new ones).
- **Strength over time**: every ``eval_every`` steps the network's most likely move against
  random on the rules engine, on the selection games (``selfplay.SELECTION_SEEDS``:
  ``score_vs_random`` in ``log.jsonl``; ``best.npz`` is the best of them); every
  ``hard_every`` steps the network is saved in ``snapshots/`` and a worker process plays it,
  as the ``expert`` bot, against ``hard`` on the rules engine (the arena, ``hard_games``
  games at ``hard_time`` seconds a move for both), while training goes on; each result is a
  line of ``strength.jsonl``, with the training's seconds and games at its step.
  ``boneyard.ai.training_plot`` draws both.
- **The reported score**: a run that reaches its last step scores ``best.npz`` and an untrained
  network of the same shapes on ``held_out_games`` held-out games (``selfplay.HELD_OUT_SEEDS``,
  none of them a selection game), with Wilson intervals, in ``evaluation.json``.
- **Provenance**: every model file's config has ``made_by``: the commit (and whether the work
  tree had changes), the library versions and the command that made it.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import importlib.metadata
import json
import math
import multiprocessing
import platform
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import optax

from boneyard.ai.arena import head_to_head
from boneyard.ai.network import Network
from boneyard.ai.stats import wilson_interval
from boneyard.ai.training.selfplay import (
    HELD_OUT_SEEDS,
    SELECTION_SEEDS,
    Model,
    Params,
    TrainConfig,
    batch_arrays,
    evaluate_network,
    make_update,
    self_play,
)

CHECKPOINT = "checkpoint.npz"
STATE_FILE = "config.json"
MODEL = "model.npz"
BEST = "best.npz"
LOG = "log.jsonl"
STRENGTH = "strength.jsonl"
EVALUATION = "evaluation.json"
MATCH_OPENING = 4
"""Random moves that open each game of a network against another network."""
SNAPSHOTS = "snapshots"

RUN_SETTINGS = (
    "steps",
    "threads",
    "minutes",
    "checkpoint_every",
    "eval_every",
    "eval_games",
    "held_out_games",
    "hard_every",
    "hard_games",
    "hard_time",
)
"""What a sitting may change in a resumed run (how long, how it is watched, and the threads its
native search uses, which change no game); the rest of the saved config (the network, the
search, the seed) wins over the new one."""


# ----- files, written aside and renamed -------------------------------------------------------


def _replace_text(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    tmp.replace(path)


LIBRARIES = ("numpy", "jax", "jaxlib", "optax")


def provenance(command: str | None = None) -> dict[str, Any]:
    """What made a model: the commit of the sources (``dirty`` where tracked files had
    changes), the library versions and the command (by default this process's own)."""
    source = Path(__file__).resolve().parent

    def git(*arguments: str) -> str | None:
        try:
            done = subprocess.run(
                ["git", *arguments], cwd=source, capture_output=True, text=True, timeout=10
            )
        except (OSError, subprocess.SubprocessError):
            return None
        return done.stdout.strip() if done.returncode == 0 else None

    versions = {"python": platform.python_version()}
    for name in ("boneyard", *LIBRARIES):
        with contextlib.suppress(importlib.metadata.PackageNotFoundError):
            versions[name] = importlib.metadata.version(name)
    status = git("status", "--porcelain", "--untracked-files=no")
    return {
        "commit": git("rev-parse", "HEAD"),
        "dirty": bool(status) if status is not None else None,
        "versions": versions,
        "command": command if command is not None else _command_line(),
    }


def _command_line() -> str:
    """This process's command line, ``boneyard ...`` where it is the CLI (its script, or
    ``python -c`` calling it)."""
    first = Path(sys.argv[0]).name if sys.argv else ""
    if first in ("-c", "boneyard"):
        return shlex.join(["boneyard", *sys.argv[1:]])
    return shlex.join(sys.argv)


def save_model(
    path: Path, params: Params, config: dict[str, Any], made_by: dict[str, Any] | None = None
) -> None:
    """A model file: the weights (float32) and the JSON config (with ``made_by``, by default
    this process's ``provenance``), one ``.npz``."""
    arrays: dict[str, Any] = {name: np.asarray(value, np.float32) for name, value in params.items()}
    config = {**config, "made_by": made_by if made_by is not None else provenance()}
    arrays["config"] = np.array(json.dumps(config))
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez_compressed(tmp, **arrays)
    tmp.replace(path)


def save_checkpoint(
    out: Path, params: Params, opt_state: Any, config: TrainConfig, progress: dict[str, Any]
) -> None:
    """``checkpoint.npz`` (weights, Adam's state, config and progress in one file, renamed into
    place) and its readable copy ``config.json``."""
    document = {"config": dataclasses.asdict(config), **progress}
    leaves = jax.tree_util.tree_leaves(opt_state)
    arrays: dict[str, Any] = {f"param_{name}": np.asarray(value) for name, value in params.items()}
    arrays.update({f"opt_{i}": np.asarray(leaf) for i, leaf in enumerate(leaves)})
    arrays["progress"] = np.array(json.dumps(document))
    tmp = out / (CHECKPOINT + ".tmp.npz")
    np.savez(tmp, **arrays)
    tmp.replace(out / CHECKPOINT)
    _replace_text(out / STATE_FILE, json.dumps(document, indent=2) + "\n")


def saved_progress(out: Path) -> dict[str, Any] | None:
    """The config and progress of ``out``'s checkpoint, or None where it has none."""
    if not (out / CHECKPOINT).exists():
        return None
    with np.load(out / CHECKPOINT) as data:
        if "progress" in data.files:
            document: dict[str, Any] = json.loads(str(data["progress"]))
            return document
    # a checkpoint from before the progress moved inside it
    return json.loads((out / STATE_FILE).read_text()) if (out / STATE_FILE).exists() else None


class CheckpointMismatch(ValueError):
    """A checkpoint whose weights do not have the shapes of the run resuming it."""


def load_checkpoint(
    out: Path, params: Params, opt_state: Any
) -> tuple[Params, Any, dict[str, Any]]:
    """The weights, optimiser state and progress saved in ``out`` (shaped like the given)."""
    document = saved_progress(out)
    if document is None:
        raise FileNotFoundError(f"no checkpoint in {out}")
    with np.load(out / CHECKPOINT) as data:
        shapes = {name: data[f"param_{name}"].shape for name in params if f"param_{name}" in data}
        expected = {name: tuple(value.shape) for name, value in params.items()}
        if shapes != expected:
            raise CheckpointMismatch(
                f"the checkpoint in {out} holds a network of other shapes (made by an earlier "
                "version of boneyard train, or for other settings): resume it with that "
                "version, or start afresh with --fresh or another --out"
            )
        loaded = {name: jnp.asarray(data[f"param_{name}"]) for name in params}
        leaves, tree = jax.tree_util.tree_flatten(opt_state)
        restored = [jnp.asarray(data[f"opt_{i}"]) for i in range(len(leaves))]
    return loaded, jax.tree_util.tree_unflatten(tree, restored), document


def read_lines(path: Path) -> list[dict[str, Any]]:
    """A JSON-lines file's records ([] where there is none; a torn last line is skipped)."""
    if not path.exists():
        return []
    records = []
    for text in path.read_text().splitlines():
        with contextlib.suppress(json.JSONDecodeError):
            records.append(json.loads(text))
    return records


def _drop_after(path: Path, step: int) -> None:
    """Keep the lines of steps up to ``step``: those after it are taken again."""
    records = read_lines(path)
    kept = [record for record in records if record.get("step", 0) <= step]
    if len(kept) != len(records) or (path.exists() and not path.read_text().endswith("\n")):
        _replace_text(path, "".join(json.dumps(record) + "\n" for record in kept))


# ----- stopping on a signal -------------------------------------------------------------------


class _Stop:
    """SIGINT and SIGTERM ask the run to stop after its step; a second one stops it at once."""

    def __init__(self) -> None:
        self.signal: str | None = None

    def __call__(self, number: int, frame: FrameType | None) -> None:
        if self.signal is not None:
            raise KeyboardInterrupt
        self.signal = signal.Signals(number).name


@contextlib.contextmanager
def _stopping_on_signals() -> Iterator[_Stop]:
    stop = _Stop()
    previous: dict[signal.Signals, Any] = {}
    try:
        for number in (signal.SIGINT, signal.SIGTERM):
            previous[number] = signal.signal(number, stop)
    except ValueError:  # not the main thread: signals stay the caller's
        pass
    try:
        yield stop
    finally:
        for kind, handler in previous.items():
            signal.signal(kind, handler)


# ----- strength against hard, in a worker -----------------------------------------------------


class _StrengthWorker:
    """One process that plays snapshots against ``hard`` (arena games: no JAX), one at a time,
    while training goes on. Results come back as ``strength.jsonl`` lines."""

    def __init__(self, config: TrainConfig, out: Path) -> None:
        self.config = config
        self.out = out
        self.pool: Any = None
        self.pending: list[tuple[dict[str, Any], Any]] = []

    def submit(self, snapshot: Path, facts: dict[str, Any]) -> None:
        c = self.config
        if self.pool is None:
            # spawn: a fork of a process running JAX's threads may hang
            self.pool = multiprocessing.get_context("spawn").Pool(1)
        expert = f"expert:model={snapshot}"
        task = self.pool.apply_async(
            head_to_head,
            (c.game, expert, "hard"),
            {
                "games": c.hard_games,
                "params": c.params,
                "seed": c.seed + int(facts["step"]),
                "time_limit": c.hard_time,
            },
        )
        self.pending.append((facts, task))

    def collect(self) -> None:
        """Log the measurements that have finished."""
        still = []
        for facts, task in self.pending:
            if task.ready():
                pair = task.get().pairs[0]
                low, high = pair.interval
                line = {
                    **facts,
                    "opponent": "hard",
                    "score_vs_hard": round(pair.score, 4),
                    "interval": [round(low, 4), round(high, 4)],
                    "wins": pair.wins,
                    "draws": pair.draws,
                    "losses": pair.losses,
                    "time_limit": self.config.hard_time,
                }
                with (self.out / STRENGTH).open("a") as file:
                    file.write(json.dumps(line) + "\n")
            else:
                still.append((facts, task))
        self.pending = still

    def close(self, wait: bool, stop: _Stop) -> None:
        """Wait for the measurements in flight (``wait``; a signal ends the wait) or drop them:
        a later sitting measures the snapshots left without a result."""
        if self.pool is None:
            return
        while wait and self.pending and stop.signal is None:
            self.pending[0][1].wait(0.5)
            self.collect()
        self.collect()
        self.pool.terminate()
        self.pool.join()
        self.pool = None


def _unmeasured(out: Path, step: int) -> list[tuple[dict[str, Any], Path]]:
    """Snapshots up to ``step`` without a strength line (a stopped sitting's), each with its
    step's seconds and games from the log."""
    measured = {record.get("step") for record in read_lines(out / STRENGTH)}
    logged = {record.get("step"): record for record in read_lines(out / LOG)}
    found = []
    for path in sorted((out / SNAPSHOTS).glob("step-*.npz")):
        number = int(path.stem.removeprefix("step-"))
        if number <= step and number not in measured:
            line: dict[str, Any] = logged.get(number) or {}
            facts: dict[str, Any] = {"step": number}
            facts.update({k: line[k] for k in ("seconds", "games") if k in line})
            found.append((facts, path))
    return found


# ----- the run --------------------------------------------------------------------------------


def train(
    config: TrainConfig,
    out: str | Path,
    *,
    resume: bool = True,
    progress: Callable[[int, int, dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Train (or resume training in ``out``) and keep ``out``'s checkpoint, model and logs.

    ``out`` gets ``checkpoint.npz`` and ``config.json``, ``model.npz`` (what
    ``boneyard.ai.network`` loads), ``best.npz`` (the network of the run's best evaluation
    against random), ``log.jsonl`` (one line a step: losses, games, seconds, the sitting; at
    each evaluation ``score_vs_random`` and its interval) and, with ``hard_every``,
    ``snapshots/`` and ``strength.jsonl``. ``progress(step, steps, line)`` is called after each
    step. Returns the last log line; a run stopped by a signal has ``"stopped"`` (the signal's
    name) in it."""
    run = _Run(config, Path(out), resume)
    return run.go(progress)


class _Run:
    """One sitting of a run: what it resumed from, and its steps."""

    def __init__(self, config: TrainConfig, out: Path, resume: bool) -> None:
        out.mkdir(parents=True, exist_ok=True)
        saved = saved_progress(out) if resume else None
        if saved is not None:
            kept = {name: getattr(config, name) for name in RUN_SETTINGS}
            known = {field.name for field in dataclasses.fields(TrainConfig)}
            earlier = {k: v for k, v in saved["config"].items() if k in known}
            config = TrainConfig(**{**earlier, **kept})
        self.config, self.out = config, out
        self.model = Model(config)
        optimizer = optax.adam(config.learning_rate)
        self.root = jax.random.PRNGKey(config.seed)
        self.params = self.model.init(jax.random.fold_in(self.root, 0))
        self.opt_state = optimizer.init(self.params)
        self.done: dict[str, Any] = {
            "games": 0,
            "seconds": 0.0,
            "sitting": 0,
            "best": -1.0,
            "positions": 0,
        }
        self.step = 0
        if saved is not None:
            self.params, self.opt_state, document = load_checkpoint(
                out, self.params, self.opt_state
            )
            self.done.update({key: document[key] for key in self.done if key in document})
            self.step = int(document["step"])
        else:  # a fresh run: the records of one that was here go with it
            for name in (LOG, STRENGTH, CHECKPOINT, STATE_FILE, EVALUATION):
                (out / name).unlink(missing_ok=True)
            for snapshot in (out / SNAPSHOTS).glob("step-*.npz"):
                snapshot.unlink()
        for name in (LOG, STRENGTH):
            _drop_after(out / name, self.step)
        self.done["sitting"] = int(self.done["sitting"]) + 1
        self.update = make_update(self.model, optimizer)
        self.recent: collections.deque[list[Any]] = collections.deque(maxlen=config.window)
        self.made_by = provenance()
        self.started = time.perf_counter()
        minutes = config.minutes
        self.deadline = self.started + 60.0 * minutes if minutes is not None else math.inf
        self.worker = _StrengthWorker(config, out)

    def seconds(self) -> float:
        return float(self.done["seconds"]) + time.perf_counter() - self.started

    def trained(self) -> dict[str, Any]:
        return _trained(self.config, self.step, self.done["games"], self.seconds())

    def finished(self) -> bool:
        return self.config.steps is not None and self.step >= self.config.steps

    def more(self) -> bool:
        steps = self.config.steps
        return (steps is None or self.step < steps) and time.perf_counter() < self.deadline

    def go(self, progress: Callable[[int, int, dict[str, Any]], None] | None) -> dict[str, Any]:
        config = self.config
        line: dict[str, Any] = {}
        with _stopping_on_signals() as stop:
            try:
                if config.hard_every:
                    for facts, path in _unmeasured(self.out, self.step):
                        self.worker.submit(path, facts)
                while self.more() and stop.signal is None:
                    line = self.one_step()
                    if progress is not None:
                        progress(self.step, config.steps or 0, line)
                if stop.signal is not None:
                    line = {**line, "stopped": stop.signal}
            finally:
                self.checkpoint()
                config_of_model = self.model.inference_config(self.trained())
                save_model(self.out / MODEL, self.params, config_of_model, self.made_by)
                # the run's last step: its measurements are its result; a sitting ended
                # by its minutes leaves them to the next one
                self.worker.close(wait=self.finished(), stop=stop)
            if self.finished() and stop.signal is None and config.held_out_games:
                line = {**line, "held_out": self.held_out()}
        return line

    def one_step(self) -> dict[str, Any]:
        config = self.config
        seed = int(
            jax.random.randint(
                jax.random.fold_in(jax.random.fold_in(self.root, 2), self.step), (), 0, 2**31 - 1
            )
        )
        positions, games = self_play(self.model, self.params, seed)
        self.recent.append(positions)
        learned = [position for step in self.recent for position in step]
        batch = batch_arrays(learned, self.model.num_players)
        self.params, self.opt_state, losses = self.update(
            self.params, self.opt_state, {k: jnp.asarray(v) for k, v in batch.items()}
        )
        self.step += 1
        self.done["games"] = int(self.done["games"]) + int(games)
        self.done["positions"] = int(self.done.get("positions", 0)) + len(positions)
        line = _step_line(config, self.step, self.done, self.seconds(), losses)
        line["learned_positions"] = len(learned)
        if config.eval_every and (self.step % config.eval_every == 0 or not self.more()):
            line.update(self.evaluate())
        with (self.out / LOG).open("a") as log:
            log.write(json.dumps(line) + "\n")
        if config.hard_every and self.step % config.hard_every == 0:
            snapshot = self.out / SNAPSHOTS / f"step-{self.step:06d}.npz"
            snapshot.parent.mkdir(exist_ok=True)
            config_of_model = self.model.inference_config(self.trained())
            save_model(snapshot, self.params, config_of_model, self.made_by)
            self.worker.submit(snapshot, {k: line[k] for k in ("step", "seconds", "games")})
        self.worker.collect()
        if config.checkpoint_every and self.step % config.checkpoint_every == 0:
            self.checkpoint()
        return line

    def evaluate(self) -> dict[str, Any]:
        """The most likely move against random on the selection games; the best network so
        far kept in ``best.npz``."""
        games = self.config.eval_games
        network = self.model.network(self.params)
        score, games = evaluate_network(network, self.model.game, games, SELECTION_SEEDS)
        low, high = wilson_interval(score * games, games)
        if score >= float(self.done["best"]):
            # self-play can collapse into a degenerate line: keep the best network too
            self.done["best"] = score
            facts = {**self.trained(), "score": score, "selection_seeds": SELECTION_SEEDS}
            config_of_model = self.model.inference_config(facts)
            save_model(self.out / BEST, self.params, config_of_model, self.made_by)
        return {
            "score_vs_random": round(score, 4),
            "interval": [round(low, 4), round(high, 4)],
            "eval_games": games,
        }

    def held_out(self) -> dict[str, Any]:
        """``best.npz`` (or the last network) and an untrained one on the held-out games,
        written to ``evaluation.json``."""
        best = self.out / BEST if (self.out / BEST).exists() else self.out / MODEL
        untrained = self.model.network(self.model.init(jax.random.fold_in(self.root, 0)))
        report = held_out_report(
            Network.load(best), untrained, self.model.game, self.config.held_out_games
        )
        report["model"] = best.name
        _replace_text(self.out / EVALUATION, json.dumps(report, indent=2) + "\n")
        return report

    def checkpoint(self) -> None:
        progress = {**self.done, "step": self.step, "seconds": round(self.seconds(), 2)}
        save_checkpoint(self.out, self.params, self.opt_state, self.config, progress)


def _step_line(
    config: TrainConfig, step: int, done: dict[str, Any], seconds: float, losses: Any
) -> dict[str, Any]:
    loss, policy_loss, value_loss = (float(x) for x in losses)
    return {
        "step": step,
        "sitting": done["sitting"],
        "seconds": round(seconds, 2),
        "games": done["games"],
        "positions": done.get("positions", 0),
        "loss": round(loss, 5),
        "policy_loss": round(policy_loss, 5),
        "value_loss": round(value_loss, 5),
    }


def _trained(config: TrainConfig, step: int, games: Any, seconds: float) -> dict[str, Any]:
    """What a model file records of its training."""
    return {
        "step": step,
        "games": int(games),
        "seconds": round(seconds, 2),
        "batch": config.batch,
        "simulations": config.simulations,
        "engine": config.engine,
        "search": config.search,
        "seed": config.seed,
    }


def held_out_report(
    network: Network,
    untrained: Network,
    game: Any,
    games: int,
    first_seed: int = HELD_OUT_SEEDS,
    *,
    against_untrained: bool = False,
) -> dict[str, Any]:
    """``network`` and ``untrained`` (its shapes, no training) against random on the same
    ``games`` held-out games (and, with ``against_untrained``, ``network`` against
    ``untrained`` in the other seats, after ``MATCH_OPENING`` random moves), each score with
    its 95% Wilson interval."""
    report: dict[str, Any] = {"games": games, "first_seed": first_seed, "opponent": "random"}
    pairs: list[tuple[str, Network, Network | None, int]] = [
        ("score", network, None, 0),
        ("untrained", untrained, None, 0),
    ]
    if against_untrained:
        pairs.append(("against_untrained", network, untrained, MATCH_OPENING))
    for name, measured, opponent, opening in pairs:
        score, played = evaluate_network(
            measured, game, games, first_seed, opponent=opponent, opening=opening
        )
        low, high = wilson_interval(score * played, played)
        report[name] = {"score": round(score, 4), "interval": [round(low, 4), round(high, 4)]}
    return report


def evaluate_model(path: str | Path, games: int = 200, seed: int = 0) -> dict[str, Any]:
    """A model file's held-out report (``held_out_report``, the untrained network of its
    shapes seeded ``seed``, and the model against it), on the native engine of its game."""
    from boneyard.ai.training.selfplay import init_params, rules_game

    network = Network.load(path)
    config = network.config
    params = config.get("params", {})
    game = rules_game(network.game_name, params)
    untrained_params = init_params(
        jax.random.PRNGKey(seed),
        int(network.weights[0][0].shape[0]),
        int(config["hidden"]),
        int(config["layers"]),
        sum(network.head_sizes),
        network.value_outputs,
    )
    weights = {name: np.asarray(value, np.float32) for name, value in untrained_params.items()}
    untrained = Network(weights, config)
    report = held_out_report(network, untrained, game, games, against_untrained=True)
    report["model"] = str(path)
    return report
