"""``boneyard train GAME``: self-play training of a policy-value network (the ``train`` extra).

The run writes ``--out``: ``checkpoint.npz`` and ``config.json`` (every ``--checkpoint-every``
steps, at the end and on Ctrl-C or SIGTERM; a later run with the same ``--out`` resumes from
them, up to ``--steps`` in all), ``model.npz`` (the network that the ``expert`` bot loads:
``make_bot("expert", game, seat, model="OUT/model.npz")``), ``log.jsonl`` (losses each step;
the network's most likely move against random every ``--eval-every`` steps, on the selection
games ``best.npz`` is picked on), ``evaluation.json`` (``best.npz`` and an untrained network
on ``--held-out-games`` held-out games, with intervals, once the last step is done), with
``--hard-every`` ``strength.jsonl`` (the expert against ``hard``, measured in a worker), and
``progress.png`` (both scores over time, where matplotlib is installed). See docs/ai.md,
"Training and the expert".
"""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from boneyard.cli.common import GAME_NAME
from boneyard.core.parameters import parse_assignments


@click.command()
@click.argument("game", type=GAME_NAME)
@click.option("-p", "--param", "params", multiple=True, help="A game parameter, name=value.")
@click.option("--seed", default=0, show_default=True)
@click.option("--steps", default=100, show_default=True, help="Training steps in all.")
@click.option("--minutes", type=float, default=None, help="Minutes of this sitting.")
@click.option("--batch", default=8, show_default=True, help="Self-play games a step.")
@click.option("--simulations", default=32, show_default=True, help="Search iterations a move.")
@click.option("--exploration", default=1.5, show_default=True, help="PUCT's exploration c.")
@click.option(
    "--sample-moves",
    type=click.IntRange(min=0),
    default=30,
    show_default=True,
    help="Moves at the start of a game drawn in proportion to the search's visits.",
)
@click.option(
    "--max-moves",
    type=click.IntRange(min=1),
    default=2000,
    show_default=True,
    help="Moves after which a self-play game stops (it then teaches its policies only).",
)
@click.option(
    "--exact-chance",
    type=click.IntRange(min=0),
    default=12,
    show_default=True,
    help="Ways through chance up to which the search values an action's first visit exactly.",
)
@click.option(
    "--engine",
    type=click.Choice(["native", "python"]),
    default="native",
    show_default=True,
    help="Self-play on the native engine (where the game has one) or the Python rules.",
)
@click.option(
    "--search",
    type=click.Choice(["native", "python"]),
    default="native",
    show_default=True,
    help="The expert's search in Rust, the games of a step side by side (on the native engine), "
    "or the Python expert bot's.",
)
@click.option(
    "--threads",
    type=click.IntRange(min=1, max=256),
    default=1,
    show_default=True,
    help="Threads the native search splits a step's games over (the same games for any number).",
)
@click.option("--hidden", default=128, show_default=True, help="Units of each hidden layer.")
@click.option("--layers", default=2, show_default=True, help="Hidden layers.")
@click.option("--learning-rate", default=1e-3, show_default=True)
@click.option("--epochs", default=4, show_default=True, help="Adam steps on each step's games.")
@click.option(
    "--window",
    type=click.IntRange(min=1),
    default=4,
    show_default=True,
    help="Steps whose self-play positions each update learns from (this one and those before).",
)
@click.option("--eval-every", default=20, show_default=True, help="Steps between evaluations.")
@click.option(
    "--eval-games", default=64, show_default=True, help="Games an evaluation (best.npz's pick)."
)
@click.option(
    "--held-out-games",
    type=click.IntRange(min=0),
    default=200,
    show_default=True,
    help="Held-out games scoring the finished run's best network and an untrained one.",
)
@click.option(
    "--checkpoint-every", default=10, show_default=True, help="Steps between checkpoints."
)
@click.option(
    "--hard-every",
    default=0,
    show_default=True,
    help="Steps between measurements against hard (in a worker process); 0: none.",
)
@click.option("--hard-games", default=10, show_default=True, help="Games a measurement.")
@click.option(
    "--hard-time", default=0.25, show_default=True, help="Seconds a move in a measurement."
)
@click.option("--out", "out", default="out/train", show_default=True, help="Output folder.")
@click.option("--fresh", is_flag=True, help="Do not resume from --out's checkpoint.")
@click.option(
    "--evaluate",
    "evaluate",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    help="Train nothing: score this model file on --held-out-games held-out games "
    "(against random, beside an untrained network, and against that network).",
)
@click.option("--quiet", is_flag=True, help="No progress bar.")
def train(
    game: str,
    params: tuple[str, ...],
    out: str,
    fresh: bool,
    quiet: bool,
    evaluate: str | None,
    **options: Any,
) -> None:
    """Train a network for GAME by self-play, the expert's search on its native engine."""
    try:
        from boneyard.ai.training import TrainConfig
        from boneyard.ai.training import train as run
        from boneyard.ai.training.selfplay import Model
    except ImportError as error:
        raise click.ClickException(str(error)) from None
    if evaluate is not None:
        _evaluate(game, evaluate, options["held_out_games"], options["seed"])
        return
    config = TrainConfig(game=game, params=parse_assignments(params), **options)
    try:  # a bad setting or parameter: its sentence, before any work
        Model(config)
    except (ValueError, TypeError) as error:
        raise click.ClickException(str(error)) from None
    from boneyard.ai.training.runs import CheckpointMismatch

    try:
        line = _run(run, config, out, fresh, quiet)
    except CheckpointMismatch as error:
        raise click.ClickException(str(error)) from None
    _plot(out, game)
    if "stopped" in line:
        click.echo(
            f"stopped by {line['stopped']} after step {line['step']}: checkpoint saved in {out}; "
            "the same command resumes it"
        )
        raise SystemExit(128 + signal.Signals[line["stopped"]].value)
    click.echo(f"{out}/model.npz after step {line.get('step', '?')}: {line}")


def _run(run: Any, config: Any, out: str, fresh: bool, quiet: bool) -> dict[str, Any]:
    """The run, with a progress bar unless ``quiet``; its last log line."""
    game = config.game
    if quiet:
        line = run(config, out, resume=not fresh)
    else:
        columns = (
            TextColumn(f"training {game}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.description}"),
        )
        with Progress(*columns) as bar:
            task = bar.add_task("", total=config.steps)

            def update(step: int, total: int, line: dict[str, Any]) -> None:
                text = f"loss {line['loss']:.3f}"
                if "score_vs_random" in line:
                    text += f"  vs random {line['score_vs_random']:.2f}"
                bar.update(task, completed=step, description=text)

            line = run(config, out, resume=not fresh, progress=update)
    return line


def _evaluate(game: str, path: str, games: int, seed: int) -> None:
    """Print a model file's held-out report as JSON."""
    import json

    from boneyard.ai.network import Network
    from boneyard.ai.training.runs import evaluate_model

    try:
        network = Network.load(path)
    except (OSError, ValueError, KeyError) as error:
        raise click.ClickException(f"{path} is not a model file: {error}") from None
    if network.game_name != game:
        raise click.ClickException(f"{path} plays {network.game_name}, not {game}")
    click.echo(json.dumps(evaluate_model(path, games, seed)))


def _plot(out: str, game: str) -> None:
    """``OUT/progress.png`` where matplotlib (the ``analysis`` extra) is installed."""
    try:
        from boneyard.ai.training_plot import plot_run
    except ImportError:
        return
    plot_run(out, Path(out) / "progress.png", title=f"{game}: training run {out}")
