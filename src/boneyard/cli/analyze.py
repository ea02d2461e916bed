"""``boneyard analyze GAME``: what a game is like, from self-play (``boneyard.ai.study``).

``boneyard analyze GAME [--levels random,greedy] [-n 2000] [--skill-games 200] [--players 2,3]
[-p name=value] [--engine python|native] [--backend local|ray] [--workers N] [--out DIR]``
plays every level against itself and each level against the one before it, and writes
``<GAME>.json`` (first player's wins with a 95% interval, draws, lengths, each seat's wins, the
stronger level's wins) and, with the ``analysis`` extra (matplotlib), PNG plots.
``--engine native`` plays on the native engine: the same random games from the same seed, and
``native_greedy`` is greedy in Rust.

``boneyard analyze oyno_puzzle --bones N [--size S] [--out DIR]``: every legal set-up of the
puzzle solved instead. Writes ``oyno-<S>x<S>-<N>.json`` (keys size, bones, setups, solvable,
gods_number, distribution, and positions / unsolvable) and a PNG bar chart.
"""

from __future__ import annotations

import json
import shlex
import time
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from boneyard.ai.arena import BACKENDS, ENGINES
from boneyard.cli.common import GAME_NAME, fail_on_bad_input
from boneyard.core.errors import InvalidParameterError
from boneyard.core.parameters import parse_assignments
from boneyard.core.registry import game_specs


def _counts(text: str, wanted: int, what: str) -> tuple[int, ...]:
    """``"2000"`` or ``"2000,2000,100"``: one count for all, or one each of ``wanted``."""
    try:
        counts = tuple(int(item) for item in text.split(",") if item.strip())
    except ValueError:
        raise click.UsageError(f"bad {what} {text!r}: write a number, or numbers a,b,c") from None
    if len(counts) == 1:
        return counts * wanted
    if len(counts) != wanted:
        raise click.UsageError(
            f"bad {what} {text!r}: give one number, or {wanted} (one each), not {len(counts)}"
        )
    return counts


def _player_counts(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(item) for item in text.split(",") if item.strip())
    except ValueError:
        raise click.UsageError(f"bad --players {text!r}: write numbers, such as 2,3,4") from None


@click.command()
@click.argument("game", type=GAME_NAME)
@click.option(
    "--levels",
    default="random,greedy",
    show_default=True,
    help="Levels or bot names, weaker first, comma-separated (no bot options).",
)
@click.option(
    "-n",
    "--games",
    default="2000",
    show_default=True,
    help="Self-play games at each level: one number, or one per level (a,b,c).",
)
@click.option(
    "--skill-games",
    default="200",
    show_default=True,
    help="Games of each level against the one before it: one number, or one per pair.",
)
@click.option("--players", default=None, help="Player counts to study, e.g. 2,3,4,5,6.")
@click.option("-p", "--param", "params", multiple=True, help="A game parameter, name=value.")
@click.option("--workers", default=1, show_default=True, help="Worker processes (local backend).")
@click.option("--backend", type=click.Choice(BACKENDS), default="local", show_default=True)
@click.option("--ray-address", default=None, help="An existing Ray cluster (default: start one).")
@click.option("--seed", default=0, show_default=True, help="Seeds every game's chance and bots.")
@click.option("--time-limit", type=float, default=None, help="Seconds a move for every bot.")
@click.option(
    "--engine",
    type=click.Choice(ENGINES),
    default="python",
    show_default=True,
    help="The rules the games run on: native plays the same random games faster "
    "(use native_greedy there for greedy).",
)
@click.option("--name", default=None, help="File name stem of the results (default: GAME).")
@click.option("--bones", type=int, default=None, help="oyno_puzzle: solve every set-up instead.")
@click.option("--size", type=int, default=5, show_default=True, help="With --bones: board size.")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("."),
    show_default=True,
    help="Folder for the JSON results and the PNG charts.",
)
@click.option("--quiet", is_flag=True, help="No progress bar.")
@fail_on_bad_input
def analyze(
    game: str,
    levels: str,
    games: str,
    skill_games: str,
    players: str | None,
    params: tuple[str, ...],
    workers: int,
    backend: str,
    ray_address: str | None,
    seed: int,
    time_limit: float | None,
    engine: str,
    name: str | None,
    bones: int | None,
    size: int,
    out: Path,
    quiet: bool,
) -> None:
    """What GAME is like: self-play at each level (first player's wins, draws, lengths, wins
    by seat) and each level against the one before it (how much skill decides).

    `boneyard analyze bones --levels random,greedy -n 2000 --skill-games 200 --out docs/data`.
    With `--bones N`, oyno_puzzle is solved instead: every legal set-up of N bones.
    """
    if bones is not None:
        analysed = [spec.name for spec in game_specs() if spec.solver and spec.solver.analysis]
        if game not in analysed:
            raise click.UsageError(
                f"--bones is for {', '.join(analysed)} only (its solver analysis)"
            )
        _puzzle_analysis(bones, size, out)
        return
    from boneyard.ai.study import StudyPlan, commit, run_study, write_study

    names = tuple(item.strip() for item in levels.split(",") if item.strip())
    made_at = commit()  # before the games: the code that plays them
    try:
        plan = StudyPlan(
            game=game,
            levels=names,
            games=_counts(games, len(names), "game count"),
            skill_games=_counts(skill_games, len(names) - 1, "skill game count")
            if len(names) > 1
            else (),
            params=parse_assignments(params),
            player_counts=_player_counts(players) if players else (),
            seed=seed,
            time_limit=time_limit,
            engine=engine,
        )
        console = Console(highlight=False)
        if quiet:
            summary = run_study(plan, workers=workers, backend=backend, ray_address=ray_address)
        else:
            with Progress(
                TextColumn(f"[bold]{game}[/] {', '.join(names)}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=console,
            ) as bar:
                task = bar.add_task("games", total=None)

                def update(done: int, total: int) -> None:
                    bar.update(task, completed=done, total=total)

                summary = run_study(
                    plan,
                    workers=workers,
                    backend=backend,
                    ray_address=ray_address,
                    progress=update,
                )
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    # the command as a reproducible line (not sys.argv: workers and backend change no result)
    words = ["boneyard", "analyze", game, "--levels", ",".join(names), "-n", games]
    words += ["--skill-games", skill_games] if len(names) > 1 else []
    words += ["--players", players] if players else []
    for assignment in params:
        words += ["-p", assignment]
    words += ["--seed", str(seed)]
    words += ["--time-limit", str(time_limit)] if time_limit is not None else []
    words += ["--engine", engine] if engine != "python" else []
    words += ["--name", name] if name else []
    summary["command"] = shlex.join(words)
    summary["commit"] = made_at
    paths = write_study(summary, out, name or game)
    _print_study(console, summary)
    console.print("wrote " + ", ".join(str(path) for path in paths))


def _print_study(console: Console, summary: dict[str, Any]) -> None:
    table = Table(title=f"{summary['game']}: self-play", caption="95% intervals in brackets")
    for column in ("level", "players", "games", "first player wins", "draws", "median turns"):
        table.add_column(column, justify="left" if column == "level" else "right")
    for entry in summary["self_play"]:
        first = entry.get("first_player_wins") or entry.get("solved")
        draws = entry.get("draws")
        table.add_row(
            entry["level"],
            str(entry["players"]),
            f"{entry['games']:,}",
            _percent(first) + (" (solved)" if "solved" in entry else ""),
            _percent(draws) if draws else "-",
            f"{entry['length'].get('median', 0):g}",
        )
    console.print(table)
    if summary["skill"]:
        skill = Table(title="stronger against weaker, seats alternating")
        for column in ("stronger", "weaker", "players", "games", "W", "D", "L", "stronger wins"):
            skill.add_column(
                column, justify="left" if column in ("stronger", "weaker") else "right"
            )
        for entry in summary["skill"]:
            skill.add_row(
                entry["bot_a"],
                entry["bot_b"],
                str(entry["players"]),
                str(entry["games"]),
                str(entry["wins"]),
                str(entry["draws"]),
                str(entry["losses"]),
                _percent(entry["win_rate"]),
            )
        console.print(skill)


def _percent(rate: dict[str, Any] | None) -> str:
    if not rate:
        return "-"
    low, high = rate["interval_95"]
    return f"{rate['rate']:.1%} ({low:.1%}-{high:.1%})"


def _puzzle_analysis(bones: int, size: int, out: Path) -> None:
    """Solve every legal set-up of the puzzle: solvable ones, God's number, lengths."""
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
    shown = {k: summary[k] for k in oyno_analysis.HEADLINE}
    console.print(json.dumps(shown))
    console.print(f"distribution: {json.dumps(summary['distribution'])}")
    console.print(
        f"wrote {json_path}" + (f" and {png_path}" if png_path else " (no matplotlib: no chart)")
    )
