"""``boneyard arena GAME BOT_A BOT_B``: bots play each other; wins, draws, losses, Elo.

A bot is a level (a number on the game's scale, or easy, medium, hard), a bot name (random,
greedy, mcts, ismcts, alphabeta) or either with options: ``mcts:iterations=500,rollout_depth=5``.
"""

from __future__ import annotations

import math
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from boneyard.ai.arena import BACKENDS, ArenaResult, round_robin
from boneyard.cli.common import GAME_NAME
from boneyard.core.parameters import parse_assignments


def _print_result(console: Console, result: ArenaResult) -> None:
    table = Table(
        title=f"{result.game}: {result.games_per_pair} games a pairing, seed {result.seed}",
        caption="W/D/L: A's wins, draws, losses; score counts draws half",
    )
    for column in ("A", "B", "games", "W", "D", "L", "A score", "95% CI", "Elo A-B"):
        table.add_column(column, justify="right" if column not in ("A", "B") else "left")
    for pair in result.pairs:
        low, high = pair.interval
        elo = pair.elo
        table.add_row(
            pair.bot_a,
            pair.bot_b,
            str(pair.games),
            str(pair.wins),
            str(pair.draws),
            str(pair.losses),
            f"{pair.score:.3f}",
            f"{low:.3f}-{high:.3f}",
            f"{elo:+.0f}" if math.isfinite(elo) else ("+inf" if elo > 0 else "-inf"),
        )
    console.print(table)
    if result.elo:
        ratings = Table(title="Elo (mean 0; one virtual draw a pairing)")
        ratings.add_column("bot")
        ratings.add_column("Elo", justify="right")
        for bot, rating in sorted(result.elo.items(), key=lambda item: -item[1]):
            ratings.add_row(bot, f"{rating:+.0f}")
        console.print(ratings)
    console.print(f"{sum(p.games for p in result.pairs)} games in {result.seconds:.1f} s")


@click.command()
@click.argument("game", type=GAME_NAME)
@click.argument("bots", nargs=-1)
@click.option("-n", "--games", default=200, show_default=True, help="Games per pairing.")
@click.option(
    "--round-robin", "round_robin_bots", default=None, help="Bots a,b,c: every pair plays."
)
@click.option("--workers", default=1, show_default=True, help="Worker processes (local backend).")
@click.option("--backend", type=click.Choice(BACKENDS), default="local", show_default=True)
@click.option("--ray-address", default=None, help="An existing Ray cluster (default: start one).")
@click.option("--seed", default=0, show_default=True, help="Seeds every game's chance and bots.")
@click.option("--time-limit", type=float, default=None, help="Seconds a move for every bot.")
@click.option("--json", "json_path", default=None, help="Write the results as JSON here.")
@click.option("--csv", "csv_path", default=None, help="Write one CSV row per game here.")
@click.option("-p", "--param", "params", multiple=True, help="A game parameter, name=value.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def arena(
    game: str,
    bots: tuple[str, ...],
    games: int,
    round_robin_bots: str | None,
    workers: int,
    backend: str,
    ray_address: str | None,
    seed: int,
    time_limit: float | None,
    json_path: str | None,
    csv_path: str | None,
    params: tuple[str, ...],
    quiet: bool,
) -> None:
    """Play BOTS against each other at GAME, seats alternating, and report the results.

    Two bots: `boneyard arena obonto hard random -n 200`. More: `--round-robin easy,medium,hard`
    (every pair plays; an Elo table follows).
    """
    if round_robin_bots:
        if bots:
            raise click.UsageError("give the bots either as arguments or with --round-robin")
        names = [name.strip() for name in round_robin_bots.split(",") if name.strip()]
    else:
        names = list(bots)
        if len(names) != 2:
            raise click.UsageError(
                f"give two bots (BOT_A BOT_B), or --round-robin a,b,c; got {len(names)}"
            )
    console = Console()
    options: dict[str, Any] = {
        "games": games,
        "seed": seed,
        "time_limit": time_limit,
        "workers": workers,
        "backend": backend,
        "ray_address": ray_address,
    }
    try:
        values = parse_assignments(params)
        if quiet:
            result = round_robin(game, names, params=values, **options)
        else:
            with Progress(
                TextColumn(f"[bold]{game}[/] {' vs '.join(names)}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=console,
                transient=True,
            ) as bar:
                task = bar.add_task("games", total=None)

                def update(done: int, total: int) -> None:
                    bar.update(task, completed=done, total=total)

                result = round_robin(game, names, params=values, progress=update, **options)
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    _print_result(console, result)
    if json_path:
        result.write_json(json_path)
        console.print(f"results written to {json_path}")
    if csv_path:
        result.write_csv(csv_path)
        console.print(f"games written to {csv_path}")
