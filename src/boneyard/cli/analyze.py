"""``boneyard analyze oyno_puzzle --bones N [--size S] [--out DIR]``: every legal set-up solved.

Writes ``oyno-<S>x<S>-<N>.json`` (keys size, bones, setups, solvable, gods_number, distribution,
and positions / unsolvable) and, with the ``analysis`` extra (matplotlib), a PNG bar chart.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from boneyard.cli.common import fail_on_bad_input
from boneyard.core.errors import InvalidParameterError

ANALYZABLE_GAMES = ("oyno_puzzle",)


@click.command()
@click.argument("game", type=click.Choice(ANALYZABLE_GAMES))
@click.option("--bones", type=int, required=True, help="Bones on the board.")
@click.option("--size", type=int, default=5, show_default=True, help="Board size (odd).")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("."),
    show_default=True,
    help="Folder for the JSON results and the PNG chart.",
)
@fail_on_bad_input
def analyze(game: str, bones: int, size: int, out: Path) -> None:
    """Solve every legal set-up of GAME: solvable ones, God's number, length distribution."""
    from boneyard.games.oyno.board import check_size
    from boneyard.solvers import oyno_analysis

    problem = check_size(size)
    if problem:
        raise InvalidParameterError(f"bad value {size} for --size: {problem}")
    resting = size * size - 1
    if not 1 <= bones <= resting - 1:
        raise InvalidParameterError(
            f"bad value {bones} for --bones: on {size}x{size} allowed is 1 to {resting - 1}"
        )
    positions = oyno_analysis.position_count(size, bones)
    if positions > oyno_analysis.MAX_POSITIONS:
        raise InvalidParameterError(
            f"{bones} bones on {size}x{size} have {positions:,} positions; this analysis "
            f"holds at most {oyno_analysis.MAX_POSITIONS:,} in memory"
        )
    console = Console(highlight=False)
    started = time.perf_counter()
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TextColumn("{task.completed:,}/{task.total:,} positions"),
        TimeElapsedColumn(),
        console=console,
        transient=False,
    ) as progress:
        task = progress.add_task(f"{size}x{size}, {bones} bones", total=positions)

        def report(stage: str, done: int, total: int) -> None:
            progress.update(
                task,
                completed=done,
                total=total,
                description=f"{size}x{size}, {bones} bones: {stage}",
            )

        summary = oyno_analysis.analyze(size, bones, report)
    summary["seconds"] = round(time.perf_counter() - started, 1)
    json_path, png_path = oyno_analysis.write_results(summary, out)
    shown = {k: summary[k] for k in ("size", "bones", "setups", "solvable", "gods_number")}
    console.print(json.dumps(shown))
    console.print(f"distribution: {json.dumps(summary['distribution'])}")
    console.print(
        f"wrote {json_path}" + (f" and {png_path}" if png_path else " (no matplotlib: no chart)")
    )
